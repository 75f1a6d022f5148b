import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { CONVERSATION_MOVE_RUNNING, type ConversationMoveNotice } from "~/lib/conversation-move";
import type { ServiceContext } from "../context";
import { failedMoveNotice, freeMoveSlots, resumeStalledMoves, RETRY_FAILED_AFTER_MS, valuesHash } from "../db/moves";
import { chatbots, conversationMoves } from "../db/schema";
import type { Env } from "../env";
import type { ConversationStoreKind } from "./conversation-index";
import type { ConversationShardMoveApi } from "./message-move";
import type { ChatbotRef } from "./message-store";
import { copyNotesAndCheck, notesCountsDiffer, NOTES_REMOVE_SQL, PENDING_REMOVE_SQL } from "../inbox/notes-move";

// Moving a chatbot's conversation index from D1 into its ConversationShard (issue #20 item 3,
// ADR 051; ADR 044 §7): its conversation rows, their live agents (`conversation_agents`),
// analytics' counted-once marks (`analytics_conversations`) and its visitors' contacts
// (`visitor_leads`, derived from D1's `leads`, which stay in D1). Only for a chatbot whose messages
// are already in the shard (the index lists them). A resumable job like the message move (ADR 042):
// one bounded step per queue message, its state in `conversation_moves`, the chatbot 'moving' meanwhile,
// which keeps D1 serving reads and writes (conversationIndex() treats 'moving' as D1).
//
//   copy     the chatbot's conversations in (visitor, id) order, a page per step: each one's row,
//            agent row and analytics mark imported by id, then checksummed on both sides (every
//            column); a differing one is imported again, still differing fails the step.
//   leads    the visitors' contacts, a range of visitor ids per step, replaced and checksummed.
//   switch   D1's triggers (migration 0034) note every conversation written since the move began
//            in `conversation_move_dirty`; the switch copies and checks those again until none is
//            left, compares the exact counts, tells the shard it serves, then one conditional UPDATE
//            sets 'shard' only while nothing is noted — so nothing written in D1 before it is missed.
//   cleanup  for five minutes a request that read 'moving' may still write to D1: what it writes is
//            noted and copied into the shard (unless the shard changed that conversation itself since).
//            Then D1's rows go page by page, each copied just before it is deleted. The visitors by
//            day (`analytics_visitors`) are not copied here: the switch flags the chatbot
//            (`visitors_in_d1`) and the cron's sweep moves them (analytics/visitors.ts, ADR 076); the
//            same for the question groups (`questions_in_d1`, analytics/question-groups.ts, ADR 077).
//
// Five failed steps in a row before the switch fail the move: back to 'd1' (which never stopped
// serving), the shard's copy of the index dropped, the sweep tries again after a day.

type Ctx = Pick<ServiceContext, "env" | "db">;
export type ConversationMoveMessage = { kind: "conversation-move"; chatbotId: string };

/** D1's conversation columns, copied and checksummed in this order (the shard's table has the same, ADR 044). */
export const CONVERSATION_COLUMNS = [
  "id",
  "org_id",
  "chatbot_id",
  "visitor_id",
  "channel",
  "status",
  "verified",
  "country",
  "rating",
  "title",
  "message_count",
  "created_at",
  "last_message_at",
  "unanswered",
  "reported",
  "has_lead",
  "lead_name",
  "lead_email",
  "page_url",
] as const;
/** The conversation's agent row and analytics mark, null when it has none (agent_name and day are NOT NULL). */
const EXTRA_COLUMNS = ["agent_user_id", "agent_name", "agent_taken_at", "agent_closed_at", "counted_day", "counted_problem"] as const;
const BUNDLE_COLUMNS = [...CONVERSATION_COLUMNS, ...EXTRA_COLUMNS] as const;

const value = z.union([z.string(), z.number(), z.null()]);
/** One conversation as moved: its row with its agent and analytics columns (raw SQLite values). */
export const movedConversationSchema = z.object({
  ...(Object.fromEntries(BUNDLE_COLUMNS.map((c) => [c, value])) as Record<(typeof BUNDLE_COLUMNS)[number], typeof value>),
  // The keys the import and the tenant check rely on.
  id: z.string(),
  org_id: z.string(),
  chatbot_id: z.string(),
  visitor_id: z.string(),
});
export type MovedConversation = z.infer<typeof movedConversationSchema>;
export const movedConversationsSchema = z.array(movedConversationSchema).max(500);

export const visitorLeadSchema = z.object({ visitor_id: z.string(), name: z.string().nullable(), email: z.string().nullable(), updated_at: z.number() });
export type VisitorLead = z.infer<typeof visitorLeadSchema>;
export const visitorLeadsSchema = z.array(visitorLeadSchema).max(500);

/** A conversation's checksum: every moved column, its agent's and its analytics mark's included. */
export const conversationHash = (r: MovedConversation) => valuesHash(BUNDLE_COLUMNS.map((c) => r[c]));
export const visitorLeadHash = (r: VisitorLead) => valuesHash([r.visitor_id, r.name, r.email, r.updated_at]);

const BUNDLE_FROM = `SELECT ${CONVERSATION_COLUMNS.map((c) => `c.${c}`).join(", ")},
  a.user_id AS agent_user_id, a.agent_name AS agent_name, a.taken_at AS agent_taken_at, a.closed_at AS agent_closed_at,
  x.day AS counted_day, x.problem AS counted_problem
  FROM conversations c
  LEFT JOIN conversation_agents a ON a.conversation_id = c.id AND a.chatbot_id = c.chatbot_id
  LEFT JOIN analytics_conversations x ON x.conversation_id = c.id AND x.chatbot_id = c.chatbot_id`;
/**
 * The conversations with their agent row and analytics mark; runs on D1 and, inside the shard, on
 * its storage. Append a condition on `c` (plain `?` parameters after chatbot and organisation).
 */
export const BUNDLE_SQL = `${BUNDLE_FROM} WHERE c.chatbot_id = ? AND c.org_id = ?`;
/**
 * The same by ids (binds chatbot, organisation, the ids as JSON), by primary key: the `+` keeps
 * SQLite from walking the chatbot's visitor index once per id (measured: ~0.45 s per 200 ids at
 * 2,000 conversations in the shard).
 */
export const BY_IDS_SQL = `${BUNDLE_FROM} WHERE +c.chatbot_id = ? AND +c.org_id = ? AND c.id IN (SELECT value FROM json_each(?))`;

/** Exact counts the switch compares: conversations, their agent rows and analytics marks, visitors with a contact. */
export type IndexCounts = { conversations: number; agents: number; counted: number; visitors: number };
/** `kept`: conversations the shard changed itself since it serves, so D1's later write was not taken (logged). */
export type ImportResult = { imported: number; kept: string[]; refused: number };

/**
 * The move's side of a chatbot's ConversationShard (workers/durable-objects/conversation-shard.ts),
 * every method with the chatbot's ref first; the object refuses another chatbot's (answers empty).
 */
export type ConversationIndexMoveApi = {
  /** Empties the object's conversation index for a new copy (messages stay); refused once it serves. */
  resetIndexForMove(ref: ChatbotRef): Promise<{ ok: boolean }>;
  importConversations(ref: ChatbotRef, rows: MovedConversation[]): Promise<ImportResult>;
  conversationChecksums(ref: ChatbotRef, ids: string[]): Promise<Record<string, number>>;
  /** Replaces the visitors' contacts with ids in (after, through] (through null: to the end). */
  importVisitorLeads(ref: ChatbotRef, after: string, through: string | null, rows: VisitorLead[]): Promise<number>;
  visitorLeadsChecksum(ref: ChatbotRef, after: string, through: string | null): Promise<{ count: number; hash: number }>;
  indexMoveCounts(ref: ChatbotRef): Promise<IndexCounts>;
  beginServingIndex(ref: ChatbotRef): Promise<void>;
  finishIndexMove(ref: ChatbotRef): Promise<void>;
  /** A failed move (D1 serves again): the copy of the index goes, even from an object told it serves. */
  dropIndexCopy(ref: ChatbotRef): Promise<void>;
};

const shardStub = (env: Pick<Env, "CONVERSATION_SHARD">, ref: ChatbotRef) =>
  env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(ref.chatbotId)) as unknown as ConversationIndexMoveApi &
    Pick<ConversationShardMoveApi, "dropAll">;

/** Conversations per step (and per call to the shard); visitors per leads step; noted conversations per switch or cleanup step. */
const PAGE = 200;
const LEADS_PAGE = 200;
const DIRTY_PAGE = 200;
const MAX_ATTEMPTS = 5;
/** Switch steps that found conversations written since their check, before giving up (a chatbot busier than the copy). */
const MAX_ROUNDS = 20;
/** After the switch, how long a request that read 'moving' may still write to D1 (as ADR 042); nothing is deleted before. */
export const SWITCH_GRACE_MS = 5 * 60_000;
const GRACE_POLL_S = 30;
const SWEEP_START = 5;
const SWEEP_RUNNING = 10;
const STALLED_AFTER_MS = 15 * 60_000;
/**
 * Whether the cron sweep starts conversation moves. On since every caller reads and writes through
 * `conversationIndex()` or picks by `conversation_store` (ADR 051 §9 lists what had to land; its
 * Status cites where). A caller's `startNew: false` starts none; stalled moves are resumed either way.
 */
export const SWEEP_STARTS_CONVERSATION_MOVES = true;

const STEP_FAILED = `Copying the conversation list failed ${MAX_ATTEMPTS} times in a row.`;

export function isConversationMoveMessage(body: unknown): body is ConversationMoveMessage {
  return (
    !!body &&
    typeof body === "object" &&
    (body as ConversationMoveMessage).kind === "conversation-move" &&
    typeof (body as ConversationMoveMessage).chatbotId === "string"
  );
}

export async function enqueueConversationMove(env: Pick<Env, "INGEST_QUEUE">, chatbotId: string, delaySeconds?: number) {
  const message: ConversationMoveMessage = { kind: "conversation-move", chatbotId };
  await env.INGEST_QUEUE.send(message, delaySeconds ? { delaySeconds } : undefined);
}

// ——— D1's side ———

const cursorOf = (r: Pick<MovedConversation, "visitor_id" | "id">) => `${r.visitor_id}|${r.id}`;
function parseCursor(cursor: string): [string, string] {
  const bar = cursor.indexOf("|");
  return bar < 0 ? ["", ""] : [cursor.slice(0, bar), cursor.slice(bar + 1)];
}

/** A page in (visitor, id) order: binds chatbot, organisation, the cursor's visitor and id, the limit. */
export const PAGE_SQL = `${BUNDLE_SQL} AND (c.visitor_id, c.id) > (?, ?) ORDER BY c.visitor_id, c.id LIMIT ?`;

/** The next conversations after `cursor`, keyset over D1's (chatbot, visitor) index. Every conversation, with or without messages. */
async function d1Page(ctx: Ctx, ref: ChatbotRef, cursor: string): Promise<MovedConversation[]> {
  const [visitor, id] = parseCursor(cursor);
  const { results } = await ctx.env.DB.prepare(PAGE_SQL).bind(ref.chatbotId, ref.orgId, visitor, id, PAGE).all<MovedConversation>();
  return results;
}

async function d1ByIds(ctx: Ctx, ref: ChatbotRef, ids: string[]): Promise<MovedConversation[]> {
  if (!ids.length) return [];
  const { results } = await ctx.env.DB.prepare(BY_IDS_SQL).bind(ref.chatbotId, ref.orgId, JSON.stringify(ids)).all<MovedConversation>();
  return results;
}

/** The contacts of the next visitors after `after`, derived as D1's open copies them (the newest name and email of each visitor's leads). */
async function d1VisitorLeads(ctx: Ctx, ref: ChatbotRef, after: string): Promise<VisitorLead[]> {
  const theirs = "FROM leads WHERE chatbot_id = ?1 AND org_id = ?2 AND visitor_id = v.visitor_id";
  const { results } = await ctx.env.DB.prepare(
    `SELECT v.visitor_id,
       (SELECT name ${theirs} AND name IS NOT NULL ORDER BY created_at DESC LIMIT 1) AS name,
       (SELECT email ${theirs} AND email IS NOT NULL ORDER BY created_at DESC LIMIT 1) AS email,
       (SELECT max(created_at) ${theirs}) AS updated_at
     FROM (SELECT DISTINCT visitor_id FROM leads WHERE chatbot_id = ?1 AND org_id = ?2 AND visitor_id > ?3 ORDER BY visitor_id LIMIT ?4) v
     ORDER BY v.visitor_id`,
  )
    .bind(ref.chatbotId, ref.orgId, after, LEADS_PAGE)
    .all<VisitorLead>();
  return results;
}

async function d1Counts(ctx: Ctx, ref: ChatbotRef): Promise<IndexCounts> {
  const row = await ctx.env.DB.prepare(
    `SELECT (SELECT count(*) FROM conversations WHERE chatbot_id = ?1 AND org_id = ?2) AS conversations,
       (SELECT count(*) FROM conversation_agents a JOIN conversations c ON c.id = a.conversation_id AND c.chatbot_id = a.chatbot_id WHERE a.chatbot_id = ?1 AND c.org_id = ?2) AS agents,
       (SELECT count(*) FROM analytics_conversations x JOIN conversations c ON c.id = x.conversation_id AND c.chatbot_id = x.chatbot_id WHERE x.chatbot_id = ?1 AND c.org_id = ?2) AS counted,
       (SELECT count(DISTINCT visitor_id) FROM leads WHERE chatbot_id = ?1 AND org_id = ?2 AND visitor_id > '') AS visitors`,
  )
    .bind(ref.chatbotId, ref.orgId)
    .first<IndexCounts>();
  return row!;
}

/** Takes (removes) up to a page of the conversations noted as written since; "" among them: the leads changed. */
async function takeDirty(ctx: Ctx, ref: ChatbotRef): Promise<{ ids: string[]; leads: boolean }> {
  const { results } = await ctx.env.DB.prepare(
    `DELETE FROM conversation_move_dirty WHERE chatbot_id = ?1 AND conversation_id IN
       (SELECT conversation_id FROM conversation_move_dirty WHERE chatbot_id = ?1 LIMIT ?2) RETURNING conversation_id`,
  )
    .bind(ref.chatbotId, DIRTY_PAGE)
    .all<{ conversation_id: string }>();
  const ids = results.map((r) => r.conversation_id);
  return { ids: ids.filter((id) => id !== ""), leads: ids.includes("") };
}

/** Notes conversations again (a copy that did not check out): the next step takes them. */
async function noteDirty(ctx: Ctx, ref: ChatbotRef, ids: string[]) {
  if (!ids.length) return;
  await ctx.env.DB.prepare("INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) SELECT ?, value FROM json_each(?)")
    .bind(ref.chatbotId, JSON.stringify(ids))
    .run();
}

/**
 * Imports D1's conversations into the shard and checks each one's checksum there; a differing one
 * is imported once more. Before the switch every one must then match (else the step fails and is
 * retried); after it, one the shard changed itself since it serves is kept as the shard has it.
 */
async function copyAndCheck(ctx: Ctx, ref: ChatbotRef, rows: MovedConversation[]): Promise<number> {
  if (!rows.length) return 0;
  const shard = shardStub(ctx.env, ref);
  const ids = rows.map((r) => r.id);
  const want = new Map(rows.map((r) => [r.id, conversationHash(r)]));
  const differing = async (of: string[]) => {
    const got = await shard.conversationChecksums(ref, of);
    return of.filter((id) => got[id] !== want.get(id));
  };
  const first = await shard.importConversations(ref, rows);
  if (first.refused) throw new Error(`the shard refused ${first.refused} conversations of ${ref.chatbotId}`);
  const kept = new Set(first.kept);
  let off = (await differing(ids)).filter((id) => !kept.has(id));
  if (off.length) {
    const again = await shard.importConversations(
      ref,
      rows.filter((r) => off.includes(r.id)),
    );
    for (const id of again.kept) kept.add(id);
    off = (await differing(off)).filter((id) => !kept.has(id));
  }
  if (off.length) throw new Error(`${off.length} copied conversations of ${ref.chatbotId} differ from D1's`);
  if (kept.size) console.warn(`[conversation-move] ${ref.chatbotId}: kept the shard's own changes over D1's later writes to ${[...kept].join(", ")}`);
  // Their agents' notes go with them (ADR 054).
  await copyNotesAndCheck(ctx, ref, ids);
  return rows.length;
}

/** One step of the visitors' contacts: the next range replaced in the shard and checked. `done`: it was the last. */
async function copyLeads(ctx: Ctx, ref: ChatbotRef, after: string): Promise<{ done: boolean; cursor: string }> {
  const shard = shardStub(ctx.env, ref);
  const rows = await d1VisitorLeads(ctx, ref, after);
  const done = rows.length < LEADS_PAGE;
  const through = done ? null : rows[rows.length - 1].visitor_id;
  await shard.importVisitorLeads(ref, after, through, rows);
  const got = await shard.visitorLeadsChecksum(ref, after, through);
  const hash = rows.reduce((h, r) => (h + visitorLeadHash(r)) >>> 0, 0);
  if (got.count !== rows.length || got.hash !== hash) throw new Error(`the visitors' contacts of ${ref.chatbotId} differ from D1's leads after ${after}`);
  return { done, cursor: through ?? "" };
}

/** D1's messages of these conversations: none may be left when a conversation row goes (its cascade would delete them). */
async function withMessages(ctx: Ctx, ids: string[]): Promise<number> {
  const row = await ctx.env.DB.prepare("SELECT count(*) AS n FROM messages WHERE conversation_id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(ids))
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Deleting a page (binds ?1 the ids as JSON, ?2 chatbot, ?3 organisation): by primary key. The `+`
 * keeps SQLite from walking the chatbot's index instead (it did: ~0.6 s a step at 5,000 conversations).
 */
export const REMOVE_SQL = [
  "DELETE FROM conversation_agents WHERE conversation_id IN (SELECT value FROM json_each(?1)) AND +chatbot_id = ?2",
  "DELETE FROM analytics_conversations WHERE conversation_id IN (SELECT value FROM json_each(?1)) AND +chatbot_id = ?2",
  "DELETE FROM conversations WHERE id IN (SELECT value FROM json_each(?1)) AND +chatbot_id = ?2 AND +org_id = ?3",
  NOTES_REMOVE_SQL,
  PENDING_REMOVE_SQL,
];

/** D1 wants exactly the parameters a statement names. */
export const removeParams = (q: string, idsJson: string, ref: ChatbotRef) =>
  q.includes("?3") ? [idsJson, ref.chatbotId, ref.orgId] : [idsJson, ref.chatbotId];

/** Copies the first page of D1's conversations into the shard, then deletes them (with their agent rows and analytics marks). */
async function removePage(ctx: Ctx, ref: ChatbotRef): Promise<number> {
  const rows = await d1Page(ctx, ref, "");
  if (!rows.length) return 0;
  const ids = rows.map((r) => r.id);
  if (await withMessages(ctx, ids)) throw new Error(`conversations of ${ref.chatbotId} still have messages in D1`);
  await copyAndCheck(ctx, ref, rows);
  const json = JSON.stringify(ids);
  const db = ctx.env.DB;
  await db.batch(REMOVE_SQL.map((q) => db.prepare(q).bind(...removeParams(q, json, ref))));
  return rows.length;
}

// ——— the job ———

/** A chatbot may start only while its index is in D1, its messages in its shard, and no message move is left to finish. */
const STARTABLE = `conversation_store = 'd1' AND message_store = 'shard'
  AND NOT EXISTS (SELECT 1 FROM message_moves m WHERE m.chatbot_id = chatbots.id AND m.phase <> 'done')`;

/** Starts moving a chatbot's conversation index into its shard. A move under way, or a chatbot not ready for one, is left alone. */
export async function startConversationMove(ctx: Ctx, ref: ChatbotRef): Promise<{ ok: true } | { ok: false; message: string }> {
  const now = Date.now();
  const db = ctx.env.DB;
  const total = await db
    .prepare("SELECT count(*) AS n FROM conversations WHERE chatbot_id = ? AND org_id = ?")
    .bind(ref.chatbotId, ref.orgId)
    .first<{ n: number }>();
  // One transaction: stale notes go, the move row is written and the chatbot marked, all only while
  // it is ready — from then on the triggers note every write, so nothing the copy misses is lost.
  const [, , marked] = await db.batch([
    db.prepare("DELETE FROM conversation_move_dirty WHERE chatbot_id = ?").bind(ref.chatbotId),
    db
      .prepare(
        `INSERT INTO conversation_moves (chatbot_id, org_id, phase, total, started_at, updated_at)
         SELECT id, org_id, 'copy', ?, ?, ? FROM chatbots WHERE id = ? AND org_id = ? AND ${STARTABLE}
         ON CONFLICT (chatbot_id) DO UPDATE SET phase = 'copy', cursor = '', copied = 0, removed = 0, total = excluded.total, rounds = 0,
           attempts = 0, error = NULL, started_at = excluded.started_at, updated_at = excluded.updated_at, switched_at = NULL, finished_at = NULL`,
      )
      .bind(total?.n ?? 0, now, now, ref.chatbotId, ref.orgId),
    db.prepare(`UPDATE chatbots SET conversation_store = 'moving' WHERE id = ? AND org_id = ? AND ${STARTABLE}`).bind(ref.chatbotId, ref.orgId),
  ]);
  if (!marked.meta.changes) return { ok: false, message: "This chatbot's conversation list is already moving or moved, or its messages have not moved yet." };
  await enqueueConversationMove(ctx.env, ref.chatbotId);
  return { ok: true };
}

type Move = typeof conversationMoves.$inferSelect;
type Patch = Partial<typeof conversationMoves.$inferInsert>;
type Advance = { patch: Patch; delay?: number };

async function storeKind(ctx: Ctx, ref: ChatbotRef): Promise<ConversationStoreKind | undefined> {
  const row = await ctx.db
    .select({ k: chatbots.conversationStore })
    .from(chatbots)
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .get();
  return row?.k;
}

async function advance(ctx: Ctx, move: Move, now: number): Promise<Advance> {
  const ref = { orgId: move.orgId, chatbotId: move.chatbotId };
  const shard = shardStub(ctx.env, ref);

  if (move.phase === "copy") {
    // The first step starts from an empty index in the shard (nothing left of an earlier try); a
    // shard that serves refuses: this step is of a chain the move left behind.
    if (!move.cursor && move.copied === 0 && !(await shard.resetIndexForMove(ref)).ok) return { patch: { phase: "failed", error: "The move was stopped." } };
    const rows = await d1Page(ctx, ref, move.cursor);
    const n = await copyAndCheck(ctx, ref, rows);
    const patch: Patch = { copied: move.copied + n, cursor: rows.length ? cursorOf(rows[rows.length - 1]) : move.cursor };
    if (rows.length < PAGE) Object.assign(patch, { phase: "leads", cursor: "", total: Math.max(move.total, patch.copied!) });
    return { patch };
  }

  if (move.phase === "leads") {
    if (!move.cursor) {
      // This pass reads every lead from here on: an earlier note that they changed is answered by it.
      await ctx.env.DB.prepare("DELETE FROM conversation_move_dirty WHERE chatbot_id = ? AND conversation_id = ''").bind(ref.chatbotId).run();
    }
    const { done, cursor } = await copyLeads(ctx, ref, move.cursor);
    if (!done) return { patch: { cursor } };
    return { patch: { phase: move.switchedAt ? "cleanup" : "switch", cursor: "" } };
  }

  if (move.phase === "switch") {
    const store = await storeKind(ctx, ref);
    // The switch took but the step that made it did not record it.
    if (store === "shard") return { patch: { phase: "cleanup", cursor: "", switchedAt: move.switchedAt ?? now } };
    if (store !== "moving") return { patch: { phase: "failed", error: "The move was stopped." } };
    const dirty = await takeDirty(ctx, ref);
    if (dirty.ids.length || dirty.leads) {
      if (move.rounds + 1 > MAX_ROUNDS) {
        await noteDirty(ctx, ref, dirty.ids);
        return { patch: { phase: "failed", error: "Conversations kept changing faster than the copy could be checked." } };
      }
      try {
        await copyAndCheck(ctx, ref, await d1ByIds(ctx, ref, dirty.ids));
      } catch (e) {
        await noteDirty(ctx, ref, dirty.ids); // not lost: the retry takes them again
        throw e;
      }
      return { patch: { rounds: move.rounds + 1, ...(dirty.leads ? { phase: "leads", cursor: "" } : {}) } };
    }
    const [inD1, inShard] = await Promise.all([d1Counts(ctx, ref), shard.indexMoveCounts(ref)]);
    const differs: string[] = (Object.keys(inD1) as (keyof IndexCounts)[]).filter((k) => inD1[k] !== inShard[k]);
    if (await notesCountsDiffer(ctx, ref)) differs.push("notes");
    if (differs.length) {
      // Everything written was noted and copied again: a difference now is not from writes. Nothing is lost (D1 serves).
      return { patch: { phase: "failed", error: `The copy's counts did not match the original (${differs.join(", ")}).` } };
    }
    // The shard first learns it serves, then D1 switches — atomically, only if nothing was written since the check.
    await shard.beginServingIndex(ref);
    const switched = await ctx.env.DB.prepare(
      `UPDATE chatbots SET conversation_store = 'shard', visitors_in_d1 = 1, questions_in_d1 = 1 WHERE id = ? AND org_id = ? AND conversation_store = 'moving'
       AND NOT EXISTS (SELECT 1 FROM conversation_move_dirty WHERE chatbot_id = ?) RETURNING id`,
    )
      .bind(ref.chatbotId, ref.orgId, ref.chatbotId)
      .first();
    if (switched) return { patch: { phase: "cleanup", cursor: "", switchedAt: Date.now() } };
    return { patch: {} }; // written just now: the next step copies it
  }

  // cleanup: the shard serves. First what requests that read 'moving' wrote to D1 since.
  const switchedAt = move.switchedAt ?? now;
  const dirty = await takeDirty(ctx, ref);
  if (dirty.ids.length) {
    try {
      await copyAndCheck(ctx, ref, await d1ByIds(ctx, ref, dirty.ids));
    } catch (e) {
      await noteDirty(ctx, ref, dirty.ids);
      throw e;
    }
  }
  if (dirty.leads) return { patch: { phase: "leads", cursor: "" } };
  if (dirty.ids.length) return { patch: {} };
  if (now < switchedAt + SWITCH_GRACE_MS) {
    // Nothing is deleted while a late write may still come: an update of a deleted row would be lost.
    return { patch: {}, delay: Math.max(1, Math.min(GRACE_POLL_S, Math.ceil((switchedAt + SWITCH_GRACE_MS - now) / 1000))) };
  }
  const n = await removePage(ctx, ref);
  if (n) return { patch: { removed: move.removed + n } };
  await ctx.env.DB.prepare("DELETE FROM conversation_move_dirty WHERE chatbot_id = ?").bind(ref.chatbotId).run();
  await shard.finishIndexMove(ref);
  return { patch: { phase: "done", finishedAt: now } };
}

/**
 * One bounded step of a chatbot's move; queues the next one unless it is done. Safe to run twice
 * (a redelivered message): an import replaces by id, and every phase starts from stored state.
 * `now` is for tests (the grace period after the switch).
 */
export async function runConversationMoveStep(
  ctx: Ctx,
  chatbotId: string,
  opts: { enqueue?: boolean; now?: number } = {},
): Promise<{ phase: string; done: boolean }> {
  const move = await ctx.db.select().from(conversationMoves).where(eq(conversationMoves.chatbotId, chatbotId)).get();
  if (!move || move.phase === "done" || move.phase === "failed") return { phase: move?.phase ?? "missing", done: true };
  let step: Advance;
  try {
    step = await advance(ctx, move, opts.now ?? Date.now());
    if (step.patch.attempts === undefined) Object.assign(step.patch, { attempts: 0, error: step.patch.error ?? null });
  } catch (e) {
    console.error(`[conversation-move] step ${move.phase} for ${chatbotId} failed`, e);
    const attempts = move.attempts + 1;
    // After the switch there is no going back to D1: cleanup (and its leads pass) is retried until done.
    const giveUp = attempts >= MAX_ATTEMPTS && !move.switchedAt;
    const result = await commit(
      ctx,
      move,
      { patch: giveUp ? { phase: "failed", attempts, error: STEP_FAILED } : { attempts, error: "A step of the copy failed; it is tried again." } },
      { enqueue: false },
    );
    if (giveUp || !result.written) return { phase: result.phase, done: result.done };
    throw e; // the queue retries the message
  }
  const { phase, done } = await commit(ctx, move, step, opts);
  return { phase, done };
}

async function commit(ctx: Ctx, move: Move, step: Advance, opts: { enqueue?: boolean }): Promise<{ phase: string; done: boolean; written: boolean }> {
  const ref = { orgId: move.orgId, chatbotId: move.chatbotId };
  const patch = { ...step.patch };
  if (patch.phase === "failed" && (await storeKind(ctx, ref)) === "shard") {
    // Never fail after the switch: the shard serves, so D1's rows are removed instead.
    Object.assign(patch, { phase: "cleanup", cursor: "", switchedAt: move.switchedAt ?? Date.now() });
  }
  // Only if no other step wrote since this one read (two chains after a resume: the loser stops).
  const written = await ctx.db
    .update(conversationMoves)
    .set({ ...patch, updatedAt: Math.max(Date.now(), move.updatedAt + 1) })
    .where(and(eq(conversationMoves.chatbotId, move.chatbotId), eq(conversationMoves.updatedAt, move.updatedAt)))
    .returning({ id: conversationMoves.chatbotId })
    .get();
  if (!written) {
    // The chatbot was deleted while this step ran (its move row went with it): what the step wrote to its shard goes too.
    const exists = await ctx.db.select({ id: chatbots.id }).from(chatbots).where(eq(chatbots.id, move.chatbotId)).get();
    if (!exists) {
      await shardStub(ctx.env, ref).dropAll(ref);
      return { phase: "missing", done: true, written: false };
    }
    return { phase: move.phase, done: false, written: false };
  }
  const phase = patch.phase ?? move.phase;
  if (phase === "failed") {
    // Back to D1, which never stopped serving; the shard's copy of the index is dropped, the notes too.
    const [back] = await ctx.env.DB.batch([
      ctx.env.DB.prepare("UPDATE chatbots SET conversation_store = 'd1' WHERE id = ? AND org_id = ? AND conversation_store = 'moving' RETURNING id").bind(
        ref.chatbotId,
        ref.orgId,
      ),
      ctx.env.DB.prepare("DELETE FROM conversation_move_dirty WHERE chatbot_id = ?").bind(ref.chatbotId),
    ]);
    if (back.results.length) await shardStub(ctx.env, ref).dropIndexCopy(ref);
  }
  const done = phase === "done" || phase === "failed";
  if (!done && opts.enqueue !== false) await enqueueConversationMove(ctx.env, move.chatbotId, step.delay);
  return { phase, done, written: true };
}

// ——— what owners see, and what starts the moves ———

export async function conversationMoveProgress(ctx: Pick<ServiceContext, "db">, ref: ChatbotRef) {
  return (
    (await ctx.db
      .select()
      .from(conversationMoves)
      .where(and(eq(conversationMoves.chatbotId, ref.chatbotId), eq(conversationMoves.orgId, ref.orgId)))
      .get()) ?? null
  );
}

/**
 * What the inbox says about the move (null: nothing), to owners and admins (`detailed`) only: how
 * far it is while the chatbot is 'moving', or why it failed while it is back in D1. Nothing once
 * the index is in the shard (removing D1's rows after the switch does not concern them).
 */
export async function conversationMoveNotice(
  ctx: Pick<ServiceContext, "db">,
  ref: ChatbotRef,
  store: ConversationStoreKind,
  detailed: boolean,
): Promise<ConversationMoveNotice | null> {
  if (!detailed || store === "shard") return null;
  const move = await conversationMoveProgress(ctx, ref);
  if (!move || move.phase === "done") return null;
  if (move.phase === "failed") {
    if (store !== "d1") return null;
    return failedMoveNotice(move);
  }
  if (store !== "moving") return null;
  return { state: "moving", phase: move.phase, copied: move.copied, total: Math.max(move.total, move.copied) };
}

export type ConversationMoveSweepResult = { started: string[]; resumed: string[] };

/**
 * Cron (workers/scheduled.ts): resumes moves whose last step is old; starts new ones (chatbots whose
 * messages are in their shard and finished moving, oldest first, a failed one after a day) unless
 * `startNew` is false (default SWEEP_STARTS_CONVERSATION_MOVES, on: ADR 051 §9).
 */
export async function sweepConversationMoves(
  ctx: Ctx,
  opts: { now?: number; start?: number; running?: number; startNew?: boolean } = {},
): Promise<ConversationMoveSweepResult> {
  const out: ConversationMoveSweepResult = { started: [], resumed: [] };
  if (!ctx.env.CONVERSATION_SHARD) return out;
  const now = opts.now ?? Date.now();
  const limit = opts.running ?? SWEEP_RUNNING;
  out.resumed = await resumeStalledMoves(
    ctx.env.DB,
    "conversation_moves",
    CONVERSATION_MOVE_RUNNING,
    { now, stalledBefore: now - STALLED_AFTER_MS, limit },
    (id) => enqueueConversationMove(ctx.env, id),
  );
  if (!(opts.startNew ?? SWEEP_STARTS_CONVERSATION_MOVES)) return out;
  const slots = await freeMoveSlots(ctx.env.DB, "conversation_moves", CONVERSATION_MOVE_RUNNING, opts.start ?? SWEEP_START, limit);
  if (slots <= 0) return out;
  const due = await ctx.db
    .select({ orgId: chatbots.orgId, chatbotId: chatbots.id })
    .from(chatbots)
    .where(
      and(
        eq(chatbots.conversationStore, "d1"),
        eq(chatbots.messageStore, "shard"),
        sql`NOT EXISTS (SELECT 1 FROM message_moves m WHERE m.chatbot_id = ${chatbots.id} AND m.phase <> 'done')`,
        sql`NOT EXISTS (SELECT 1 FROM ${conversationMoves} WHERE ${conversationMoves.chatbotId} = ${chatbots.id} AND ${conversationMoves.phase} = 'failed' AND ${conversationMoves.updatedAt} > ${now - RETRY_FAILED_AFTER_MS})`,
      ),
    )
    .orderBy(asc(chatbots.createdAt), asc(chatbots.id))
    .limit(slots)
    .all();
  for (const ref of due) if ((await startConversationMove(ctx, ref)).ok) out.started.push(ref.chatbotId);
  return out;
}
