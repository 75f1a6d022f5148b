import { and, asc, count, eq, inArray, lt, sql } from "drizzle-orm";
import { KNOWLEDGE_MOVE_RUNNING, type KnowledgeMoveNotice } from "~/lib/kb";
import type { ServiceContext } from "../context";
import { failedMoveNotice, fnv, freeMoveSlots, resumeStalledMoves, RETRY_FAILED_AFTER_MS } from "../db/moves";
import { chatbots, knowledgeMoves, knowledgeSources } from "../db/schema";
import type { Env } from "../env";
import { adoptD1Content } from "../kb/document-text";
import { shardKnowledgeStore, shardKnowledgeStub, type KnowledgeStoreKind } from "./knowledge-store";
import type { ChatbotRef } from "./types";

// Moving a chatbot's knowledge from D1 into its shard (issue #20, ADR 034). A resumable job: one
// bounded step per queue message, its state in `knowledge_moves`. While it runs the chatbot is
// 'moving' and D1 keeps serving reads and writes; the shard takes over only after its copy matches
// D1's (counts and checksums per source) and nothing was written meanwhile; then D1's rows go.
// Chunk ids are kept, so Vectorize's vectors (keyed by chunk id) and the chunk ids cited in stored
// messages stay valid, and a re-run step inserts nothing twice. Text and Q&A sources' own content
// follows its chunks (phase 'texts', ADR 075), checked and removed from D1 the same way.

type Ctx = Pick<ServiceContext, "env" | "db">;
export type MoveMessage = { kind: "knowledge-move"; chatbotId: string };
export type MovedChunk = {
  id: number;
  source_id: string;
  source_type: string;
  position: number;
  title: string;
  heading: string | null;
  url: string | null;
  text: string;
  features: string | null;
  created_at: number;
  model: string | null;
  vector: Uint8Array | null;
};
export type SourceChecksums = Record<string, { count: number; hash: number }>;
/** One part of a source's content on its way to the shard. */
export type MovedText = { source_id: string; source_type: string; start: number; content: string };

const STEP_ROWS = 200;
/** Content parts per step: each is at most PART_BYTES (~0.9 MB), so a step carries at most ~7 MB. */
const TEXT_ROWS = 8;
const DELETE_ROWS = 500;
const MAX_ATTEMPTS = 5;
const BUSY_RETRY_S = 30;
/** The sweep (cron, every 5 minutes): moves it starts per run, and moves running at once over all chatbots. */
const SWEEP_START = 5;
const SWEEP_RUNNING = 10;
/** A move whose last step is older than this lost its chain of queue messages (retries used up): resume it. */
const STALLED_AFTER_MS = 15 * 60_000;
/** A failed move is tried again after a day; until then its error stays on the knowledge page. */

export function isMoveMessage(body: unknown): body is MoveMessage {
  return !!body && typeof body === "object" && (body as MoveMessage).kind === "knowledge-move" && typeof (body as MoveMessage).chatbotId === "string";
}

export async function enqueueMove(env: Pick<Env, "INGEST_QUEUE">, chatbotId: string, delaySeconds?: number) {
  const message: MoveMessage = { kind: "knowledge-move", chatbotId };
  await env.INGEST_QUEUE.send(message, delaySeconds ? { delaySeconds } : undefined);
}

/** Per source: how many chunks and a checksum of their ids, texts, features and offline vectors in id order. Runs on D1 and, inside the shard, on its storage. */
export async function chunkChecksums(db: D1Database, ref: ChatbotRef): Promise<SourceChecksums> {
  const out: SourceChecksums = {};
  for (let after = 0; ;) {
    const { results } = await db
      .prepare(
        "SELECT c.id, c.source_id, c.text, c.features, (SELECT v.model FROM chunk_vectors v WHERE v.chunk_id = c.id) AS vec FROM chunks c WHERE c.chatbot_id = ? AND c.org_id = ? AND c.id > ? ORDER BY c.id LIMIT 500",
      )
      .bind(ref.chatbotId, ref.orgId, after)
      .all<{ id: number; source_id: string; text: string; features: string | null; vec: string | null }>();
    for (const r of results) {
      const s = (out[r.source_id] ??= { count: 0, hash: 2166136261 });
      s.count++;
      // The offline vector's presence counts too (with Vectorize there is none on either side).
      s.hash = fnv(fnv(fnv(fnv(s.hash, String(r.id)), r.text), r.features ?? ""), r.vec ?? "");
    }
    if (results.length < 500) return out;
    after = results[results.length - 1].id;
  }
}

/**
 * The chatbot's content parts: in D1 its sources' (found through the join), in a shard all of them.
 * Both bind the chatbot and organisation as ?1 and ?2, so one statement text serves either.
 */
const textRowsOf = (own: boolean) =>
  own
    ? "FROM knowledge_source_contents c JOIN knowledge_sources s ON s.id = c.source_id WHERE ?1 = ?1 AND ?2 = ?2"
    : "FROM knowledge_source_contents c JOIN knowledge_sources s ON s.id = c.source_id WHERE s.chatbot_id = ?1 AND s.org_id = ?2";

/** Per source: how many content parts and a checksum of their starts and texts in order. Runs on D1 and, inside the shard, on its storage. */
export async function textChecksums(db: D1Database, ref: ChatbotRef, where: { ownDatabase?: boolean } = {}): Promise<SourceChecksums> {
  const out: SourceChecksums = {};
  // A few parts per read: one may hold ~0.9 MB.
  for (let after: [string, number] = ["", -1]; ;) {
    const { results } = await db
      .prepare(
        `SELECT c.source_id, c.start, c.content ${textRowsOf(where.ownDatabase === true)} AND (c.source_id, c.start) > (?3, ?4) ORDER BY c.source_id, c.start LIMIT 16`,
      )
      .bind(ref.chatbotId, ref.orgId, after[0], after[1])
      .all<{ source_id: string; start: number; content: string }>();
    for (const r of results) {
      const s = (out[r.source_id] ??= { count: 0, hash: 2166136261 });
      s.count++;
      s.hash = fnv(fnv(s.hash, String(r.start)), r.content);
    }
    if (results.length < 16) return out;
    const last = results[results.length - 1];
    after = [last.source_id, last.start];
  }
}

/** What the switch compares: the chatbot's chunks in D1 (count and largest id) and its content parts (count). */
const SIGNATURE_SQL = `(SELECT count(*) || ':' || coalesce(max(id), 0) FROM chunks WHERE chatbot_id = ?1 AND org_id = ?2) || ':' ||
  (SELECT count(*) ${textRowsOf(false)})`;

async function d1Signature(ctx: Ctx, ref: ChatbotRef): Promise<string> {
  const r = await ctx.env.DB.prepare(`SELECT ${SIGNATURE_SQL} AS s`).bind(ref.chatbotId, ref.orgId).first<{ s: string }>();
  return r?.s ?? "0:0:0";
}

/** Starts moving a chatbot's knowledge into its shard. Only from 'd1'; a move under way is left alone. */
export async function startKnowledgeMove(ctx: Ctx, ref: ChatbotRef): Promise<{ ok: true } | { ok: false; message: string }> {
  const now = Date.now();
  const total = Number((await d1Signature(ctx, ref)).split(":")[0]);
  // One transaction marks the chatbot and writes its move row, both only while it is still in D1:
  // a chatbot is never 'moving' without a row the steps and the sweep can find.
  const [, marked] = await ctx.env.DB.batch([
    ctx.env.DB.prepare(
      `INSERT INTO knowledge_moves (chatbot_id, org_id, phase, total, started_at, updated_at)
       SELECT id, org_id, 'copy', ?, ?, ? FROM chatbots WHERE id = ? AND org_id = ? AND knowledge_store = 'd1'
       ON CONFLICT (chatbot_id) DO UPDATE SET phase = 'copy', cursor = 0, text_cursor = NULL, copied = 0, total = excluded.total, signature = NULL,
         attempts = 0, error = NULL, started_at = excluded.started_at, updated_at = excluded.updated_at, finished_at = NULL`,
    ).bind(total, now, now, ref.chatbotId, ref.orgId),
    ctx.env.DB.prepare("UPDATE chatbots SET knowledge_store = 'moving' WHERE id = ? AND org_id = ? AND knowledge_store = 'd1'").bind(ref.chatbotId, ref.orgId),
  ]);
  if (!marked.meta.changes) return { ok: false, message: "This chatbot's knowledge is already moving or moved." };
  await enqueueMove(ctx.env, ref.chatbotId);
  return { ok: true };
}

/** Copies D1's chunks with ids above `after` (a page of them) into the shard; the last id copied, or null when none were left. */
async function copyPage(ctx: Ctx, ref: ChatbotRef, after: number): Promise<{ last: number; n: number } | null> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT c.id, c.source_id, s.type AS source_type, c.position, c.title, c.heading, c.url, c.text, c.features, c.created_at, v.model, v.vector
     FROM chunks c JOIN knowledge_sources s ON s.id = c.source_id LEFT JOIN chunk_vectors v ON v.chunk_id = c.id
     WHERE c.chatbot_id = ? AND c.org_id = ? AND c.id > ? ORDER BY c.id LIMIT ?`,
  )
    .bind(ref.chatbotId, ref.orgId, after, STEP_ROWS)
    .all<Omit<MovedChunk, "vector"> & { vector: ArrayBuffer | number[] | null }>();
  if (!results.length) return null;
  const rows: MovedChunk[] = results.map((r) => ({ ...r, vector: r.vector ? new Uint8Array(r.vector as ArrayBuffer) : null }));
  await shardKnowledgeStub(ctx.env, ref).importChunks(ref, rows);
  return { last: rows[rows.length - 1].id, n: rows.length };
}

/** Copies D1's content parts after `after` (a few of them) into the shard; the last part copied, or null when none were left. */
async function copyTexts(ctx: Ctx, ref: ChatbotRef, after: [string, number]): Promise<{ last: [string, number]; n: number } | null> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT c.source_id, s.type AS source_type, c.start, c.content ${textRowsOf(false)} AND (c.source_id, c.start) > (?3, ?4)
     ORDER BY c.source_id, c.start LIMIT ?5`,
  )
    .bind(ref.chatbotId, ref.orgId, after[0], after[1], TEXT_ROWS)
    .all<MovedText>();
  if (!results.length) return null;
  await shardKnowledgeStub(ctx.env, ref).importTexts(ref, results);
  const last = results[results.length - 1];
  return { last: [last.source_id, last.start], n: results.length };
}

/**
 * One bounded step of a chatbot's move; queues the next one unless it is done. Safe to run twice
 * (a redelivered message): copies skip ids already there, and every phase starts from stored state.
 */
export async function runKnowledgeMoveStep(ctx: Ctx, chatbotId: string, opts: { enqueue?: boolean } = {}): Promise<{ phase: string; done: boolean }> {
  const move = await ctx.db.select().from(knowledgeMoves).where(eq(knowledgeMoves.chatbotId, chatbotId)).get();
  if (!move || move.phase === "done" || move.phase === "failed") return { phase: move?.phase ?? "missing", done: true };
  const ref = { orgId: move.orgId, chatbotId };
  const shard = shardKnowledgeStub(ctx.env, ref);
  const patch: Partial<typeof knowledgeMoves.$inferInsert> = {};
  let delay: number | undefined;

  if (move.phase === "copy") {
    const page = await copyPage(ctx, ref, move.cursor);
    if (page) Object.assign(patch, { cursor: page.last, copied: move.copied + page.n });
    if (!page || page.n < STEP_ROWS) Object.assign(patch, { phase: "texts", textCursor: null });
  } else if (move.phase === "texts") {
    const page = await copyTexts(ctx, ref, move.textCursor ? (JSON.parse(move.textCursor) as [string, number]) : ["", -1]);
    if (page) patch.textCursor = JSON.stringify(page.last);
    if (!page || page.n < TEXT_ROWS) patch.phase = "verify";
  } else if (move.phase === "verify") {
    const signature = await d1Signature(ctx, ref);
    const [chunksInD1, chunksInShard, textsInD1, textsInShard] = await Promise.all([
      chunkChecksums(ctx.env.DB, ref),
      shard.checksums(ref),
      textChecksums(ctx.env.DB, ref),
      shard.textChecksums(ref),
    ]);
    const differ = (a: SourceChecksums, b: SourceChecksums) =>
      [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((id) => a[id]?.count !== b[id]?.count || a[id]?.hash !== b[id]?.hash);
    const differing = [...new Set([...differ(chunksInD1, chunksInShard), ...differ(textsInD1, textsInShard)])];
    if (differing.length === 0) Object.assign(patch, { phase: "switch", signature, total: Number(signature.split(":")[0]) });
    else if (move.attempts + 1 >= MAX_ATTEMPTS)
      // Shown to owners on the knowledge page: plain words, no storage names.
      Object.assign(patch, {
        phase: "failed",
        error: `The copy of ${differing.length === 1 ? "one source" : `${differing.length} sources`} still differed from the original after ${MAX_ATTEMPTS} tries.`,
      });
    else {
      // Written or deleted in D1 while copying: drop the shard's copy of those sources and copy again (ids already there are skipped).
      for (const sourceId of differing) await shard.forgetSource(ref, sourceId);
      Object.assign(patch, { phase: "copy", cursor: 0, textCursor: null, copied: 0, attempts: move.attempts + 1 });
    }
  } else if (move.phase === "switch") {
    // Atomic: only if D1's chunks are what was verified and no ingestion step is running.
    const switched = await ctx.env.DB.prepare(
      `UPDATE chatbots SET knowledge_store = 'shard' WHERE id = ?1 AND org_id = ?2 AND knowledge_store = 'moving'
         AND NOT EXISTS (SELECT 1 FROM knowledge_sources WHERE chatbot_id = ?1 AND status IN ('queued', 'processing'))
         AND ${SIGNATURE_SQL} = ?3
       RETURNING id`,
    )
      .bind(chatbotId, ref.orgId, move.signature)
      .first();
    if (switched) patch.phase = "cleanup";
    else if ((await d1Signature(ctx, ref)) !== move.signature) patch.phase = "verify";
    else delay = BUSY_RETRY_S; // a source is being ingested: try again when it is done
  } else if (move.phase === "cleanup") {
    // D1's rows go without touching Vectorize: the shard's chunks keep those ids and vectors.
    const { results } = await ctx.env.DB.prepare("SELECT id FROM chunks WHERE chatbot_id = ? AND org_id = ? LIMIT ?")
      .bind(chatbotId, ref.orgId, DELETE_ROWS)
      .all<{ id: number }>();
    if (results.length) {
      const ids = results.map((r) => r.id);
      const statements = [];
      for (let i = 0; i < ids.length; i += 90) {
        const part = ids.slice(i, i + 90);
        statements.push(ctx.env.DB.prepare(`DELETE FROM chunks WHERE id IN (${part.map(() => "?").join(",")})`).bind(...part));
      }
      await ctx.env.DB.batch(statements);
    } else {
      // Then the sources' content, a few parts at a time (each up to ~0.9 MB) — but not a queued or
      // processing source's: one written to D1 just as the switch landed is moved into the shard by
      // its first ingestion step (kb/document-text.ts adoptD1Content), so it must stay until then.
      const texts = await ctx.env.DB.prepare(
        `DELETE FROM knowledge_source_contents WHERE rowid IN (SELECT c.rowid ${textRowsOf(false)} AND s.status NOT IN ('queued', 'processing') LIMIT ?3)`,
      )
        .bind(chatbotId, ref.orgId, TEXT_ROWS * 4)
        .run();
      if (!texts.meta.changes) {
        await ctx.env.DB.prepare("DELETE FROM term_stats WHERE chatbot_id = ?").bind(chatbotId).run();
        Object.assign(patch, { phase: "done", finishedAt: Date.now() });
      }
    }
  }

  const phase = patch.phase ?? move.phase;
  // Only if no other step wrote since this one read: when the sweep resumed a move whose chain was
  // only slow, two chains run, and the one that loses here stops instead of queuing a next step.
  const written = await ctx.db
    .update(knowledgeMoves)
    .set({ ...patch, updatedAt: Math.max(Date.now(), move.updatedAt + 1) })
    .where(and(eq(knowledgeMoves.chatbotId, chatbotId), eq(knowledgeMoves.updatedAt, move.updatedAt)))
    .returning({ id: knowledgeMoves.chatbotId })
    .get();
  if (!written) return { phase: move.phase, done: false };
  if (phase === "failed") {
    // Back to D1, which never stopped serving; the shard's partial copy is dropped.
    await ctx.db.update(chatbots).set({ knowledgeStore: "d1" }).where(eq(chatbots.id, chatbotId));
    await shard.forgetAll(ref);
  }
  const done = phase === "done" || phase === "failed";
  if (!done && opts.enqueue !== false) await enqueueMove(ctx.env, chatbotId, delay);
  return { phase, done };
}

/** What an owner sees of the move: phase, chunks copied of how many, when. Null before any move. */
export async function knowledgeMoveProgress(ctx: Pick<ServiceContext, "db">, ref: ChatbotRef) {
  return (
    (await ctx.db
      .select({
        phase: knowledgeMoves.phase,
        copied: knowledgeMoves.copied,
        total: knowledgeMoves.total,
        error: knowledgeMoves.error,
        startedAt: knowledgeMoves.startedAt,
        finishedAt: knowledgeMoves.finishedAt,
        updatedAt: knowledgeMoves.updatedAt,
      })
      .from(knowledgeMoves)
      .where(and(eq(knowledgeMoves.chatbotId, ref.chatbotId), eq(knowledgeMoves.orgId, ref.orgId)))
      .get()) ?? null
  );
}

/**
 * What the knowledge page says about a move (null: nothing). Owners and admins see how far it is,
 * or why it failed; other editors only that it runs. Nothing once the chatbot is in its shard (the
 * cleanup of D1's rows after the switch does not concern them).
 */
export async function knowledgeMoveNotice(
  ctx: Pick<ServiceContext, "db">,
  ref: ChatbotRef,
  store: KnowledgeStoreKind,
  detailed: boolean,
): Promise<KnowledgeMoveNotice | null> {
  if (store === "shard") return null;
  const move = await knowledgeMoveProgress(ctx, ref);
  if (!move || move.phase === "done") return null;
  if (move.phase === "failed") {
    if (!detailed || store !== "d1") return null;
    return failedMoveNotice(move);
  }
  if (store !== "moving") return null;
  return { state: "moving", detail: detailed ? { phase: move.phase, copied: move.copied, total: Math.max(move.total, move.copied) } : null };
}

export type MoveSweepResult = { started: string[]; resumed: string[] };

/**
 * What starts and keeps moves going (cron, workers/scheduled.ts): resumes moves whose last step is
 * old, then starts moves for a few chatbots still in D1, oldest first — at most `start` per run and
 * `running` under way at once, so D1 and the queue are never flooded. A chatbot with a source being
 * ingested waits for a later run; one whose move failed waits a day. Nothing without the shard binding.
 */
export async function sweepKnowledgeMoves(ctx: Ctx, opts: { now?: number; start?: number; running?: number } = {}): Promise<MoveSweepResult> {
  const out: MoveSweepResult = { started: [], resumed: [] };
  if (!ctx.env.KNOWLEDGE_SHARD) return out;
  const now = opts.now ?? Date.now();
  const limit = opts.running ?? SWEEP_RUNNING;
  out.resumed = await resumeStalledMoves(ctx.env.DB, "knowledge_moves", KNOWLEDGE_MOVE_RUNNING, { now, stalledBefore: now - STALLED_AFTER_MS, limit }, (id) =>
    enqueueMove(ctx.env, id),
  );
  const slots = await freeMoveSlots(ctx.env.DB, "knowledge_moves", KNOWLEDGE_MOVE_RUNNING, opts.start ?? SWEEP_START, limit);
  if (slots <= 0) return out;
  const due = await ctx.db
    .select({ orgId: chatbots.orgId, chatbotId: chatbots.id })
    .from(chatbots)
    .where(
      and(
        eq(chatbots.knowledgeStore, "d1"),
        sql`NOT EXISTS (SELECT 1 FROM ${knowledgeSources} WHERE ${knowledgeSources.chatbotId} = ${chatbots.id} AND ${knowledgeSources.status} IN ('queued', 'processing'))`,
        sql`NOT EXISTS (SELECT 1 FROM ${knowledgeMoves} WHERE ${knowledgeMoves.chatbotId} = ${chatbots.id} AND ${knowledgeMoves.phase} = 'failed' AND ${knowledgeMoves.updatedAt} > ${now - RETRY_FAILED_AFTER_MS})`,
      ),
    )
    .orderBy(asc(chatbots.createdAt), asc(chatbots.id))
    .limit(slots)
    .all();
  for (const ref of due) if ((await startKnowledgeMove(ctx, ref)).ok) out.started.push(ref.chatbotId);
  return out;
}

/** Sources whose stray D1 text one sweep moves (each up to the plan's 2 M characters). */
const STRAY_TEXTS_PER_SWEEP = 20;

/**
 * Text and Q&A sources of chatbots already in their shard whose content is still in D1 (ADR 075):
 * chatbots created in their shard before source texts moved there, and the rare source written to
 * D1 as its chatbot's move switched over. A few per cron run, each moved into the shard (replacing
 * what the shard held for it) and then deleted from D1. A queued or processing source is left to
 * its first ingestion step, which does the same. The source ids moved.
 */
export async function sweepStrayTexts(ctx: Ctx, opts: { limit?: number } = {}): Promise<string[]> {
  if (!ctx.env.KNOWLEDGE_SHARD) return [];
  const { results } = await ctx.env.DB.prepare(
    `SELECT DISTINCT s.id, s.type, s.org_id, s.chatbot_id FROM knowledge_source_contents c
       JOIN knowledge_sources s ON s.id = c.source_id JOIN chatbots b ON b.id = s.chatbot_id
     WHERE b.knowledge_store = 'shard' AND s.status NOT IN ('queued', 'processing') LIMIT ?`,
  )
    .bind(opts.limit ?? STRAY_TEXTS_PER_SWEEP)
    .all<{ id: string; type: string; org_id: string; chatbot_id: string }>();
  for (const r of results)
    await adoptD1Content(ctx.env.DB, shardKnowledgeStore(ctx.env, { orgId: r.org_id, chatbotId: r.chatbot_id }), { sourceId: r.id, type: r.type });
  return results.map((r) => r.id);
}
