import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createLocalEmbeddingModel } from "../ai/embeddings";
import { deleteChatbot } from "../chatbots/chatbots";
import { chunkFeatures } from "./chunk-features";
import { countChatbotChunks, deleteSourceChunks, indexChunks } from "./indexing";
import { ftsChatbotToken } from "./search";
import { makeBot } from "../../../tests/factories";
import type { ChunkInput } from "./types";

const chunk = (i: number, text: string): ChunkInput => ({ title: "Handbook", heading: `Part ${i}`, url: "https://x.test/h", text, position: i });
const ftsCount = (chatbotId: string, word: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?")
    .bind(`chatbot_id:"${ftsChatbotToken(chatbotId)}" AND "${word}"`)
    .first<{ n: number }>()
    .then((r) => r!.n);
const vectorCount = (chatbotId: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM chunk_vectors WHERE chatbot_id = ?")
    .bind(chatbotId)
    .first<{ n: number }>()
    .then((r) => r!.n);

describe("indexChunks / deleteSourceChunks", () => {
  it("stores chunks in batches, embeds them, and deleting a source removes rows, FTS entries and vectors", async () => {
    const { ctx, ref, sourceIds } = await makeBot({ sources: ["a", "b"] });
    const many = Array.from({ length: 40 }, (_, i) => chunk(i, `Paragraph ${i} about zebras and the savannah.`)); // > 12 rows per statement
    const { chunkIds } = await indexChunks(ctx, { ...ref, sourceId: sourceIds[0] }, many, { embeddingModel: createLocalEmbeddingModel() });
    expect(chunkIds).toHaveLength(40);
    expect(new Set(chunkIds).size).toBe(40);
    // ids map to the right rows (by position)
    const row = await env.DB.prepare("SELECT position, text, heading, url FROM chunks WHERE id = ?")
      .bind(chunkIds[17])
      .first<{ position: number; text: string }>();
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

  it("keeps term_stats exact: each stem's chunk count and #chunks, through inserts, deletes and updates", async () => {
    const { ctx, ref, sourceIds } = await makeBot({ sources: ["a", "b"] });
    const stats = async () => {
      const { results } = await env.DB.prepare("SELECT term, df FROM term_stats WHERE chatbot_id = ? AND df > 0")
        .bind(ref.chatbotId)
        .all<{ term: string; df: number }>();
      return Object.fromEntries(results.map((r) => [r.term, r.df]));
    };
    // What the statistics must say: recounted from the chunks' own features.
    const recount = async () => {
      const { results } = await env.DB.prepare("SELECT id, title, heading, url, text, features FROM chunks WHERE chatbot_id = ?")
        .bind(ref.chatbotId)
        .all<Parameters<typeof chunkFeatures>[0]>();
      const want: Record<string, number> = results.length ? { "#chunks": results.length } : {};
      for (const r of results) for (const term of chunkFeatures(r).termSet) want[term] = (want[term] ?? 0) + 1;
      return want;
    };
    await indexChunks(ctx, { ...ref, sourceId: sourceIds[0] }, [
      chunk(0, "Zebras graze on the savannah. Zebras run fast."),
      { ...chunk(1, "Lions hunt zebras at night."), url: "https://docs.example.com/big-cats/lions" },
    ]);
    await indexChunks(ctx, { ...ref, sourceId: sourceIds[1] }, [chunk(0, "Penguins live in Antarctica; penguins swim.")]);
    const after = await stats();
    expect(after).toEqual(await recount());
    expect(after).toMatchObject({ "#chunks": 3, zebra: 2, penguin: 1, lion: 1, cat: 1, handbook: 3 });
    expect(after.docs).toBeUndefined(); // the URL's host is not counted (nor searched: see fts-migration.test.ts)

    await env.DB.prepare("UPDATE chunks SET features = NULL WHERE source_id = ?").bind(sourceIds[1]).run();
    expect((await stats()).penguin).toBeUndefined();
    expect((await stats())["#chunks"]).toBe(3);
    await deleteSourceChunks(ctx, { ...ref, sourceId: sourceIds[0] });
    expect(await stats()).toEqual({ "#chunks": 1 });
    // a deleted chatbot leaves no statistics behind (its sources and chunks go by cascade)
    await deleteChatbot(ctx as never, ref);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM term_stats WHERE chatbot_id = ?").bind(ref.chatbotId).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });

  it("does nothing for no chunks", async () => {
    const { ctx, ref, sourceIds } = await makeBot({ sources: ["a"] });
    expect(await indexChunks(ctx, { ...ref, sourceId: sourceIds[0] }, [])).toEqual({ chunkIds: [] });
  });
});
