import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { takeTurn, turnReply } from "~/.server/chat/turn";
import { conversationIndex } from "~/.server/chat/conversation-index";
import { conversationMoveProgress, runConversationMoveStep, startConversationMove } from "~/.server/chat/conversation-move";
import type { ChatbotRef } from "~/.server/chat/message-store";
import { deleteChatbot } from "~/.server/chatbots/chatbots";
import { createServiceContext } from "~/.server/context";
import { chatbots, organisations } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { addNote, listNotes, notesShard } from "~/.server/inbox/notes";
import { NOTES_OF_SQL, noteHash, type MovedNote, type NotesMoveApi } from "~/.server/inbox/notes-move";
import { createLead, deleteLead } from "~/.server/leads/leads";
import { createCustomTool } from "~/.server/tools/custom-tools";
import { getPendingCall, type PendingShardApi } from "~/.server/tools/local-intent";
import { db, makeOrg, makeUser, testContext } from "../factories";
import { recordingQueueContext } from "./recording-queue";

// Agents' notes and the built-in engine's pending tool calls next to the conversation index
// (ADR 054): in the chatbot's ConversationShard when its index is there (D1 holds none), reached only
// through the chatbot's ref; carried by the index move with checksums, including a note written
// while the chatbot was 'moving' or just after the switch.

async function chatbotWith(name: string, conversationStore: "d1" | "shard") {
  const owner = await makeUser({ name: `${name} Owner` });
  const { org, bot } = await makeOrg(owner.id, name, { plan: "starter" });
  await db.update(chatbots).set({ messageStore: "shard", conversationStore }).where(eq(chatbots.id, bot.id));
  return { owner, ref: { orgId: org.id, chatbotId: bot.id } as ChatbotRef };
}

const d1Notes = async (chatbotId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM conversation_notes WHERE chatbot_id = ?").bind(chatbotId).first<{ n: number }>())!.n;
const d1Pending = async (chatbotId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM tool_pending_calls WHERE chatbot_id = ?").bind(chatbotId).first<{ n: number }>())!.n;

describe("notes on a chatbot whose conversation index is in its shard", () => {
  it("are written and listed in the shard, D1 holds none; another tenant reads and writes nothing", async () => {
    const ctx = testContext();
    const { owner, ref } = await chatbotWith("Shard notes", "shard");
    const c = await (await conversationIndex(ctx, ref)).open({ visitorId: "v_notes", channel: "widget" });
    const a = await addNote(ctx, ref, { conversationId: c.id, author: { id: owner.id, name: "Ada" }, body: "Refund approved" });
    const b = await addNote(ctx, ref, { conversationId: c.id, author: { id: owner.id, name: "Ada" }, body: "Called back" });
    expect(a.ok && b.ok).toBe(true);
    expect((await listNotes(ctx, ref, c.id)).map((n) => n.body)).toEqual(["Refund approved", "Called back"]);
    expect(await d1Notes(ref.chatbotId)).toBe(0);
    expect(await notesShard(ctx.env, ref).notesList(ref, c.id)).toHaveLength(2);
    // A missing conversation: refused.
    expect(await addNote(ctx, ref, { conversationId: "cv_nope", author: { id: owner.id, name: "Ada" }, body: "x" })).toMatchObject({
      ok: false,
      code: "not_found",
    });

    // Another organisation's chatbot (its own index in its shard) does not find the conversation.
    const other = await chatbotWith("Other tenant", "shard");
    expect(await addNote(ctx, other.ref, { conversationId: c.id, author: { id: other.owner.id, name: "Eve" }, body: "x" })).toMatchObject({
      ok: false,
      code: "not_found",
    });
    expect(await listNotes(ctx, other.ref, c.id)).toEqual([]);
    // The same organisation named with another chatbot's id, or another organisation with this id: the object refuses.
    const shard = notesShard(ctx.env, ref);
    expect(await shard.notesList({ orgId: other.ref.orgId, chatbotId: ref.chatbotId }, c.id)).toEqual([]);
    expect(await shard.notesList({ orgId: ref.orgId, chatbotId: other.ref.chatbotId }, c.id)).toEqual([]);
    const row = {
      id: "note_forged",
      orgId: other.ref.orgId,
      chatbotId: ref.chatbotId,
      conversationId: c.id,
      userId: null,
      authorName: "Eve",
      body: "x",
      createdAt: 1,
    };
    expect(await shard.notesAdd({ orgId: other.ref.orgId, chatbotId: ref.chatbotId }, row)).toBe(false);
    expect(await shard.notesAdd(ref, row)).toBe(false); // a row of another organisation, under the right ref
    expect(await listNotes(ctx, ref, c.id)).toHaveLength(2);
  });

  it("a 'd1' chatbot keeps them in D1", async () => {
    const ctx = testContext();
    const { owner, ref } = await chatbotWith("D1 notes", "d1");
    const c = await (await conversationIndex(ctx, ref)).open({ visitorId: "v_notes", channel: "widget" });
    await addNote(ctx, ref, { conversationId: c.id, author: { id: owner.id, name: "Ada" }, body: "In D1" });
    expect(await d1Notes(ref.chatbotId)).toBe(1);
    expect((await listNotes(ctx, ref, c.id)).map((n) => n.body)).toEqual(["In D1"]);
  });

  it("stay when a lead is deleted (as in D1) and go with the chatbot", async () => {
    const ctx = testContext();
    const { owner, ref } = await chatbotWith("Deleted notes", "shard");
    const c = await (await conversationIndex(ctx, ref)).open({ visitorId: "v_lead", channel: "widget" });
    await addNote(ctx, ref, { conversationId: c.id, author: { id: owner.id, name: "Ada" }, body: "Keep me" });
    const lead = await createLead(ctx, ref, { conversationId: c.id, visitorId: "v_lead", name: "Lu", email: "lu@example.com" });
    expect(await deleteLead(ctx, ref, lead.id)).toBe(true);
    expect(await listNotes(ctx, ref, c.id)).toHaveLength(1);

    expect(await deleteChatbot(ctx, ref)).toMatchObject({ id: ref.chatbotId });
    // The object's whole storage went with the messages (a fresh object answers nothing).
    expect(await notesShard(ctx.env, ref).notesList(ref, c.id)).toEqual([]);
    expect(await d1Notes(ref.chatbotId)).toBe(0);
  });
});

describe("notes in the conversation index's move (ADR 051, ADR 054)", () => {
  const { ctx } = recordingQueueContext();
  const LATER = () => Date.now() + 3_600_000;
  const shardOf = (ref: ChatbotRef) => ctx.env.CONVERSATION_SHARD.get(ctx.env.CONVERSATION_SHARD.idFromName(ref.chatbotId)) as unknown as NotesMoveApi;

  async function d1NoteRows(ref: ChatbotRef, ids: string[]): Promise<MovedNote[]> {
    const { results } = await ctx.env.DB.prepare(NOTES_OF_SQL).bind(JSON.stringify(ids), ref.chatbotId, ref.orgId).all<MovedNote>();
    return results;
  }

  async function runUntil(ref: ChatbotRef, stop: (phase: string) => boolean = () => false, now?: () => number) {
    for (let i = 0; i < 100; i++) {
      const r = await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false, now: now?.() });
      if (r.done || stop(r.phase)) return r;
    }
    throw new Error("the move did not end in 100 steps");
  }

  it("copies every note with its checksum, keeps one written while moving and one written late to D1, then removes D1's", async () => {
    const { owner, ref } = await chatbotWith("Notes move", "d1");
    const other = await chatbotWith("Notes move other", "d1");
    const index = await conversationIndex(ctx, ref);
    const convs = [];
    for (let i = 0; i < 12; i++) convs.push(await index.open({ visitorId: `v_${String(i).padStart(2, "0")}`, channel: "widget" }));
    for (const [i, c] of convs.entries())
      for (let k = 0; k < (i % 3) + 1; k++) await addNote(ctx, ref, { conversationId: c.id, author: { id: owner.id, name: "Ada" }, body: `note ${i}.${k}` });
    const oc = await (await conversationIndex(ctx, other.ref)).open({ visitorId: "v_other", channel: "widget" });
    await addNote(ctx, other.ref, { conversationId: oc.id, author: { id: other.owner.id, name: "Eve" }, body: "not moved" });
    const ids = convs.map((c) => c.id);
    expect(await d1Notes(ref.chatbotId)).toBe(24);

    expect(await startConversationMove(ctx, ref)).toEqual({ ok: true });
    expect((await runConversationMoveStep(ctx, ref.chatbotId, { enqueue: false })).phase).toBe("leads");
    // The first page's notes are in the shard, checksum for checksum.
    const copied = await d1NoteRows(ref, ids);
    expect(
      await shardOf(ref).noteChecksums(
        ref,
        copied.map((n) => n.id),
      ),
    ).toEqual(Object.fromEntries(copied.map((n) => [n.id, noteHash(n)])));

    // While moving, a note goes to D1 and its conversation is noted by the trigger (migration 0035).
    expect((await conversationIndex(ctx, ref)).kind).toBe("d1");
    const during = await addNote(ctx, ref, { conversationId: convs[5].id, author: { id: owner.id, name: "Bea" }, body: "written while moving" });
    expect(during.ok).toBe(true);
    const noted = await ctx.env.DB.prepare("SELECT conversation_id FROM conversation_move_dirty WHERE chatbot_id = ?").bind(ref.chatbotId).all();
    expect(noted.results).toContainEqual({ conversation_id: convs[5].id });

    expect(await runUntil(ref, (p) => p === "cleanup")).toEqual({ phase: "cleanup", done: false });
    expect((await conversationIndex(ctx, ref)).kind).toBe("shard");
    expect((await listNotes(ctx, ref, convs[5].id)).map((n) => n.body)).toContain("written while moving");

    // A request that read 'moving' writes its note to D1 after the switch: the grace period copies it.
    await ctx.env.DB.prepare(
      "INSERT INTO conversation_notes (id, org_id, chatbot_id, conversation_id, user_id, author_name, body, created_at) VALUES ('note_late', ?, ?, ?, NULL, 'Late', 'late note', ?)",
    )
      .bind(ref.orgId, ref.chatbotId, convs[7].id, Date.now())
      .run();
    // And one written in the shard now that it serves.
    await addNote(ctx, ref, { conversationId: convs[7].id, author: { id: owner.id, name: "Cy" }, body: "in the shard" });
    const all = await d1NoteRows(ref, ids);
    expect(all).toHaveLength(26);
    expect(await runUntil(ref, undefined, LATER)).toEqual({ phase: "done", done: true });

    // Every D1 note is in the shard with the same checksum; D1 holds none of this chatbot's; the other tenant's stays.
    expect(
      await shardOf(ref).noteChecksums(
        ref,
        all.map((n) => n.id),
      ),
    ).toEqual(Object.fromEntries(all.map((n) => [n.id, noteHash(n)])));
    expect(await shardOf(ref).noteCount(ref)).toBe(27);
    expect(await d1Notes(ref.chatbotId)).toBe(0);
    expect(await d1Notes(other.ref.chatbotId)).toBe(1);
    expect((await listNotes(ctx, ref, convs[7].id)).map((n) => n.body)).toEqual(expect.arrayContaining(["late note", "in the shard"]));
    expect((await conversationMoveProgress(ctx, ref))?.removed).toBe(12);
    // Another chatbot's ref is refused by the object.
    expect(await shardOf(ref).noteCount(other.ref)).toBe(0);
    expect(await shardOf(ref).importNotes(ref, [{ ...all[0], id: "note_x", org_id: other.ref.orgId }])).toEqual({ imported: 0, refused: 1 });
  });
});

describe("pending tool calls on a chatbot whose conversation index is in its shard", () => {
  const api = inject("toolApiUrl");
  const ctx = createServiceContext({ ...(env as unknown as Env), TOOLS_ALLOW_PRIVATE_NETWORK: "1" });

  it("asks, remembers across turns in the shard (D1 holds none), and calls after the visitor's yes", async () => {
    const { ref } = await chatbotWith("Shard tools", "shard");
    const created = await createCustomTool(ctx, ref, {
      name: "book_table",
      description: "Books a table at the restaurant for a number of people on a date.",
      examples: ["book a table for {people} people", "reserve a table"],
      method: "POST",
      urlTemplate: `${api}/bookings`,
      headers: [],
      parameters: {
        type: "object",
        properties: {
          people: { type: "integer" },
          date: { type: "string", format: "date" },
          name: { type: "string", description: "The name for the booking" },
        },
        required: ["people", "date", "name"],
      },
      timeoutMs: 5000,
      confirm: true,
      resultTemplate: "Booked: {{result.id}} for {{result.people}} people, {{params.name}}.",
      enabled: true,
    });
    if (!created.ok) throw new Error(created.message);
    const target = async () => ({
      chatbot: (await db.select().from(chatbots).where(eq(chatbots.id, ref.chatbotId)).get())!,
      org: (await db.select().from(organisations).where(eq(organisations.id, ref.orgId)).get())!,
    });
    const say = async (text: string) => {
      const r = await turnReply(await takeTurn(ctx, { target: await target(), channel: "widget", visitorId: "v_tools_shard", text }));
      if (!r.ok) throw new Error(r.message);
      return { text: r.message?.content ?? "", conversationId: r.conversationId };
    };
    const pendingRef = { ...ref, conversationStore: "shard" as const };

    const first = await say("Can I book a table for 4 people on 2026-12-01?");
    expect(first.text).toBe("I can do that. Please tell me the name for the booking.");
    expect(await getPendingCall(ctx, pendingRef, first.conversationId)).toMatchObject({ stage: "collect", params: { people: 4, date: "2026-12-01" } });
    expect(await d1Pending(ref.chatbotId)).toBe(0);
    expect((await say("Anna Smith")).text).toBe("Shall I book table (people: 4, date: 2026-12-01, name: Anna Smith)?");
    expect(await getPendingCall(ctx, pendingRef, first.conversationId)).toMatchObject({ stage: "confirm" });
    // Another tenant's ref is refused by the object; it expires after its 15 minutes.
    const shard = ctx.env.CONVERSATION_SHARD.get(ctx.env.CONVERSATION_SHARD.idFromName(ref.chatbotId)) as unknown as PendingShardApi;
    expect(await shard.pendingGet({ orgId: "org_other", chatbotId: ref.chatbotId }, first.conversationId, Date.now())).toBeNull();
    expect(await getPendingCall(ctx, pendingRef, first.conversationId, Date.now() + 16 * 60_000)).toBeNull();
    expect((await say("Yes please")).text).toBe("Booked: B-2001 for 4 people, Anna Smith.");
    expect(await getPendingCall(ctx, pendingRef, first.conversationId)).toBeNull();
    expect(await d1Pending(ref.chatbotId)).toBe(0);
  });
});
