import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { embedTexts, getEmbeddingModel } from "../ai/embeddings";
import type { ServiceContext } from "../context";
import { serializeChunkFeatures } from "./chunk-features";
import { forgetChatbotStats } from "./search";
import type { ChatbotRef, ChunkInput } from "./types";
import { createVectorStore } from "./vector-store";

export type IndexContext = Pick<ServiceContext, "env" | "db">;
type SourceRef = ChatbotRef & { sourceId: string };

const CHUNK_COLUMNS = 9; // source_id, chatbot_id, org_id, position, title, heading, url, text, features
const ROWS_PER_INSERT = Math.floor(100 / CHUNK_COLUMNS); // D1: ≤ 100 bound parameters per statement
const STATEMENTS_PER_BATCH = 20; // keeps a batch well under D1's per-request limits with ~1 KB chunks
const EMBED_BATCH = 256;

/** The text a chunk is embedded as: where it sits (title, heading) and what it says. */
export const embeddingText = (c: Pick<ChunkInput, "title" | "heading" | "text">) => [c.title, c.heading, c.text].filter(Boolean).join("\n");

/**
 * Stores chunks of one knowledge source: rows in `chunks` with their re-ranking features (FTS
 * follows by trigger), then their embeddings in the vector store. Returns the new chunk ids in input order.
 */
export async function indexChunks(
  ctx: IndexContext,
  ref: SourceRef,
  chunks: ChunkInput[],
  opts: { embeddingModel?: EmbeddingModelV3; abortSignal?: AbortSignal } = {},
): Promise<{ chunkIds: number[] }> {
  if (chunks.length === 0) return { chunkIds: [] };
  const d1 = ctx.env.DB;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < chunks.length; i += ROWS_PER_INSERT) {
    const rows = chunks.slice(i, i + ROWS_PER_INSERT);
    statements.push(
      d1
        .prepare(
          `INSERT INTO chunks (source_id, chatbot_id, org_id, position, title, heading, url, text, features) VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")} RETURNING id, position`,
        )
        .bind(
          ...rows.flatMap((c) => [
            ref.sourceId,
            ref.chatbotId,
            ref.orgId,
            c.position,
            c.title,
            c.heading ?? null,
            c.url ?? null,
            c.text,
            serializeChunkFeatures(c),
          ]),
        ),
    );
  }
  const chunkIds: number[] = [];
  for (let s = 0; s < statements.length; s += STATEMENTS_PER_BATCH) {
    const results = await d1.batch<{ id: number; position: number }>(statements.slice(s, s + STATEMENTS_PER_BATCH));
    results.forEach((r, j) => {
      const rows = chunks.slice((s + j) * ROWS_PER_INSERT, (s + j + 1) * ROWS_PER_INSERT);
      const byPosition = new Map(r.results.map((x) => [x.position, x.id]));
      // Map back by position (RETURNING order is not guaranteed); fall back to order on duplicates.
      const unique = byPosition.size === rows.length;
      rows.forEach((c, k) => chunkIds.push(unique ? byPosition.get(c.position)! : r.results[k].id));
    });
  }

  // Term statistics are memoised for a minute per isolate; this one knows they just changed.
  forgetChatbotStats(ref.chatbotId);
  const model = opts.embeddingModel ?? getEmbeddingModel(ctx.env);
  const store = createVectorStore(ctx.env, ctx.db);
  for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
    const slice = chunks.slice(i, i + EMBED_BATCH);
    const vectors = await embedTexts(model, slice.map(embeddingText), { abortSignal: opts.abortSignal });
    await store.upsert(
      vectors.map((vector, k) => ({ chunkId: chunkIds[i + k], chatbotId: ref.chatbotId, vector })),
      model.modelId,
    );
  }
  return { chunkIds };
}

/** Removes the vectors of the chunks `where` selects (Vectorize has no cascade); how many chunks that was. */
async function removeVectors(ctx: IndexContext, where: string, ...params: string[]): Promise<number> {
  const { results } = await ctx.env.DB.prepare(`SELECT id FROM chunks WHERE ${where}`)
    .bind(...params)
    .all<{ id: number }>();
  if (results.length) await createVectorStore(ctx.env, ctx.db).remove(results.map((r) => r.id));
  return results.length;
}

/** Removes a source's chunks: vectors first, then rows (FTS and term_stats by trigger). */
export async function deleteSourceChunks(ctx: IndexContext, ref: SourceRef): Promise<{ deleted: number }> {
  const where = "source_id = ? AND chatbot_id = ? AND org_id = ?";
  const deleted = await removeVectors(ctx, where, ref.sourceId, ref.chatbotId, ref.orgId);
  if (deleted === 0) return { deleted: 0 };
  await ctx.env.DB.prepare(`DELETE FROM chunks WHERE ${where}`).bind(ref.sourceId, ref.chatbotId, ref.orgId).run();
  forgetChatbotStats(ref.chatbotId);
  return { deleted };
}

/** Removes every vector of a chatbot's chunks, ahead of deleting the chatbot (its rows go by cascade). */
export async function deleteChatbotVectors(ctx: IndexContext, ref: ChatbotRef): Promise<void> {
  await removeVectors(ctx, "chatbot_id = ? AND org_id = ?", ref.chatbotId, ref.orgId);
}

export async function countChatbotChunks(ctx: IndexContext, ref: ChatbotRef): Promise<number> {
  const row = await ctx.env.DB.prepare("SELECT count(*) AS n FROM chunks WHERE chatbot_id = ? AND org_id = ?")
    .bind(ref.chatbotId, ref.orgId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
