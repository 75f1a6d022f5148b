import { and, desc, eq, isNotNull, ne, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { ConversationListParams } from "~/lib/schemas/conversation-list";
import {
  addQuestionBatch,
  answeredBySchema,
  daySchema,
  markAnswered,
  questionBatchSchema,
  questionListSchema,
  questionMarkSchema,
  questionUpserts,
  topQuestionKeys,
  type AnsweredBy,
  type QuestionBatch,
  type QuestionListQuery,
} from "../analytics/question-rows";
import type { KeyedCount } from "../analytics/questions";
import { batchable, type CountDecision, type CountedConversation } from "../analytics/record";
import { newId } from "../auth/crypto";
import type { ServiceContext } from "../context";
import { d1Client, prepareOn, type Db as Database } from "../db/client";
import { CHANNELS, chatbots, CONVERSATION_STATUSES, conversationAgents, conversations } from "../db/schema";
import type { Env } from "../env";
import { listWithMessages, type ConversationListPage } from "./conversation-list";
import type { ChatbotRef } from "./message-store";

// A chatbot's conversation index — the rows the inbox lists, filters, searches and counts (status,
// last activity, counts, title, lead, badges) and who holds a live conversation — wherever it lives
// (issue #20, ADR 044): D1's `conversations` / `conversation_agents`, or the chatbot's own
// ConversationShard next to its messages. As the message store does (ADR 040), the shard runs the
// D1 implementation below over its own storage, so both are one piece of code; the only difference
// is where a new conversation copies its visitor's contact from (D1's `leads`, the shard's
// `visitor_leads`). Which store a chatbot uses is `chatbots.conversation_store`; stage 1 sets it
// to 'd1' everywhere, so nothing reads the shard's index yet (ADR 044, Stages).

export type ConversationStoreKind = "d1" | "moving" | "shard";
export type Conversation = typeof conversations.$inferSelect;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** Where a turn's conversation is looked for, or what a new one starts with. `id`/`now` default to a new id and the clock (tests pass theirs). */
export const openInputSchema = z.object({
  visitorId: z.string().min(1).max(200),
  channel: z.enum(CHANNELS),
  conversationId: z.string().min(1).max(200).nullish(),
  country: z.string().max(8).nullish(),
  pageUrl: z.string().max(2_000).nullish(),
  id: z.string().min(1).max(64).optional(),
  now: z.number().int().nonnegative().optional(),
});
export type OpenInput = z.input<typeof openInputSchema>;

/**
 * What a stored message changes on its conversation. `added`: that many new messages (a turn's
 * exchange, at `at`); `count`: the conversation now holds that many (live chat's mirror, which may
 * repeat: the count and last activity only grow). A visitor message's text becomes the title when
 * there is none yet.
 */
export const messageUpdateSchema = z
  .object({
    added: z.number().int().min(1).max(10).optional(),
    count: z.number().int().nonnegative().optional(),
    at: z.number().int().nonnegative(),
    title: z.string().max(140).optional(),
    unanswered: z.boolean().optional(),
    pageUrl: z.string().max(2_000).nullish(),
  })
  .refine((u) => (u.added === undefined) !== (u.count === undefined), "give either added or count");
export type MessageUpdate = z.input<typeof messageUpdateSchema>;

/** The badges and marks set on a conversation outside a turn (identity, thumbs, bug reports). */
export const flagsSchema = z
  .object({ verified: z.literal(true).optional(), rating: z.union([z.literal(-1), z.literal(1), z.null()]).optional(), reported: z.literal(true).optional() })
  .strict();
export type ConversationFlags = z.input<typeof flagsSchema>;

/** A live status change's side on the index (inbox/assignment.ts): the status, and who took or closed it. */
export const liveChangeSchema = z.object({
  status: z.enum(CONVERSATION_STATUSES),
  agent: z.object({ userId: z.string().nullable(), name: z.string().max(320), at: z.number().int().nonnegative() }).optional(),
  closedAt: z.number().int().nonnegative().optional(),
});
export type LiveChange = z.input<typeof liveChangeSchema>;

export const leadMarkSchema = z
  .object({
    conversationId: z.string().min(1).nullish(),
    visitorId: z.string().min(1).nullish(),
    name: z.string().max(200).nullable(),
    email: z.string().max(320).nullable(),
    at: z.number().int().nonnegative(),
  })
  .refine((l) => !!(l.conversationId || l.visitorId), "a lead marks a conversation or a visitor's conversations");
export type LeadMark = z.input<typeof leadMarkSchema>;

/**
 * After a lead was deleted (leads.ts deleteLead): the conversations it marked (`conversationIds`, and
 * every conversation of `visitorId`) show only what the remaining `leads` say — D1's `leads` is the
 * record, so the caller passes those that can match — and the visitor's contact for new conversations
 * is recomputed from them, or dropped.
 */
export const leadResetSchema = z
  .object({
    visitorId: z.string().min(1).max(200).nullable(),
    conversationIds: z.array(z.string().min(1).max(200)).max(1_000),
    leads: z
      .array(
        z.object({
          visitorId: z.string().max(200).nullable(),
          conversationIds: z.array(z.string().max(200)).max(1_000),
          name: z.string().max(200).nullable(),
          email: z.string().max(320).nullable(),
          createdAt: z.number().int(),
        }),
      )
      .max(1_000),
    at: z.number().int().nonnegative(),
  })
  .strict();
export type LeadReset = z.input<typeof leadResetSchema>;

export const byIdsSchema = z.array(z.string().min(1).max(200)).max(1_000);

export const hasConversationSchema = z.object({ visitorId: z.string().min(1).max(200).optional(), verified: z.literal(true).optional() }).strict();

/**
 * An analytics event on a conversation (ADR 048): counts it on `day` if it never was; `problem` marks
 * it unresolved if it was not; `visitor` (a visitor's own message) counts its visitor among `day`'s
 * visitors (ADR 076).
 */
export const countMarkSchema = z
  .object({ day: daySchema.optional(), problem: z.boolean(), visitor: z.boolean().optional(), question: questionMarkSchema.optional() })
  .strict()
  .refine((m) => m.day !== undefined || m.problem, "a mark counts the conversation, marks a problem, or both")
  .refine((m) => !m.visitor || m.day !== undefined, "a visitor is counted on a day")
  .refine((m) => !m.question || m.day !== undefined, "a question is counted on a day");

/** A chatbot's visitors on days (`analytics_visitors`' rows), as the stray-row sweep moves them (analytics/visitors.ts). */
export const visitorDaysSchema = z.array(z.object({ day: daySchema, visitorId: z.string().min(1).max(200) }).strict()).max(1_000);
export type VisitorDay = z.infer<typeof visitorDaysSchema>[number];
export const dayRangeSchema = z.object({ from: daySchema, to: daySchema }).strict();
/** A range's visitors: how many each day, and how many distinct over the range. */
export type VisitorCounts = { days: { day: string; n: number }[]; unique: number };
export type CountMark = z.input<typeof countMarkSchema>;

/** The live inbox's row (inbox/inbox-list.ts). */
export type InboxRow = {
  id: string;
  visitorId: string;
  title: string | null;
  status: ConversationStatus;
  lastMessageAt: number;
  agentId: string | null;
  agentName: string | null;
  leadName: string | null;
  leadEmail: string | null;
};
export type InboxLists = { waiting: InboxRow[]; live: InboxRow[]; mine: InboxRow[]; closed: InboxRow[] };

export const INBOX_LIMIT = 50;

const inboxColumns = {
  id: conversations.id,
  visitorId: conversations.visitorId,
  title: conversations.title,
  status: conversations.status,
  lastMessageAt: conversations.lastMessageAt,
  agentId: conversationAgents.userId,
  agentName: conversationAgents.agentName,
  leadName: conversations.leadName,
  leadEmail: conversations.leadEmail,
};

/**
 * The live inbox's waiting or held list. The status is also written as a literal: SQLite uses the
 * partial index `conversations_live_idx` only when the query's own text implies its condition, and a
 * bound `status = ?` does not — without it a busy chatbot's list read all its conversations and sorted them.
 */
export function inboxStatusQuery(db: Database, ref: ChatbotRef, status: "waiting" | "human") {
  return db
    .select(inboxColumns)
    .from(conversations)
    .leftJoin(conversationAgents, eq(conversationAgents.conversationId, conversations.id))
    .where(
      and(
        eq(conversations.orgId, ref.orgId),
        eq(conversations.chatbotId, ref.chatbotId),
        eq(conversations.status, status),
        sql.raw(`"conversations"."status" in ('waiting', 'human')`),
      ),
    )
    .orderBy(desc(conversations.lastMessageAt))
    .limit(INBOX_LIMIT);
}
export const INBOX_CLOSED_LIMIT = 20;

export interface ConversationIndex {
  readonly kind: "d1" | "shard";
  /** The visitor's conversation for a turn: the one named when it is theirs and open, else their open one on the channel, else a new one (`isNew`). Atomic: two turns of a visitor cannot both create. */
  open(input: OpenInput): Promise<Conversation & { isNew?: boolean }>;
  /** A new conversation whatever the visitor has ("New conversation"). */
  create(input: OpenInput): Promise<Conversation & { isNew: true }>;
  /** One conversation of this chatbot (of this visitor when given), or null. */
  get(conversationId: string, visitorId?: string): Promise<Conversation | null>;
  /** These conversations of this chatbot (at most 1,000 ids; others are left out), most recently active first (a lead's conversations). */
  byIds(conversationIds: string[]): Promise<Conversation[]>;
  /** The conversations a deleted lead may have marked: these ids and every conversation of the visitor (with their visitors). */
  leadScope(visitorId: string | null, conversationIds: string[]): Promise<{ id: string; visitorId: string }[]>;
  /** Recomputes the lead marks after a lead was deleted (see leadResetSchema). How many conversations were recomputed. */
  resetLeads(reset: LeadReset): Promise<number>;
  /** Whether the chatbot has any conversation — of this visitor, and verified, when asked (the setup checklist, the identity gate). */
  hasConversation(of?: { visitorId?: string; verified?: true }): Promise<boolean>;
  /** The visitor's most recently active open conversation (on a channel when given). */
  latestOpen(visitorId: string, channel?: Conversation["channel"]): Promise<Conversation | null>;
  /** After messages were stored: counts, last activity, title, badges. The row after it, or null when not this chatbot's. */
  recordMessages(conversationId: string, update: MessageUpdate): Promise<Conversation | null>;
  setFlags(conversationId: string, flags: ConversationFlags): Promise<boolean>;
  applyLive(conversationId: string, change: LiveChange): Promise<boolean>;
  /** A lead was left: its conversation and every conversation of its visitor show it; the visitor's next ones copy it. */
  markLead(mark: LeadMark): Promise<number>;
  /** The conversation list page: filters, search (message text, visitor id and lead email prefixes), counts, keyset cursors. */
  list(params: ConversationListParams, opts?: { limit?: number }): Promise<ConversationListPage>;
  /** The live inbox: waiting, held (all, and `userId`'s), recently closed. */
  inboxLists(userId: string): Promise<InboxLists>;
  /** Conversations with messages active since `start`, and how many of them started in [start, end) (the daily digest's figures). */
  activity(start: number, end: number): Promise<{ active: number; started: number }>;
  /**
   * Analytics' once-only marks (ADR 044 §4, ADR 048): what D1 must add for this event, decided next to
   * the conversation (`analytics_conversations` of the index's storage). Null when the conversation
   * is not this chatbot's. Pass the answer to analytics/record.ts's statements.
   */
  countOnce(conversationId: string, mark: CountMark): Promise<CountDecision | null>;
  /**
   * The chatbot's visitors in a range of days (analytics' figures, ADR 076), from `analytics_visitors`
   * of the index's storage together with `also` (rows still in D1 for a chatbot whose index is in its
   * shard, until the sweep has moved them): a visitor who is in both counts once.
   */
  visitorCounts(range: { from: string; to: string }, also?: VisitorDay[]): Promise<VisitorCounts>;
  /** Adds visitors' days to `analytics_visitors` of the index's storage (ones already there stay once). */
  addVisitors(rows: VisitorDay[]): Promise<number>;
  /** The range's most asked (or most missed, not answered since) question keys in the index's storage (ADR 077, analytics/question-rows.ts). */
  topQuestions(query: QuestionListQuery): Promise<KeyedCount[]>;
  /** "Add an answer": marks these question groups of the index's storage answered. How many it marked. */
  markQuestionsAnswered(by: AnsweredBy): Promise<number>;
  /** Adds a page of D1's question rows (a shard's storage only; once per batch). Whether it was added. */
  addQuestions(batch: QuestionBatch): Promise<boolean>;
}

type Stmt = Parameters<Database["batch"]>[0][number];

/**
 * Where a new conversation's contact comes from: the newest name and email its visitor left on this
 * chatbot, read inside the insert (no round trip of its own). D1's `leads` (bound ?1 org, ?2
 * chatbot, ?3 visitor), or the shard's `visitor_leads` (one row per visitor, written by `markLead`).
 */
export type LeadSource = "d1" | "shard";
const LEAD_COLUMNS: Record<LeadSource, { has: string; name: string; email: string }> = {
  d1: (() => {
    const theirs = "FROM leads WHERE chatbot_id = ?2 AND org_id = ?1 AND visitor_id = ?3";
    return {
      has: `EXISTS (SELECT 1 ${theirs})`,
      name: `(SELECT name ${theirs} AND name IS NOT NULL ORDER BY created_at DESC LIMIT 1)`,
      email: `(SELECT email ${theirs} AND email IS NOT NULL ORDER BY created_at DESC LIMIT 1)`,
    };
  })(),
  shard: {
    has: "EXISTS (SELECT 1 FROM visitor_leads WHERE visitor_id = ?3)",
    name: "(SELECT name FROM visitor_leads WHERE visitor_id = ?3)",
    email: "(SELECT email FROM visitor_leads WHERE visitor_id = ?3)",
  },
};

/** A parsed open input with its id and time fixed. */
type OpenFacts = z.output<typeof openInputSchema> & { id: string; now: number };

// ——— The statements of `open` as fixed SQL, bound with D1's API (the shard's storage has the same
// API, retrieval/sql-storage-d1.ts). They run on every chat message; built by drizzle they were the
// largest share of query building in bench:cpu's profile (issue #21). Each binds ?1 org, ?2 chatbot,
// ?3 visitor, ?4 channel and, where it names one, ?5 the named conversation; the rest follow.
// Columns are named as drizzle names them (conversationFromRow). ———

const CONVERSATION_COLUMNS =
  "id, org_id AS orgId, chatbot_id AS chatbotId, visitor_id AS visitorId, channel, status, verified, country, rating, title, " +
  "message_count AS messageCount, created_at AS createdAt, last_message_at AS lastMessageAt, unanswered, reported, " +
  "has_lead AS hasLead, lead_name AS leadName, lead_email AS leadEmail, page_url AS pageUrl";
const MINE = "chatbot_id = ?2 AND org_id = ?1 AND visitor_id = ?3";
/** The visitor's open conversations on the channel, and the named one when it is theirs and open (for statements of the same batch). */
export const OPEN_ON_CHANNEL = `${MINE} AND channel = ?4 AND status <> 'closed'`;
export const NAMED_OPEN = `${MINE} AND id = ?5 AND status <> 'closed'`;
/** The conversation a turn resolves to, for a statement of the same batch that binds ?1–?5. */
export const RESOLVED_ID = `coalesce((SELECT id FROM conversations WHERE ${NAMED_OPEN}),
  (SELECT id FROM conversations WHERE ${OPEN_ON_CHANNEL} ORDER BY last_message_at DESC LIMIT 1))`;

const openSql = (leads: LeadSource) => ({
  // A new conversation unless the visitor has one open on this channel or the named one is open
  // (with ?5 null, `id = ?5` never holds); ?6 id, ?7 country, ?8 now, ?9 page.
  insert: `INSERT INTO conversations (id, org_id, chatbot_id, visitor_id, channel, status, verified, country, rating, title,
      message_count, created_at, last_message_at, unanswered, reported, has_lead, lead_name, lead_email, page_url)
    SELECT ?6, ?1, ?2, ?3, ?4, 'bot', 0, ?7, NULL, NULL, 0, ?8, ?8, 0, 0, ${LEAD_COLUMNS[leads].has}, ${LEAD_COLUMNS[leads].name}, ${LEAD_COLUMNS[leads].email}, ?9
    WHERE NOT EXISTS (SELECT 1 FROM conversations WHERE ${OPEN_ON_CHANNEL}) AND NOT EXISTS (SELECT 1 FROM conversations WHERE ${NAMED_OPEN})`,
  open: `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE ${OPEN_ON_CHANNEL} ORDER BY last_message_at DESC LIMIT 1`,
  named: `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE ${NAMED_OPEN} LIMIT 1`,
});
const OPEN_SQL: Record<LeadSource, ReturnType<typeof openSql>> = { d1: openSql("d1"), shard: openSql("shard") };

export type StoredConversation = Omit<Conversation, "verified" | "unanswered" | "reported" | "hasLead"> & {
  verified: number | boolean;
  unanswered: number | boolean;
  reported: number | boolean;
  hasLead: number | boolean;
};

/** A row of CONVERSATION_COLUMNS as drizzle reads it (its boolean columns as booleans). */
function conversationFromRow(r: StoredConversation): Conversation {
  return { ...r, verified: !!r.verified, unanswered: !!r.unanswered, reported: !!r.reported, hasLead: !!r.hasLead };
}

/** The D1 client under a drizzle instance (db/client.ts), exported here for the store's callers. */
export { d1Client };

/**
 * The statements of `open`, for D1 callers that send them in one batch with their own (the turn's
 * retry look-up, history and credit: chat/conversations.ts openTurn, ADR 039) and for the store
 * itself: insert only when the visitor has nothing open (or named), then read what is open and what
 * was named. A statement of the same batch finds the conversation the turn resolves to with
 * RESOLVED_ID; `pick` reads the batch's answers.
 */
export function openStatements(client: D1Database, ref: ChatbotRef, input: OpenFacts, leads: LeadSource = "d1") {
  const q = OPEN_SQL[leads];
  const who = [ref.orgId, ref.chatbotId, input.visitorId, input.channel, input.conversationId ?? null] as const;
  return {
    /** The values RESOLVED_ID binds (?1–?5). */
    who,
    insert: client.prepare(q.insert).bind(...who, input.id, input.country ?? null, input.now, input.pageUrl ?? null),
    // D1 wants exactly the parameters a statement has: no ?5 here.
    open: client.prepare(q.open).bind(...who.slice(0, 4)),
    named: input.conversationId ? client.prepare(q.named).bind(...who) : null,
    /** The conversation from the answers of `open` and `named`: the named one when open, else the open one (new when it has this id). */
    pick(openRows: StoredConversation[], namedRows: StoredConversation[] | null): Conversation & { isNew?: boolean } {
      const found = namedRows?.[0];
      const row = found ?? openRows[0];
      if (!row) throw new Error("conversation insert did not take");
      const conversation = conversationFromRow(row);
      return !found && row.id === input.id ? { ...conversation, isNew: true } : conversation;
    },
  };
}

/** Fixes a new conversation's id and time (tests pass theirs). */
export function openFacts(raw: OpenInput): OpenFacts {
  const input = openInputSchema.parse(raw);
  return { ...input, id: input.id ?? newId("cv_"), now: input.now ?? Date.now() };
}

/** A new conversation whatever the visitor has ("New conversation"), returning the row. */
function createStatement(client: D1Database, ref: ChatbotRef, input: OpenFacts, leads: LeadSource) {
  const lead = LEAD_COLUMNS[leads];
  return client
    .prepare(
      `INSERT INTO conversations (id, org_id, chatbot_id, visitor_id, channel, status, verified, country, rating, title,
        message_count, created_at, last_message_at, unanswered, reported, has_lead, lead_name, lead_email, page_url)
      VALUES (?5, ?1, ?2, ?3, ?4, 'bot', 0, ?6, NULL, NULL, 0, ?7, ?7, 0, 0, ${lead.has}, ${lead.name}, ${lead.email}, ?8)
      RETURNING ${CONVERSATION_COLUMNS}`,
    )
    .bind(ref.orgId, ref.chatbotId, input.visitorId, input.channel, input.id, input.country ?? null, input.now, input.pageUrl ?? null);
}

/**
 * D1's `create` with one more statement in the same batch (the reply's credit, chat/turn.ts): the first
 * message of a new conversation pays one round trip for both, not two; each costs ~2.5 ms of the local
 * runtime's CPU (issue #21, bench/README.md "Where a message's CPU goes across the runtime's isolates").
 * `also`'s rows come back as they are.
 */
export async function createInD1With(
  db: Database,
  ref: ChatbotRef,
  raw: OpenInput,
  also: { sql: string; params: unknown[] },
): Promise<{ conversation: Conversation & { isNew: true }; also: unknown[] }> {
  const client = d1Client(db);
  const [created, extra] = await client.batch([createStatement(client, ref, openFacts(raw), "d1"), client.prepare(also.sql).bind(...also.params)]);
  const row = (created.results as StoredConversation[] | undefined)?.[0];
  if (!row) throw new Error("conversation insert did not take");
  return { conversation: { ...conversationFromRow(row), isNew: true }, also: extra.results ?? [] };
}

/** The update after stored messages (returning the row), for D1 callers that batch it with the messages and analytics. */
// What stored messages change on their conversation (MessageUpdate), as fixed SQL for the same
// reason as `open`'s: it runs with every chat message (issue #21, ADR 049). ?1 org, ?2 chatbot,
// ?3 conversation; ?4 `added` or null, ?5 `count` or null (exactly one is given); ?6 at; ?7 title,
// ?8 unanswered, ?9 page, each null for "leave as it is".
const RECORD_MESSAGES_SQL = `UPDATE conversations SET
    message_count = CASE WHEN ?4 IS NULL THEN max(message_count, ?5) ELSE message_count + ?4 END,
    last_message_at = CASE WHEN ?4 IS NULL THEN max(last_message_at, ?6) ELSE ?6 END,
    title = coalesce(title, ?7),
    unanswered = CASE WHEN ?8 THEN 1 ELSE unanswered END,
    page_url = coalesce(?9, page_url)
  WHERE id = ?3 AND org_id = ?1 AND chatbot_id = ?2`;
const RECORD_MESSAGES_RETURNING = `${RECORD_MESSAGES_SQL} RETURNING ${CONVERSATION_COLUMNS}`;

/** The update of `recordMessages` on a D1 client, for callers that batch it with the messages' counters; `returning` adds the row after it. */
export function recordMessagesStatement(client: D1Database, ref: ChatbotRef, conversationId: string, raw: MessageUpdate, returning = false) {
  const u = messageUpdateSchema.parse(raw);
  return client
    .prepare(returning ? RECORD_MESSAGES_RETURNING : RECORD_MESSAGES_SQL)
    .bind(ref.orgId, ref.chatbotId, conversationId, u.added ?? null, u.count ?? null, u.at, u.title ?? null, u.unanswered ? 1 : null, u.pageUrl || null);
}

const scopedId = (ref: ChatbotRef, conversationId: string) =>
  and(eq(conversations.id, conversationId), eq(conversations.orgId, ref.orgId), eq(conversations.chatbotId, ref.chatbotId));

/** Badges set outside a turn (returning the id; nothing when not this chatbot's), for D1 callers that batch it with their counters. */
export function flagsStatement(db: Database, ref: ChatbotRef, conversationId: string, raw: ConversationFlags) {
  const flags = flagsSchema.parse(raw);
  if (!Object.keys(flags).length) throw new Error("no flag to set");
  return db.update(conversations).set(flags).where(scopedId(ref, conversationId)).returning({ id: conversations.id });
}

/** A lead marks its conversation and every conversation of its visitor (returning their ids). */
export function markLeadStatement(db: Database, ref: ChatbotRef, raw: LeadMark) {
  const mark = leadMarkSchema.parse(raw);
  return db
    .update(conversations)
    .set({
      hasLead: true,
      leadName: sql`coalesce(${mark.name}, ${conversations.leadName})`,
      leadEmail: sql`coalesce(${mark.email}, ${conversations.leadEmail})`,
    })
    .where(
      and(
        eq(conversations.orgId, ref.orgId),
        eq(conversations.chatbotId, ref.chatbotId),
        or(
          mark.conversationId ? eq(conversations.id, mark.conversationId) : undefined,
          mark.visitorId ? eq(conversations.visitorId, mark.visitorId) : undefined,
        ),
      ),
    )
    .returning({ id: conversations.id });
}

/**
 * A live status change on the index (inbox/assignment.ts batches these with its analytics): the
 * status (first; returning the id), and for a take the agent who holds it, for a close the time
 * (kept on the taker's row, or a row of the closer when nobody took it). The agent's row is written
 * only for a conversation of this chatbot.
 */
export function liveStatements(db: Database, ref: ChatbotRef, conversationId: string, raw: LiveChange): [Stmt, ...Stmt[]] {
  const change = liveChangeSchema.parse(raw);
  const held = sql`EXISTS (SELECT 1 FROM ${conversations} WHERE ${scopedId(ref, conversationId)})`;
  const status = db.update(conversations).set({ status: change.status }).where(scopedId(ref, conversationId)).returning({ id: conversations.id });
  if (change.closedAt !== undefined) {
    const closer = change.agent ?? { userId: null, name: "", at: change.closedAt };
    return [
      status,
      db
        .insert(conversationAgents)
        .select(
          sql`SELECT ${conversationId}, ${ref.orgId}, ${ref.chatbotId}, ${closer.userId}, ${closer.name}, ${change.closedAt}, ${change.closedAt} WHERE ${held}`,
        )
        .onConflictDoUpdate({ target: conversationAgents.conversationId, set: { closedAt: change.closedAt } }),
    ];
  }
  if (change.agent) {
    const row = { userId: change.agent.userId, agentName: change.agent.name, takenAt: change.agent.at, closedAt: null };
    return [
      status,
      db
        .insert(conversationAgents)
        .select(sql`SELECT ${conversationId}, ${ref.orgId}, ${ref.chatbotId}, ${row.userId}, ${row.agentName}, ${row.takenAt}, NULL WHERE ${held}`)
        .onConflictDoUpdate({ target: conversationAgents.conversationId, set: row }),
    ];
  }
  return [status];
}

/**
 * The chatbot's conversation index in `ctx.db` — D1, or (run inside the chatbot's shard) the shard's
 * storage with its own lead source. Every statement is scoped by the chatbot, so a D1 caller with a
 * wrong id finds nothing of another tenant.
 */
export function d1ConversationIndex(ctx: { db: Database }, ref: ChatbotRef, kind: LeadSource = "d1"): ConversationIndex {
  const db = ctx.db;
  const client = d1Client(db);
  const ours = and(eq(conversations.orgId, ref.orgId), eq(conversations.chatbotId, ref.chatbotId));
  const byId = (id: string) => scopedId(ref, id);
  const one = (id: string) => db.select().from(conversations).where(byId(id)).get();

  return {
    kind,
    async open(raw) {
      const o = openStatements(client, ref, openFacts(raw), kind);
      // One batch (one transaction in D1 and in the shard): two turns of a visitor cannot both create.
      const results = await client.batch<StoredConversation>(o.named ? [o.insert, o.open, o.named] : [o.insert, o.open]);
      return o.pick(results[1].results, o.named ? results[2].results : null);
    },
    async create(raw) {
      const created = await createStatement(client, ref, openFacts(raw), kind).first<StoredConversation>();
      if (!created) throw new Error("conversation insert did not take");
      return { ...conversationFromRow(created), isNew: true };
    },
    async get(conversationId, visitorId) {
      const where = visitorId ? and(byId(conversationId), eq(conversations.visitorId, visitorId)) : byId(conversationId);
      return (await db.select().from(conversations).where(where).get()) ?? null;
    },
    async byIds(conversationIds) {
      const ids = byIdsSchema.parse(conversationIds);
      if (!ids.length) return [];
      return db
        .select()
        .from(conversations)
        .where(and(ours, sql`${conversations.id} in (select value from json_each(${JSON.stringify(ids)}))`))
        .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
        .all();
    },
    async leadScope(visitorId, conversationIds) {
      return db
        .select({ id: conversations.id, visitorId: conversations.visitorId })
        .from(conversations)
        .where(
          and(
            ours,
            or(
              sql`${conversations.id} in (select value from json_each(${JSON.stringify(conversationIds)}))`,
              visitorId ? eq(conversations.visitorId, visitorId) : undefined,
            ),
          ),
        )
        .all();
    },
    async resetLeads(raw) {
      const reset = leadResetSchema.parse(raw);
      // ?1 the remaining leads (JSON); the update binds ?2 chatbot, ?3 organisation, ?4 the conversation ids, ?5 the visitor.
      const remaining = `WITH l AS (SELECT json_extract(value, '$.visitorId') AS visitor_id, json_extract(value, '$.conversationIds') AS convs,
          json_extract(value, '$.name') AS name, json_extract(value, '$.email') AS email, json_extract(value, '$.createdAt') AS created_at FROM json_each(?1))`;
      const leadsJson = JSON.stringify(reset.leads);
      const match = "(l.visitor_id = conversations.visitor_id OR conversations.id IN (SELECT value FROM json_each(l.convs)))";
      const statements = [
        client
          .prepare(
            `${remaining} UPDATE conversations SET has_lead = EXISTS (SELECT 1 FROM l WHERE ${match}),
              lead_name = (SELECT name FROM l WHERE ${match} AND name IS NOT NULL ORDER BY created_at DESC LIMIT 1),
              lead_email = (SELECT email FROM l WHERE ${match} AND email IS NOT NULL ORDER BY created_at DESC LIMIT 1)
            WHERE chatbot_id = ?2 AND org_id = ?3 AND (id IN (SELECT value FROM json_each(?4)) OR visitor_id = ?5) RETURNING id`,
          )
          .bind(leadsJson, ref.chatbotId, ref.orgId, JSON.stringify(reset.conversationIds), reset.visitorId),
      ];
      // In the shard, the visitor's contact for their next conversations (D1 reads its `leads` instead):
      // the newest name and email of their remaining leads, or no row. These bind ?2 the visitor (and ?3 now).
      if (kind === "shard" && reset.visitorId) {
        const theirs = "FROM l WHERE visitor_id = ?2";
        statements.push(
          client.prepare(`${remaining} DELETE FROM visitor_leads WHERE visitor_id = ?2 AND NOT EXISTS (SELECT 1 ${theirs})`).bind(leadsJson, reset.visitorId),
          client
            .prepare(
              `${remaining} INSERT INTO visitor_leads (visitor_id, name, email, updated_at)
              SELECT ?2, (SELECT name ${theirs} AND name IS NOT NULL ORDER BY created_at DESC LIMIT 1),
                (SELECT email ${theirs} AND email IS NOT NULL ORDER BY created_at DESC LIMIT 1), ?3
              WHERE EXISTS (SELECT 1 ${theirs})
              ON CONFLICT (visitor_id) DO UPDATE SET name = excluded.name, email = excluded.email, updated_at = excluded.updated_at`,
            )
            .bind(leadsJson, reset.visitorId, reset.at),
        );
      }
      const [updated] = await client.batch(statements);
      return updated.results.length;
    },
    async hasConversation(of = {}) {
      const row = await db
        .select({ id: conversations.id })
        .from(conversations)
        .where(
          and(
            ours,
            of.visitorId !== undefined ? eq(conversations.visitorId, of.visitorId) : undefined,
            of.verified ? eq(conversations.verified, true) : undefined,
          ),
        )
        .limit(1)
        .get();
      return !!row;
    },
    async latestOpen(visitorId, channel) {
      return (
        (await db
          .select()
          .from(conversations)
          .where(
            and(ours, eq(conversations.visitorId, visitorId), ne(conversations.status, "closed"), channel ? eq(conversations.channel, channel) : undefined),
          )
          .orderBy(desc(conversations.lastMessageAt))
          .limit(1)
          .get()) ?? null
      );
    },
    async recordMessages(conversationId, raw) {
      const row = await recordMessagesStatement(d1Client(db), ref, conversationId, raw, true).first<StoredConversation>();
      return row ? conversationFromRow(row) : null;
    },
    async setFlags(conversationId, raw) {
      const flags = flagsSchema.parse(raw);
      if (!Object.keys(flags).length) return !!(await one(conversationId));
      return !!(await flagsStatement(db, ref, conversationId, flags).get());
    },
    async applyLive(conversationId, change) {
      const [updated] = (await db.batch(liveStatements(db, ref, conversationId, change))) as unknown as [{ id: string }[]];
      return updated.length > 0;
    },
    async markLead(raw) {
      const mark = leadMarkSchema.parse(raw);
      const statements: Stmt[] = [markLeadStatement(db, ref, mark)];
      // In the shard, the visitor's contact for their next conversations (D1 reads its `leads` instead).
      if (kind === "shard" && mark.visitorId)
        statements.push(
          batchable(
            db,
            db.run(
              sql`insert into visitor_leads (visitor_id, name, email, updated_at) values (${mark.visitorId}, ${mark.name}, ${mark.email}, ${mark.at})
              on conflict (visitor_id) do update set name = coalesce(excluded.name, name), email = coalesce(excluded.email, email), updated_at = excluded.updated_at`,
            ),
          ),
        );
      const [marked] = (await db.batch(statements as [Stmt, ...Stmt[]])) as unknown as [{ id: string }[]];
      return marked.length;
    },
    list: (params, opts) => listWithMessages(db, ref, params, opts),
    async inboxLists(userId) {
      const ofStatus = (status: "waiting" | "human") => inboxStatusQuery(db, ref, status).all();
      const [waiting, live, closed] = await Promise.all([
        ofStatus("waiting"),
        ofStatus("human"),
        db
          .select(inboxColumns)
          .from(conversationAgents)
          .innerJoin(conversations, eq(conversations.id, conversationAgents.conversationId))
          .where(
            and(
              eq(conversationAgents.chatbotId, ref.chatbotId),
              eq(conversationAgents.orgId, ref.orgId),
              isNotNull(conversationAgents.closedAt),
              eq(conversations.status, "closed"),
            ),
          )
          .orderBy(desc(conversationAgents.closedAt))
          .limit(INBOX_CLOSED_LIMIT)
          .all(),
      ]);
      return { waiting, live, mine: live.filter((r) => r.agentId === userId), closed };
    },
    async countOnce(conversationId, raw) {
      const mark = countMarkSchema.parse(raw);
      // One batch (one transaction): the count if new (only for this chatbot's conversation), then the problem if new.
      const [exists, counted, problem] = await client.batch<{ day: string }>([
        client.prepare("SELECT id AS day FROM conversations WHERE id = ?1 AND chatbot_id = ?2 AND org_id = ?3").bind(conversationId, ref.chatbotId, ref.orgId),
        client
          .prepare(
            `INSERT OR IGNORE INTO analytics_conversations (conversation_id, chatbot_id, day, problem)
            SELECT ?1, ?2, ?4, 0 WHERE ?4 IS NOT NULL AND EXISTS (SELECT 1 FROM conversations WHERE id = ?1 AND chatbot_id = ?2 AND org_id = ?3) RETURNING day`,
          )
          .bind(conversationId, ref.chatbotId, ref.orgId, mark.day ?? null),
        client
          .prepare(`UPDATE analytics_conversations SET problem = 1 WHERE conversation_id = ?1 AND chatbot_id = ?2 AND ?3 AND problem = 0 RETURNING day`)
          .bind(conversationId, ref.chatbotId, mark.problem ? 1 : 0),
        // A visitor's own message: its visitor among the day's (the conversation's, so only this chatbot's).
        ...(mark.visitor && mark.day
          ? [
              client
                .prepare(
                  `INSERT OR IGNORE INTO analytics_visitors (chatbot_id, day, visitor_id)
                  SELECT ?2, ?4, visitor_id FROM conversations WHERE id = ?1 AND chatbot_id = ?2 AND org_id = ?3`,
                )
                .bind(conversationId, ref.chatbotId, ref.orgId, mark.day),
            ]
          : []),
        // A question: its group and day (ADR 077), also only for this chatbot's conversation.
        ...(mark.question && mark.day
          ? questionUpserts(ref, mark.day, mark.question, {
              sql: "EXISTS (SELECT 1 FROM conversations WHERE id = ? AND chatbot_id = ? AND org_id = ?)",
              params: [conversationId, ref.chatbotId, ref.orgId],
            }).map((q) => prepareOn(client, q))
          : []),
      ]);
      if (!exists.results.length) return null;
      return { counted: counted.results.length > 0, unresolvedDay: problem.results[0]?.day ?? null };
    },
    async visitorCounts(raw, also = []) {
      const range = dayRangeSchema.parse(raw);
      const extra = visitorDaysSchema.parse(also).map((v) => [v.day, v.visitorId]);
      const own = "SELECT day, visitor_id FROM analytics_visitors WHERE chatbot_id = ?1 AND day BETWEEN ?2 AND ?3";
      // One set of (day, visitor): this storage's rows of the range and the extra ones in it, each once.
      // Without extra rows the counts read the primary key's range as it is (no de-duplication pass).
      const from = extra.length
        ? `(${own} UNION SELECT d, id FROM (SELECT json_extract(value, '$[0]') AS d, json_extract(value, '$[1]') AS id FROM json_each(?4)) WHERE d BETWEEN ?2 AND ?3)`
        : `(${own})`;
      const params = [ref.chatbotId, range.from, range.to, ...(extra.length ? [JSON.stringify(extra)] : [])];
      const [days, unique] = await client.batch([
        client.prepare(`SELECT day, count(*) AS n FROM ${from} GROUP BY day ORDER BY day`).bind(...params),
        client.prepare(`SELECT count(DISTINCT visitor_id) AS n FROM ${from}`).bind(...params),
      ]);
      return {
        days: (days.results as { day: string; n: number }[]).map((r) => ({ day: r.day, n: Number(r.n) })),
        unique: Number((unique.results[0] as { n: number } | undefined)?.n ?? 0),
      };
    },
    async addVisitors(raw) {
      const rows = visitorDaysSchema.parse(raw);
      if (!rows.length) return 0;
      const r = await client
        .prepare(
          `INSERT OR IGNORE INTO analytics_visitors (chatbot_id, day, visitor_id)
          SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?2)`,
        )
        .bind(ref.chatbotId, JSON.stringify(rows.map((v) => [v.day, v.visitorId])))
        .run();
      return r.meta.changes ?? 0;
    },
    topQuestions: (query) => topQuestionKeys(client, ref, query),
    markQuestionsAnswered: (by) => markAnswered(client, ref, by),
    addQuestions: (batch) => addQuestionBatch(client, ref, batch),
    async activity(start, end) {
      // A range of conversations_list_idx: activity since `start`.
      const active = and(ours, sql`${conversations.messageCount} > 0`, sql`${conversations.lastMessageAt} >= ${start}`);
      const row = await db
        .select({
          active: sql<number>`count(*)`,
          started: sql<number>`coalesce(sum(${conversations.createdAt} >= ${start} and ${conversations.createdAt} < ${end}), 0)`,
        })
        .from(conversations)
        .where(active)
        .get();
      return { active: Number(row?.active ?? 0), started: Number(row?.started ?? 0) };
    },
  };
}

/**
 * What a chatbot's ConversationShard answers for its index (workers/durable-objects/conversation-shard.ts):
 * the index's methods under an `index` prefix (the object also answers the message store's `get`,
 * `count`…), each with the chatbot's ref first; the object serves only the chatbot it holds.
 */
export type ConversationIndexShardApi = {
  [K in Exclude<keyof ConversationIndex, "kind"> as `index${Capitalize<K>}`]: ConversationIndex[K] extends (...a: infer A) => Promise<infer R>
    ? // A refused open or create answers null: a rejected RPC would surface as an unhandled rejection (ShardMeta.owns).
      (ref: ChatbotRef, ...a: A) => Promise<K extends "open" | "create" ? R | null : R>
    : never;
};

/** The chatbot's shard object, named by its id (the same object as its messages). Only after the permission check. */
const indexShardStub = (env: Pick<Env, "CONVERSATION_SHARD">, ref: ChatbotRef) =>
  env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(ref.chatbotId)) as unknown as ConversationIndexShardApi;

function refused(ref: ChatbotRef): never {
  throw new Error(`the conversation shard named by ${ref.chatbotId} refused the call: it holds another chatbot`);
}

/** The index in the chatbot's own shard. Reach it only through `conversationIndex` after the permission check. */
export function shardConversationIndex(env: Pick<Env, "CONVERSATION_SHARD">, ref: ChatbotRef): ConversationIndex {
  const shard = indexShardStub(env, ref);
  return {
    kind: "shard",
    // Inputs are checked here as well as in the object: a malformed one fails in the caller, not as a rejected call.
    open: async (input) => (await shard.indexOpen(ref, openInputSchema.parse(input))) ?? refused(ref),
    create: async (input) => (await shard.indexCreate(ref, openInputSchema.parse(input))) ?? refused(ref),
    get: (id, visitorId) => shard.indexGet(ref, id, visitorId),
    latestOpen: (visitorId, channel) => shard.indexLatestOpen(ref, visitorId, channel),
    byIds: async (ids) => shard.indexByIds(ref, byIdsSchema.parse(ids)),
    leadScope: (visitorId, ids) => shard.indexLeadScope(ref, visitorId, ids),
    resetLeads: async (reset) => shard.indexResetLeads(ref, leadResetSchema.parse(reset)),
    hasConversation: async (of) => shard.indexHasConversation(ref, hasConversationSchema.parse(of ?? {})),
    recordMessages: async (id, update) => shard.indexRecordMessages(ref, id, messageUpdateSchema.parse(update)),
    setFlags: async (id, flags) => shard.indexSetFlags(ref, id, flagsSchema.parse(flags)),
    applyLive: async (id, change) => shard.indexApplyLive(ref, id, liveChangeSchema.parse(change)),
    markLead: async (mark) => shard.indexMarkLead(ref, leadMarkSchema.parse(mark)),
    list: (params, opts) => shard.indexList(ref, params, opts),
    inboxLists: (userId) => shard.indexInboxLists(ref, userId),
    activity: (start, end) => shard.indexActivity(ref, start, end),
    countOnce: async (id, mark) => shard.indexCountOnce(ref, id, countMarkSchema.parse(mark)),
    visitorCounts: async (range, also) => shard.indexVisitorCounts(ref, dayRangeSchema.parse(range), visitorDaysSchema.parse(also ?? [])),
    addVisitors: async (rows) => shard.indexAddVisitors(ref, visitorDaysSchema.parse(rows)),
    topQuestions: async (query) => shard.indexTopQuestions(ref, questionListSchema.parse(query)),
    markQuestionsAnswered: async (by) => shard.indexMarkQuestionsAnswered(ref, answeredBySchema.parse(by)),
    addQuestions: async (batch) => shard.indexAddQuestions(ref, questionBatchSchema.parse(batch)),
  };
}

/**
 * The values analytics counts a conversation by (analytics/record.ts): from the caller when it holds
 * them, else from the chatbot's index. Null when the conversation is not this chatbot's.
 */
export async function countedConversation(
  ctx: Pick<ServiceContext, "db"> & Partial<Pick<ServiceContext, "env">>,
  c: ChatbotRef & { id: string } & Partial<Pick<Conversation, "visitorId" | "channel" | "country">>,
): Promise<CountedConversation | null> {
  const known = c.visitorId !== undefined && c.channel !== undefined && c.country !== undefined;
  const index = known ? null : await conversationIndex(ctx, c);
  const row = index ? await index.get(c.id) : c;
  return row ? { orgId: c.orgId, chatbotId: c.chatbotId, id: c.id, visitorId: row.visitorId!, channel: row.channel!, country: row.country ?? null } : null;
}

/** Where the chatbot's row says its conversation index is ('d1' for a chatbot not found). */
export async function conversationStoreKind(ctx: { db: Database }, ref: ChatbotRef): Promise<ConversationStoreKind> {
  const row = await ctx.db
    .select({ k: chatbots.conversationStore })
    .from(chatbots)
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .get();
  return row?.k ?? "d1";
}

/** The index the chatbot's row names; `kind` when the caller holds the row. 'moving' reads and writes D1 until the switch (as messages do). */
export async function conversationIndex(
  ctx: Pick<ServiceContext, "db"> & Partial<Pick<ServiceContext, "env">>,
  ref: ChatbotRef,
  kind?: ConversationStoreKind,
): Promise<ConversationIndex> {
  const where = kind ?? (await conversationStoreKind(ctx, ref));
  if (where !== "shard") return d1ConversationIndex(ctx, ref);
  // Without the bindings (a D1-only context) a shard's index cannot be reached: refuse rather than
  // read or write D1's table, where this chatbot has no rows.
  if (!ctx.env) throw new Error("this chatbot's conversations are in its shard: the caller needs env");
  return shardConversationIndex(ctx.env, ref);
}
