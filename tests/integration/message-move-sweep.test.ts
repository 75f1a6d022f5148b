import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getOrCreateConversation, getTranscript, recordExchange } from "~/.server/chat/conversations";
import { messageMoveProgress, runMessageMoveStep, sweepMessageMoves } from "~/.server/chat/message-move";
import { chatbots, messageMoves } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { handleScheduled } from "../../workers/scheduled";
import { db, makeChatbot, makeOrg, makeUser } from "../factories";
import { recordingQueueContext } from "./recording-queue";

// What starts the moves of messages (issue #20, ADR 042): the cron's sweep picks chatbots whose
// messages are still in D1, oldest first and a few per run, resumes moves whose chain of queue
// messages stopped, waits a day after a failed move, and a chatbot it picked ends in its shard.

const { sent, ctx } = recordingQueueContext();

const storeOf = async (id: string) => (await db.select({ k: chatbots.messageStore }).from(chatbots).where(eq(chatbots.id, id)).get())?.k;
const moveMessages = () => sent.filter((m) => m.kind === "message-move").map((m) => m.chatbotId);

/** A chatbot whose messages and conversation index are in D1 (set explicitly: new chatbots start in their shard), created at `createdAt` (the sweep goes oldest first). */
async function d1BotCreatedAt(orgId: string, name: string, createdAt: number) {
  const bot = await makeChatbot(orgId, name);
  await db.update(chatbots).set({ createdAt, messageStore: "d1", conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
  return bot.id;
}

async function runUntil(chatbotId: string, stop: (phase: string) => boolean = () => false) {
  for (let i = 0; i < 100; i++) {
    const step = await runMessageMoveStep(ctx, chatbotId, { enqueue: false, now: Date.now() + 3_600_000 });
    if (step.done || stop(step.phase)) return step;
  }
  throw new Error("the move did not finish");
}

describe("the message-move sweep", () => {
  it("starts the oldest chatbots still in D1, a few per run and a few at once", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Message sweep");
    const moved = await d1BotCreatedAt(org.id, "Moved", 1);
    await db.update(chatbots).set({ messageStore: "shard" }).where(eq(chatbots.id, moved));
    const [a, b, c, d] = [
      await d1BotCreatedAt(org.id, "A", 2),
      await d1BotCreatedAt(org.id, "B", 3),
      await d1BotCreatedAt(org.id, "C", 4),
      await d1BotCreatedAt(org.id, "D", 5),
    ];

    sent.length = 0;
    expect(await sweepMessageMoves(ctx, { start: 2, running: 3 })).toEqual({ started: [a, b], resumed: [] });
    expect(moveMessages()).toEqual([a, b]);
    expect([await storeOf(a), await storeOf(b), await storeOf(c), await storeOf(moved)]).toEqual(["moving", "moving", "d1", "shard"]);
    // Two are under way and three may run at once: one more starts.
    expect((await sweepMessageMoves(ctx, { start: 2, running: 3 })).started).toEqual([c]);
    expect((await sweepMessageMoves(ctx, { start: 2, running: 3 })).started).toEqual([]);
    // A move that finishes frees its place.
    expect(await runUntil(a)).toEqual({ phase: "done", done: true });
    expect(await storeOf(a)).toBe("shard");
    expect((await sweepMessageMoves(ctx, { start: 2, running: 3 })).started).toEqual([d]);
    for (const id of [b, c, d]) await runUntil(id);
    expect([await storeOf(b), await storeOf(c), await storeOf(d)]).toEqual(["shard", "shard", "shard"]);
  });

  it("resumes a stalled move once, and the chatbot it moved reads its conversation back", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Stalled messages");
    await db.update(chatbots).set({ createdAt: 0, messageStore: "d1", conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
    const ref = { orgId: org.id, chatbotId: bot.id };
    const conversation = await getOrCreateConversation(ctx, ref, { visitorId: "v_stalled", channel: "widget" });
    await recordExchange(ctx, conversation, { visitorText: "Are you open on Sunday?", askedAt: Date.now(), bot: null, timeZone: "UTC" });
    const before = await getTranscript(ctx, ref, conversation.id);

    expect((await sweepMessageMoves(ctx)).started).toContain(bot.id);
    await runUntil(bot.id, (phase) => phase === "verify");
    // Its chain of queue messages stopped (retries used up): the last step is old.
    await db
      .update(messageMoves)
      .set({ updatedAt: Date.now() - 20 * 60_000 })
      .where(eq(messageMoves.chatbotId, bot.id));
    sent.length = 0;
    expect((await sweepMessageMoves(ctx)).resumed).toEqual([bot.id]);
    expect(moveMessages()).toContain(bot.id);
    expect((await sweepMessageMoves(ctx)).resumed).toEqual([]);

    expect(await runUntil(bot.id)).toEqual({ phase: "done", done: true });
    expect(await storeOf(bot.id)).toBe("shard");
    expect(await getTranscript(ctx, ref, conversation.id)).toEqual(before);
  });

  it("waits a day before trying a failed move again", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Failed messages");
    const ref = { orgId: org.id, chatbotId: bot.id };
    await db.update(chatbots).set({ createdAt: 0, messageStore: "d1", conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
    const now = Date.now();
    await db.insert(messageMoves).values({
      chatbotId: bot.id,
      orgId: org.id,
      phase: "failed",
      error: "Copying the conversations failed 5 times in a row.",
      startedAt: now - 3_600_000,
      updatedAt: now - 3_600_000,
    });
    expect((await sweepMessageMoves(ctx, { now })).started).not.toContain(bot.id);
    expect(await messageMoveProgress(ctx, ref)).toMatchObject({ phase: "failed", error: expect.stringContaining("failed 5 times") });
    expect((await sweepMessageMoves(ctx, { now: now + 24 * 3_600_000 })).started).toContain(bot.id);
    expect(await messageMoveProgress(ctx, ref)).toMatchObject({ phase: "copy", error: null, attempts: 0 });
  });

  it("runs on the cron trigger", async () => {
    const owner = await makeUser();
    const { bot } = await makeOrg(owner.id, "Cron messages");
    await db.update(chatbots).set({ createdAt: 0, messageStore: "d1", conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
    const pending: Promise<unknown>[] = [];
    sent.length = 0;
    await handleScheduled({} as ScheduledController, ctx.env as Env, { waitUntil: (p: Promise<unknown>) => pending.push(p) } as unknown as ExecutionContext);
    await Promise.all(pending);
    expect(await storeOf(bot.id)).toBe("moving");
    expect(moveMessages()).toContain(bot.id);
  });
});
