import { and, eq, gte, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import { bugReports, chatbots, conversations, leads, messages, notificationDestinations, notificationMarks, organisations } from "../db/schema";
import { HANDOFF_NOTE } from "../inbox/rules";
import { messageShard } from "../chat/message-store";
import { conversationIndex } from "../chat/conversation-index";
import { dashboardUrl, emit, type NotifyContext } from "./events";

// The daily digest: each morning (DIGEST_HOUR, the organisation's time zone) the cron sends
// yesterday's numbers of every chatbot that has a destination subscribed to it, once per chatbot
// and day (a mark). The time zone is `organisations.time_zone` when the organisation has one (the
// analytics work adds it); otherwise UTC.

export const DIGEST_HOUR = 8;
const DAY_MS = 86_400_000;

export function validTimeZone(tz: unknown): string {
  if (typeof tz !== "string" || !tz) return "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return tz;
  } catch {
    return "UTC";
  }
}

/** Local calendar date (YYYY-MM-DD) and hour of `ms` in `tz`. */
export function zonedDateHour(ms: number, tz: string): { date: string; hour: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", hourCycle: "h23" })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/** Offset of `tz` from UTC at `ms`, in ms (positive east of Greenwich). */
function offsetAt(ms: number, tz: string): number {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23",
    })
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant local midnight starts `date` (YYYY-MM-DD) in `tz`. */
export function zonedMidnight(date: string, tz: string): number {
  const [y, m, d] = date.split("-").map(Number);
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - offsetAt(guess, tz);
  // Once more at the found instant: the offset can differ across a DST change.
  return guess - offsetAt(first, tz);
}

export function previousDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

export type DigestNumbers = { conversations: number; leads: number; handoffs: number; ratedDown: number; bugReports: number };

/** A chatbot's numbers for [start, end). Each count is a range on an index of its table. */
export async function digestNumbers(
  ctx: Pick<NotifyContext, "db"> & Partial<Pick<NotifyContext, "env">>,
  ref: { orgId: string; chatbotId: string },
  start: number,
  end: number,
): Promise<DigestNumbers> {
  const db = ctx.db;
  const stores = await db
    .select({ messages: chatbots.messageStore, conversations: chatbots.conversationStore })
    .from(chatbots)
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .get();
  // Handoff notes and thumbs-down are messages: the chatbot's shard counts them when they are there (ADR 040).
  const shard = await messageShard(ctx, ref, stores?.messages ?? "d1");
  // The day's new conversations: the index's count when it is in the shard (ADR 044, 048), else D1's query below.
  const index = stores?.conversations === "shard" ? await conversationIndex(ctx, ref, "shard") : null;
  // Conversations of the day have had activity since its start: a range of conversations_list_idx.
  const active = and(
    eq(conversations.orgId, ref.orgId),
    eq(conversations.chatbotId, ref.chatbotId),
    sql`${conversations.messageCount} > 0`,
    gte(conversations.lastMessageAt, start),
  );
  const [counted, activity] = await Promise.all([shard ? shard.digestCounts(start, end, HANDOFF_NOTE) : null, index ? index.activity(start, end) : null]);
  // In a shard, D1's two message counts become constant queries (the batch keeps its shape).
  const none = db
    .select({ n: sql<number>`0` })
    .from(conversations)
    .limit(1);
  // Messages of the day's active conversations matching `which`, counted in D1.
  const messagesOfDay = (which: SQL | undefined) =>
    shard
      ? none
      : db
          .select({ n: sql<number>`count(*)` })
          .from(messages)
          .innerJoin(conversations, eq(conversations.id, messages.conversationId))
          .where(and(active, which, gte(messages.createdAt, start), lt(messages.createdAt, end)));
  const [conv, lead, handoff, down, bug] = await db.batch([
    activity
      ? none
      : db
          .select({ n: sql<number>`count(*)` })
          .from(conversations)
          .where(and(active, gte(conversations.createdAt, start), lt(conversations.createdAt, end))),
    db
      .select({ n: sql<number>`count(*)` })
      .from(leads)
      .where(and(eq(leads.chatbotId, ref.chatbotId), eq(leads.orgId, ref.orgId), gte(leads.createdAt, start), lt(leads.createdAt, end))),
    messagesOfDay(and(eq(messages.role, "system"), eq(messages.content, HANDOFF_NOTE))),
    messagesOfDay(and(eq(messages.role, "bot"), eq(messages.feedback, -1))),
    db
      .select({ n: sql<number>`count(*)` })
      .from(bugReports)
      .where(and(eq(bugReports.chatbotId, ref.chatbotId), eq(bugReports.orgId, ref.orgId), gte(bugReports.createdAt, start), lt(bugReports.createdAt, end))),
  ]);
  const n = (r: { n: number }[]) => Number(r[0]?.n ?? 0);
  return {
    conversations: activity ? activity.started : n(conv),
    leads: n(lead),
    handoffs: counted ? counted.handoffs : n(handoff),
    ratedDown: counted ? counted.ratedDown : n(down),
    bugReports: n(bug),
  };
}

/** Sends every digest that is due at `now` and not sent yet. Returns the chatbots sent for. */
export async function sendDueDigests(ctx: NotifyContext, now = Date.now()): Promise<string[]> {
  const rows = await ctx.db
    .select({ chatbotId: notificationDestinations.chatbotId, org: organisations })
    .from(notificationDestinations)
    .innerJoin(organisations, eq(organisations.id, notificationDestinations.orgId))
    .innerJoin(chatbots, eq(chatbots.id, notificationDestinations.chatbotId))
    .where(
      and(
        isNotNull(notificationDestinations.confirmedAt),
        isNull(notificationDestinations.pausedAt),
        sql`exists (select 1 from json_each(${notificationDestinations.events}) where value = 'digest.daily')`,
      ),
    )
    .all();
  const sent: string[] = [];
  const done = new Set<string>();
  for (const { chatbotId, org } of rows) {
    if (done.has(chatbotId)) continue;
    done.add(chatbotId);
    const tz = validTimeZone((org as { timeZone?: unknown }).timeZone);
    const local = zonedDateHour(now, tz);
    if (local.hour < DIGEST_HOUR) continue;
    const day = previousDate(local.date);
    const marked = await ctx.db
      .insert(notificationMarks)
      .values({ key: `digest:${chatbotId}:${day}` })
      .onConflictDoNothing()
      .returning({ key: notificationMarks.key });
    if (!marked.length) continue;
    const ref = { orgId: org.id, chatbotId };
    try {
      const numbers = await digestNumbers(ctx, ref, zonedMidnight(day, tz), zonedMidnight(local.date, tz));
      await emit(ctx, ref, "digest.daily", { date: day, timeZone: tz, ...numbers, url: dashboardUrl(ctx, ref) }, now);
      sent.push(chatbotId);
    } catch (e) {
      console.error(`[notifications] digest for ${chatbotId} failed`, e);
    }
  }
  return sent;
}
