import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { listBugReports, reportMessage } from "~/.server/bug-reports/bug-reports";
import { findConversations } from "~/.server/chat/conversation-list";
import {
  findClientMessage,
  getOrCreateConversation,
  getTranscript,
  getVisitorHistory,
  recordExchange,
  recordLiveMessage,
  type Conversation,
} from "~/.server/chat/conversations";
import {
  messageChecksums,
  messageMoveProgress,
  runMessageMoveStep,
  startMessageMove,
  type ConversationShardMoveApi,
  type MovedMessage,
} from "~/.server/chat/message-move";
import { chatbotSearchRows, conversationShardStub, messageStore, type ChatbotRef, type ConversationShardApi } from "~/.server/chat/message-store";
import { deleteChatbot } from "~/.server/chatbots/chatbots";
import { createServiceContext } from "~/.server/context";
import { bugReports, chatbots, messageMoves } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { HANDOFF_NOTE } from "~/.server/inbox/rules";
import { reportProblem, setMessageFeedback } from "~/.server/widget/visitor-actions";
import { db, makeOrg, makeUser, testContext } from "../factories";
import { recordingQueueContext } from "./recording-queue";

// Moving a chatbot's messages from D1 into its ConversationShard (issue #20 item 3, ADR 042): a
// chatbot whose conversations were written the way every chatbot's were before shards (D1: messages,
// their search rows, thumbs, bug reports by message id, client message ids), moved by the resumable
// job, must end with exactly the same messages in its shard (counts and checksums), read back
// identically through the store (transcripts, search, widget history, retried sends, bug reports,
// digest), keep what was written while it moved and just after the switch, and leave nothing in D1.

const { sent, ctx } = recordingQueueContext();
const LATER = () => Date.now() + 3_600_000;

type Shard = ConversationShardMoveApi & ConversationShardApi;
const shardOf = (ref: ChatbotRef) => conversationShardStub(ctx.env, ref) as unknown as Shard;

/** A chatbot as every chatbot was before shards: its messages and conversation index in D1 (set explicitly: new chatbots start in their shard). */
async function d1Bot(name: string) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, name);
  await db.update(chatbots).set({ messageStore: "d1", conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
  return { owner, ref: { orgId: org.id, chatbotId: bot.id } as ChatbotRef };
}

const storeOf = async (ref: ChatbotRef) => (await db.select({ k: chatbots.messageStore }).from(chatbots).where(eq(chatbots.id, ref.chatbotId)).get())?.k;

/** What D1 still holds of the chatbot's messages and search rows. */
async function inD1(ref: ChatbotRef) {
  const m = await ctx.env.DB.prepare("SELECT count(*) AS n FROM messages WHERE chatbot_id = ?").bind(ref.chatbotId).first<{ n: number }>();
  const s = await ctx.env.DB.prepare("SELECT count(*) AS n FROM conversation_search WHERE conversation_search MATCH ?")
    .bind(chatbotSearchRows(ref.chatbotId))
    .first<{ n: number }>();
  return { messages: m!.n, search: s!.n };
}

async function conversationIds(ref: ChatbotRef) {
  const { results } = await ctx.env.DB.prepare("SELECT id FROM conversations WHERE chatbot_id = ? ORDER BY id").bind(ref.chatbotId).all<{ id: string }>();
  return results.map((r) => r.id);
}

/** Message times as the product writes them (now), each after the last. */
let clock = 0;
const tick = () => (clock = Math.max(clock + 10, Date.now()));

/** One exchange through the chat's own write path (D1 while the chatbot is 'd1' or 'moving'). */
async function exchange(
  conversation: Conversation,
  text: string,
  opts: { reply?: string | null; clientMessageId?: string; messageStore?: "moving" } = {},
): Promise<{ visitor: string; bot: string | null }> {
  const at = tick();
  const botId = opts.reply === null ? null : newId("msg_");
  const { visitorMessageId } = await recordExchange(ctx, conversation, {
    visitorText: text,
    askedAt: at,
    clientMessageId: opts.clientMessageId,
    timeZone: "UTC",
    messageStore: opts.messageStore,
    bot: botId
      ? {
          id: botId,
          at: at + 5,
          content: opts.reply ?? `About "${text}": see the shipping page [1].`,
          sources: [
            {
              sourceId: "ks_ship",
              chunkId: 42,
              title: "Shipping",
              url: "https://example.com/shipping",
              snippet: "Parcels to Norway take five days.",
              score: 0.71,
            },
          ],
          answered: true,
          model: "local",
          latencyMs: 35,
          firstTokenMs: 12,
          credits: 1,
        }
      : null,
  });
  return { visitor: visitorMessageId, bot: botId };
}

/** Conversations written before the change: through the product's own functions, with thumbs, reports, a handoff, a person's reply. */
async function realConversations(ref: ChatbotRef, owner: { id: string }) {
  const alice = `v_alice_${crypto.randomUUID()}`;
  const bob = `v_bob_${crypto.randomUUID()}`;
  const a = await getOrCreateConversation(ctx, ref, { visitorId: alice, channel: "widget" });
  const a1 = await exchange(a, "Do you ship parcels to Norway?", { clientMessageId: "c_alice_1" });
  const a2 = await exchange(a, "And what about refunds for damaged boxes?", { clientMessageId: "c_alice_2" });
  await recordLiveMessage(ctx, a, { id: newId("msg_"), role: "system", content: HANDOFF_NOTE, createdAt: tick() }, { timeZone: "UTC" });
  await recordLiveMessage(ctx, a, { id: newId("msg_"), role: "human", content: "I can help with the refund.", createdAt: tick() }, { timeZone: "UTC" });
  const b = await getOrCreateConversation(ctx, ref, { visitorId: bob, channel: "widget" });
  const b1 = await exchange(b, "Is the refund policy the same in Sweden?", { clientMessageId: "c_bob_1" });
  await exchange(b, "Thanks, that helps", { reply: null, clientMessageId: "c_bob_2" });
  expect(await setMessageFeedback(ctx, ref, alice, a1.bot!, 1)).toMatchObject({ conversationId: a.id });
  expect(await setMessageFeedback(ctx, ref, alice, a2.bot!, -1)).toMatchObject({ rating: -1 });
  expect(await reportProblem(ctx, ref, { visitorId: alice, messageId: a2.bot!, comment: "The refund answer is wrong." })).toMatchObject({
    conversationId: a.id,
  });
  expect(await reportMessage(ctx, ref, { messageId: b1.bot!, comment: "Sweden differs.", expectedAnswer: "Yes, the same.", userId: owner.id })).toMatchObject({
    ok: true,
  });
  // A report from before migration 0029 kept only message_id: the move must give it message_ref before the row goes.
  await db.update(bugReports).set({ messageRef: null }).where(eq(bugReports.messageId, b1.bot!));
  return { alice, bob, a, b, a1, a2, b1 };
}

/** Many conversations as D1 held them (rows and search rows written directly): more than one step's worth. */
async function bulkConversations(ref: ChatbotRef, n: number) {
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < n; i++) {
    const id = `cv_bulk_${ref.chatbotId}_${String(i).padStart(4, "0")}`;
    const t = Date.now() - 2 * 86_400_000 + i * 1_000;
    statements.push(
      ctx.env.DB.prepare(
        "INSERT INTO conversations (id, org_id, chatbot_id, visitor_id, channel, message_count, created_at, last_message_at, title) VALUES (?, ?, ?, ?, 'widget', 4, ?, ?, ?)",
      ).bind(id, ref.orgId, ref.chatbotId, `v_bulk_${i}`, t, t + 3, `Parcel ${i}`),
    );
    const rows: [string, string, string, number | null][] = [
      ["visitor", `Where is parcel ${i}?`, "[]", null],
      [
        "bot",
        `Parcel ${i} left the depot [1].`,
        JSON.stringify([{ sourceId: "ks_track", chunkId: i, title: "Tracking", url: null, snippet: `parcel ${i}`, score: 0.5 }]),
        i % 3 === 0 ? -1 : null,
      ],
      ["visitor", `Can parcel ${i} go to Norway?`, "[]", null],
      ["bot", "Yes.", "[]", i % 5 === 0 ? 1 : null],
    ];
    rows.forEach(([role, content, sources, feedback], j) => {
      statements.push(
        ctx.env.DB.prepare(
          "INSERT INTO messages (id, conversation_id, org_id, chatbot_id, role, content, sources, answered, model, credits, feedback, client_message_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ).bind(
          `msg_bulk_${ref.chatbotId}_${i}_${j}`,
          id,
          ref.orgId,
          ref.chatbotId,
          role,
          content,
          sources,
          role === "bot" ? 1 : null,
          role === "bot" ? "local" : null,
          role === "bot" ? 1 : 0,
          feedback,
          role === "visitor" ? `c_bulk_${i}_${j}` : null,
          t + j,
        ),
      );
      if (role === "visitor")
        statements.push(
          ctx.env.DB.prepare("INSERT INTO conversation_search (chatbot_id, body, conversation_id) VALUES (lower(hex(?)), ?, ?)").bind(
            ref.chatbotId,
            content,
            id,
          ),
        );
    });
  }
  for (let i = 0; i < statements.length; i += 90) await ctx.env.DB.batch(statements.slice(i, i + 90));
}

/** Every read a caller makes of a chatbot's messages, through the domain modules (which ask the store). */
async function reads(ref: ChatbotRef, people: { alice: string; bob: string }) {
  const list = (q: string) => findConversations(ctx, ref, { q, filters: [], older: null, newer: null });
  const ids = await conversationIds(ref);
  const store = await messageStore(ctx, ref);
  return {
    transcripts: await Promise.all(ids.map(async (id) => (await getTranscript(ctx, ref, id))?.messages)),
    history: [await getVisitorHistory(ctx, ref, people.alice), await getVisitorHistory(ctx, ref, people.bob)].map((h) => h?.messages),
    list: await list(""),
    search: [await list("refund"), await list("norw"), await list("parcel 17"), await list("wardrobe")],
    // The reply's typed fields (D1's query also selects its role, which the shard's path leaves out).
    retried: (
      await Promise.all([
        findClientMessage(ctx, ref, people.alice, "c_alice_2"),
        findClientMessage(ctx, ref, people.bob, "c_bob_2"),
        findClientMessage(ctx, ref, people.bob, "c_alice_1"),
      ])
    ).map((x) => x && { ...x, reply: x.reply && { id: x.reply.id, content: x.reply.content, sources: x.reply.sources, answered: x.reply.answered } }),
    bugReports: (await listBugReports(ctx, ref, { status: null, source: null, from: null, to: null, older: null })).rows,
    digest: await store.digestCounts(0, Date.now() + 86_400_000, HANDOFF_NOTE),
    count: await store.count(),
  };
}

/** Exactly `n` steps (the move goes on after them). */
async function steps(ref: ChatbotRef, n: number) {
  for (let i = 0; i < n; i++) expect((await runMessageMoveStep(ctx, ref.chatbotId, { enqueue: false })).done).toBe(false);
}

async function runUntil(ref: ChatbotRef, stop: (phase: string) => boolean = () => false, opts: { now?: () => number; max?: number } = {}) {
  for (let i = 0; i < (opts.max ?? 300); i++) {
    const step = await runMessageMoveStep(ctx, ref.chatbotId, { enqueue: false, now: opts.now?.() });
    if (step.done || stop(step.phase)) return step;
  }
  throw new Error("the move did not finish");
}

const moveOf = async (ref: ChatbotRef) => (await db.select().from(messageMoves).where(eq(messageMoves.chatbotId, ref.chatbotId)).get())!;

describe("moving a chatbot's messages into its shard", () => {
  it("moves every message with its id, reads back identically through the store, and empties D1", async () => {
    const { owner, ref } = await d1Bot("Message mover");
    const people = await realConversations(ref, owner);
    await bulkConversations(ref, 130);
    // Another tenant's chatbot, also in D1, which this move must not touch.
    const other = await d1Bot("Other tenant");
    const theirs = await realConversations(other.ref, other.owner);
    const theirReads = await reads(other.ref, theirs);

    const before = await reads(ref, people);
    const ids = await conversationIds(ref);
    const checksums = await messageChecksums(ctx.env.DB, ref, ids);
    const held = await inD1(ref);
    expect(held.messages).toBe(130 * 4 + 9);
    expect(held.search).toBe(130 * 2 + 4);
    expect(before.count).toBe(held.messages);
    expect(before.search[0].rows.map((r) => r.id).sort()).toEqual([people.a.id, people.b.id].sort());
    expect(before.bugReports).toHaveLength(2);

    sent.length = 0;
    expect(await startMessageMove(ctx, ref)).toEqual({ ok: true });
    expect(sent).toEqual([{ kind: "message-move", chatbotId: ref.chatbotId }]);
    expect(await startMessageMove(ctx, ref)).toMatchObject({ ok: false });
    expect(await storeOf(ref)).toBe("moving");
    // D1 serves while the move runs.
    expect((await messageStore(ctx, ref)).kind).toBe("d1");

    // Steps until the copy is done: more than one page of conversations, each a bounded step.
    let steps = 0;
    await runUntil(ref, (phase) => (steps++, phase === "verify"));
    expect(steps).toBeGreaterThan(1);
    expect(await storeOf(ref)).toBe("moving");
    expect(await runUntil(ref, () => false, { now: LATER })).toEqual({ phase: "done", done: true });

    expect(await storeOf(ref)).toBe("shard");
    expect(await inD1(ref)).toEqual({ messages: 0, search: 0 });
    expect(await shardOf(ref).checksums(ref, ids)).toEqual(checksums);
    expect(await shardOf(ref).moveState(ref)).toEqual({ count: held.messages, visitorMessages: held.search, searchRows: held.search });
    expect(await reads(ref, people)).toEqual(before);
    // The reports point at their messages by message_ref now (message_id went with D1's rows).
    const reports = await db
      .select({ id: bugReports.messageId, ref: bugReports.messageRef })
      .from(bugReports)
      .where(eq(bugReports.chatbotId, ref.chatbotId))
      .all();
    expect(reports.map((r) => r.ref).sort()).toEqual([people.a2.bot, people.b1.bot].sort());
    expect(reports.every((r) => r.id === null)).toBe(true);
    expect(await messageMoveProgress(ctx, ref)).toMatchObject({ phase: "done", copied: held.messages, total: held.messages, removed: held.messages });

    // The other tenant: untouched in D1, nothing in either shard of the other.
    expect(await storeOf(other.ref)).toBe("d1");
    expect(await reads(other.ref, theirs)).toEqual(theirReads);
    expect((await inD1(other.ref)).messages).toBe(9);
    expect(await shardOf(other.ref).count(other.ref)).toBe(0);
    expect(await shardOf(ref).transcript(ref, theirs.a.id)).toEqual([]);
  });

  it("keeps what is written while it moves and what a request that read 'moving' writes after the switch", async () => {
    const { owner, ref } = await d1Bot("Busy message mover");
    const people = await realConversations(ref, owner);
    await bulkConversations(ref, 120);
    await startMessageMove(ctx, ref);
    await runMessageMoveStep(ctx, ref.chatbotId, { enqueue: false });
    expect((await moveOf(ref)).copied).toBeGreaterThan(0);

    // Written during the copy (D1 serves): a new exchange in an early conversation, a new
    // conversation, and a thumb changed on a message already copied.
    const early = await exchange(people.b, "One more question about Sweden", { clientMessageId: "c_bob_3" });
    const carol = `v_carol_${crypto.randomUUID()}`;
    const c = await getOrCreateConversation(ctx, ref, { visitorId: carol, channel: "widget" });
    const fresh = await exchange(c, "Do you deliver on Saturdays?", { clientMessageId: "c_carol_1" });
    expect(await setMessageFeedback(ctx, ref, people.alice, people.a1.bot!, -1)).toMatchObject({ rating: -1 });
    const bulkReply = `msg_bulk_${ref.chatbotId}_1_1`;
    expect(await setMessageFeedback(ctx, ref, "v_bulk_1", bulkReply, 1)).toMatchObject({ rating: 1 });
    // Reads come from D1 until the switch: the new messages are there.
    expect((await getTranscript(ctx, ref, c.id))?.messages.map((m) => m.id)).toEqual([fresh.visitor, fresh.bot]);

    await runUntil(ref, (phase) => phase === "switch");
    // The check found the thumb changed after its conversation was copied, and copied it again.
    expect((await shardOf(ref).get(ref, bulkReply))?.feedback).toBe(1);
    // Written after the check began: the switch waits for another round, which checks it.
    const late = await exchange(c, "And on Sundays?", { clientMessageId: "c_carol_2" });
    expect(await runMessageMoveStep(ctx, ref.chatbotId, { enqueue: false })).toEqual({ phase: "verify", done: false });
    expect(await storeOf(ref)).toBe("moving");
    expect((await moveOf(ref)).rounds).toBe(1);
    // The re-check covers only the conversations active since the first check began.
    expect((await moveOf(ref)).roundFrom).toBeGreaterThan(0);
    await runUntil(ref, (phase) => phase === "cleanup");
    expect(await storeOf(ref)).toBe("shard");

    // Just after the switch: a visitor thumbs up in the shard (newer than D1's thumb down), and a
    // request that read 'moving' before the switch writes its exchange to D1.
    expect(await setMessageFeedback(ctx, ref, people.alice, people.a1.bot!, 1)).toMatchObject({ rating: -1 });
    const straggler = await exchange(c, "Sorry, one last thing: gift wrapping?", { clientMessageId: "c_carol_3", messageStore: "moving" });
    // The first pass over D1's rows (two pages of conversations), each row copied before it goes.
    await steps(ref, 2);
    const move = await moveOf(ref);
    expect(move.phase).toBe("cleanup");
    expect(move.switchedAt).not.toBeNull();
    expect(await inD1(ref)).toMatchObject({ messages: 0 });
    const transcript = (await getTranscript(ctx, ref, c.id))!.messages.map((m) => m.id);
    expect(transcript).toEqual([fresh.visitor, fresh.bot, late.visitor, late.bot, straggler.visitor, straggler.bot]);

    // One more straggler, during the grace period after the first pass: copied by the next pass.
    const last = await exchange(people.a, "Is the shop open today?", { messageStore: "moving" });
    await runMessageMoveStep(ctx, ref.chatbotId, { enqueue: false });
    expect((await getTranscript(ctx, ref, people.a.id))!.messages.map((m) => m.id)).toContain(last.visitor);
    expect(await inD1(ref)).toMatchObject({ messages: 0 });

    expect(await runUntil(ref, () => false, { now: LATER })).toEqual({ phase: "done", done: true });
    expect(await inD1(ref)).toEqual({ messages: 0, search: 0 });
    const store = await messageStore(ctx, ref);
    expect((await store.get(people.a1.bot!))?.feedback).toBe(1);
    expect((await store.get(bulkReply))?.feedback).toBe(1);
    expect((await store.transcript(people.b.id)).map((m) => m.id)).toContain(early.visitor);
    expect((await store.search(["gift"], 100)).conversationIds).toEqual([c.id]);
    expect((await store.search(["saturdays"], 100)).conversationIds).toEqual([c.id]);
    expect(await findClientMessage(ctx, ref, carol, "c_carol_3")).toMatchObject({ visitorMessageId: straggler.visitor, reply: { id: straggler.bot } });
    // Every message once: D1's own count of the conversations' messages, and the shard's.
    const counted = await ctx.env.DB.prepare("SELECT sum(message_count) AS n FROM conversations WHERE chatbot_id = ?")
      .bind(ref.chatbotId)
      .first<{ n: number }>();
    expect(await store.count()).toBe(counted!.n);
  });

  it("a redelivered or doubled step adds nothing twice", async () => {
    const { owner, ref } = await d1Bot("Twice mover");
    await realConversations(ref, owner);
    await bulkConversations(ref, 30);
    const held = (await inD1(ref)).messages;
    await startMessageMove(ctx, ref);
    await runUntil(ref, (phase) => phase === "verify");
    // The copy delivered again from the start: it upserts by id.
    await db.update(messageMoves).set({ phase: "copy", cursor: "" }).where(eq(messageMoves.chatbotId, ref.chatbotId));
    await runUntil(ref, (phase) => phase === "verify");
    // Two deliveries of one step at once: one writes its result, the other stops.
    const both = await Promise.all([runMessageMoveStep(ctx, ref.chatbotId, { enqueue: false }), runMessageMoveStep(ctx, ref.chatbotId, { enqueue: false })]);
    expect(both.map((s) => s.phase).sort()).toEqual(["switch", "verify"]);
    expect(await runUntil(ref, () => false, { now: LATER })).toEqual({ phase: "done", done: true });
    expect(await shardOf(ref).moveState(ref)).toMatchObject({ count: held });
  });

  it("a step of a chain the move left behind cannot lose what the shard took after the switch", async () => {
    const { owner, ref } = await d1Bot("Outrun mover");
    const people = await realConversations(ref, owner);
    await startMessageMove(ctx, ref);
    await runUntil(ref, (phase) => phase === "cleanup");
    expect(await storeOf(ref)).toBe("shard");
    // The shard serves: a new exchange and a thumb land there only.
    const after = await exchange(people.a, "Written to the shard after the switch");
    expect(await setMessageFeedback(ctx, ref, people.alice, people.a2.bot!, 1)).toMatchObject({ rating: 1 });
    const held = await shardOf(ref).moveState(ref);
    // A step that read the move's first state long ago (a chain the sweep gave up on) runs now.
    const stale = { phase: "copy" as const, cursor: "", copied: 0 };
    const current = await moveOf(ref);
    await db.update(messageMoves).set(stale).where(eq(messageMoves.chatbotId, ref.chatbotId));
    expect(await runMessageMoveStep(ctx, ref.chatbotId, { enqueue: false })).toEqual({ phase: "cleanup", done: false });
    expect(await shardOf(ref).moveState(ref)).toEqual(held);
    // And one that was checking: it only adds what D1 has and the shard has not.
    await db.update(messageMoves).set({ phase: "verify", cursor: "", roundFrom: 0 }).where(eq(messageMoves.chatbotId, ref.chatbotId));
    await runMessageMoveStep(ctx, ref.chatbotId, { enqueue: false });
    expect(await shardOf(ref).moveState(ref)).toEqual(held);
    await db
      .update(messageMoves)
      .set({ phase: "cleanup", cursor: "", roundFrom: 0, switchedAt: current.switchedAt })
      .where(eq(messageMoves.chatbotId, ref.chatbotId));
    expect(await runUntil(ref, () => false, { now: LATER })).toEqual({ phase: "done", done: true });
    const store = await messageStore(ctx, ref);
    expect((await store.transcript(people.a.id)).map((m) => m.id)).toContain(after.visitor);
    expect((await store.get(people.a2.bot!))?.feedback).toBe(1);
    expect(await store.count()).toBe(held.count);
    expect(await inD1(ref)).toEqual({ messages: 0, search: 0 });
  });

  it("a step that keeps failing records its error, and the fifth failure sends the chatbot back to D1 with nothing lost", async () => {
    const { owner, ref } = await d1Bot("Failing mover");
    const people = await realConversations(ref, owner);
    const before = await reads(ref, people);
    // A shard that cannot take the copy (as an unreachable object would).
    const broken = createServiceContext({
      ...(ctx.env as Env),
      CONVERSATION_SHARD: {
        idFromName: (n: string) => ctx.env.CONVERSATION_SHARD.idFromName(n),
        get: (id: DurableObjectId) => {
          const real = ctx.env.CONVERSATION_SHARD.get(id) as unknown as Shard;
          return {
            dropAll: (r: ChatbotRef) => real.dropAll(r),
            resetForMove: (r: ChatbotRef) => real.resetForMove(r),
            importMessages: async () => {
              throw new Error("shard unavailable");
            },
          };
        },
      } as unknown as Env["CONVERSATION_SHARD"],
    });
    await startMessageMove(ctx, ref);
    for (let i = 1; i < 5; i++) {
      await expect(runMessageMoveStep(broken, ref.chatbotId, { enqueue: false })).rejects.toThrow(/shard unavailable/);
      expect(await moveOf(ref)).toMatchObject({ phase: "copy", attempts: i, error: "A step of the copy failed; it is tried again." });
      expect(await storeOf(ref)).toBe("moving");
    }
    expect(await runMessageMoveStep(broken, ref.chatbotId, { enqueue: false })).toEqual({ phase: "failed", done: true });
    expect(await moveOf(ref)).toMatchObject({ phase: "failed", attempts: 5, error: "Copying the conversations failed 5 times in a row." });
    expect(await storeOf(ref)).toBe("d1");
    expect(await reads(ref, people)).toEqual(before);
    expect(await shardOf(ref).count(ref)).toBe(0);
    // A start from 'd1' begins again from scratch.
    expect(await startMessageMove(ctx, ref)).toEqual({ ok: true });
    expect(await moveOf(ref)).toMatchObject({ phase: "copy", attempts: 0, error: null });
  });

  it("after the switch, a D1 row goes only once the shard holds it; a failing cleanup step is retried, never given up", async () => {
    const { owner, ref } = await d1Bot("Careful remover");
    await realConversations(ref, owner);
    await startMessageMove(ctx, ref);
    await runUntil(ref, (phase) => phase === "cleanup");
    const held = (await inD1(ref)).messages;
    // A shard that takes nothing (as one that refused the call would).
    const refusing = createServiceContext({
      ...(ctx.env as Env),
      CONVERSATION_SHARD: {
        idFromName: (n: string) => ctx.env.CONVERSATION_SHARD.idFromName(n),
        get: () => ({ importMessages: async () => ({ imported: 0, stored: 0 }) }),
      } as unknown as Env["CONVERSATION_SHARD"],
    });
    for (let i = 1; i <= 6; i++) {
      await expect(runMessageMoveStep(refusing, ref.chatbotId, { enqueue: false })).rejects.toThrow(/the shard holds 0 of/);
      expect(await moveOf(ref)).toMatchObject({ phase: "cleanup", attempts: i });
    }
    expect((await inD1(ref)).messages).toBe(held);
    expect(await runUntil(ref, () => false, { now: LATER })).toEqual({ phase: "done", done: true });
    expect(await inD1(ref)).toEqual({ messages: 0, search: 0 });
    expect(await shardOf(ref).count(ref)).toBe(held);
  });

  it("a copy whose checksum differs is never switched to: after five tries the move fails back to D1", async () => {
    const { owner, ref } = await d1Bot("Differing mover");
    const people = await realConversations(ref, owner);
    await startMessageMove(ctx, ref);
    await runUntil(ref, (phase) => phase === "verify");
    // A copied message that no longer matches its original (messages never change; this stands for a copy that went wrong).
    await ctx.env.DB.prepare("UPDATE messages SET content = 'Changed after it was copied' WHERE id = ?").bind(people.b1.visitor).run();
    expect(await runUntil(ref)).toEqual({ phase: "failed", done: true });
    expect(await moveOf(ref)).toMatchObject({ attempts: 5, error: "The copy of one conversation still differed from the original after 5 tries." });
    expect(await storeOf(ref)).toBe("d1");
    expect((await getTranscript(ctx, ref, people.b.id))!.messages[0].content).toBe("Changed after it was copied");
    expect(await shardOf(ref).count(ref)).toBe(0);
  });

  it("a message the passes cannot see (a conversation that counts none) stops the move before the switch: back to D1, nothing lost", async () => {
    const { owner, ref } = await d1Bot("Odd mover");
    const people = await realConversations(ref, owner);
    await ctx.env.DB.prepare("UPDATE conversations SET message_count = 0 WHERE id = ?").bind(people.b.id).run();
    await startMessageMove(ctx, ref);
    expect(await runUntil(ref)).toEqual({ phase: "failed", done: true });
    expect((await moveOf(ref)).error).toBe("The copy holds 6 messages and the original 9.");
    expect(await storeOf(ref)).toBe("d1");
    expect((await inD1(ref)).messages).toBe(9);
    expect(await shardOf(ref).count(ref)).toBe(0);
  });

  it("deleting a chatbot mid-move leaves nothing behind, even while a step runs", async () => {
    const { owner, ref } = await d1Bot("Deleted message mover");
    await realConversations(ref, owner);
    await bulkConversations(ref, 20);
    await startMessageMove(ctx, ref);
    await runUntil(ref, (phase) => phase === "verify");
    expect(await shardOf(ref).count(ref)).toBeGreaterThan(0);
    expect(await deleteChatbot(testContext(), ref)).toMatchObject({ id: ref.chatbotId });
    expect(await shardOf(ref).count(ref)).toBe(0);
    expect(await db.select().from(messageMoves).where(eq(messageMoves.chatbotId, ref.chatbotId)).get()).toBeUndefined();
    expect(await runMessageMoveStep(ctx, ref.chatbotId, { enqueue: false })).toEqual({ phase: "missing", done: true });

    // The chatbot is deleted while a step is copying into its shard: the step empties the shard when it finds the move gone.
    const second = await d1Bot("Deleted while copying");
    await realConversations(second.ref, second.owner);
    await startMessageMove(ctx, second.ref);
    const racing = createServiceContext({
      ...(ctx.env as Env),
      CONVERSATION_SHARD: {
        idFromName: (n: string) => ctx.env.CONVERSATION_SHARD.idFromName(n),
        get: (id: DurableObjectId) => {
          const real = ctx.env.CONVERSATION_SHARD.get(id) as unknown as Shard;
          return {
            dropAll: (r: ChatbotRef) => real.dropAll(r),
            resetForMove: (r: ChatbotRef) => real.resetForMove(r),
            importMessages: async (r: ChatbotRef, rows: MovedMessage[]) => {
              await deleteChatbot(testContext(), second.ref);
              return real.importMessages(r, rows);
            },
          };
        },
      } as unknown as Env["CONVERSATION_SHARD"],
    });
    expect(await runMessageMoveStep(racing, second.ref.chatbotId, { enqueue: false })).toEqual({ phase: "missing", done: true });
    expect(await shardOf(second.ref).count(second.ref)).toBe(0);
  });

  it("the shard's move methods answer only the chatbot it holds (tenant isolation)", async () => {
    const mine = await d1Bot("Holder of messages");
    const other = await d1Bot("Another holder");
    await realConversations(mine.ref, mine.owner);
    await startMessageMove(ctx, mine.ref);
    await runUntil(mine.ref, (phase) => phase === "verify");
    const shard = shardOf(mine.ref);
    const ids = await conversationIds(mine.ref);
    const row: MovedMessage = {
      id: "msg_intruder",
      conversation_id: ids[0],
      role: "visitor",
      content: "intruder",
      sources: "[]",
      answered: null,
      model: null,
      latency_ms: null,
      first_token_ms: null,
      credits: 0,
      feedback: null,
      client_message_id: null,
      created_at: 1,
    };
    expect(await shard.importMessages(other.ref, [row])).toEqual({ imported: 0, stored: 0 });
    expect(await shard.checksums(other.ref, ids)).toEqual({});
    expect(await shard.moveState(other.ref)).toEqual({ count: 0, visitorMessages: 0, searchRows: 0 });
    expect(await shard.resetForMove(other.ref)).toEqual({ ok: false });
    await shard.beginServing(other.ref);
    await shard.finishMove(other.ref);
    await shard.dropAll(other.ref);
    expect((await shard.moveState(mine.ref)).count).toBe(9);
    expect(await shard.get(mine.ref, "msg_intruder")).toBeNull();
  });
});
