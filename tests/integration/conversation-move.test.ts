import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { conversationIndex } from "~/.server/chat/conversation-index";
import {
  BUNDLE_SQL,
  BY_IDS_SQL,
  conversationHash,
  PAGE_SQL,
  REMOVE_SQL,
  removeParams,
  conversationMoveNotice,
  conversationMoveProgress,
  runConversationMoveStep,
  startConversationMove,
  sweepConversationMoves,
  type ConversationIndexMoveApi,
  type MovedConversation,
} from "~/.server/chat/conversation-move";
import type { ChatbotRef } from "~/.server/chat/message-store";
import { deleteChatbot } from "~/.server/chatbots/chatbots";
import { chatbots, conversationMoves } from "~/.server/db/schema";
import { db, makeOrg, makeUser, testContext } from "../factories";
import { recordingQueueContext } from "./recording-queue";

// Moving a chatbot's conversation index from D1 into its ConversationShard (issue #20 item 3,
// ADR 051): conversations, agent rows, analytics marks and leads written the way they were before
// the change (plain D1 rows), moved by the resumable job, must end in the shard with the same counts
// and checksums, stay readable (and writable) through D1 while 'moving', keep what was written
// meanwhile, then be read through conversationIndex() from the shard and be gone from D1.

const { sent, ctx } = recordingQueueContext();
const LATER = () => Date.now() + 3_600_000;
const shardOf = (ref: ChatbotRef) =>
  ctx.env.CONVERSATION_SHARD.get(ctx.env.CONVERSATION_SHARD.idFromName(ref.chatbotId)) as unknown as ConversationIndexMoveApi;

let seq = 0;
/** A chatbot as one whose messages moved and whose index is still in D1, with `n` conversations of the pre-change shape. */
async function botWithIndex(name: string, n = 30) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, name);
  await db.update(chatbots).set({ messageStore: "shard", conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
  const ref: ChatbotRef = { orgId: org.id, chatbotId: bot.id };
  const t = ++seq;
  const statuses = ["bot", "waiting", "human", "closed"];
  const stmts: D1PreparedStatement[] = [];
  for (let i = 0; i < n; i++) {
    const id = `cv_m${t}_${String(i).padStart(3, "0")}`;
    const status = statuses[i % 4];
    stmts.push(
      ctx.env.DB.prepare(
        `INSERT INTO conversations (id, org_id, chatbot_id, visitor_id, channel, status, verified, country, rating, title, message_count,
          created_at, last_message_at, unanswered, reported, has_lead, lead_name, lead_email, page_url)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        id,
        ref.orgId,
        ref.chatbotId,
        `v${i % 7}`,
        i % 5 === 0 ? "phone" : "widget",
        status,
        i % 2,
        i % 3 ? "GB" : null,
        i % 6 === 0 ? -1 : i % 6 === 1 ? 1 : null,
        i % 4 ? `Question ${i} — “quoted”` : null,
        i % 9 === 0 ? 0 : i + 1,
        1_700_000_000_000 + i * 1000,
        1_700_000_000_000 + i * 2000,
        i % 8 === 0 ? 1 : 0,
        i % 10 === 0 ? 1 : 0,
        i % 7 === 1 ? 1 : 0,
        i % 7 === 1 ? "Ann" : null,
        i % 7 === 1 ? "ann@example.com" : null,
        i % 2 ? `https://shop.example/p/${i}` : null,
      ),
    );
    if (status === "human" || status === "closed")
      stmts.push(
        ctx.env.DB.prepare(
          "INSERT INTO conversation_agents (conversation_id, org_id, chatbot_id, user_id, agent_name, taken_at, closed_at) VALUES (?, ?, ?, NULL, ?, ?, ?)",
        ).bind(id, ref.orgId, ref.chatbotId, "Agent Bo", 1_700_000_100_000 + i, status === "closed" ? 1_700_000_200_000 + i : null),
      );
    if (i % 3 !== 2)
      stmts.push(
        ctx.env.DB.prepare("INSERT INTO analytics_conversations (conversation_id, chatbot_id, day, problem) VALUES (?, ?, ?, ?)").bind(
          id,
          ref.chatbotId,
          `2026-11-${String((i % 28) + 1).padStart(2, "0")}`,
          i % 4 === 1 ? 1 : 0,
        ),
      );
  }
  // Visitor v1: an older lead with a name only, a newer with an email only; v2: one with both; one without a visitor.
  const lead = (id: string, visitor: string | null, name: string | null, email: string | null, at: number) =>
    ctx.env.DB.prepare(
      "INSERT INTO leads (id, org_id, chatbot_id, conversation_id, visitor_id, name, email, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?)",
    ).bind(`ld_m${t}_${id}`, ref.orgId, ref.chatbotId, visitor, name, email, at, at);
  stmts.push(
    lead("a", "v1", "Ann", null, 1_700_000_000_000),
    lead("b", "v1", null, "ann@example.com", 1_700_000_500_000),
    lead("c", "v2", "Cy", "cy@example.com", 1_700_000_600_000),
    lead("d", null, "Nobody", null, 1_700_000_700_000),
  );
  await ctx.env.DB.batch(stmts);
  return { owner, ref };
}

const storeOf = async (ref: ChatbotRef) => (await db.select({ k: chatbots.conversationStore }).from(chatbots).where(eq(chatbots.id, ref.chatbotId)).get())?.k;

async function d1Bundles(ref: ChatbotRef): Promise<MovedConversation[]> {
  const { results } = await ctx.env.DB.prepare(`${BUNDLE_SQL} ORDER BY c.id`).bind(ref.chatbotId, ref.orgId).all<MovedConversation>();
  return results;
}

async function d1Left(ref: ChatbotRef) {
  const n = async (table: string) =>
    (await ctx.env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE chatbot_id = ?`).bind(ref.chatbotId).first<{ n: number }>())!.n;
  return {
    conversations: await n("conversations"),
    agents: await n("conversation_agents"),
    counted: await n("analytics_conversations"),
    leads: await n("leads"),
    dirty: await n("conversation_move_dirty"),
  };
}

/** Runs steps (without the queue) until `stop` says so or the move ends. */
async function runUntil(ref: ChatbotRef, stop: (phase: string) => boolean = () => false, now?: () => number) {
  for (let i = 0; i < 100; i++) {
    const r = await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false, now: now?.() });
    if (r.done || stop(r.phase)) return r;
  }
  throw new Error("the move did not end in 100 steps");
}

describe("moving a chatbot's conversation index into its shard (ADR 051)", () => {
  it("copies a pre-change index with counts and checksums, serves D1 while moving, keeps writes made meanwhile, then reads from the shard and empties D1", async () => {
    const { ref } = await botWithIndex("Index move");
    const other = await botWithIndex("Other tenant", 5);
    const before = await d1Bundles(ref);
    expect(before).toHaveLength(30);

    expect(await startConversationMove(ctx, ref)).toEqual({ ok: true });
    expect(sent).toContainEqual({ kind: "conversation-move", chatbotId: ref.chatbotId });
    expect(await storeOf(ref)).toBe("moving");
    expect((await startConversationMove(ctx, ref)).ok).toBe(false);

    // The first step copies (and checks) every conversation: 30 fit in one page.
    expect(await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false })).toEqual({ phase: "leads", done: false });
    expect(await conversationMoveProgress(ctx, ref)).toMatchObject({ copied: 30, total: 30 });

    // While moving, D1 serves reads and writes.
    const moving = await conversationIndex(ctx, ref);
    expect(moving.kind).toBe("d1");
    expect((await moving.get(before[0].id))?.id).toBe(before[0].id);
    expect(await moving.setFlags(before[3].id, { verified: true, rating: -1 })).toBe(true);
    expect(await moving.applyLive(before[4].id, { status: "human", agent: { userId: null, name: "Bea", at: 1_700_000_900_000 } })).toBe(true);
    const created = await moving.create({ visitorId: "v-new", channel: "widget", now: 1_700_000_950_000 });
    await ctx.env.DB.prepare(
      "INSERT INTO leads (id, org_id, chatbot_id, visitor_id, name, email, created_at, updated_at) VALUES (?, ?, ?, 'v3', 'Dee', 'dee@example.com', 1700000990000, 1700000990000)",
    )
      .bind(`ld_new_${ref.chatbotId}`, ref.orgId, ref.chatbotId)
      .run();
    // The triggers noted them (an empty id: the leads changed).
    const { results: noted } = await ctx.env.DB.prepare("SELECT conversation_id FROM conversation_move_dirty WHERE chatbot_id = ? ORDER BY 1")
      .bind(ref.chatbotId)
      .all<{ conversation_id: string }>();
    expect(noted.map((r) => r.conversation_id)).toEqual(["", before[3].id, before[4].id, created.id].sort());

    expect(await runUntil(ref, (p) => p === "cleanup")).toEqual({ phase: "cleanup", done: false });
    expect(await storeOf(ref)).toBe("shard");
    // The switch flags the visitors by day and question groups left in D1 for the cron's sweeps (ADR 076, 077).
    expect(
      await db.select({ visitors: chatbots.visitorsInD1, questions: chatbots.questionsInD1 }).from(chatbots).where(eq(chatbots.id, ref.chatbotId)).get(),
    ).toEqual({ visitors: true, questions: true });
    const move = (await conversationMoveProgress(ctx, ref))!;
    expect(move.rounds).toBeGreaterThan(0);

    // Counts and checksums: every D1 conversation (with what was written meanwhile) is in the shard, column for column.
    const after = await d1Bundles(ref);
    expect(after).toHaveLength(31);
    const sums = await shardOf(ref).conversationChecksums(
      ref,
      after.map((r) => r.id),
    );
    expect(sums).toEqual(Object.fromEntries(after.map((r) => [r.id, conversationHash(r)])));
    expect(await shardOf(ref).indexMoveCounts(ref)).toEqual({ conversations: 31, agents: 15, counted: 20, visitors: 3 });
    expect(after.find((r) => r.id === before[3].id)).toMatchObject({ verified: 1, rating: -1 });
    expect(after.find((r) => r.id === before[4].id)).toMatchObject({ status: "human", agent_name: "Bea" });

    // After the switch the index is the shard's, through the store.
    const index = await conversationIndex(ctx, ref);
    expect(index.kind).toBe("shard");
    expect(await index.get(before[3].id)).toMatchObject({ id: before[3].id, verified: true, rating: -1 });
    expect(await index.get(created.id)).toMatchObject({ visitorId: "v-new" });
    expect(await index.hasConversation({ visitorId: "v6" })).toBe(true);
    // The visitors' contacts came from D1's leads: a new conversation of v1 gets the newest name and email.
    const opened = await index.create({ visitorId: "v1", channel: "widget" });
    expect(opened).toMatchObject({ hasLead: true, leadName: "Ann", leadEmail: "ann@example.com" });
    expect(await index.create({ visitorId: "v3", channel: "widget" })).toMatchObject({ leadName: "Dee", leadEmail: "dee@example.com" });

    // Nothing is deleted during the grace period; after it, D1's rows go (leads stay: they are the record).
    expect((await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false })).phase).toBe("cleanup");
    expect((await d1Left(ref)).conversations).toBe(31);
    expect(await runUntil(ref, undefined, LATER)).toEqual({ phase: "done", done: true });
    expect(await d1Left(ref)).toEqual({ conversations: 0, agents: 0, counted: 0, leads: 5, dirty: 0 });
    expect((await conversationMoveProgress(ctx, ref))?.removed).toBe(31);
    expect(await shardOf(ref).indexMoveCounts(ref)).toEqual({ conversations: 33, agents: 15, counted: 20, visitors: 3 });
    expect((await conversationIndex(ctx, ref)).kind).toBe("shard");

    // The other tenant was not touched.
    expect(await storeOf(other.ref)).toBe("d1");
    expect((await d1Left(other.ref)).conversations).toBe(5);
  });

  it("does not switch while a write is noted; copies it and switches on a later step", async () => {
    const { ref } = await botWithIndex("Busy index", 8);
    await startConversationMove(ctx, ref);
    expect(await runUntil(ref, (p) => p === "switch")).toMatchObject({ phase: "switch" });
    const [first] = await d1Bundles(ref);
    await (await conversationIndex(ctx, ref)).setFlags(first.id, { reported: true });
    // The step that finds the note copies it again instead of switching.
    expect(await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false })).toEqual({ phase: "switch", done: false });
    expect(await storeOf(ref)).toBe("moving");
    expect(await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false })).toEqual({ phase: "cleanup", done: false });
    expect(await (await conversationIndex(ctx, ref)).get(first.id)).toMatchObject({ reported: true });
  });

  it("after the switch takes a late D1 write the shard did not touch, and keeps the shard's own change over D1's", async () => {
    const { ref } = await botWithIndex("Late writes", 6);
    await startConversationMove(ctx, ref);
    await runUntil(ref, (p) => p === "cleanup");
    const [a, b] = await d1Bundles(ref);
    // A request that read 'moving' writes D1 after the switch (both), and the shard changed b itself.
    await ctx.env.DB.prepare("UPDATE conversations SET title = 'late' WHERE id IN (?, ?)").bind(a.id, b.id).run();
    const shard = await conversationIndex(ctx, ref);
    expect(b.reported).toBe(0);
    await shard.setFlags(b.id, { reported: true });
    await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false });
    expect(await shard.get(a.id)).toMatchObject({ title: "late" });
    expect(await shard.get(b.id)).toMatchObject({ title: b.title, reported: true });
  });

  it("fails after five failed steps in a row: back to D1, the shard's copy dropped, the owner told", async () => {
    const { ref } = await botWithIndex("Broken index", 4);
    // A value the copy cannot carry (a blob where text is expected): every copy step fails.
    await ctx.env.DB.prepare("UPDATE conversations SET title = X'00ff' WHERE chatbot_id = ? AND id = (SELECT min(id) FROM conversations WHERE chatbot_id = ?)")
      .bind(ref.chatbotId, ref.chatbotId)
      .run();
    await startConversationMove(ctx, ref);
    for (let i = 0; i < 4; i++) await expect(runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false })).rejects.toThrow();
    expect(await conversationMoveNotice(ctx, ref, "moving", true)).toMatchObject({ state: "moving", phase: "copy" });
    expect(await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false })).toEqual({ phase: "failed", done: true });
    expect(await storeOf(ref)).toBe("d1");
    expect(await shardOf(ref).indexMoveCounts(ref)).toEqual({ conversations: 0, agents: 0, counted: 0, visitors: 0 });
    expect((await d1Left(ref)).conversations).toBe(4);
    expect(await conversationMoveNotice(ctx, ref, "d1", true)).toMatchObject({ state: "failed", error: expect.stringContaining("5 times") });
    expect(await conversationMoveNotice(ctx, ref, "d1", false)).toBeNull();
    // No longer noted: the triggers write only while a move runs.
    await ctx.env.DB.prepare("UPDATE conversations SET verified = 1 WHERE chatbot_id = ?").bind(ref.chatbotId).run();
    expect((await d1Left(ref)).dirty).toBe(0);
  });

  it("refuses another chatbot's ref and another chatbot's rows", async () => {
    const { ref } = await botWithIndex("Isolated", 3);
    const intruder = await botWithIndex("Intruder", 2);
    await startConversationMove(ctx, ref);
    await runUntil(ref, (p) => p === "switch");
    const shard = shardOf(ref);
    const theirs = await d1Bundles(intruder.ref);
    const ours = await d1Bundles(ref);
    const wrongRef = { orgId: intruder.ref.orgId, chatbotId: ref.chatbotId };
    expect(await shard.importConversations(wrongRef, ours)).toEqual({ imported: 0, kept: [], refused: 3 });
    expect(await shard.conversationChecksums(wrongRef, [ours[0].id])).toEqual({});
    expect(await shard.indexMoveCounts(wrongRef)).toEqual({ conversations: 0, agents: 0, counted: 0, visitors: 0 });
    expect(await shard.resetIndexForMove(wrongRef)).toEqual({ ok: false });
    // The right ref with another chatbot's rows: refused row by row.
    expect(await shard.importConversations(ref, theirs)).toEqual({ imported: 0, kept: [], refused: 2 });
    expect(await shard.indexMoveCounts(ref)).toMatchObject({ conversations: 3 });
  });

  it("starts only for chatbots whose messages moved; the cron's sweep starts them by default", async () => {
    const { ref } = await botWithIndex("Sweep index", 2);
    const notReady = await botWithIndex("Messages in D1", 2);
    await db.update(chatbots).set({ messageStore: "d1" }).where(eq(chatbots.id, notReady.ref.chatbotId));
    expect((await startConversationMove(ctx, notReady.ref)).ok).toBe(false);
    await db.update(chatbots).set({ createdAt: 0 }).where(eq(chatbots.id, ref.chatbotId));
    // A caller may still ask for resumes only.
    expect((await sweepConversationMoves(ctx, { startNew: false })).started).toEqual([]);
    expect(await storeOf(ref)).toBe("d1");
    // The cron's call (workers/scheduled.ts passes no options) starts the ready chatbot, oldest first.
    sent.length = 0;
    const r = await sweepConversationMoves(ctx);
    expect(r.started[0]).toBe(ref.chatbotId);
    expect(r.started).not.toContain(notReady.ref.chatbotId);
    expect(await storeOf(ref)).toBe("moving");
    expect(await storeOf(notReady.ref)).toBe("d1");
    expect(sent).toContainEqual({ kind: "conversation-move", chatbotId: ref.chatbotId });
    // A stalled move is resumed whether or not new ones start.
    const row = (await db.select().from(conversationMoves).where(eq(conversationMoves.chatbotId, ref.chatbotId)).get())!;
    const resumed = await sweepConversationMoves(ctx, { now: row.updatedAt + 16 * 60_000, running: 50 });
    expect(resumed.resumed).toContain(ref.chatbotId);
  });

  it("reads D1's pages from the chatbot's visitor index, never a table scan", async () => {
    const { results } = await ctx.env.DB.prepare(`EXPLAIN QUERY PLAN ${PAGE_SQL}`).bind("cb", "org", "", "", 200).all<{ detail: string }>();
    const plan = results.map((r) => r.detail).join("\n");
    expect(plan).toMatch(/SEARCH c USING INDEX conversations_visitor_idx/);
    expect(plan).not.toMatch(/SCAN c\b/);
    // Conversations by id (on D1 and in the shard) by primary key.
    const { results: byIds } = await ctx.env.DB.prepare(`EXPLAIN QUERY PLAN ${BY_IDS_SQL}`).bind("cb", "org", "[]").all<{ detail: string }>();
    expect(byIds.map((r) => r.detail).join("\n")).toMatch(/SEARCH c USING INDEX sqlite_autoindex_conversations_1 \(id=\?\)/);
    // The cleanup deletes by primary key (the chatbot's own indexes would walk all its rows per page);
    // a conversation's notes (many to a conversation, ADR 054) by their conversation's index.
    for (const q of REMOVE_SQL) {
      const { results: steps } = await ctx.env.DB.prepare(`EXPLAIN QUERY PLAN ${q}`)
        .bind(...removeParams(q, "[]", { chatbotId: "cb", orgId: "org" }))
        .all<{ detail: string }>();
      const detail = steps.map((r) => r.detail).join("\n");
      expect(detail).toMatch(
        /USING (INTEGER PRIMARY KEY|INDEX sqlite_autoindex_\w+_1|PRIMARY KEY|INDEX conversation_notes_conversation_idx \(conversation_id=\?\))/,
      );
      expect(detail).not.toMatch(/chatbot_idx|visitor_idx|user_idx/);
    }
  });

  it("lets a chatbot be deleted in the middle of its move (the leads' trigger notes nothing that fails the delete)", async () => {
    const { ref } = await botWithIndex("Deleted mid-move", 4);
    await startConversationMove(ctx, ref);
    await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false });
    expect(await deleteChatbot(testContext(), ref)).toMatchObject({ id: ref.chatbotId });
    expect(await db.select().from(chatbots).where(eq(chatbots.id, ref.chatbotId)).get()).toBeUndefined();
    expect(await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false })).toEqual({ phase: "missing", done: true });
    expect((await d1Left(ref)).conversations).toBe(0);
  });
});
