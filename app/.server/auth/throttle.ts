import { d1Client, type BoundSql, type Db } from "../db/client";

export type Limit = { max: number; windowMs: number };

// Fixed windows in D1 so the count holds across Worker instances.
const windowOf = (limit: Limit, now: number) => now - (now % limit.windowMs);

function verdict(count: number, limit: Limit, now: number) {
  return { ok: count <= limit.max, retryAfterS: Math.ceil((windowOf(limit, now) + limit.windowMs - now) / 1000), count };
}

export async function hit(db: Db, key: string, limit: Limit, now = Date.now()): Promise<{ ok: boolean; retryAfterS: number; count: number }> {
  const counts = await upsertAll(db, [[key, limit]], now);
  return verdict(counts.get(key) ?? 1, limit, now);
}

/**
 * Applies several limits (e.g. per IP and per email); all are counted, any one refuses. One D1
 * statement for all of them: every chat message passes four limits, and under load each round trip
 * and each statement is CPU on the one local runtime (issue #21). The keys are distinct.
 */
export async function hitAll(db: Db, checks: [string, Limit][], now = Date.now()) {
  if (!checks.length) return { ok: true, retryAfterS: 0 };
  const counts = await upsertAll(db, checks, now);
  return verdicts(
    checks.map(([key]) => counts.get(key) ?? 1),
    checks,
    now,
  );
}

/**
 * Adds one to each key's count in its window (a new window starts at 1), in one multi-row statement.
 * Fixed SQL on D1's API rather than drizzle's template: every chat message runs it, and rebuilding it
 * per message showed in bench:cpu's profile (issue #21, ADR 049).
 */
async function upsertAll(db: Db, checks: [string, Limit][], now: number): Promise<Map<string, number>> {
  const { results } = await d1Client(db)
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ${checks.map(() => "(?, ?, 1)").join(", ")}
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
        window_start = excluded.window_start
      RETURNING key, count`,
    )
    .bind(...checks.flatMap(([key, limit]) => [key, windowOf(limit, now)]))
    .all<{ key: string; count: number }>();
  return new Map(results.map((r) => [r.key, r.count]));
}

/**
 * upsertAll's statement for a caller's own D1 batch, counting only while `onlyIf` holds (an SQL
 * condition binding ?1…?n; the keys' parameters are numbered after them). Its rows go to
 * `hitAllCounted`; none come back when the condition did not hold, and then nothing was counted.
 * Chat's gate sends it with the chatbot's look-up: one round trip for both (widget/gate.ts).
 */
export function hitAllStatement(client: D1Database, checks: [string, Limit][], now: number, onlyIf: BoundSql): D1PreparedStatement {
  const n = onlyIf.params.length;
  const values = checks.map((_, i) => `(?${n + 2 * i + 1}, ?${n + 2 * i + 2})`).join(", ");
  return client
    .prepare(
      // An upsert from a SELECT needs the WHERE (SQLite's parsing rule), which is the condition here.
      `INSERT INTO rate_limits (key, window_start, count) SELECT column1, column2, 1 FROM (VALUES ${values}) WHERE ${onlyIf.sql}
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
        window_start = excluded.window_start
      RETURNING key, count`,
    )
    .bind(...onlyIf.params, ...checks.flatMap(([key, limit]) => [key, windowOf(limit, now)]));
}

/** hitAll's verdict from hitAllStatement's rows (null when they are empty: nothing was counted). */
export function hitAllCounted(rows: { key: string; count: number }[], checks: [string, Limit][], now: number) {
  if (checks.length && !rows.length) return null;
  const counts = new Map(rows.map((r) => [r.key, r.count]));
  return verdicts(
    checks.map(([key]) => counts.get(key) ?? 1),
    checks,
    now,
  );
}

/**
 * The same fixed windows counted in a store of the caller's instead of D1: `count(key, windowStart)`
 * adds one to that key's window (starting it afresh when the window moved on) and returns the new
 * count. A live conversation's Durable Object counts its visitor's socket messages this way, in its
 * own SQLite, without a D1 round trip before the acknowledgement (ADR 033).
 */
export function hitAllWith(count: (key: string, windowStart: number) => number, checks: [string, Limit][], now = Date.now()) {
  return verdicts(
    checks.map(([key, limit]) => count(key, windowOf(limit, now))),
    checks,
    now,
  );
}

function verdicts(counts: number[], checks: [string, Limit][], now: number) {
  let ok = true;
  let retryAfterS = 0;
  counts.forEach((count, i) => {
    const r = verdict(count, checks[i][1], now);
    if (!r.ok) {
      ok = false;
      retryAfterS = Math.max(retryAfterS, r.retryAfterS);
    }
  });
  return { ok, retryAfterS };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const LIMITS = {
  loginPerIp: { max: 30, windowMs: 15 * MINUTE },
  loginPerEmail: { max: 10, windowMs: 15 * MINUTE },
  signupPerIp: { max: 10, windowMs: HOUR },
  resetPerIp: { max: 10, windowMs: HOUR },
  resetPerEmail: { max: 3, windowMs: HOUR },
  verifyPerUser: { max: 10, windowMs: 15 * MINUTE },
  resendPerUser: { max: 3, windowMs: 15 * MINUTE },
  invitePerOrg: { max: 50, windowMs: HOUR },
} satisfies Record<string, Limit>;

/**
 * The address per-IP throttles count against. In production only `CF-Connecting-IP`, which
 * Cloudflare's edge sets (overwriting whatever the client sent); `X-Forwarded-For` is the client's
 * to write and is never read there. Under `wrangler dev` there is no edge, so whatever the client
 * sends picks the bucket (docs/self-hosting: rate limits); that is only for local runs.
 */
export function clientIp(request: Request, production: boolean): string {
  const edge = request.headers.get("CF-Connecting-IP");
  if (production) return edge ?? "unknown";
  return edge ?? request.headers.get("X-Forwarded-For")?.split(",")[0].trim() ?? "local";
}
