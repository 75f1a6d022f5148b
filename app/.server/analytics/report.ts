import { and, eq, inArray, sql } from "drizzle-orm";
import type { AnalyticsRange } from "~/lib/schemas/analytics";
import { daysBetween, eachDay } from "~/lib/time-zone";
import type { ServiceContext } from "../context";
import { analyticsQuestions } from "../db/schema";
import { percentileFromHistogram } from "./answer-time";
import { batchable } from "./record";
import { visitorCounts } from "./visitors";
import { groupSimilar, type KeyedCount, type QuestionGroup } from "./questions";

// The read side of analytics (ADR 020): a range's figures from the daily aggregate rows only — a
// handful of index range reads, whatever the number of messages behind them.

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

/** How many question keys of the range are read before grouping (the most asked / most missed). */
const KEYS_READ = 150;

export type QuestionLists = { top: QuestionGroup[]; unanswered: QuestionGroup[] };

/**
 * The range's most asked questions and its unanswered ones (not yet answered with "add an answer"),
 * each grouped by similarity (analytics/questions.ts).
 */
export async function loadQuestions(ctx: Ctx, ref: Ref, range: AnalyticsRange, limits = { top: 10, unanswered: 20 }): Promise<QuestionLists> {
  const long = daysBetween(range.from, range.to) > SCAN_DAYS;
  const list = async (measure: Measure) => (long ? await mostByTotals(ctx, ref, range, measure) : null) ?? scanRange(ctx, ref, range, measure);
  const [top, missed] = await Promise.all([list("asked"), list("unanswered")]);
  return {
    top: groupSimilar(top).slice(0, limits.top),
    unanswered: groupSimilar(missed)
      .sort((a, b) => b.unanswered - a.unanswered)
      .slice(0, limits.unanswered),
  };
}

/** Up to this many days, a range's question rows are read in one scan; longer ones start from the keys' totals. */
const SCAN_DAYS = 14;
const CANDIDATES = 250;
const MAX_ROUNDS = 8;
type Measure = "asked" | "unanswered";
/** The unanswered list leaves out groups someone answered with "add an answer". */
const listed = (measure: Measure) => (measure === "unanswered" ? sql`and g.answered_at is null` : sql``);

/** The KEYS_READ keys with the most `measure` in the range, from one scan of the range's rows. */
function scanRange(ctx: Ctx, ref: Ref, range: AnalyticsRange, measure: Measure): Promise<KeyedCount[]> {
  const order = sql.raw(`t.${measure} desc, t.key`);
  return ctx.db.all<KeyedCount>(sql`select t.key, g.text, t.asked, t.unanswered from
    (select key, sum(asked) as asked, sum(unanswered) as unanswered from analytics_question_days
      where chatbot_id = ${ref.chatbotId} and day between ${range.from} and ${range.to} group by key) t
    join analytics_questions g on g.chatbot_id = ${ref.chatbotId} and g.key = t.key and g.org_id = ${ref.orgId}
    where t.${sql.raw(measure)} > 0 ${listed(measure)}
    order by ${order} limit ${KEYS_READ}`);
}

/**
 * The same list for a long range without reading all its rows (a threshold algorithm): keys come in
 * order of their all-time totals, and their counts in the range are read key by key (index
 * analytics_question_days_key_idx). A key's count in any range is at most its total, so once the
 * next key's total is no more than the KEYS_READ-th best count so far, no later key can enter the
 * list: the result is exact. Null when that takes more than MAX_ROUNDS rounds (a long tail of
 * rare questions): the caller then scans.
 */
async function mostByTotals(ctx: Ctx, ref: Ref, range: AnalyticsRange, measure: Measure): Promise<KeyedCount[] | null> {
  const best: KeyedCount[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const candidates = await ctx.db.all<{ key: string; text: string; total: number }>(sql`select g.key, g.text, g.${sql.raw(measure)} as total
      from analytics_questions g where g.chatbot_id = ${ref.chatbotId} and g.org_id = ${ref.orgId} and g.${sql.raw(measure)} > 0 ${listed(measure)}
      order by g.${sql.raw(measure)} desc, g.key limit ${CANDIDATES} offset ${round * CANDIDATES}`);
    if (candidates.length) {
      const counts = await ctx.db.all<{ key: string; asked: number; unanswered: number }>(sql`select key, sum(asked) as asked, sum(unanswered) as unanswered
        from analytics_question_days indexed by analytics_question_days_key_idx
        where chatbot_id = ${ref.chatbotId} and key in (select value from json_each(${JSON.stringify(candidates.map((c) => c.key))}))
          and day between ${range.from} and ${range.to}
        group by key`);
      const text = new Map(candidates.map((c) => [c.key, c.text]));
      for (const c of counts) if (c[measure] > 0) best.push({ key: c.key, text: text.get(c.key) ?? c.key, asked: c.asked, unanswered: c.unanswered });
      best.sort((a, b) => b[measure] - a[measure] || a.key.localeCompare(b.key));
      best.length = Math.min(best.length, KEYS_READ);
    }
    const kth = best.length === KEYS_READ ? best[KEYS_READ - 1][measure] : 0;
    if (candidates.length < CANDIDATES || candidates[candidates.length - 1].total <= kth) return best;
  }
  return null;
}

/** Marks question groups answered (by a new Q&A source); a later unanswered ask opens them again. */
export async function markQuestionsAnswered(ctx: Ctx, ref: Ref, keys: string[], by: { userId: string; sourceId: string }) {
  const now = Date.now();
  // D1 binds at most 100 parameters per statement.
  for (let i = 0; i < keys.length; i += 90) {
    await ctx.db
      .update(analyticsQuestions)
      .set({ answeredAt: now, answeredBy: by.userId, answerSourceId: by.sourceId })
      .where(
        and(eq(analyticsQuestions.chatbotId, ref.chatbotId), eq(analyticsQuestions.orgId, ref.orgId), inArray(analyticsQuestions.key, keys.slice(i, i + 90))),
      );
  }
}
