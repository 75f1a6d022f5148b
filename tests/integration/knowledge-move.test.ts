import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deleteChatbot } from "~/.server/chatbots/chatbots";
import type { AppContext } from "~/.server/context";
import { chatbots, knowledgeSources } from "~/.server/db/schema";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { createQaSource, createTextSource, deleteSource, resyncSource } from "~/.server/kb/sources";
import { chunkChecksums, knowledgeMoveProgress, runKnowledgeMoveStep, startKnowledgeMove, textChecksums } from "~/.server/retrieval/knowledge-move";
import { knowledgeStore, shardKnowledgeStub } from "~/.server/retrieval/knowledge-store";
import type { ChatbotRef } from "~/.server/retrieval/types";
import { knowledgeRankings } from "./knowledge-rankings";
import { db, makeOrg, makeUser } from "../factories";
import { recordingQueueContext } from "./recording-queue";

// Moving a chatbot's knowledge from D1 into its shard (issue #20, ADR 034): a chatbot filled the
// way every chatbot was before shards existed (D1), moved by the resumable job, must end with
// exactly the same chunks (ids, texts, features, vectors), rank every question exactly as before,
// keep answering during the move, pick up what was written meanwhile, and leave nothing in D1.

const knowledge = import.meta.glob("/bench/answers/*/knowledge.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const questionSets = import.meta.glob("/bench/answers/*/questions.json", { import: "default", eager: true }) as Record<string, { question: string }[]>;
const setText = (name: string) => knowledge[`/bench/answers/${name}/knowledge.md`];

const { sent, ctx } = recordingQueueContext<unknown>();

async function d1Bot(name: string, sets: string[]) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, name, { plan: "scale" });
  const ref = { orgId: org.id, chatbotId: bot.id };
  const sources: string[] = [];
  for (const set of sets) sources.push(await addSource(ref, set));
  return { ref, sources };
}

async function addSource(ref: ChatbotRef, set: string) {
  const created = await createTextSource(ctx, ref, { title: set, text: setText(set) });
  if (!created.ok) throw new Error(created.message);
  expect((await runIngestionUntilIdle(ctx, created.source.id)).source?.status).toBe("ready");
  return created.source.id;
}

const storeOf = async (ref: ChatbotRef) => (await db.select({ k: chatbots.knowledgeStore }).from(chatbots).where(eq(chatbots.id, ref.chatbotId)).get())?.k;
const d1Count = async (table: "chunks" | "term_stats", ref: ChatbotRef) =>
  (await ctx.env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE chatbot_id = ?`).bind(ref.chatbotId).first<{ n: number }>())!.n;
/** The chatbot's sources' content parts left in D1. */
const d1TextParts = async (ref: ChatbotRef) =>
  (await ctx.env.DB.prepare("SELECT count(*) AS n FROM knowledge_source_contents c JOIN knowledge_sources s ON s.id = c.source_id WHERE s.chatbot_id = ?")
    .bind(ref.chatbotId)
    .first<{ n: number }>())!.n;

async function addQa(ref: ChatbotRef) {
  const created = await createQaSource(ctx, ref, {
    title: "Gift cards",
    pairs: [
      { question: "Do you sell gift cards?", answer: "Gift cards from 20 to 200 euro are sold at the counter and online." },
      { question: "Do gift cards expire?", answer: "A gift card is valid for five years from the day it was bought." },
    ],
  });
  if (!created.ok) throw new Error(created.message);
  expect((await runIngestionUntilIdle(ctx, created.source.id)).source?.status).toBe("ready");
  return created.source.id;
}

async function runUntil(ref: ChatbotRef, stop: (phase: string) => boolean = () => false, max = 200) {
  for (let i = 0; i < max; i++) {
    const step = await runKnowledgeMoveStep(ctx, ref.chatbotId, { enqueue: false });
    if (step.done || stop(step.phase)) return step;
  }
  throw new Error("the move did not finish");
}

describe("moving a chatbot's knowledge into its shard", () => {
  it("moves every chunk with its id, vector and checksum, and every source's text, ranks exactly as before, and empties D1", async () => {
    const { ref, sources } = await d1Bot("Mover", ["shop", "restaurant"]);
    const qa = await addQa(ref);
    const questions = [...questionSets["/bench/answers/shop/questions.json"], ...questionSets["/bench/answers/restaurant/questions.json"]].map(
      (q) => q.question,
    );
    const before = await knowledgeRankings(ctx, ref, questions);
    const checksums = await chunkChecksums(ctx.env.DB, ref);
    const texts = await textChecksums(ctx.env.DB, ref);
    expect(Object.keys(texts).sort()).toEqual([...sources, qa].sort());
    const chunkTotal = await d1Count("chunks", ref);
    expect(chunkTotal).toBeGreaterThan(10);

    sent.length = 0;
    expect(await startKnowledgeMove(ctx, ref)).toEqual({ ok: true });
    expect(sent).toEqual([{ kind: "knowledge-move", chatbotId: ref.chatbotId }]);
    expect(await startKnowledgeMove(ctx, ref)).toMatchObject({ ok: false });
    expect(await storeOf(ref)).toBe("moving");
    // D1 serves while the move runs.
    expect((await knowledgeStore(ctx, ref)).kind).toBe("d1");

    expect(await runUntil(ref)).toEqual({ phase: "done", done: true });
    expect(await storeOf(ref)).toBe("shard");
    expect(await d1Count("chunks", ref)).toBe(0);
    expect(await d1Count("term_stats", ref)).toBe(0);
    expect(await shardKnowledgeStub(ctx.env, ref).checksums(ref)).toEqual(checksums);
    // The sources' own texts moved too (ADR 075): the same parts in the shard, none left in D1.
    expect(await d1TextParts(ref)).toBe(0);
    expect(await shardKnowledgeStub(ctx.env, ref).textChecksums(ref)).toEqual(texts);
    expect(await knowledgeRankings(ctx, ref, questions)).toEqual(before);
    expect(await knowledgeMoveProgress(ctx, ref)).toMatchObject({ phase: "done", copied: chunkTotal, total: chunkTotal });

    // Learnt again after the move, a text source and a Q&A source read their text from the shard.
    for (const id of [sources[0], qa]) {
      expect((await resyncSource(ctx, ref, id)).ok).toBe(true);
      expect((await runIngestionUntilIdle(ctx, id)).source).toMatchObject({ status: "ready", error: null });
    }
    // New chunk ids, the same ranking.
    const withoutIds = (r: typeof before) => r.map((q) => ({ ...q, passages: q.passages.map(([, source, score]) => [source, score]) }));
    expect(withoutIds(await knowledgeRankings(ctx, ref, questions))).toEqual(withoutIds(before));
    const giftCards = await (await knowledgeStore(ctx, ref)).retrieve("how long is a gift card valid", { k: 3 });
    expect(giftCards.passages[0]?.sourceId).toBe(qa);
  });

  it("picks up sources added and deleted during the move, and a redelivered step adds nothing twice", async () => {
    const { ref, sources } = await d1Bot("Busy mover", ["plumber", "clinic"]);
    await startKnowledgeMove(ctx, ref);
    await runUntil(ref, (phase) => phase === "verify");
    // A step delivered twice: the copy starts over from the beginning and skips what is there.
    await ctx.env.DB.prepare("UPDATE knowledge_moves SET phase = 'copy', cursor = 0, copied = 0 WHERE chatbot_id = ?").bind(ref.chatbotId).run();
    await runUntil(ref, (phase) => phase === "verify");
    // Meanwhile the owner adds one source and deletes another; both land in D1, which still serves.
    const added = await addSource(ref, "saas");
    expect((await deleteSource(ctx, ref, sources[0])).ok).toBe(true);
    expect((await (await knowledgeStore(ctx, ref)).retrieve("how much is the Team plan", { k: 3 })).passages.length).toBeGreaterThan(0);
    const checksums = await chunkChecksums(ctx.env.DB, ref);
    expect(Object.keys(checksums).sort()).toEqual([sources[1], added].sort());

    expect(await runUntil(ref)).toEqual({ phase: "done", done: true });
    expect(await shardKnowledgeStub(ctx.env, ref).checksums(ref)).toEqual(checksums);
    expect(await d1Count("chunks", ref)).toBe(0);
    const store = await knowledgeStore(ctx, ref);
    expect(store.kind).toBe("shard");
    const team = await store.retrieve("how much is the Team plan", { k: 3 });
    expect(team.passages[0]?.sourceId).toBe(added);
    // The deleted source's chunks did not come back, nor its text; the added one's text moved.
    expect(await store.countChunks(sources[0])).toBe(0);
    expect(Object.keys(await shardKnowledgeStub(ctx.env, ref).textChecksums(ref)).sort()).toEqual([sources[1], added].sort());
    expect(await d1TextParts(ref)).toBe(0);
  });

  it("a source written to D1 just as the move switched over has its text in the shard", async () => {
    const { ref } = await d1Bot("Just in time", ["clinic"]);
    await startKnowledgeMove(ctx, ref);
    await runUntil(ref, (phase) => phase === "switch");
    // The switch lands between the source's read of the chatbot's store ('moving') and its write to D1,
    // so the text is written to D1.
    const trigger = `switch_now_${ref.chatbotId}`;
    await ctx.env.DB.exec(
      `CREATE TRIGGER ${trigger} AFTER INSERT ON knowledge_sources WHEN NEW.chatbot_id = '${ref.chatbotId}' BEGIN UPDATE chatbots SET knowledge_store = 'shard' WHERE id = NEW.chatbot_id; UPDATE knowledge_moves SET phase = 'cleanup' WHERE chatbot_id = NEW.chatbot_id; END`,
    );
    let created;
    try {
      created = await createTextSource(ctx, ref, { title: "Late", text: "Flu vaccinations are given on Tuesday mornings without an appointment." });
    } finally {
      await ctx.env.DB.exec(`DROP TRIGGER ${trigger}`);
    }
    if (!created.ok) throw new Error(created.message);
    expect(await storeOf(ref)).toBe("shard");
    // The move finishes first; its clean-up of D1 leaves the queued source's text alone.
    expect(await runUntil(ref)).toEqual({ phase: "done", done: true });
    // Its first ingestion step moves the text into the shard and learns it from there.
    expect((await runIngestionUntilIdle(ctx, created.source.id)).source).toMatchObject({ status: "ready", error: null });
    expect(Object.keys(await shardKnowledgeStub(ctx.env, ref).textChecksums(ref))).toContain(created.source.id);
    expect(await d1TextParts(ref)).toBe(0);
    const flu = await (await knowledgeStore(ctx, ref)).retrieve("when can i get a flu jab", { k: 3 });
    expect(flu.passages[0]?.sourceId).toBe(created.source.id);
  });

  it("switches only when no source is being ingested", async () => {
    const { ref, sources } = await d1Bot("Patient mover", ["clinic"]);
    await startKnowledgeMove(ctx, ref);
    await runUntil(ref, (phase) => phase === "switch");
    await db.update(knowledgeSources).set({ status: "processing" }).where(eq(knowledgeSources.id, sources[0]));
    expect(await runKnowledgeMoveStep(ctx, ref.chatbotId, { enqueue: false })).toEqual({ phase: "switch", done: false });
    expect(await storeOf(ref)).toBe("moving");
    await db.update(knowledgeSources).set({ status: "ready" }).where(eq(knowledgeSources.id, sources[0]));
    expect(await runUntil(ref)).toEqual({ phase: "done", done: true });
    expect(await storeOf(ref)).toBe("shard");
  });

  it("deleting a chatbot mid-move leaves nothing in its shard", async () => {
    const { ref } = await d1Bot("Deleted mover", ["restaurant"]);
    await startKnowledgeMove(ctx, ref);
    await runUntil(ref, (phase) => phase === "verify");
    const shard = shardKnowledgeStub(ctx.env, ref);
    expect(await shard.countChunks(ref)).toBeGreaterThan(0);
    expect(await deleteChatbot(ctx as unknown as AppContext, ref)).toMatchObject({ id: ref.chatbotId });
    expect(await shard.countChunks(ref)).toBe(0);
    // The queued step finds no move any more.
    expect(await runKnowledgeMoveStep(ctx, ref.chatbotId, { enqueue: false })).toEqual({ phase: "missing", done: true });
  });

  it("a start that cannot write its move row leaves the chatbot in D1 (never 'moving' without a row)", async () => {
    const { ref } = await d1Bot("Unlucky mover", ["clinic"]);
    // The move row's write fails (as a failing D1 call would), for this chatbot only.
    const trigger = `refuse_move_${ref.chatbotId}`;
    await ctx.env.DB.exec(
      `CREATE TRIGGER ${trigger} BEFORE INSERT ON knowledge_moves WHEN NEW.chatbot_id = '${ref.chatbotId}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    try {
      sent.length = 0;
      await expect(startKnowledgeMove(ctx, ref)).rejects.toThrow(/refused/);
      expect(await storeOf(ref)).toBe("d1");
      expect(sent).toEqual([]);
    } finally {
      await ctx.env.DB.exec(`DROP TRIGGER ${trigger}`);
    }
    expect(await startKnowledgeMove(ctx, ref)).toEqual({ ok: true });
    expect(await storeOf(ref)).toBe("moving");
  });
});
