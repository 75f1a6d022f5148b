import { and, eq, sql } from "drizzle-orm";
import { planLimits, raiseLimitHint } from "~/lib/plans";
import type { AppContext } from "../context";
import { organisations, usageCounters } from "../db/schema";
import { notifyReplyUsage } from "../notifications/usage-alerts";
import { d1Client, prepareOn, type BoundSql } from "../db/client";

// Replies (credits) per billing period. A period starts at the organisation's periodStart and renews
// every calendar month on the same day (clamped to the month's last day, e.g. 31 → 30 April).

type Org = Pick<typeof organisations.$inferSelect, "id" | "plan" | "periodStart">;
type Ctx = Pick<AppContext, "db">;

function addMonthsUtc(ms: number, months: number): number {
  const d = new Date(ms);
  const day = d.getUTCDate();
  const target = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime();
}

/** The current period: [start, end) containing `now`, counted in whole months from periodStart. */
export function currentPeriod(periodStart: number, now = Date.now()): { start: number; end: number } {
  if (now < periodStart) return { start: periodStart, end: addMonthsUtc(periodStart, 1) };
  const a = new Date(periodStart);
  const b = new Date(now);
  let months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  if (addMonthsUtc(periodStart, months) > now) months--;
  return { start: addMonthsUtc(periodStart, months), end: addMonthsUtc(periodStart, months + 1) };
}

export type ReplyUsage = { period: number; periodEnd: number; replies: number; limit: number };

export async function getReplyUsage(ctx: Ctx, org: Org, now = Date.now()): Promise<ReplyUsage> {
  const { start, end } = currentPeriod(org.periodStart, now);
  const row = await ctx.db
    .select({ replies: usageCounters.replies })
    .from(usageCounters)
    .where(and(eq(usageCounters.orgId, org.id), eq(usageCounters.period, start)))
    .get();
  return { period: start, periodEnd: end, replies: row?.replies ?? 0, limit: planLimits(org.plan).repliesPerMonth };
}

export type ConsumeResult = { ok: true; period: number; replies: number; limit: number } | { ok: false; period: number; limit: number; message: string };

/**
 * Counts one reply against the plan, atomically: a single upsert increments the counter only while
 * it is below the limit, so concurrent requests can never overshoot it.
 */
export async function tryConsumeReply(ctx: Ctx & object, org: Org, now = Date.now()): Promise<ConsumeResult> {
  const consume = consumeReply(ctx, org, now);
  const q = consume.query;
  return consume.settle(q ? ((await prepareOn(d1Client(ctx.db), q).first<{ replies: number }>()) ?? undefined) : undefined);
}

/**
 * tryConsumeReply in two halves, for a caller that runs the upsert in a batch of its own (chat/turn.ts,
 * with the turn's first reads): `query` (null when the plan allows no replies at all), optionally
 * guarded by `onlyIf` (the reply is not counted when it is false), then `settle` with its row.
 * `query` is fixed SQL with its parameters (every chat message runs it; drizzle rebuilt it each time,
 * issue #21, ADR 049). `onlyIf` is an SQL condition whose parameters are numbered ?1…?n; the
 * upsert's own follow them.
 */
export function consumeReply(ctx: Ctx & object, org: Org, now = Date.now(), onlyIf?: BoundSql) {
  const { start } = currentPeriod(org.periodStart, now);
  const limit = planLimits(org.plan).repliesPerMonth;
  const n = onlyIf?.params.length ?? 0;
  const query =
    limit <= 0
      ? null
      : {
          // An upsert from a SELECT needs the WHERE (SQLite's parsing rule), which is the guard here.
          sql: `INSERT INTO usage_counters (org_id, period, replies) ${onlyIf ? `SELECT ?${n + 1}, ?${n + 2}, 1 WHERE ${onlyIf.sql}` : `VALUES (?${n + 1}, ?${n + 2}, 1)`}
            ON CONFLICT (org_id, period) DO UPDATE SET replies = usage_counters.replies + 1 WHERE usage_counters.replies < ?${n + 3}
            RETURNING replies`,
          params: [...(onlyIf?.params ?? []), org.id, start, limit],
        };
  const settle = async (row: { replies: number } | undefined): Promise<ConsumeResult> => {
    if (!row)
      return {
        ok: false as const,
        period: start,
        limit,
        message: `This organisation has used all ${limit} bot replies of its plan this month. ${raiseLimitHint(org.plan, "repliesPerMonth")}`,
      };
    // Reaching 80 % or 100 % of the plan's replies notifies (once per period each).
    await notifyReplyUsage(ctx, org, { period: start, replies: row.replies, limit });
    return { ok: true, period: start, replies: row.replies, limit };
  };
  return { query, settle };
}

/** Gives back a reply counted by tryConsumeReply when no reply was produced after all (model error). */
export async function refundReply(ctx: Ctx, orgId: string, period: number) {
  await ctx.db
    .update(usageCounters)
    .set({ replies: sql`max(${usageCounters.replies} - 1, 0)` })
    .where(and(eq(usageCounters.orgId, orgId), eq(usageCounters.period, period)));
}
