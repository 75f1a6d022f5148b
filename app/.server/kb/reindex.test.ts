import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, chunks, chunkVectors, knowledgeSources } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { LOCAL_EMBEDDING_MODEL_ID } from "../ai/embeddings";
import { createServiceContext } from "../context";
import { db, makeOrg, makeUser } from "../../../tests/factories";
import { knowledgeStore } from "../retrieval/knowledge-store";
import { reindexForEmbeddingModel } from "./reindex";

describe("re-index when the embedding model changes", () => {
  it("re-queues a chatbot's sources whose vectors came from another model, then records the model", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Reindex");
    await db.insert(knowledgeSources).values({ id: "ks_reidx", orgId: org.id, chatbotId: bot.id, type: "text", title: "T", status: "ready" });
    const [chunk] = await db.insert(chunks).values({ sourceId: "ks_reidx", chatbotId: bot.id, orgId: org.id, position: 0, title: "T", text: "x" }).returning();
    await db
      .insert(chunkVectors)
      .values({ chunkId: chunk.id, chatbotId: bot.id, model: "text-embedding-3-small", vector: Buffer.from(new Float32Array(4).buffer) });

    const ctx = createServiceContext(env as unknown as Env);
    const first = await reindexForEmbeddingModel(ctx, { enqueue: false, limit: 500 });
    expect(first.model).toBe(LOCAL_EMBEDDING_MODEL_ID);
    expect(first.sources).toContain("ks_reidx");
    expect((await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, "ks_reidx")).get())!.status).toBe("queued");
    const settings = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!.settings as { index?: { embeddingModel?: string } };
    expect(settings.index?.embeddingModel).toBe(LOCAL_EMBEDDING_MODEL_ID);

    // Recorded now: the next sweep leaves it alone.
    const second = await reindexForEmbeddingModel(ctx, { enqueue: false, limit: 500 });
    expect(second.chatbots).not.toContain(bot.id);
  });

  it("asks a chatbot's shard for its vectors' model, not D1 (ADR 034)", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Sharded");
    const ref = { orgId: org.id, chatbotId: bot.id };
    await db.update(chatbots).set({ knowledgeStore: "shard" }).where(eq(chatbots.id, bot.id));
    await db.insert(knowledgeSources).values({ id: "ks_reidx_shard", orgId: org.id, chatbotId: bot.id, type: "text", title: "T", status: "ready" });
    const store = await knowledgeStore(createServiceContext(env as unknown as Env), ref);
    await store.indexChunks({ sourceId: "ks_reidx_shard", type: "text" }, [
      { position: 0, title: "T", heading: null, url: null, text: "Opening hours are 9 to 5." },
    ]);
    // The shard's vectors came from another model (an OpenAI key since removed); D1 holds none.
    await runInDurableObject(env.KNOWLEDGE_SHARD.get(env.KNOWLEDGE_SHARD.idFromName(bot.id)), async (_o, state) => {
      state.storage.sql.exec(`UPDATE chunk_vectors SET model = 'text-embedding-3-small'`);
    });
    expect(await store.countVectorsNotOf(LOCAL_EMBEDDING_MODEL_ID)).toBe(1);
    const r = await reindexForEmbeddingModel(createServiceContext(env as unknown as Env), { enqueue: false, limit: 500 });
    expect(r.chatbots).toContain(bot.id);
    expect(r.sources).toContain("ks_reidx_shard");
  });

  it("a chatbot with no knowledge only gets the model recorded", async () => {
    const owner = await makeUser();
    const { bot } = await makeOrg(owner.id, "Fresh");
    const r = await reindexForEmbeddingModel(createServiceContext(env as unknown as Env), { enqueue: false, limit: 500 });
    expect(r.chatbots).not.toContain(bot.id);
    const settings = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!.settings as { index?: { embeddingModel?: string } };
    expect(settings.index?.embeddingModel).toBe(LOCAL_EMBEDDING_MODEL_ID);
  });
});
