import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, knowledgeMoves, knowledgeSources } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { createTextSource } from "~/.server/kb/sources";
import { knowledgeMoveProgress, runKnowledgeMoveStep, sweepKnowledgeMoves, sweepStrayTexts } from "~/.server/retrieval/knowledge-move";
import { knowledgeStore } from "~/.server/retrieval/knowledge-store";
import { handleScheduled } from "../../workers/scheduled";
import { knowledgeRankings } from "./knowledge-rankings";
import { db, makeChatbot, makeOrg, makeUser } from "../factories";
import { recordingQueueContext } from "./recording-queue";

// What starts the moves (issue #20, ADR 034): the cron's sweep picks chatbots still in D1, oldest
// first and a few per run, lets those being ingested wait, resumes moves whose chain of queue
// messages stopped, and a chatbot it picked ends in its shard answering exactly as before.

const knowledge = import.meta.glob("/bench/answers/*/knowledge.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const questionSets = import.meta.glob("/bench/answers/*/questions.json", { import: "default", eager: true }) as Record<string, { question: string }[]>;

const { sent, ctx } = recordingQueueContext();

const storeOf = async (id: string) => (await db.select({ k: chatbots.knowledgeStore }).from(chatbots).where(eq(chatbots.id, id)).get())?.k;
const moveMessages = () => sent.filter((m) => m.kind === "knowledge-move").map((m) => m.chatbotId);

/** A chatbot in D1, created at `createdAt` (the sweep goes oldest first). */
async function botCreatedAt(orgId: string, name: string, createdAt: number) {
  const bot = await makeChatbot(orgId, name);
  await db.update(chatbots).set({ createdAt }).where(eq(chatbots.id, bot.id));
  return bot.id;
}

async function runUntil(chatbotId: string, stop: (phase: string) => boolean = () => false) {
  for (let i = 0; i < 200; i++) {
    const step = await runKnowledgeMoveStep(ctx, chatbotId, { enqueue: false });
    if (step.done || stop(step.phase)) return step;
  }
  throw new Error("the move did not finish");
}

describe("the knowledge-move sweep", () => {
  it("starts the oldest chatbots still in D1, a few per run and a few at once, and lets those being ingested wait", async () => {
    const owner = await makeUser();
    const { org, bot: newest } = await makeOrg(owner.id, "Sweep");
    const busy = await botCreatedAt(org.id, "Busy", 1);
    await db.insert(knowledgeSources).values({ id: `ks_busy_${busy}`, orgId: org.id, chatbotId: busy, type: "text", title: "Busy", status: "processing" });
    const moved = await botCreatedAt(org.id, "Moved", 2);
    await db.update(chatbots).set({ knowledgeStore: "shard" }).where(eq(chatbots.id, moved));
    const [a, b, c, d] = [
      await botCreatedAt(org.id, "A", 3),
      await botCreatedAt(org.id, "B", 4),
      await botCreatedAt(org.id, "C", 5),
      await botCreatedAt(org.id, "D", 6),
    ];

    sent.length = 0;
    expect(await sweepKnowledgeMoves(ctx, { start: 2, running: 3 })).toEqual({ started: [a, b], resumed: [] });
    expect(moveMessages()).toEqual([a, b]);
    expect([await storeOf(a), await storeOf(b), await storeOf(busy), await storeOf(c)]).toEqual(["moving", "moving", "d1", "d1"]);
    // Two are under way and three may run at once: one more starts.
    expect((await sweepKnowledgeMoves(ctx, { start: 2, running: 3 })).started).toEqual([c]);
    expect((await sweepKnowledgeMoves(ctx, { start: 2, running: 3 })).started).toEqual([]);
    // A move that finishes frees its place; the busy chatbot still waits for its ingestion.
    expect(await runUntil(a)).toEqual({ phase: "done", done: true });
    expect(await storeOf(a)).toBe("shard");
    expect((await sweepKnowledgeMoves(ctx, { start: 2, running: 3 })).started).toEqual([d]);
    await db.update(knowledgeSources).set({ status: "ready" }).where(eq(knowledgeSources.chatbotId, busy));
    for (const id of [b, c, d]) await runUntil(id);
    expect((await sweepKnowledgeMoves(ctx, { start: 2, running: 3 })).started).toEqual([busy, newest.id]);
    await runUntil(busy);
    expect([await storeOf(busy), await storeOf(moved), await storeOf(b)]).toEqual(["shard", "shard", "shard"]);
  });

  it("resumes a stalled move once, and the chatbot it moved answers exactly as before", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Stalled", { plan: "scale" });
    const ref = { orgId: org.id, chatbotId: bot.id };
    const created = await createTextSource(ctx, ref, { title: "shop", text: knowledge["/bench/answers/shop/knowledge.md"] });
    if (!created.ok) throw new Error(created.message);
    expect((await runIngestionUntilIdle(ctx, created.source.id)).source?.status).toBe("ready");
    const questions = questionSets["/bench/answers/shop/questions.json"].map((q) => q.question);
    const before = await knowledgeRankings(ctx, ref, questions);

    expect((await sweepKnowledgeMoves(ctx)).started).toContain(bot.id);
    await runUntil(bot.id, (phase) => phase === "verify");
    // Its chain of queue messages stopped (retries used up): the last step is old.
    await db
      .update(knowledgeMoves)
      .set({ updatedAt: Date.now() - 20 * 60_000 })
      .where(eq(knowledgeMoves.chatbotId, bot.id));
    sent.length = 0;
    expect((await sweepKnowledgeMoves(ctx)).resumed).toEqual([bot.id]);
    expect(moveMessages()).toContain(bot.id);
    expect((await sweepKnowledgeMoves(ctx)).resumed).toEqual([]);

    expect(await runUntil(bot.id)).toEqual({ phase: "done", done: true });
    expect(await storeOf(bot.id)).toBe("shard");
    expect(await knowledgeRankings(ctx, ref, questions)).toEqual(before);
  });

  it("when a resumed chain and the old one both run, only one goes on", async () => {
    const owner = await makeUser();
    const { bot } = await makeOrg(owner.id, "Raced");
    await db.update(chatbots).set({ createdAt: 0 }).where(eq(chatbots.id, bot.id));
    expect((await sweepKnowledgeMoves(ctx)).started).toContain(bot.id);
    sent.length = 0;
    // Two deliveries of a step at the same moment: both read the same state; one writes, the other stops.
    const steps = await Promise.all([runKnowledgeMoveStep(ctx, bot.id), runKnowledgeMoveStep(ctx, bot.id)]);
    expect(steps.map((s) => s.phase).sort()).toEqual(["copy", "texts"]);
    expect(moveMessages()).toEqual([bot.id]);
    expect(await runUntil(bot.id)).toEqual({ phase: "done", done: true });
    expect(await storeOf(bot.id)).toBe("shard");
  });

  it("waits a day before trying a failed move again, and shows its error until then", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Failed mover");
    const ref = { orgId: org.id, chatbotId: bot.id };
    await db.update(chatbots).set({ createdAt: 0 }).where(eq(chatbots.id, bot.id));
    const now = Date.now();
    await db.insert(knowledgeMoves).values({
      chatbotId: bot.id,
      orgId: org.id,
      phase: "failed",
      error: "The copy of one source still differed from the original after 5 tries.",
      startedAt: now - 3_600_000,
      updatedAt: now - 3_600_000,
      finishedAt: null,
    });
    expect((await sweepKnowledgeMoves(ctx, { now })).started).not.toContain(bot.id);
    expect(await knowledgeMoveProgress(ctx, ref)).toMatchObject({ phase: "failed", error: expect.stringContaining("still differed") });
    expect((await sweepKnowledgeMoves(ctx, { now: now + 24 * 3_600_000 })).started).toContain(bot.id);
    expect(await knowledgeMoveProgress(ctx, ref)).toMatchObject({ phase: "copy", error: null });
  });

  it("runs on the cron trigger", async () => {
    const owner = await makeUser();
    const { bot } = await makeOrg(owner.id, "Cron");
    await db.update(chatbots).set({ createdAt: 0 }).where(eq(chatbots.id, bot.id));
    const pending: Promise<unknown>[] = [];
    sent.length = 0;
    await handleScheduled({} as ScheduledController, ctx.env as Env, { waitUntil: (p: Promise<unknown>) => pending.push(p) } as unknown as ExecutionContext);
    await Promise.all(pending);
    expect(await storeOf(bot.id)).toBe("moving");
    expect(moveMessages()).toContain(bot.id);
  });

  it("moves the texts a shard chatbot still has in D1 into its shard, leaving queued sources to their ingestion", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Stray texts");
    await db.update(chatbots).set({ knowledgeStore: "shard" }).where(eq(chatbots.id, bot.id));
    const { bot: d1Bot } = await makeOrg(owner.id, "Still in D1");
    const now = Date.now();
    // As chatbots created in their shard before ADR 075 have them: the source row and its text in D1.
    const source = (id: string, chatbotId: string, orgId: string, status: string, text: string) => [
      env.DB.prepare(
        "INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title, status, char_count, created_at, updated_at) VALUES (?, ?, ?, 'text', ?, ?, ?, ?, ?)",
      ).bind(id, orgId, chatbotId, id, status, text.length, now, now),
      env.DB.prepare("INSERT INTO knowledge_source_contents (source_id, start, content) VALUES (?, 0, ?)").bind(id, text),
    ];
    const tag = bot.id.slice(-6);
    const [ready, failed, queued, other] = ["ready", "failed", "queued", "d1"].map((s) => `ks_stray_${s}_${tag}`);
    await env.DB.batch([
      ...source(ready, bot.id, org.id, "ready", "Ferries leave at nine."),
      ...source(failed, bot.id, org.id, "failed", "Kayaks are hired by the hour."),
      ...source(queued, bot.id, org.id, "queued", "Bikes go in the shed."),
      ...source(other, d1Bot.id, d1Bot.orgId, "ready", "This chatbot's texts stay in D1 until its move."),
    ]);
    const inD1 = async (id: string) =>
      (await env.DB.prepare("SELECT count(*) AS n FROM knowledge_source_contents WHERE source_id = ?").bind(id).first<{ n: number }>())!.n;

    expect((await sweepStrayTexts(ctx)).sort()).toEqual([failed, ready].sort());
    const store = await knowledgeStore(ctx, { orgId: org.id, chatbotId: bot.id });
    expect(await store.contentSlice(ready, 0, 100)).toBe("Ferries leave at nine.");
    expect(await store.contentSlice(failed, 0, 100)).toBe("Kayaks are hired by the hour.");
    expect([await inD1(ready), await inD1(failed), await inD1(queued), await inD1(other)]).toEqual([0, 0, 1, 1]);
    expect(await sweepStrayTexts(ctx)).toEqual([]);
  });
});
