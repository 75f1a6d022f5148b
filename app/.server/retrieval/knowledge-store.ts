import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { chatbots } from "../db/schema";
import type { Env } from "../env";
import { contentSliceIn, putContentStatements, qaPairCountIn, qaPairsIn, type ContentPart } from "../kb/document-text";
import type { QaPair } from "../kb/sources";
import { countChatbotChunks, deleteChatbotVectors, deleteSourceChunks, indexChunks } from "./indexing";
import { forgetChatbotStats, retrieve, type RetrieveOptions } from "./search";
import type { ChatbotRef, ChunkInput, RetrievalResult } from "./types";
import type { MovedChunk, MovedText, SourceChecksums } from "./knowledge-move";
import { createVectorStore } from "./vector-store";

// A chatbot's knowledge, wherever it lives (issue #20, ADR 034): D1's shared tables, or the
// chatbot's own KnowledgeShard object. Ingestion, the answer path, the inbox's suggestions, the
// knowledge page's test search and the shop sync go through this interface, so which store a
// chatbot uses is decided in one place (`chatbots.knowledge_store`). The shard runs the D1
// implementation below over its own storage, so both stores are one piece of code.

/** 'moving': on its way to the shard (knowledge-move.ts); D1 serves reads and writes until the switch. */
export type KnowledgeStoreKind = "d1" | "moving" | "shard";
/** Which of a source's chunks: all, those up to an id (an old generation), above one (a failed step's), or one page's. */
export type ChunkSelection = { all: true } | { upTo: number } | { above: number } | { url: string };
/** Retrieval options that can cross to the shard (no functions; whether the database is the chatbot's own is the store's to say). */
export type StoreRetrieveOptions = Omit<RetrieveOptions, "embeddingModel" | "ownDatabase">;
export type SourceOf = { sourceId: string; type: string };

export interface KnowledgeStore {
  readonly kind: "d1" | "shard";
  retrieve(query: string, opts?: StoreRetrieveOptions): Promise<RetrievalResult>;
  indexChunks(source: SourceOf, chunks: ChunkInput[]): Promise<{ chunkIds: number[] }>;
  deleteChunks(sourceId: string, which: ChunkSelection): Promise<{ deleted: number }>;
  /** The largest chunk id of a source (0 when it has none): ingestion's generation marks. */
  maxChunkId(sourceId: string): Promise<number>;
  countChunks(sourceId?: string): Promise<number>;
  /** How many of the chatbot's stored vectors another embedding model made (kb/reindex.ts). */
  countVectorsNotOf(model: string): Promise<number>;
  /** Before the chatbot is deleted: what its rows' cascade does not remove (vectors; a shard's whole storage). */
  dropAll(): Promise<void>;
  // A text or Q&A source's own content, in parts (kb/document-text.ts), kept beside the chunks
  // (ADR 075). In D1 it is written in one batch with the source's row (kb/sources.ts), not here.
  /** Stores a source's whole content, replacing what was stored for it. */
  putContent(source: SourceOf, parts: readonly ContentPart[]): Promise<void>;
  contentSlice(sourceId: string, offset: number, length: number): Promise<string | null>;
  qaPairCount(sourceId: string): Promise<number | "invalid" | null>;
  qaPairs(sourceId: string, offset: number, limit: number): Promise<QaPair[]>;
}

type StoreContext = Pick<ServiceContext, "env" | "db">;

/**
 * The chatbot's knowledge in D1 (`ctx.env.DB`) — or, run inside a shard, in the shard's storage
 * (`ownDatabase`: every chunk there is this chatbot's, see RetrieveOptions).
 */
export function d1KnowledgeStore(ctx: StoreContext, ref: ChatbotRef, where: { ownDatabase?: boolean } = {}): KnowledgeStore {
  const d1 = ctx.env.DB;
  const scope = "source_id = ? AND chatbot_id = ? AND org_id = ?";
  return {
    kind: "d1",
    // The store decides ownDatabase, whatever a caller's options hold.
    retrieve: (query, opts) => retrieve(ctx, ref, query, { ...opts, ownDatabase: where.ownDatabase === true }),
    indexChunks: (source, chunks) => indexChunks(ctx, { ...ref, sourceId: source.sourceId }, chunks),
    async deleteChunks(sourceId, which) {
      if ("all" in which) return deleteSourceChunks(ctx, { ...ref, sourceId });
      const [cond, bound] = "upTo" in which ? ["id <= ?", which.upTo] : "above" in which ? ["id > ?", which.above] : ["url = ?", which.url];
      const store = createVectorStore(ctx.env, ctx.db);
      let deleted = 0;
      for (;;) {
        const { results } = await d1
          .prepare(`SELECT id FROM chunks WHERE ${scope} AND ${cond} LIMIT 500`)
          .bind(sourceId, ref.chatbotId, ref.orgId, bound)
          .all<{ id: number }>();
        if (!results.length) break;
        const ids = results.map((r) => r.id);
        await store.remove(ids); // vectors first: Vectorize has no cascade
        for (let i = 0; i < ids.length; i += 90) {
          const part = ids.slice(i, i + 90);
          await d1
            .prepare(`DELETE FROM chunks WHERE id IN (${part.map(() => "?").join(",")})`)
            .bind(...part)
            .run();
        }
        deleted += ids.length;
      }
      if (deleted) forgetChatbotStats(ref.chatbotId);
      return { deleted };
    },
    async maxChunkId(sourceId) {
      const r = await d1.prepare(`SELECT max(id) AS m FROM chunks WHERE ${scope}`).bind(sourceId, ref.chatbotId, ref.orgId).first<{ m: number | null }>();
      return r?.m ?? 0;
    },
    async countChunks(sourceId) {
      if (sourceId === undefined) return countChatbotChunks(ctx, ref);
      const r = await d1.prepare(`SELECT count(*) AS n FROM chunks WHERE ${scope}`).bind(sourceId, ref.chatbotId, ref.orgId).first<{ n: number }>();
      return r?.n ?? 0;
    },
    async countVectorsNotOf(model) {
      const r = await d1
        .prepare(`SELECT count(*) AS n FROM chunk_vectors WHERE chatbot_id = ? AND model != ?`)
        .bind(ref.chatbotId, model)
        .first<{ n: number }>();
      return r?.n ?? 0;
    },
    dropAll: () => deleteChatbotVectors(ctx, ref),
    async putContent(source, parts) {
      await d1.batch([
        d1.prepare("DELETE FROM knowledge_source_contents WHERE source_id = ?").bind(source.sourceId),
        ...putContentStatements(d1, source.sourceId, parts),
      ]);
    },
    contentSlice: (sourceId, offset, length) => contentSliceIn(d1, sourceId, offset, length),
    qaPairCount: (sourceId) => qaPairCountIn(d1, sourceId),
    qaPairs: (sourceId, offset, limit) => qaPairsIn(d1, sourceId, offset, limit),
  };
}

/**
 * What a chatbot's KnowledgeShard object answers (workers/durable-objects/knowledge-shard.ts
 * implements it). Every call carries the chatbot's ref; the object serves only the chatbot it holds.
 */
export interface KnowledgeShardApi {
  retrieve(ref: ChatbotRef, query: string, opts?: StoreRetrieveOptions): Promise<RetrievalResult>;
  indexChunks(ref: ChatbotRef, source: SourceOf, chunks: ChunkInput[]): Promise<{ chunkIds: number[] }>;
  deleteChunks(ref: ChatbotRef, sourceId: string, which: ChunkSelection): Promise<{ deleted: number }>;
  maxChunkId(ref: ChatbotRef, sourceId: string): Promise<number>;
  countChunks(ref: ChatbotRef, sourceId?: string): Promise<number>;
  countVectorsNotOf(ref: ChatbotRef, model: string): Promise<number>;
  dropAll(ref: ChatbotRef): Promise<void>;
  putContent(ref: ChatbotRef, source: SourceOf, parts: readonly ContentPart[]): Promise<void>;
  contentSlice(ref: ChatbotRef, sourceId: string, offset: number, length: number): Promise<string | null>;
  qaPairCount(ref: ChatbotRef, sourceId: string): Promise<number | "invalid" | null>;
  qaPairs(ref: ChatbotRef, sourceId: string, offset: number, limit: number): Promise<QaPair[]>;
  // The move from D1 (knowledge-move.ts).
  importChunks(ref: ChatbotRef, rows: MovedChunk[]): Promise<{ imported: number }>;
  importTexts(ref: ChatbotRef, rows: MovedText[]): Promise<{ imported: number }>;
  checksums(ref: ChatbotRef): Promise<SourceChecksums>;
  textChecksums(ref: ChatbotRef): Promise<SourceChecksums>;
  forgetSource(ref: ChatbotRef, sourceId: string): Promise<void>;
  forgetAll(ref: ChatbotRef): Promise<void>;
}

/** The chatbot's shard object, named by its id. Only for callers that checked the permission (this module, the move). */
export const shardKnowledgeStub = (env: Pick<Env, "KNOWLEDGE_SHARD">, ref: ChatbotRef) =>
  env.KNOWLEDGE_SHARD.get(env.KNOWLEDGE_SHARD.idFromName(ref.chatbotId)) as unknown as KnowledgeShardApi;

/** The chatbot's own shard. Reach it only through `knowledgeStore` after the permission check. */
export function shardKnowledgeStore(env: Pick<Env, "KNOWLEDGE_SHARD">, ref: ChatbotRef): KnowledgeStore {
  const shard = shardKnowledgeStub(env, ref);
  return {
    kind: "shard",
    retrieve: (query, opts = {}) => shard.retrieve(ref, query, opts),
    indexChunks: (source, chunks) => shard.indexChunks(ref, source, chunks),
    deleteChunks: (sourceId, which) => shard.deleteChunks(ref, sourceId, which),
    maxChunkId: (sourceId) => shard.maxChunkId(ref, sourceId),
    countChunks: (sourceId) => shard.countChunks(ref, sourceId),
    countVectorsNotOf: (model) => shard.countVectorsNotOf(ref, model),
    dropAll: () => shard.dropAll(ref),
    putContent: (source, parts) => shard.putContent(ref, source, parts),
    contentSlice: (sourceId, offset, length) => shard.contentSlice(ref, sourceId, offset, length),
    qaPairCount: (sourceId) => shard.qaPairCount(ref, sourceId),
    qaPairs: (sourceId, offset, limit) => shard.qaPairs(ref, sourceId, offset, limit),
  };
}

/** Where the chatbot's knowledge is now, as its row says ('d1' for a chatbot not found: nothing to reach). */
export async function knowledgeStoreKind(ctx: Pick<StoreContext, "db">, ref: ChatbotRef): Promise<KnowledgeStoreKind> {
  return (
    (
      await ctx.db
        .select({ k: chatbots.knowledgeStore })
        .from(chatbots)
        .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
        .get()
    )?.k ?? "d1"
  );
}

/** The store the chatbot's row names; `kind` when the caller already holds the row. */
export async function knowledgeStore(ctx: StoreContext, ref: ChatbotRef, kind?: KnowledgeStoreKind): Promise<KnowledgeStore> {
  const where = kind ?? (await knowledgeStoreKind(ctx, ref));
  if (where === "shard") return shardKnowledgeStore(ctx.env, ref);
  const d1 = d1KnowledgeStore(ctx, ref);
  if (where === "d1") return d1;
  // Moving: D1 serves; deleting the chatbot also drops the shard's partial copy.
  return {
    ...d1,
    async dropAll() {
      await d1.dropAll();
      await shardKnowledgeStub(ctx.env, ref).forgetAll(ref);
    },
  };
}
