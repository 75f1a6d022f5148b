import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createLocalEmbeddingModel } from "../ai/embeddings";
import { countChatbotChunks, deleteSourceChunks, indexChunks } from "./indexing";
import { makeBot } from "./test-fixtures";
import type { ChunkInput } from "./types";

const chunk = (i: number, text: string): ChunkInput => ({ title: "Handbook", heading: `Part ${i}`, url: "https://x.test/h", text, position: i });
const ftsCount = (chatbotId: string, word: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?").bind(`chatbot_id:"${chatbotId}" AND "${word}"`).first<{ n: number }>().then((r) => r!.n);
const vectorCount = (chatbotId: string) => env.DB.prepare("SELECT count(*) AS n FROM chunk_vectors WHERE chatbot_id = ?").bind(chatbotId).first<{ n: number }>().then((r) => r!.n);

describe("indexChunks / deleteSourceChunks", () => {
  it("stores chunks in batches, embeds them, and deleting a source removes rows, FTS entries and vectors", async () => {
    const { ctx, ref, sourceIds } = await makeBot(["a", "b"]);
    const many = Array.from({ length: 40 }, (_, i) => chunk(i, `Paragraph ${i} about zebras and the savannah.`)); // > 12 rows per statement
    const { chunkIds } = await indexChunks(ctx, { ...ref, sourceId: sourceIds[0] }, many, { embeddingModel: createLocalEmbeddingModel() });
    expect(chunkIds).toHaveLength(40);
    expect(new Set(chunkIds).size).toBe(40);
    // ids map to the right rows (by position)
    const row = await env.DB.prepare("SELECT position, text, heading, url FROM chunks WHERE id = ?").bind(chunkIds[17]).first<{ position: number; text: string }>();
    expect(row).toMatchObject({ position: 17, text: "Paragraph 17 about zebras and the savannah.", heading: "Part 17", url: "https://x.test/h" });
    await indexChunks(ctx, { ...ref, sourceId: sourceIds[1] }, [chunk(0, "Penguins live in Antarctica.")]);

    expect(await countChatbotChunks(ctx, ref)).toBe(41);
    expect(await vectorCount(ref.chatbotId)).toBe(41);
    const stored = await env.DB.prepare("SELECT model, length(vector) AS bytes FROM chunk_vectors WHERE chunk_id = ?").bind(chunkIds[0]).first();
    expect(stored).toEqual({ model: "parley-hash-384", bytes: 384 * 4 });
    expect(await ftsCount(ref.chatbotId, "zebras")).toBe(40);

    // another org's ref cannot delete this source
    expect(await deleteSourceChunks(ctx, { orgId: "org_other", chatbotId: ref.chatbotId, sourceId: sourceIds[0] })).toEqual({ deleted: 0 });
    expect(await deleteSourceChunks(ctx, { ...ref, sourceId: sourceIds[0] })).toEqual({ deleted: 40 });
    expect(await countChatbotChunks(ctx, ref)).toBe(1);
    expect(await ftsCount(ref.chatbotId, "zebras")).toBe(0);
    expect(await ftsCount(ref.chatbotId, "penguins")).toBe(1);
    expect(await vectorCount(ref.chatbotId)).toBe(1);
  });

  it("does nothing for no chunks", async () => {
    const { ctx, ref, sourceIds } = await makeBot();
    expect(await indexChunks(ctx, { ...ref, sourceId: sourceIds[0] }, [])).toEqual({ chunkIds: [] });
  });
});
