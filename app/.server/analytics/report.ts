import { sql } from "drizzle-orm";
import type { AnalyticsRange } from "~/lib/schemas/analytics";
import { eachDay } from "~/lib/time-zone";
import type { ServiceContext } from "../context";
import { percentileFromHistogram } from "./answer-time";
import { batchable } from "./record";
import { visitorCounts } from "./visitors";

// The read side of analytics (ADR 020): a range's figures from the daily aggregate rows only — a
// handful of index range reads, whatever the number of messages behind them. The question lists are
// analytics/question-groups.ts (ADR 077).

type Ctx = Pick<ServiceContext, "db">;
type Ref = { orgId: string; chatbotId: string };

export type DayFigures = {
  day: string;
  conversations: number;
  messages: number;
  visitors: number;
  questions: number;
  unanswered: number;
  unresolved: number;
  leads: number;
  handoffs: number;
  reports: number;
  thumbsUp: number;
  thumbsDown: number;
  medianMs: number | null;
  p95Ms: number | null;
};

export type Totals = Omit<DayFigures, "day"> & {
  resolved: number;
  /** Resolved ÷ conversations, 0–1; null without conversations. */
  resolutionRate: number | null;
  /** How many replies the answer times are taken from. */
  answerSamples: number;
};

export type Split = { key: string; count: number }[];

export type AnalyticsReport = {
  range: AnalyticsRange;
  totals: Totals;
  days: DayFigures[];
  channels: Split;
  countries: Split;
};

type DailyRow = {
  day: string;
  conversations: number;
  messages: number;
  questions: number;
  unanswered: number;
  unresolved: number;
  leads: number;
  handoffs: number;
  reports: number;
  thumbs_up: number;
  thumbs_down: number;
};

/**
 * Every figure of the analytics screen for `range` (days in the organisation's time zone). The
 * visitors come from where the chatbot's conversation index is (analytics/visitors.ts, ADR 076);
 * `chatbot` is its row when the caller holds it.
 */
export async function loadReport(
  ctx: Ctx & Pick<ServiceContext, "env">,
  ref: Ref,
  range: AnalyticsRange,
  chatbot?: Parameters<typeof visitorCounts>[3],
): Promise<AnalyticsReport> {
  const inRange = sql`chatbot_id = ${ref.chatbotId} and day between ${range.from} and ${range.to}`;
  const visitors = visitorCounts(ctx, ref, range, chatbot);
  const [daily, splits, latency] = await ctx.db.batch([
    batchable(
      ctx.db,
      ctx.db.all<DailyRow>(
        sql`select day, conversations, messages, questions, unanswered, unresolved, leads, handoffs, reports, thumbs_up, thumbs_down
        from analytics_daily where ${inRange} and org_id = ${ref.orgId}`,
      ),
    ),
    batchable(
      ctx.db,
      ctx.db.all<{ dim: "channel" | "country"; key: string; count: number }>(
        sql`select dim, key, sum(count) as count from analytics_splits where ${inRange} and dim in ('channel', 'country') group by dim, key`,
      ),
    ),
    batchable(
      ctx.db,
      ctx.db.all<{ day: string; key: string; count: number }>(sql`select day, key, count from analytics_splits where ${inRange} and dim = 'latency'`),
    ),
  ]);
  // Unique over the range: a visitor who wrote on several days counts once (one row per visitor and day).
  const { days: visitorDays, unique } = await visitors;

  const byDay = new Map(daily.map((r) => [r.day, r]));
  const visitorsByDay = new Map(visitorDays.map((r) => [r.day, r.n]));
  const histByDay = new Map<string, Map<number, number>>();
  const all = new Map<number, number>();
  for (const r of latency) {
    const b = Number(r.key);
    let h = histByDay.get(r.day);
    if (!h) histByDay.set(r.day, (h = new Map()));
    h.set(b, (h.get(b) ?? 0) + r.count);
    all.set(b, (all.get(b) ?? 0) + r.count);
  }

  const days: DayFigures[] = eachDay(range.from, range.to).map((day) => {
    const r = byDay.get(day);
    const h = histByDay.get(day);
    return {
      day,
      conversations: r?.conversations ?? 0,
      messages: r?.messages ?? 0,
      visitors: visitorsByDay.get(day) ?? 0,
      questions: r?.questions ?? 0,
      unanswered: r?.unanswered ?? 0,
      unresolved: r?.unresolved ?? 0,
      leads: r?.leads ?? 0,
      handoffs: r?.handoffs ?? 0,
      reports: r?.reports ?? 0,
      thumbsUp: r?.thumbs_up ?? 0,
      thumbsDown: r?.thumbs_down ?? 0,
      medianMs: h ? percentileFromHistogram(h, 50) : null,
      p95Ms: h ? percentileFromHistogram(h, 95) : null,
    };
  });
  const sum = (k: keyof DayFigures) => days.reduce((s, d) => s + ((d[k] as number | null) ?? 0), 0);
  const conversations = sum("conversations");
  const unresolved = Math.min(conversations, sum("unresolved"));
  const totals: Totals = {
    conversations,
    messages: sum("messages"),
    visitors: unique,
    questions: sum("questions"),
    unanswered: sum("unanswered"),
    unresolved,
    resolved: conversations - unresolved,
    resolutionRate: conversations ? (conversations - unresolved) / conversations : null,
    leads: sum("leads"),
    handoffs: sum("handoffs"),
    reports: sum("reports"),
    thumbsUp: sum("thumbsUp"),
    thumbsDown: sum("thumbsDown"),
    medianMs: percentileFromHistogram(all, 50),
    p95Ms: percentileFromHistogram(all, 95),
    answerSamples: [...all.values()].reduce((s, n) => s + n, 0),
  };
  const split = (dim: "channel" | "country") =>
    splits
      .filter((s) => s.dim === dim)
      .map((s) => ({ key: s.key, count: s.count }))
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  return { range, totals, days, channels: split("channel"), countries: split("country") };
}
