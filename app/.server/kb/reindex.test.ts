import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, chunks, chunkVectors, knowledgeSources } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { LOCAL_EMBEDDING_MODEL_ID } from "../ai/embeddings";
import { createServiceContext } from "../context";
import { db, makeOrg, makeUser } from "../../../tests/factories";
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

  it("a chatbot with no knowledge only gets the model recorded", async () => {
    const owner = await makeUser();
    const { bot } = await makeOrg(owner.id, "Fresh");
    const r = await reindexForEmbeddingModel(createServiceContext(env as unknown as Env), { enqueue: false, limit: 500 });
    expect(r.chatbots).not.toContain(bot.id);
    const settings = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!.settings as { index?: { embeddingModel?: string } };
    expect(settings.index?.embeddingModel).toBe(LOCAL_EMBEDDING_MODEL_ID);
  });
});
