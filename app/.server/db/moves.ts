// What the storage moves share (knowledge, ADR 034; messages, ADR 042; conversation index, ADR 051): the checksum both sides
// of a move compute, and the cron sweeps' steps — both keep one row per chatbot (chatbot_id, phase,
// updated_at), resume a move whose chain of queue messages was lost, then start new ones only while
// fewer than a cap are under way.

/** FNV-1a over a string, continuing from `h` (start at 2166136261): the same on D1 and in a shard, cheap, order-sensitive. */
export function fnv(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/**
 * A row's checksum over its values in a fixed order: each value ended by a separator, null told
 * apart from text, so a moved column that differs in any way (or shifts into its neighbour) shows.
 */
export function valuesHash(values: readonly unknown[]): number {
  let h = 2166136261;
  for (const v of values) h = fnv(fnv(h, v === null || v === undefined ? "\u0000" : String(v)), "\u0001");
  return h;
}

/** A failed move is started again by its sweep after this long (the owner's notice says when). */
export const RETRY_FAILED_AFTER_MS = 24 * 3_600_000;

/** A failed move as the owner's notice tells it: why, and when it is tried again. */
export function failedMoveNotice(move: { error: string | null; updatedAt: number }): { state: "failed"; error: string; retryAfter: number } {
  return { state: "failed", error: move.error ?? "The move stopped.", retryAfter: move.updatedAt + RETRY_FAILED_AFTER_MS };
}

/** The moves' state tables; a fixed list, so the name can go into the SQL. */
export type MoveTable = "knowledge_moves" | "message_moves" | "conversation_moves";

/**
 * Moves in a running phase whose last step is older than `stalledBefore` get their next step queued
 * again (at most `limit`). Each is touched first, in one conditional UPDATE, so the next run does not
 * queue it again while this message waits and two runs at once cannot both take it.
 */
export async function resumeStalledMoves(
  db: D1Database,
  table: MoveTable,
  running: readonly string[],
  opts: { now: number; stalledBefore: number; limit: number },
  enqueue: (chatbotId: string) => Promise<void>,
): Promise<string[]> {
  const phases = running.map(() => "?").join(", ");
  // Running phases by IN, not NOT IN: the phase index finds them without a scan of finished moves.
  const { results } = await db
    .prepare(`SELECT chatbot_id, updated_at FROM ${table} WHERE phase IN (${phases}) AND updated_at < ? LIMIT ?`)
    .bind(...running, opts.stalledBefore, opts.limit)
    .all<{ chatbot_id: string; updated_at: number }>();
  const resumed: string[] = [];
  for (const move of results) {
    const claimed = await db
      .prepare(`UPDATE ${table} SET updated_at = ? WHERE chatbot_id = ? AND updated_at = ? RETURNING chatbot_id`)
      .bind(opts.now, move.chatbot_id, move.updated_at)
      .first();
    if (!claimed) continue;
    await enqueue(move.chatbot_id);
    resumed.push(move.chatbot_id);
  }
  return resumed;
}

/** How many moves a sweep may start now: at most `start`, and never past `cap` moves under way. */
export async function freeMoveSlots(db: D1Database, table: MoveTable, running: readonly string[], start: number, cap: number): Promise<number> {
  const row = await db
    .prepare(`SELECT count(*) AS n FROM ${table} WHERE phase IN (${running.map(() => "?").join(", ")})`)
    .bind(...running)
    .first<{ n: number }>();
  return Math.min(start, cap - (row?.n ?? 0));
}
