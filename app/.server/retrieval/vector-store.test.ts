import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashEmbed } from "../ai/embeddings";
import { makeBot } from "../../../tests/factories";
import { blobToVector, createVectorStore, vectorToBlob, vectorizeStore } from "./vector-store";

async function insertChunks(bot: Awaited<ReturnType<typeof makeBot>>, texts: string[]) {
  const ids: number[] = [];
  for (const [i, t] of texts.entries()) {
    const row = await env.DB.prepare("INSERT INTO chunks (source_id, chatbot_id, org_id, position, title, text) VALUES (?, ?, ?, ?, 'T', ?) RETURNING id")
      .bind(bot.sourceIds[0], bot.ref.chatbotId, bot.ref.orgId, i, t)
      .first<{ id: number }>();
    ids.push(row!.id);
  }
  return ids;
}

describe("D1 vector store", () => {
  it("round-trips Float32 vectors through blobs", () => {
    const v = Float32Array.from([0.5, -1.25, 3, 1e-7]);
    expect(Array.from(blobToVector(vectorToBlob(v)))).toEqual(Array.from(v));
    expect(Array.from(blobToVector(Array.from(vectorToBlob(v))))).toEqual(Array.from(v));
  });

  it("upserts, ranks by exact cosine within one chatbot only, and removes", async () => {
    const a = await makeBot({ sources: ["a"] });
    const b = await makeBot({ sources: ["a"] });
    const texts = ["refund policy for returned orders", "shipping times to europe", "opening hours of the shop"];
    const ids = await insertChunks(a, texts);
    const [otherId] = await insertChunks(b, ["refund policy for returned orders"]);
    const store = createVectorStore(env, undefined);
    expect(store.kind).toBe("d1");
    // more than one statement's worth of rows (25 per statement) is fine too: upsert twice
    await store.upsert(
      ids.map((chunkId, i) => ({ chunkId, chatbotId: a.ref.chatbotId, vector: hashEmbed(texts[i]) })),
      "parley-hash-384",
    );
    await store.upsert(
      ids.map((chunkId, i) => ({ chunkId, chatbotId: a.ref.chatbotId, vector: hashEmbed(texts[i]) })),
      "parley-hash-384",
    );
    await store.upsert([{ chunkId: otherId, chatbotId: b.ref.chatbotId, vector: hashEmbed(texts[0]) }], "parley-hash-384");

    const hits = await store.query(a.ref.chatbotId, hashEmbed("how do refunds of returned orders work"), 10);
    expect(hits).toHaveLength(3);
    expect(hits[0].chunkId).toBe(ids[0]);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect(hits.map((h) => h.chunkId)).not.toContain(otherId);
    expect(await store.query(a.ref.chatbotId, hashEmbed("refund"), 1)).toHaveLength(1);

    await store.remove([ids[0]]);
    const after = await store.query(a.ref.chatbotId, hashEmbed("refund policy"), 10);
    expect(after.map((h) => h.chunkId)).not.toContain(ids[0]);
    expect(after).toHaveLength(2);
  });

  it("handles more rows than one statement may bind (D1: 100 parameters)", async () => {
    const a = await makeBot({ sources: ["a"] });
    const ids = await insertChunks(
      a,
      Array.from({ length: 60 }, (_, i) => `chunk number ${i}`),
    );
    const store = createVectorStore(env);
    await store.upsert(
      ids.map((chunkId, i) => ({ chunkId, chatbotId: a.ref.chatbotId, vector: hashEmbed(`chunk number ${i}`) })),
      "m",
    );
    expect(await store.query(a.ref.chatbotId, hashEmbed("x"), 100)).toHaveLength(60);
    await store.remove(ids);
    expect(await store.query(a.ref.chatbotId, hashEmbed("x"), 100)).toHaveLength(0);
  });
});

describe("Vectorize store", () => {
  it("writes ids as strings in the chatbot's namespace with metadata, and queries that namespace", async () => {
    const calls: { op: string; arg: unknown; opts?: unknown }[] = [];
    const fake = {
      upsert: async (v: unknown) => (calls.push({ op: "upsert", arg: v }), { ids: [], count: 0 }),
      query: async (v: unknown, opts: unknown) => (
        calls.push({ op: "query", arg: v, opts }),
        {
          count: 2,
          matches: [
            { id: "7", score: 0.9 },
            { id: "3", score: 0.5 },
          ],
        }
      ),
      deleteByIds: async (ids: string[]) => (calls.push({ op: "delete", arg: ids }), { ids, count: ids.length }),
    } as unknown as VectorizeIndex;
    const store = createVectorStore({ DB: env.DB, VECTORIZE: fake });
    expect(store.kind).toBe("vectorize");
    await store.upsert([{ chunkId: 7, chatbotId: "cb_1", vector: Float32Array.from([1, 0]) }], "parley-hash-384");
    expect(calls[0].arg).toEqual([
      { id: "7", values: Float32Array.from([1, 0]), namespace: "cb_1", metadata: { chatbotId: "cb_1", model: "parley-hash-384" } },
    ]);
    expect(await store.query("cb_1", Float32Array.from([1, 0]), 5)).toEqual([
      { chunkId: 7, score: 0.9 },
      { chunkId: 3, score: 0.5 },
    ]);
    expect(calls[1].opts).toMatchObject({ topK: 5, namespace: "cb_1" });
    await vectorizeStore(fake).remove([7, 3]);
    expect(calls[2].arg).toEqual(["7", "3"]);
  });
});
