import { eq, sql, type SQL } from "drizzle-orm";
import { dayIn, DEFAULT_TIME_ZONE } from "~/lib/time-zone";
import type { ServiceContext } from "../context";
import { prepareOn, type BoundSql } from "../db/client";
import { organisations, type CHANNELS } from "../db/schema";
import { answerTimeBucket } from "./answer-time";
import { questionUpserts, type QuestionMark } from "./question-rows";
import { questionKey, questionSample } from "./questions";

// The write side of analytics (ADR 020): statements that keep the daily aggregate rows up to date,
// handed to the caller to run in the same batch as the write they count — a message, a lead, a
// thumb, a report, a handoff — so a count is stored exactly when the thing it counts is. Nothing
// here reads messages back; the analytics page reads only these rows (analytics/report.ts).
//
// Nothing here reads `conversations` either (ADR 048): the conversation's chatbot, visitor, channel
// and country come as values, since its row may be in the chatbot's shard (ADR 044). Whether an
// event is the conversation's first (counted once) or its first problem (unresolved once) is decided
// either by D1 inside the caller's batch, from `analytics_conversations` (the batch is one
// transaction), or beforehand by the conversation index (`CountDecision`, a chatbot whose index is
// in its shard keeps those marks there).

type Db = ServiceContext["db"];
type Ref = { orgId: string; chatbotId: string };
export type AnalyticsStatement = ReturnType<Db["run"]>;

/** What a count needs to know about its conversation, by value. */
export type CountedConversation = Ref & { id: string; visitorId: string; channel: (typeof CHANNELS)[number]; country: string | null };

/**
 * The conversation index's answer for one event (`ConversationIndex.countOnce`): `counted`, this
 * event counted the conversation (on the event's day); `unresolvedDay`, this event made it unresolved
 * and it was counted on that day. Without one, D1 decides in the batch.
 */
export type CountDecision = { counted: boolean; unresolvedDay: string | null };

// The counters are SQL text with their parameters (BoundSql, anonymous `?` in order) rather than
// drizzle's `sql` template: a chat message runs six of them, and drizzle rebuilding each one's SQL per
// message was a visible share of its CPU under load (issue #21, ADR 049). The chat path binds them on
// D1's API (`bindAll`); the other writers (leads, thumbs, reports, handoffs) get them as drizzle
// statements for their `db.batch` (`statement`).

/** Prepares counter statements on a D1 client (D1, or a shard's storage behind D1's API). */
export function bindAll(client: D1Database, statements: BoundSql[]): D1PreparedStatement[] {
  return statements.map((s) => prepareOn(client, s));
}

/**
 * A counter statement as a drizzle statement for `db.batch`: the text between `?`s raw, the
 * parameters bound in their places (the SQL here never has a `?` inside a literal).
 */
function statement(db: Db, q: BoundSql): AnalyticsStatement {
  const parts = q.sql.split("?");
  if (parts.length !== q.params.length + 1) throw new Error("analytics statement: parameters do not match");
  const chunks: SQL[] = [sql.raw(parts[0])];
  q.params.forEach((p, i) => chunks.push(sql`${p}`, sql.raw(parts[i + 1])));
  return batchable(db, db.run(sql.join(chunks)));
}

/**
 * A raw statement that can go into `db.batch`. drizzle-orm 0.45's D1 batch binds each item's
 * parameters through its prepared `stmt`, which a raw `db.run(sql)` lacks (it only works alone), so
 * the statement is prepared here on the same D1 client.
 */
export function batchable<T extends { getQuery(): { sql: string } }>(db: Db, raw: T): T {
  return Object.assign(raw, { stmt: db.$client.prepare(raw.getQuery().sql) });
}

const COUNTERS = ["conversations", "messages", "questions", "unanswered", "unresolved", "leads", "handoffs", "reports", "thumbs_up", "thumbs_down"] as const;
type Counter = (typeof COUNTERS)[number];

/** The organisation's time zone (its analytics days); UTC when the organisation is gone. */
export async function orgTimeZone(ctx: { db: Db }, orgId: string): Promise<string> {
  const row = await ctx.db.select({ timeZone: organisations.timeZone }).from(organisations).where(eq(organisations.id, orgId)).get();
  return row?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** Adds to the day's counters (a row per chatbot and day, created on first use); an addend is a number or an expression. */
function bump(ref: Ref, day: string, add: Partial<Record<Counter, number | BoundSql>>): BoundSql {
  const cols = COUNTERS.filter((c) => add[c] !== undefined);
  const params: unknown[] = [ref.chatbotId, day, ref.orgId];
  let values = "";
  for (const c of cols) {
    const v = add[c]!;
    if (typeof v === "number") {
      values += ", ?";
      params.push(v);
    } else {
      values += `, ${v.sql}`;
      params.push(...v.params);
    }
  }
  return {
    sql: `insert into analytics_daily (chatbot_id, day, org_id${cols.map((c) => `, ${c}`).join("")}) values (?, ?, ?${values})
    on conflict (chatbot_id, day) do update set ${cols.map((c) => `${c} = ${c} + excluded.${c}`).join(", ")}`,
    params,
  };
}

/** Takes one from a day's counter where it has one (a thumb changed or cleared). */
function takeOne(ref: Ref, day: string, counter: Counter): BoundSql {
  return { sql: `update analytics_daily set ${counter} = max(0, ${counter} - 1) where chatbot_id = ? and day = ?`, params: [ref.chatbotId, day] };
}

const NOT_COUNTED = "not exists (select 1 from analytics_conversations where conversation_id = ?)";

/** A split row (channel, country, answer time) per entry, counted by one; `when` holds the row back unless true. */
function splits(ref: Ref, day: string, rows: { dim: string; key: string; when?: BoundSql }[]): BoundSql[] {
  if (!rows.length) return [];
  // The upsert's SELECTs each end in a WHERE clause (SQLite's rule for INSERT … SELECT … ON CONFLICT).
  const params: unknown[] = [];
  const selects = rows.map((r) => {
    params.push(ref.chatbotId, day, r.dim, r.key, ...(r.when?.params ?? []));
    return `select ?, ?, ?, ?, 1 where ${r.when?.sql ?? "true"}`;
  });
  return [
    {
      sql: `insert into analytics_splits (chatbot_id, day, dim, key, count) ${selects.join(" union all ")}
      on conflict (chatbot_id, day, dim, key) do update set count = count + 1`,
      params,
    },
  ];
}

/**
 * A conversation is counted once, on the day of its first message (or handoff request): the day's
 * conversations, its channel and country. Must run before anything else of the same batch that
 * counts the conversation; `extra` rides along on the day's row, and `latencyBucket` (a reply's
 * answer time) on the splits' statement: one upsert per table, since under load each statement of
 * a message's batch is CPU on the one local runtime (issue #21).
 */
function countConversation(
  c: CountedConversation,
  day: string,
  extra: Partial<Record<Counter, number | BoundSql>> = {},
  latencyBucket?: string,
  decided?: CountDecision,
): BoundSql[] {
  const ref = { orgId: c.orgId, chatbotId: c.chatbotId };
  const latency = latencyBucket === undefined ? [] : [{ dim: "latency", key: latencyBucket }];
  if (decided) {
    const first = decided.counted
      ? [
          { dim: "channel", key: c.channel },
          { dim: "country", key: c.country ?? "" },
        ]
      : [];
    return [bump(ref, day, { conversations: first.length ? 1 : 0, ...extra }), ...splits(ref, day, [...first, ...latency])];
  }
  const once: BoundSql = { sql: NOT_COUNTED, params: [c.id] };
  return [
    bump(ref, day, { conversations: { sql: `(${NOT_COUNTED})`, params: [c.id] }, ...extra }),
    ...splits(ref, day, [{ dim: "channel", key: c.channel, when: once }, { dim: "country", key: c.country ?? "", when: once }, ...latency]),
    {
      sql: "insert or ignore into analytics_conversations (conversation_id, chatbot_id, day, problem) values (?, ?, ?, 0)",
      params: [c.id, c.chatbotId, day],
    },
  ];
}

/**
 * The conversation had a fallback, a thumbs-down, a report or a handoff: it counts as unresolved,
 * once, on the day it started (after this, whatever else happens to it).
 */
function markUnresolved(ref: Ref, conversationId: string, decided?: CountDecision): BoundSql[] {
  if (decided)
    return decided.unresolvedDay
      ? [{ sql: "update analytics_daily set unresolved = unresolved + 1 where chatbot_id = ? and day = ?", params: [ref.chatbotId, decided.unresolvedDay] }]
      : [];
  const open = "from analytics_conversations where conversation_id = ? and problem = 0";
  return [
    {
      sql: `update analytics_daily set unresolved = unresolved + 1
      where chatbot_id = (select chatbot_id ${open}) and day = (select day ${open})`,
      params: [conversationId, conversationId],
    },
    { sql: "update analytics_conversations set problem = 1 where conversation_id = ?", params: [conversationId] },
  ];
}

export type ExchangeFacts = {
  timeZone: string;
  askedAt: number;
  visitorText: string;
  /** The stored reply, if any. */
  bot: { answered: boolean; credits: number; latencyMs: number | null } | null;
  /** The conversation list's "unanswered": a fallback, the reply limit, or a failure. */
  unanswered: boolean;
};

/**
 * What one visitor message and its reply add (chat/conversations.ts runs these before the exchange's
 * own writes, in its batch): the conversation when new, two messages (one without a reply), the
 * visitor's day, the reply's answer time, the question's group, and "unresolved" on a fallback.
 * A question is a message the bot answered from knowledge or could not answer; small talk is
 * neither. It is unanswered when the reply had no knowledge behind it (the fallback, or an answer
 * below the relevance floor), not when the plan's reply limit refused it (credits 0).
 */
export function exchangeStatements(conversation: CountedConversation, facts: ExchangeFacts, decided?: CountDecision): BoundSql[] {
  const ref = { orgId: conversation.orgId, chatbotId: conversation.chatbotId };
  const day = dayIn(facts.timeZone, facts.askedAt);
  const bot = facts.bot;
  const question = askedQuestion(facts);
  const out = countConversation(
    conversation,
    day,
    { messages: bot ? 2 : 1, questions: question ? 1 : 0, unanswered: question?.missed ? 1 : 0 },
    bot?.latencyMs != null ? String(answerTimeBucket(bot.latencyMs)) : undefined,
    decided,
  );
  // With a decision the conversation's index counted the visitor next to it (its mark's `visitor`, ADR 076).
  if (!decided) out.push(visitorOn(conversation, day));
  // With a decision the index counted the question's group next to it too (the mark's `question`, ADR 077).
  // The key and sample (stemming) are worked out only here or, for the mark, by the caller: once a message.
  if (question && !decided) out.push(...questionUpserts(ref, day, questionOf(facts)!));
  if (facts.unanswered) out.push(...markUnresolved(ref, conversation.id, decided));
  return out;
}

/**
 * The exchange's visitor message as a question of analytics' groups, or null: a question is a
 * message the bot answered from knowledge or could not answer (small talk is neither), missed
 * when it went unanswered with a reply that cost a credit (not the plan's reply limit).
 */
export function questionOf(facts: ExchangeFacts): QuestionMark | null {
  const asked = askedQuestion(facts);
  return asked && { key: questionKey(facts.visitorText), text: questionSample(facts.visitorText), at: facts.askedAt, missed: asked.missed };
}

/** Whether the exchange was a question and whether it was missed, without its key (see questionOf). */
function askedQuestion(facts: ExchangeFacts): { missed: boolean } | null {
  const bot = facts.bot;
  if (!bot || !(bot.answered || facts.unanswered)) return null;
  return { missed: !bot.answered && facts.unanswered && bot.credits > 0 };
}

/** The conversation's visitor among the day's visitors, in D1 (an index in the shard keeps them there, ADR 076). */
function visitorOn(c: CountedConversation, day: string): BoundSql {
  return { sql: "insert or ignore into analytics_visitors (chatbot_id, day, visitor_id) values (?, ?, ?)", params: [c.chatbotId, day, c.visitorId] };
}

/**
 * One message of a live conversation mirrored from its Durable Object (chat/conversations.ts
 * recordLiveMessage runs these before the message's insert, in its batch): a visitor's or a
 * person's message counts as a message on the day it was written (the bot's replies are counted by
 * `exchangeStatements`, system notes not at all, as in migration 0013's back-fill), and a visitor's
 * also counts its visitor on that day. The count is 0 when the message is already stored (its id,
 * or the visitor's client message id in this conversation): a retried or replayed mirror, whose
 * insert does nothing, adds nothing either. The conversation is counted if this is its first event.
 */
export function liveMessageStatements(
  conversation: CountedConversation,
  m: {
    id: string;
    role: "visitor" | "human" | "system";
    createdAt: number;
    clientMessageId?: string | null;
    timeZone: string;
    /** Whether the message was new, when the caller stored it elsewhere first (a chatbot's message shard, ADR 040). */
    fresh?: boolean;
  },
  decided?: CountDecision,
): BoundSql[] {
  if (m.role === "system") return [];
  const ref = { orgId: conversation.orgId, chatbotId: conversation.chatbotId };
  const day = dayIn(m.timeZone, m.createdAt);
  const fresh: number | BoundSql =
    m.fresh !== undefined
      ? m.fresh
        ? 1
        : 0
      : m.clientMessageId
        ? {
            sql: "(not exists (select 1 from messages where id = ? or (conversation_id = ? and client_message_id = ?)))",
            params: [m.id, conversation.id, m.clientMessageId],
          }
        : { sql: "(not exists (select 1 from messages where id = ?))", params: [m.id] };
  const out = countConversation(conversation, day, { messages: fresh }, undefined, decided);
  if (m.role === "visitor" && !decided) out.push(visitorOn(conversation, day));
  return out;
}

/** A new lead (not a repeat of an email already known), on the day it was captured. */
export function leadStatements(db: Db, ref: Ref, timeZone: string, at: number): AnalyticsStatement[] {
  return [statement(db, bump(ref, dayIn(timeZone, at), { leads: 1 }))];
}

/**
 * A thumb set, changed or cleared on a reply: the reply's day holds the current thumbs (a changed
 * thumb moves from one count to the other). A thumbs-down makes the conversation unresolved.
 */
export function feedbackStatements(
  db: Db,
  ref: Ref,
  input: { timeZone: string; conversationId: string; repliedAt: number; from: number | null; to: number | null },
  decided?: CountDecision,
): AnalyticsStatement[] {
  if (input.from === input.to) return [];
  const day = dayIn(input.timeZone, input.repliedAt);
  const counter = (v: number | null): Counter | null => (v === 1 ? "thumbs_up" : v === -1 ? "thumbs_down" : null);
  const out: BoundSql[] = [];
  const was = counter(input.from);
  const now = counter(input.to);
  if (was) out.push(takeOne(ref, day, was));
  if (now) out.push(bump(ref, day, { [now]: 1 }));
  if (input.to === -1) out.push(...markUnresolved(ref, input.conversationId, decided));
  return out.map((q) => statement(db, q));
}

/** "Report a problem": counted on the day of the report; its conversation, if any, is unresolved. */
export function reportStatements(
  db: Db,
  ref: Ref,
  input: { timeZone: string; at: number; conversationId: string | null },
  decided?: CountDecision,
): AnalyticsStatement[] {
  const out = [bump(ref, dayIn(input.timeZone, input.at), { reports: 1 })];
  if (input.conversationId) out.push(...markUnresolved(ref, input.conversationId, decided));
  return out.map((q) => statement(db, q));
}

/**
 * A visitor asked for a person (or a person took the conversation over): a handoff on that day. The
 * conversation is counted if this is its first event, and it is unresolved.
 */
export function handoffStatements(
  db: Db,
  conversation: CountedConversation,
  input: { timeZone: string; at: number },
  decided?: CountDecision,
): AnalyticsStatement[] {
  const day = dayIn(input.timeZone, input.at);
  return [...countConversation(conversation, day, { handoffs: 1 }, undefined, decided), ...markUnresolved(conversation, conversation.id, decided)].map((q) =>
    statement(db, q),
  );
}
