import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { takeTurn, turnReply } from "~/.server/chat/turn";
import { deleteChatbot } from "~/.server/chatbots/chatbots";
import type { AppContext } from "~/.server/context";
import { createServiceContext } from "~/.server/context";
import { chatbots, organisations } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { createTextSource, deleteSource } from "~/.server/kb/sources";
import { createDb } from "~/.server/db/client";
import { retrieve } from "~/.server/retrieval/search";
import { d1FromSqlStorage } from "~/.server/retrieval/sql-storage-d1";
import { shardKnowledgeStub } from "~/.server/retrieval/knowledge-store";
import type { ChatbotRef, ChunkInput, RetrievalResult } from "~/.server/retrieval/types";
import { db, makeOrg, makeUser } from "../factories";

// A chatbot's knowledge shard (issue #20) must rank exactly as D1 does: the same chunks, the same
// questions, the same passages, scores and "I don't know" decisions — retrieval and indexing are the
// same code, run over the object's SQLite storage instead of D1.

const knowledge = import.meta.glob("/bench/answers/*/knowledge.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const questionSets = import.meta.glob("/bench/answers/*/questions.json", { import: "default", eager: true }) as Record<string, { question: string }[]>;

const queue = { async send() {}, async sendBatch() {} } as unknown as Queue;
const ctx = createServiceContext({ ...(env as unknown as Env), INGEST_QUEUE: queue });
const shardOf = (ref: ChatbotRef) => shardKnowledgeStub(ctx.env, ref);

type ChunkRow = ChunkInput & { source_id: string };

/** A chatbot with one set's knowledge in D1 (the product's ingestion), and the same chunks copied to its shard. */
async function botWithSet(name: string) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, `Shard ${name}`, { plan: "scale" });
  const ref = { orgId: org.id, chatbotId: bot.id };
  const created = await createTextSource(ctx, ref, { title: name, text: knowledge[`/bench/answers/${name}/knowledge.md`] });
  if (!created.ok) throw new Error(created.message);
  expect((await runIngestionUntilIdle(ctx, created.source.id)).source?.status).toBe("ready");
  const { results } = await ctx.env.DB.prepare("SELECT source_id, title, heading, url, text, position FROM chunks WHERE chatbot_id = ? ORDER BY position")
    .bind(bot.id)
    .all<ChunkRow>();
  const shard = shardOf(ref);
  const { chunkIds } = await shard.indexChunks(ref, { sourceId: created.source.id, type: "text" }, results);
  expect(chunkIds).toHaveLength(results.length);
  return { ref, shard, chunks: results.length };
}

const comparable = (r: RetrievalResult) => ({
  answerable: r.answerable,
  relevance: r.relevance,
  similarity: r.similarity,
  floor: r.floor,
  passages: r.passages.map((p) => ({ text: p.text, heading: p.heading, score: p.score })),
});

describe("knowledge shard", () => {
  it("ranks every benchmark question exactly as D1 does", async () => {
    for (const name of ["shop", "clinic"]) {
      const { ref, shard, chunks } = await botWithSet(name);
      expect(await shard.countChunks(ref)).toBe(chunks);
      for (const { question } of questionSets[`/bench/answers/${name}/questions.json`]) {
        const fromD1 = comparable(await retrieve(ctx, ref, question, { k: 5 }));
        const fromShard = comparable(await shard.retrieve(ref, question, { k: 5 }));
        expect({ question, ...fromShard }).toEqual({ question, ...fromD1 });
      }
    }
  });

  it("finds the same candidates whether or not its MATCH names the chatbot (ADR 057)", async () => {
    // Four copies of a set under other titles: common words match more chunks than the FTS limit
    // (150), so ties and the limit's edge are exercised, not only the ranking of a few.
    const { ref } = await botWithSet("shop");
    const shard = shardOf(ref);
    const { results } = await ctx.env.DB.prepare("SELECT title, heading, url, text, position FROM chunks WHERE chatbot_id = ? ORDER BY position")
      .bind(ref.chatbotId)
      .all<ChunkInput>();
    for (let copy = 1; copy <= 4; copy++)
      await shard.indexChunks(
        ref,
        { sourceId: `src_copy_${copy}`, type: "text" },
        results.map((c) => ({ ...c, title: `${c.title} (${copy})` })),
      );
    const stub = ctx.env.KNOWLEDGE_SHARD.get(ctx.env.KNOWLEDGE_SHARD.idFromName(ref.chatbotId));
    const questions = questionSets["/bench/answers/shop/questions.json"].map((q) => q.question);
    const [own, named] = await runInDurableObject(stub, async (_instance, state) => {
      const DB = d1FromSqlStorage(state.storage);
      const inShard = { env: { ...ctx.env, DB }, db: createDb(DB) };
      const run = async (ownDatabase: boolean) => {
        const out: RetrievalResult[] = [];
        for (const q of questions) out.push(await retrieve(inShard, ref, q, { k: 5, ownDatabase }));
        return out;
      };
      return [await run(true), await run(false)];
    });
    expect(own.filter((r) => r.passages.length > 0).length).toBeGreaterThan(questions.length / 2);
    expect(own).toEqual(named);
  });

  it("answers only for the chatbot it holds", async () => {
    const { ref, shard, chunks } = await botWithSet("plumber");
    expect((await shard.retrieve(ref, "do you service boilers", { k: 3 })).passages.length).toBeGreaterThan(0);
    for (const other of [
      { ...ref, chatbotId: "cb_someone_else" },
      { orgId: "org_other", chatbotId: ref.chatbotId },
    ]) {
      expect(await shard.retrieve(other, "do you service boilers", { k: 3 })).toEqual({ passages: [], answerable: false });
      expect(await shard.countChunks(other)).toBe(0);
      expect(
        await shard.indexChunks(other, { sourceId: "src_x", type: "text" }, [{ title: "X", heading: null, url: null, text: "Injected.", position: 0 }]),
      ).toEqual({ chunkIds: [] });
      // Nor are source texts written or read for another chatbot (ADR 075).
      await shard.putContent(other, { sourceId: "src_x", type: "text" }, [{ start: 0, content: "Injected text." }]);
      expect(await shard.contentSlice(other, "src_x", 0, 100)).toBeNull();
      expect(await shard.qaPairs(other, "src_x", 0, 10)).toEqual([]);
    }
    expect(await shard.countChunks(ref)).toBe(chunks);
    expect(await shard.contentSlice(ref, "src_x", 0, 100)).toBeNull();
  });

  it("adds the source texts' table to a shard created before it (schema version 1), its chunks untouched", async () => {
    const { ref, shard, chunks } = await botWithSet("saas");
    const object = ctx.env.KNOWLEDGE_SHARD.get(ctx.env.KNOWLEDGE_SHARD.idFromName(ref.chatbotId));
    await runInDurableObject(object, async (instance, state) => {
      state.storage.sql.exec("DROP TABLE knowledge_source_contents; UPDATE shard_meta SET value = '1' WHERE key = 'schema'");
      (instance as unknown as { shard: { forget(): void } }).shard.forget();
    });
    await shard.putContent(ref, { sourceId: "src_new", type: "text" }, [{ start: 0, content: "Invoices are emailed on the first of the month." }]);
    expect(await shard.contentSlice(ref, "src_new", 13, 7)).toBe("emailed");
    expect(await shard.countChunks(ref)).toBe(chunks);
    const schema = await runInDurableObject(
      object,
      async (_i, state) => state.storage.sql.exec<{ value: string }>("SELECT value FROM shard_meta WHERE key = 'schema'").one().value,
    );
    expect(schema).toBe("2");
  });

  it("removes a source's chunks with their index and statistics, and empties on destroy", async () => {
    const { ref, shard, chunks } = await botWithSet("restaurant");
    expect((await shard.retrieve(ref, "do you take bookings", { k: 3 })).passages.length).toBeGreaterThan(0);
    const sourceId = "src_extra";
    await shard.indexChunks(ref, { sourceId, type: "text" }, [
      { title: "Extra", heading: null, url: null, text: "Our terrace seats forty guests in summer.", position: 0 },
    ]);
    expect(await shard.countChunks(ref)).toBe(chunks + 1);
    expect(await shard.deleteChunks(ref, sourceId, { all: true })).toEqual({ deleted: 1 });
    expect(await shard.countChunks(ref)).toBe(chunks);
    await shard.dropAll(ref);
    expect(await shard.countChunks(ref)).toBe(0);
    expect((await shard.retrieve(ref, "do you take bookings", { k: 3 })).passages).toEqual([]);
  });

  it("holds the knowledge of a chatbot marked 'shard': ingestion, answers with sources, source and chatbot deletion", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Sharded", { plan: "scale" });
    const ref = { orgId: org.id, chatbotId: bot.id };
    await db.update(chatbots).set({ knowledgeStore: "shard" }).where(eq(chatbots.id, bot.id));
    const d1Chunks = async () => (await ctx.env.DB.prepare("SELECT count(*) AS n FROM chunks WHERE chatbot_id = ?").bind(bot.id).first<{ n: number }>())!.n;

    const created = await createTextSource(ctx, ref, { title: "Shop", text: knowledge["/bench/answers/shop/knowledge.md"] });
    if (!created.ok) throw new Error(created.message);
    const ingested = await runIngestionUntilIdle(ctx, created.source.id);
    expect(ingested.source?.status).toBe("ready");
    const shard = shardOf(ref);
    const inShard = await shard.countChunks(ref);
    expect(inShard).toBeGreaterThan(3);
    expect(ingested.source?.chunkCount).toBe(inShard);
    expect(await d1Chunks()).toBe(0);

    // The answer path reads the shard: a reply from the knowledge, with its source.
    const chatbot = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!;
    const organisation = (await db.select().from(organisations).where(eq(organisations.id, org.id)).get())!;
    const reply = await turnReply(
      await takeTurn(ctx, { target: { chatbot, org: organisation }, channel: "test", visitorId: "v_shard_test_0001", text: "Do you ship to Germany?" }),
    );
    if (!reply.ok) throw new Error(reply.message);
    expect(reply.message?.answered).toBe(true);
    expect(reply.message?.sources.length).toBeGreaterThan(0);

    // Deleting the source empties the shard of it; a second source then goes with the chatbot.
    expect((await deleteSource(ctx, ref, created.source.id)).ok).toBe(true);
    expect(await shard.countChunks(ref)).toBe(0);
    expect((await shard.retrieve(ref, "Do you ship to Germany?", { k: 3 })).passages).toEqual([]);
    const second = await createTextSource(ctx, ref, { title: "Clinic", text: knowledge["/bench/answers/clinic/knowledge.md"] });
    if (!second.ok) throw new Error(second.message);
    expect((await runIngestionUntilIdle(ctx, second.source.id)).source?.status).toBe("ready");
    expect(await shard.countChunks(ref)).toBeGreaterThan(0);
    expect(await deleteChatbot(ctx as unknown as AppContext, ref)).toMatchObject({ id: bot.id });
    expect(await shard.countChunks(ref)).toBe(0);
  });
});
