import { and, asc, count, eq, inArray, lt, sql } from "drizzle-orm";
import { MESSAGE_MOVE_RUNNING, type MessageMoveNotice } from "~/lib/message-move";
import type { ServiceContext } from "../context";
import { failedMoveNotice, freeMoveSlots, resumeStalledMoves, RETRY_FAILED_AFTER_MS, valuesHash } from "../db/moves";
import { chatbots, messageMoves } from "../db/schema";
import type { Env } from "../env";
import { chatbotSearchRows, messageStoreKind, type ChatbotRef, type MessageStoreKind } from "./message-store";

// Moving a chatbot's messages from D1 into its ConversationShard (issue #20 item 3, ADR 042). A
// resumable job: one bounded step per queue message, its state in `message_moves`. While it runs
// the chatbot is 'moving' and D1 keeps serving reads and writes (messageStore() treats 'moving' as
// D1). Message ids are kept, so the ids cited in bug reports, the visitors' client message ids,
// feedback and live chat's mirror (idempotent by id) stay valid.
//
//   copy     the chatbot's conversations in (last activity, id) order, a page per step, each one's
//            D1 rows into the shard (by id: what is missing is added, and the thumb is D1's). A
//            conversation written meanwhile moves to the end of that order, so the pass copies it again.
//   verify   the same pass: per conversation, count and checksum (one function, `messageChecksums`,
//            run on D1 and inside the shard); a differing conversation is copied again and checked.
//   switch   only if D1's signature (conversations : messages : last activity, read from the
//            conversations' list index) is what it was when the last check began, and the exact
//            message counts agree: the shard is told it serves (from then on it refuses to be
//            emptied by the move), then one conditional UPDATE to 'shard'. Otherwise another check
//            round over the conversations active since then (a few), or over all when counts differ.
//   cleanup  D1's rows go in bounded steps, each row copied into the shard just before it is
//            deleted (a request that read 'moving' may write to D1 just after the switch; so do
//            writes during the grace period, re-scanned every 30 s), bug reports keep the message
//            id in message_ref; then the search rows, then done.
//
// A step that throws is recorded (attempts, error) and retried by the queue; five in a row before
// the switch fail the move: the chatbot goes back to 'd1', the shard's partial copy is dropped, the
// owner sees why on the inbox, and the sweep tries again after a day. After the switch there is no
// going back: cleanup retries until it is done. Nothing the move does to the shard can lose a
// message the shard took after the switch, even from a step of a chain the sweep gave up on (it
// only adds rows, and takes D1's thumb only where the visitor did not change it there since).

type Ctx = Pick<ServiceContext, "env" | "db">;
export type MessageMoveMessage = { kind: "message-move"; chatbotId: string };

/** A D1 message row as stored (sources as their JSON text), copied into the shard unchanged. */
export type MovedMessage = {
  id: string;
  conversation_id: string;
  role: string;
  content: string;
  sources: string;
  answered: number | null;
  model: string | null;
  latency_ms: number | null;
  first_token_ms: number | null;
  credits: number;
  feedback: number | null;
  client_message_id: string | null;
  created_at: number;
};
export type ConversationChecksums = Record<string, { count: number; hash: number }>;
/** What the shard holds, for the switch's final comparison: its messages, and whether its search index has a row per visitor message. */
export type ShardMoveState = { count: number; visitorMessages: number; searchRows: number };

/**
 * The move's side of a chatbot's ConversationShard (workers/durable-objects/conversation-shard.ts).
 * `importMessages` adds the rows it does not hold (by id) and takes D1's thumb for those it does,
 * unless the visitor changed it in the shard since it serves; messages never change otherwise.
 * `resetForMove` empties the shard for a new copy, and refuses once `beginServing` was called.
 */
export type ConversationShardMoveApi = {
  resetForMove(ref: ChatbotRef): Promise<{ ok: boolean }>;
  importMessages(ref: ChatbotRef, rows: MovedMessage[]): Promise<{ imported: number; stored: number }>;
  checksums(ref: ChatbotRef, conversationIds: string[]): Promise<ConversationChecksums>;
  moveState(ref: ChatbotRef): Promise<ShardMoveState>;
  beginServing(ref: ChatbotRef): Promise<void>;
  finishMove(ref: ChatbotRef): Promise<void>;
  dropAll(ref: ChatbotRef): Promise<void>;
};

const shardStub = (env: Pick<Env, "CONVERSATION_SHARD">, ref: ChatbotRef) =>
  env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(ref.chatbotId)) as unknown as ConversationShardMoveApi;

/** Conversations read per step, and the messages (by their counts) a step aims to move at most. */
const PAGE_CONVERSATIONS = 100;
const STEP_MESSAGES = 500;
/** Rows per D1 read and per call to the shard. */
const READ_ROWS = 250;
const SEARCH_DELETE_ROWS = 1_000;
const MAX_ATTEMPTS = 5;
/** Check rounds after the first (each re-checks what was written during the one before) before giving up. */
const MAX_ROUNDS = 20;
/** How far before the last check's newest activity a re-check starts: a write's time is its request's, which may have begun this long before. */
const CATCH_UP_MARGIN_MS = 10 * 60_000;
/** After the switch, how long a request that read 'moving' may still write to D1; cleanup keeps copying until then. */
export const SWITCH_GRACE_MS = 5 * 60_000;
const GRACE_POLL_S = 30;
/** The sweep (cron, every 5 minutes): moves it starts per run, and moves running at once over all chatbots. */
const SWEEP_START = 5;
const SWEEP_RUNNING = 10;
/** A move whose last step is older than this lost its chain of queue messages (retries used up): resume it. */
const STALLED_AFTER_MS = 15 * 60_000;
/** A failed move is tried again after a day; until then its error stays on the inbox (owners and admins). */

/** Shown to owners when steps kept failing: plain words, no storage names (the cause is in the logs). */
const STEP_FAILED = `Copying the conversations failed ${MAX_ATTEMPTS} times in a row.`;

export function isMessageMoveMessage(body: unknown): body is MessageMoveMessage {
  return (
    !!body && typeof body === "object" && (body as MessageMoveMessage).kind === "message-move" && typeof (body as MessageMoveMessage).chatbotId === "string"
  );
}

export async function enqueueMessageMove(env: Pick<Env, "INGEST_QUEUE">, chatbotId: string, delaySeconds?: number) {
  const message: MessageMoveMessage = { kind: "message-move", chatbotId };
  await env.INGEST_QUEUE.send(message, delaySeconds ? { delaySeconds } : undefined);
}

// ——— what both sides compute ———

/** The columns a move copies (and checksums), in this order; the shard inserts them with its org and chatbot. */
export const COLUMNS =
  "id, conversation_id, role, content, sources, answered, model, latency_ms, first_token_ms, credits, feedback, client_message_id, created_at";
type Keyed = MovedMessage & { k: number };
type After = [conversationId: string, createdAt: number, rowid: number];
const START: After = ["", 0, 0];

/** A moved row's values in COLUMNS order (the shard's import binds them in that order). */
export const movedValues = (r: MovedMessage) => [
  r.id,
  r.conversation_id,
  r.role,
  r.content,
  r.sources,
  r.answered,
  r.model,
  r.latency_ms,
  r.first_token_ms,
  r.credits,
  r.feedback,
  r.client_message_id,
  r.created_at,
];

/** One message's checksum: every column the move copies, each ended by a separator, null told apart from text. */
function rowHash(r: MovedMessage): number {
  return valuesHash(movedValues(r));
}

/**
 * A page of the messages of some conversations, in the order of the messages' conversation index
 * (conversation, time, rowid: no sort), after `after`. Runs on D1 and, inside the shard, on its storage.
 */
async function messagePage(db: D1Database, ref: ChatbotRef, conversationIds: string[], after: After, limit: number): Promise<Keyed[]> {
  const { results } = await db
    .prepare(
      `SELECT rowid AS k, ${COLUMNS} FROM messages
       WHERE conversation_id IN (SELECT value FROM json_each(?)) AND chatbot_id = ? AND org_id = ? AND (conversation_id, created_at, rowid) > (?, ?, ?)
       ORDER BY conversation_id, created_at, rowid LIMIT ?`,
    )
    .bind(JSON.stringify(conversationIds), ref.chatbotId, ref.orgId, ...after, limit)
    .all<Keyed>();
  return results;
}

const nextAfter = (rows: Keyed[]): After => {
  const last = rows[rows.length - 1];
  return [last.conversation_id, last.created_at, last.k];
};
const strip = ({ k: _k, ...row }: Keyed): MovedMessage => row;

/**
 * Per conversation: how many messages and a checksum of all their columns (a sum of the rows'
 * hashes, so the order rows are read in does not matter). Runs on D1 and, inside the shard, on its
 * storage; a conversation without messages counts 0.
 */
export async function messageChecksums(db: D1Database, ref: ChatbotRef, conversationIds: string[]): Promise<ConversationChecksums> {
  const out: ConversationChecksums = {};
  for (const id of conversationIds) out[id] = { count: 0, hash: 0 };
  if (!conversationIds.length) return out;
  for (let after = START; ;) {
    const rows = await messagePage(db, ref, conversationIds, after, 500);
    for (const r of rows) {
      const c = out[r.conversation_id];
      c.count++;
      c.hash = (c.hash + rowHash(r)) >>> 0;
    }
    if (rows.length < 500) return out;
    after = nextAfter(rows);
  }
}

// ——— D1's side ———

/** "conversations:messages:last activity" of the chatbot's conversations with messages: read from the list's covering index, it changes with every message written. */
const SIGNATURE_SQL =
  "SELECT count(*) || ':' || coalesce(sum(message_count), 0) || ':' || coalesce(max(last_message_at), 0) FROM conversations WHERE org_id = ? AND chatbot_id = ? AND message_count > 0";
async function d1Signature(ctx: Ctx, ref: ChatbotRef): Promise<string> {
  const r = await ctx.env.DB.prepare(`SELECT (${SIGNATURE_SQL}) AS s`).bind(ref.orgId, ref.chatbotId).first<{ s: string }>();
  return r?.s ?? "0:0:0";
}
const signatureMessages = (s: string | null) => Number((s ?? "0:0:0").split(":")[1]);
const signatureLast = (s: string | null) => Number((s ?? "0:0:0").split(":")[2]);

/** The exact number of the chatbot's messages in D1, in every conversation (index entries only). */
async function d1MessageCount(ctx: Ctx, ref: ChatbotRef): Promise<number> {
  const r = await ctx.env.DB.prepare(
    "SELECT count(*) AS n FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE c.chatbot_id = ? AND c.org_id = ?",
  )
    .bind(ref.chatbotId, ref.orgId)
    .first<{ n: number }>();
  return r?.n ?? 0;
}

type Position = { id: string; last_message_at: number; message_count: number };

/** "<last_message_at>|<id>" of a conversation; a pass starting at `from` begins before every conversation active at or after it. */
const positionOf = (c: Position) => `${c.last_message_at}|${c.id}`;
function parsePosition(cursor: string, from: number): [number, string] {
  if (!cursor) return [from, ""];
  const bar = cursor.indexOf("|");
  return [Number(cursor.slice(0, bar)), cursor.slice(bar + 1)];
}

/**
 * The next conversations of a pass (keyset over the list's covering index), cut where their
 * messages add up to more than a step moves (at least one). `last`: no conversation follows.
 */
async function conversationPage(ctx: Ctx, ref: ChatbotRef, cursor: string, from: number): Promise<{ page: Position[]; last: boolean }> {
  const [at, id] = parsePosition(cursor, from);
  const { results } = await ctx.env.DB.prepare(
    `SELECT id, last_message_at, message_count FROM conversations
     WHERE org_id = ? AND chatbot_id = ? AND message_count > 0 AND (last_message_at, id) > (?, ?)
     ORDER BY last_message_at, id LIMIT ?`,
  )
    .bind(ref.orgId, ref.chatbotId, at, id, PAGE_CONVERSATIONS)
    .all<Position>();
  const page: Position[] = [];
  let n = 0;
  for (const c of results) {
    if (page.length && n + c.message_count > STEP_MESSAGES) break;
    page.push(c);
    n += c.message_count;
  }
  return { page, last: page.length === results.length && results.length < PAGE_CONVERSATIONS };
}

/** Copies the D1 messages of these conversations into the shard, a read at a time; how many. */
async function copyConversations(ctx: Ctx, ref: ChatbotRef, conversationIds: string[]): Promise<number> {
  const shard = shardStub(ctx.env, ref);
  let n = 0;
  for (let after = START; ;) {
    const rows = await messagePage(ctx.env.DB, ref, conversationIds, after, READ_ROWS);
    if (rows.length) await shard.importMessages(ref, rows.map(strip));
    n += rows.length;
    if (rows.length < READ_ROWS) return n;
    after = nextAfter(rows);
  }
}

/**
 * Removes D1 rows after copying each into the shard (a row written after the switch is added there).
 * In one transaction per read: the rows' bug reports keep the message id in message_ref, then the rows go.
 */
async function copyAndRemove(ctx: Ctx, ref: ChatbotRef, rows: Keyed[]): Promise<number> {
  if (!rows.length) return 0;
  const { stored } = await shardStub(ctx.env, ref).importMessages(ref, rows.map(strip));
  // Never delete what the shard does not hold (it refused, which would be a bug): the step fails and is retried.
  if (stored !== rows.length) throw new Error(`the shard holds ${stored} of ${rows.length} rows about to be removed from D1`);
  const ids = JSON.stringify(rows.map((r) => r.id));
  await ctx.env.DB.batch([
    ctx.env.DB.prepare(
      "UPDATE bug_reports SET message_ref = message_id WHERE message_ref IS NULL AND message_id IN (SELECT value FROM json_each(?)) AND chatbot_id = ?",
    ).bind(ids, ref.chatbotId),
    ctx.env.DB.prepare("DELETE FROM messages WHERE id IN (SELECT value FROM json_each(?)) AND chatbot_id = ? AND org_id = ?").bind(
      ids,
      ref.chatbotId,
      ref.orgId,
    ),
  ]);
  return rows.length;
}

async function removeConversations(ctx: Ctx, ref: ChatbotRef, conversationIds: string[]): Promise<number> {
  let n = 0;
  // What was read is deleted, so each read starts from the beginning again.
  for (;;) {
    const rows = await messagePage(ctx.env.DB, ref, conversationIds, START, READ_ROWS);
    n += await copyAndRemove(ctx, ref, rows);
    if (rows.length < READ_ROWS) return n;
  }
}

/** Messages left in D1 outside the passes (in a conversation the list index does not hold): a read of any of them. */
async function leftovers(ctx: Ctx, ref: ChatbotRef): Promise<Keyed[]> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT m.rowid AS k, ${COLUMNS.split(", ")
      .map((c) => `m.${c}`)
      .join(", ")} FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE c.chatbot_id = ? AND c.org_id = ? LIMIT ?`,
  )
    .bind(ref.chatbotId, ref.orgId, READ_ROWS)
    .all<Keyed>();
  return results;
}

// ——— the job ———

/** Starts moving a chatbot's messages into its shard. Only from 'd1'; a move under way is left alone. */
export async function startMessageMove(ctx: Ctx, ref: ChatbotRef): Promise<{ ok: true } | { ok: false; message: string }> {
  const now = Date.now();
  const total = signatureMessages(await d1Signature(ctx, ref));
  // One transaction marks the chatbot and writes its move row, both only while it is still in D1:
  // a chatbot is never 'moving' without a row the steps and the sweep can find.
  const [, marked] = await ctx.env.DB.batch([
    ctx.env.DB.prepare(
      `INSERT INTO message_moves (chatbot_id, org_id, phase, total, started_at, updated_at)
       SELECT id, org_id, 'copy', ?, ?, ? FROM chatbots WHERE id = ? AND org_id = ? AND message_store = 'd1'
       ON CONFLICT (chatbot_id) DO UPDATE SET phase = 'copy', cursor = '', round_from = 0, copied = 0, checked = 0, removed = 0,
         total = excluded.total, signature = NULL, rounds = 0, attempts = 0, error = NULL, started_at = excluded.started_at,
         updated_at = excluded.updated_at, switched_at = NULL, finished_at = NULL`,
    ).bind(total, now, now, ref.chatbotId, ref.orgId),
    ctx.env.DB.prepare("UPDATE chatbots SET message_store = 'moving' WHERE id = ? AND org_id = ? AND message_store = 'd1'").bind(ref.chatbotId, ref.orgId),
  ]);
  if (!marked.meta.changes) return { ok: false, message: "This chatbot's messages are already moving or moved." };
  await enqueueMessageMove(ctx.env, ref.chatbotId);
  return { ok: true };
}

type Move = typeof messageMoves.$inferSelect;
type Patch = Partial<typeof messageMoves.$inferInsert>;
type Advance = { patch: Patch; delay?: number };

/** A check round: verify the conversations active since `from` (0: all), against the signature read now. */
const checkRound = (move: Move, signature: string, from: number, failure: string): Patch =>
  move.rounds + 1 > MAX_ROUNDS
    ? { phase: "failed", error: failure }
    : { phase: "verify", cursor: "", roundFrom: from, signature, rounds: move.rounds + 1, checked: 0 };

async function advance(ctx: Ctx, move: Move, now: number): Promise<Advance> {
  const ref = { orgId: move.orgId, chatbotId: move.chatbotId };
  const shard = shardStub(ctx.env, ref);

  if (move.phase === "copy") {
    // The first step starts from an empty shard (nothing left of an earlier try); the chatbot is
    // 'moving', so nothing reads or writes the shard but this job. A shard that serves refuses: this
    // step is of a chain the sweep gave up on, whose move went on without it (it stops here).
    if (!move.cursor && move.copied === 0 && !(await shard.resetForMove(ref)).ok) return { patch: { phase: "failed", error: "The move was stopped." } };
    const { page, last } = await conversationPage(ctx, ref, move.cursor, 0);
    const n = page.length
      ? await copyConversations(
          ctx,
          ref,
          page.map((c) => c.id),
        )
      : 0;
    const patch: Patch = { copied: move.copied + n, cursor: page.length ? positionOf(page[page.length - 1]) : move.cursor };
    if (last) {
      // The check begins from what D1 holds now: anything written after this shows in the signature.
      const signature = await d1Signature(ctx, ref);
      Object.assign(patch, { phase: "verify", cursor: "", roundFrom: 0, signature, checked: 0, total: Math.max(signatureMessages(signature), patch.copied!) });
    }
    return { patch };
  }

  if (move.phase === "verify") {
    const { page, last } = await conversationPage(ctx, ref, move.cursor, move.roundFrom);
    const ids = page.map((c) => c.id);
    const compare = async () => {
      const [inD1, inShard] = await Promise.all([messageChecksums(ctx.env.DB, ref, ids), shard.checksums(ref, ids)]);
      return { inD1, differing: ids.filter((id) => inD1[id].count !== inShard[id]?.count || inD1[id].hash !== inShard[id]?.hash) };
    };
    let { inD1, differing } = await compare();
    if (differing.length) {
      // Written (or thumbed) in D1 after they were copied: copy them again (the missing rows, D1's thumbs).
      await copyConversations(ctx, ref, differing);
      ({ inD1, differing } = await compare());
    }
    if (differing.length) {
      // Still changing under the check, or a copy that does not take: the same page again, up to five times.
      const attempts = move.attempts + 1;
      const many = differing.length === 1 ? "one conversation" : `${differing.length} conversations`;
      if (attempts >= MAX_ATTEMPTS)
        return { patch: { phase: "failed", attempts, error: `The copy of ${many} still differed from the original after ${MAX_ATTEMPTS} tries.` } };
      return { patch: { attempts, error: `The copy of ${many} differed from the original.` }, delay: 5 };
    }
    const checked = move.checked + ids.reduce((n, id) => n + inD1[id].count, 0);
    const patch: Patch = { checked, cursor: page.length ? positionOf(page[page.length - 1]) : move.cursor };
    if (last) patch.phase = "switch";
    return { patch };
  }

  if (move.phase === "switch") {
    const store = await messageStoreKind(ctx, ref);
    // The switch took but the step that made it did not record it: the shard serves already.
    if (store === "shard") return { patch: { phase: "cleanup", cursor: "", roundFrom: 0, switchedAt: Date.now() } };
    if (store !== "moving") return { patch: { phase: "failed", error: "The move was stopped." } };
    const signature = await d1Signature(ctx, ref);
    if (signature !== move.signature) {
      // Written since the last check began: check what was active since then (a request's write may be dated up to the margin before).
      return {
        patch: checkRound(
          move,
          signature,
          signatureLast(move.signature) - CATCH_UP_MARGIN_MS,
          "New messages kept arriving faster than the copy could be checked.",
        ),
      };
    }
    const [inD1, inShard] = await Promise.all([d1MessageCount(ctx, ref), shard.moveState(ref)]);
    if (inD1 !== inShard.count || inShard.searchRows !== inShard.visitorMessages) {
      const what =
        inD1 !== inShard.count
          ? `The copy holds ${inShard.count.toLocaleString("en-GB")} messages and the original ${inD1.toLocaleString("en-GB")}.`
          : "The copy's search index did not match its messages.";
      // After a check of every conversation the difference is not from writes: stop, nothing is lost.
      if (move.roundFrom === 0) return { patch: { phase: "failed", error: what } };
      return { patch: checkRound(move, signature, 0, what) };
    }
    // The shard first learns it serves (the move may no longer empty it), then D1 switches —
    // atomically, only if D1 holds what was checked (no message written since the check began).
    await shard.beginServing(ref);
    const switched = await ctx.env.DB.prepare(
      `UPDATE chatbots SET message_store = 'shard' WHERE id = ? AND org_id = ? AND message_store = 'moving' AND (${SIGNATURE_SQL}) = ? RETURNING id`,
    )
      .bind(ref.chatbotId, ref.orgId, ref.orgId, ref.chatbotId, move.signature)
      .first();
    if (switched) return { patch: { phase: "cleanup", cursor: "", roundFrom: 0, switchedAt: Date.now() } };
    return { patch: {} }; // written just now: the next step sees the new signature
  }

  // cleanup: the shard serves; D1's rows go, each copied into the shard first.
  const switchedAt = move.switchedAt ?? now;
  if (move.cursor === "@search") {
    // Last, the conversation list's search rows of this chatbot (D1 search is not asked any more).
    const match = chatbotSearchRows(ref.chatbotId);
    await ctx.env.DB.prepare("DELETE FROM conversation_search WHERE rowid IN (SELECT rowid FROM conversation_search WHERE conversation_search MATCH ? LIMIT ?)")
      .bind(match, SEARCH_DELETE_ROWS)
      .run();
    const left = await ctx.env.DB.prepare("SELECT 1 AS x FROM conversation_search WHERE conversation_search MATCH ? LIMIT 1").bind(match).first();
    if (left) return { patch: {} };
    await shard.finishMove(ref);
    return { patch: { phase: "done", finishedAt: now } };
  }
  if (move.cursor === "@leftover") {
    const n = await copyAndRemove(ctx, ref, await leftovers(ctx, ref));
    return { patch: { removed: move.removed + n, ...(n < READ_ROWS ? { cursor: "@search" } : {}) } };
  }
  const { page, last } = await conversationPage(ctx, ref, move.cursor, move.roundFrom);
  const n = page.length
    ? await removeConversations(
        ctx,
        ref,
        page.map((c) => c.id),
      )
    : 0;
  const patch: Patch = { removed: move.removed + n, cursor: page.length ? positionOf(page[page.length - 1]) : move.cursor };
  if (!last) return { patch };
  if (now < switchedAt + SWITCH_GRACE_MS) {
    // A request that read 'moving' before the switch may still write to D1: go over the
    // conversations active since the switch again in a while, until the grace period is over.
    return {
      patch: { ...patch, cursor: "", roundFrom: switchedAt - CATCH_UP_MARGIN_MS },
      delay: Math.max(1, Math.min(GRACE_POLL_S, Math.ceil((switchedAt + SWITCH_GRACE_MS - now) / 1000))),
    };
  }
  // Past the grace period: anything still in D1 (outside the list index) is copied and removed, then the search rows go.
  patch.cursor = (await d1MessageCount(ctx, ref)) > 0 ? "@leftover" : "@search";
  return { patch };
}

/**
 * One bounded step of a chatbot's move; queues the next one unless it is done. Safe to run twice
 * (a redelivered message): a copy adds only what the shard lacks (by id), and every phase starts from stored state.
 * `now` is for tests (the grace period after the switch).
 */
export async function runMessageMoveStep(
  ctx: Ctx,
  chatbotId: string,
  opts: { enqueue?: boolean; now?: number } = {},
): Promise<{ phase: string; done: boolean }> {
  const move = await ctx.db.select().from(messageMoves).where(eq(messageMoves.chatbotId, chatbotId)).get();
  if (!move || move.phase === "done" || move.phase === "failed") return { phase: move?.phase ?? "missing", done: true };
  let step: Advance;
  try {
    step = await advance(ctx, move, opts.now ?? Date.now());
    // A step that went through ends a run of failures (a check that differed counts itself).
    if (step.patch.attempts === undefined) Object.assign(step.patch, { attempts: 0, error: step.patch.error ?? null });
  } catch (e) {
    console.error(`[message-move] step ${move.phase} for ${chatbotId} failed`, e);
    const attempts = move.attempts + 1;
    // After the switch there is no going back to D1: cleanup is retried until it is done.
    const giveUp = attempts >= MAX_ATTEMPTS && move.phase !== "cleanup";
    const result = await commit(
      ctx,
      move,
      { patch: giveUp ? { phase: "failed", attempts, error: STEP_FAILED } : { attempts, error: "A step of the copy failed; it is tried again." } },
      { enqueue: false },
    );
    // Given up, or a chain that lost to another (it stops instead of being retried): no retry.
    if (giveUp || !result.written) return { phase: result.phase, done: result.done };
    throw e; // the queue retries the message
  }
  const { phase, done } = await commit(ctx, move, step, opts);
  return { phase, done };
}

async function commit(ctx: Ctx, move: Move, step: Advance, opts: { enqueue?: boolean }): Promise<{ phase: string; done: boolean; written: boolean }> {
  const ref = { orgId: move.orgId, chatbotId: move.chatbotId };
  const patch = { ...step.patch };
  if (patch.phase === "failed" && (await messageStoreKind(ctx, ref)) === "shard") {
    // Never fail after the switch: the shard serves, so D1's rows are removed instead.
    Object.assign(patch, { phase: "cleanup", cursor: "", roundFrom: 0, switchedAt: move.switchedAt ?? Date.now() });
  }
  // Only if no other step wrote since this one read: when the sweep resumed a move whose chain was
  // only slow, two chains run, and the one that loses here stops instead of queuing a next step.
  const written = await ctx.db
    .update(messageMoves)
    .set({ ...patch, updatedAt: Math.max(Date.now(), move.updatedAt + 1) })
    .where(and(eq(messageMoves.chatbotId, move.chatbotId), eq(messageMoves.updatedAt, move.updatedAt)))
    .returning({ id: messageMoves.chatbotId })
    .get();
  if (!written) {
    // The chatbot was deleted while this step ran (its move row went with it): what the step wrote to the shard goes too.
    const exists = await ctx.db.select({ id: chatbots.id }).from(chatbots).where(eq(chatbots.id, move.chatbotId)).get();
    if (!exists) {
      await shardStub(ctx.env, ref).dropAll(ref);
      return { phase: "missing", done: true, written: false };
    }
    return { phase: move.phase, done: false, written: false };
  }
  const phase = patch.phase ?? move.phase;
  if (phase === "failed") {
    // Back to D1, which never stopped serving; the shard's partial copy is dropped.
    const back = await ctx.env.DB.prepare("UPDATE chatbots SET message_store = 'd1' WHERE id = ? AND org_id = ? AND message_store = 'moving' RETURNING id")
      .bind(ref.chatbotId, ref.orgId)
      .first();
    if (back) await shardStub(ctx.env, ref).dropAll(ref);
  }
  const done = phase === "done" || phase === "failed";
  if (!done && opts.enqueue !== false) await enqueueMessageMove(ctx.env, move.chatbotId, step.delay);
  return { phase, done, written: true };
}

// ——— what owners see, and what starts the moves ———

/** The move's row as an owner's notice reads it. Null before any move. */
export async function messageMoveProgress(ctx: Pick<ServiceContext, "db">, ref: ChatbotRef) {
  return (
    (await ctx.db
      .select()
      .from(messageMoves)
      .where(and(eq(messageMoves.chatbotId, ref.chatbotId), eq(messageMoves.orgId, ref.orgId)))
      .get()) ?? null
  );
}

/**
 * What the inbox says about a move (null: nothing): to owners and admins (`detailed`) only, how far
 * it is while the chatbot is 'moving', or why it failed while it is back in D1. Nothing once the
 * chatbot is in its shard (the removal of D1's rows after the switch does not concern them).
 */
export async function messageMoveNotice(
  ctx: Pick<ServiceContext, "db">,
  ref: ChatbotRef,
  store: MessageStoreKind,
  detailed: boolean,
): Promise<MessageMoveNotice | null> {
  if (!detailed || store === "shard") return null;
  const move = await messageMoveProgress(ctx, ref);
  if (!move || move.phase === "done") return null;
  if (move.phase === "failed") {
    if (store !== "d1") return null;
    return failedMoveNotice(move);
  }
  if (store !== "moving") return null;
  return { state: "moving", phase: move.phase, copied: move.copied, checked: move.checked, total: Math.max(move.total, move.copied, move.checked) };
}

export type MessageMoveSweepResult = { started: string[]; resumed: string[] };

/**
 * What starts and keeps moves going (cron, workers/scheduled.ts): resumes moves whose last step is
 * old, then starts moves for a few chatbots still in D1, oldest first — at most `start` per run and
 * `running` under way at once. A chatbot whose move failed waits a day. Nothing without the binding.
 */
export async function sweepMessageMoves(ctx: Ctx, opts: { now?: number; start?: number; running?: number } = {}): Promise<MessageMoveSweepResult> {
  const out: MessageMoveSweepResult = { started: [], resumed: [] };
  if (!ctx.env.CONVERSATION_SHARD) return out;
  const now = opts.now ?? Date.now();
  const limit = opts.running ?? SWEEP_RUNNING;
  out.resumed = await resumeStalledMoves(ctx.env.DB, "message_moves", MESSAGE_MOVE_RUNNING, { now, stalledBefore: now - STALLED_AFTER_MS, limit }, (id) =>
    enqueueMessageMove(ctx.env, id),
  );
  const slots = await freeMoveSlots(ctx.env.DB, "message_moves", MESSAGE_MOVE_RUNNING, opts.start ?? SWEEP_START, limit);
  if (slots <= 0) return out;
  const due = await ctx.db
    .select({ orgId: chatbots.orgId, chatbotId: chatbots.id })
    .from(chatbots)
    .where(
      and(
        eq(chatbots.messageStore, "d1"),
        sql`NOT EXISTS (SELECT 1 FROM ${messageMoves} WHERE ${messageMoves.chatbotId} = ${chatbots.id} AND ${messageMoves.phase} = 'failed' AND ${messageMoves.updatedAt} > ${now - RETRY_FAILED_AFTER_MS})`,
      ),
    )
    .orderBy(asc(chatbots.createdAt), asc(chatbots.id))
    .limit(slots)
    .all();
  for (const ref of due) if ((await startMessageMove(ctx, ref)).ok) out.started.push(ref.chatbotId);
  return out;
}
