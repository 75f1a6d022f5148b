import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createServiceContext } from "~/.server/context";
import type { Env } from "~/.server/env";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { createTextSource } from "~/.server/kb/sources";
import { retrieve } from "~/.server/retrieval/search";
import type { ChatbotRef, ChunkInput, RetrievalResult } from "~/.server/retrieval/types";
import { makeOrg, makeUser } from "../factories";

// A chatbot's knowledge shard (issue #20) must rank exactly as D1 does: the same chunks, the same
// questions, the same passages, scores and "I don't know" decisions — retrieval and indexing are the
// same code, run over the object's SQLite storage instead of D1.

const knowledge = import.meta.glob("/bench/answers/*/knowledge.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const questionSets = import.meta.glob("/bench/answers/*/questions.json", { import: "default", eager: true }) as Record<string, { question: string }[]>;

const queue = { async send() {}, async sendBatch() {} } as unknown as Queue;
const ctx = createServiceContext({ ...(env as unknown as Env), INGEST_QUEUE: queue });
const shardOf = (ref: ChatbotRef) => ctx.env.KNOWLEDGE_SHARD.get(ctx.env.KNOWLEDGE_SHARD.idFromName(ref.chatbotId));

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
  const { chunkIds } = await shard.indexChunks({ ...ref, sourceId: created.source.id }, "text", results);
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
        await shard.indexChunks({ ...other, sourceId: "src_x" }, "text", [{ title: "X", heading: null, url: null, text: "Injected.", position: 0 }]),
      ).toEqual({ chunkIds: [] });
    }
    expect(await shard.countChunks(ref)).toBe(chunks);
  });

  it("removes a source's chunks with their index and statistics, and empties on destroy", async () => {
    const { ref, shard, chunks } = await botWithSet("restaurant");
    expect((await shard.retrieve(ref, "do you take bookings", { k: 3 })).passages.length).toBeGreaterThan(0);
    const sourceId = "src_extra";
    await shard.indexChunks({ ...ref, sourceId }, "text", [
      { title: "Extra", heading: null, url: null, text: "Our terrace seats forty guests in summer.", position: 0 },
    ]);
    expect(await shard.countChunks(ref)).toBe(chunks + 1);
    expect(await shard.deleteSourceChunks({ ...ref, sourceId })).toEqual({ deleted: 1 });
    expect(await shard.countChunks(ref)).toBe(chunks);
    await shard.destroy();
    expect(await shard.countChunks(ref)).toBe(0);
    expect((await shard.retrieve(ref, "do you take bookings", { k: 3 })).passages).toEqual([]);
  });
});
