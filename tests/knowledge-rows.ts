// Test access to a chatbot's knowledge wherever its row says it lives (ADR 034, ADR 075): D1's
// tables, or its KnowledgeShard's storage, which has the same tables. Tests seed chunks and read
// chunks and source texts through these helpers, so the same test runs with knowledge in D1 (the
// default run) and in the shard (`npm run test:knowledge-shard`, TEST_KNOWLEDGE_STORE=shard).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "~/.server/env";
import { and, eq } from "drizzle-orm";
import { chatbots, knowledgeSources } from "~/.server/db/schema";
import { knowledgeStore, shardKnowledgeStub } from "~/.server/retrieval/knowledge-store";
import type { ChatbotRef, ChunkInput } from "~/.server/retrieval/types";
import { db, testKnowledgeStore } from "./factories";

const storeCtx = () => ({ env: env as unknown as Env, db });

/** Indexes `chunks` for the source through the chatbot's own store, as ingestion does. */
export async function seedChunks(ref: ChatbotRef, sourceId: string, chunks: ChunkInput[]): Promise<{ chunkIds: number[] }> {
  return (await knowledgeStore(storeCtx(), ref)).indexChunks({ sourceId, type: "text" }, chunks);
}

/** Where the chatbot's knowledge is: its row's store, or for a deleted chatbot the run's ('gone'). */
async function storeOf(ref: ChatbotRef): Promise<"d1" | "shard" | "gone"> {
  const row = await db
    .select({ k: chatbots.knowledgeStore })
    .from(chatbots)
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .get();
  if (!row) return testKnowledgeStore === "shard" ? "gone" : "d1";
  return row.k === "shard" ? "shard" : "d1";
}

/**
 * Rows of `query` (SQLite, `?` parameters) over the chatbot's knowledge tables: D1's, or its shard's
 * when the chatbot's knowledge is there. The query must name the chatbot or source itself. A deleted
 * chatbot's shard has no tables left at all: its rows are none.
 */
export async function knowledgeRows<T extends Record<string, SqlStorageValue>>(ref: ChatbotRef, query: string, ...params: unknown[]): Promise<T[]> {
  const where = await storeOf(ref);
  if (where === "d1")
    return (
      await env.DB.prepare(query)
        .bind(...params)
        .all<T>()
    ).results;
  const stub = shardKnowledgeStub(env as unknown as Env, ref) as unknown as DurableObjectStub;
  return runInDurableObject(stub, async (_o, state: DurableObjectState) => {
    if (where === "gone" && !state.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunks'").toArray().length) return [];
    return state.storage.sql.exec<T>(query, ...params).toArray();
  });
}

/** A text or Q&A source's stored content, whole (null when none is stored). */
export async function sourceText(ref: ChatbotRef, sourceId: string): Promise<string | null> {
  const parts = await knowledgeRows<{ content: string }>(ref, "SELECT content FROM knowledge_source_contents WHERE source_id = ? ORDER BY start", sourceId);
  return parts.length ? parts.map((p) => p.content).join("") : null;
}

export type ChunkRow = { id: number; position: number; title: string; heading: string | null; url: string | null; text: string };

/** The chatbot a source belongs to, from its row in D1 (null once the source is deleted). */
export async function chatbotOfSource(sourceId: string): Promise<ChatbotRef | null> {
  const row = await db
    .select({ orgId: knowledgeSources.orgId, chatbotId: knowledgeSources.chatbotId })
    .from(knowledgeSources)
    .where(eq(knowledgeSources.id, sourceId))
    .get();
  return row ?? null;
}

/** A source's chunks in position order, from its chatbot's store (`ref` for a source that may be deleted). */
export async function chunkRows(sourceId: string, ref?: ChatbotRef): Promise<ChunkRow[]> {
  const of = ref ?? (await chatbotOfSource(sourceId));
  if (!of) throw new Error(`chunkRows: source ${sourceId} is not stored; pass its chatbot`);
  return knowledgeRows<ChunkRow>(of, "SELECT id, position, title, heading, url, text FROM chunks WHERE source_id = ? ORDER BY position", sourceId);
}

/** How many of `ids` (chunk ids) have an offline vector in the chatbot's store. */
export async function vectorCount(ref: ChatbotRef, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const [r] = await knowledgeRows<{ n: number }>(ref, `SELECT count(*) AS n FROM chunk_vectors WHERE chunk_id IN (${ids.map(() => "?").join(",")})`, ...ids);
  return r?.n ?? 0;
}
