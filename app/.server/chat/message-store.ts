import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { d1Client, type Db as Database } from "../db/client";
import { chatbots, messages, MESSAGE_ROLES, type MessageSource } from "../db/schema";
import type { Env } from "../env";
import { ftsChatbotToken } from "../retrieval/search";
import { conversationSearch } from "./search-index";

// A chatbot's messages, wherever they live (issue #20, ADR 040): D1's shared `messages` table (and
// its FTS5 `conversation_search`), or the chatbot's own ConversationShard object. The conversation
// rows (status, counts, lead, badges) stay in D1 either way; this module holds only the bulk that
// grows with usage. Which store a chatbot uses is decided in one place (`chatbots.message_store`).
// The shard runs the D1 implementation below over its own storage, so both stores are one piece of
// code (as the knowledge shard does, ADR 034).

export type MessageStoreKind = "d1" | "moving" | "shard";
export type ChatbotRef = { orgId: string; chatbotId: string };
export type Message = typeof messages.$inferSelect;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** A message to store; the caller gives its id and time (live chat's object gives them first). */
export type NewMessage = {
  id: string;
  conversationId: string;
  role: MessageRole;
  content: string;
  createdAt: number;
  sources?: MessageSource[];
  answered?: boolean | null;
  model?: string | null;
  latencyMs?: number | null;
  firstTokenMs?: number | null;
  credits?: number;
  clientMessageId?: string | null;
};

export type AppendResult = {
  /** Ids stored by this call (an id already stored is skipped, so a repeated write adds nothing). */
  inserted: string[];
  /** The visitor's client message id was already stored in that conversation: nothing was written. */
  duplicate: boolean;
  /** How many messages each conversation written to now holds. */
  counts: Record<string, number>;
};

export type SearchHits = {
  /** Conversations whose visitor messages contain every word (the last as a prefix), most recent match first. */
  conversationIds: string[];
  /** More messages matched than `cap`: only the most recent were read. */
  capped: boolean;
};

export type ReportedAnswer = { answer: string; feedback: number | null; question: string | null };

export interface MessageStore {
  readonly kind: "d1" | "shard";
  append(rows: NewMessage[]): Promise<AppendResult>;
  /** Every message of a conversation, oldest first. */
  transcript(conversationId: string): Promise<Message[]>;
  /** The last `limit` messages of a conversation with one of `roles`, oldest first. */
  latest(conversationId: string, roles: MessageRole[], limit: number): Promise<Message[]>;
  /** The first `limit` messages with one of `roles` written after `createdAt`, oldest first. */
  after(conversationId: string, createdAt: number, roles: MessageRole[], limit: number): Promise<Message[]>;
  /** Each conversation's newest message (the inbox's preview). */
  lastOf(conversationIds: string[]): Promise<Record<string, Pick<Message, "content" | "role">>>;
  /** Visitor messages sent with this client message id (a retried send), in any conversation. */
  byClientMessageId(clientMessageId: string): Promise<Message[]>;
  get(messageId: string): Promise<Message | null>;
  /** Sets a bot message's feedback; the conversation's rating after it (-1 when any is down), or undefined when no such message. */
  setFeedback(messageId: string, value: -1 | 1 | null): Promise<{ conversationId: string; rating: number | null } | undefined>;
  search(words: string[], cap: number): Promise<SearchHits>;
  /** The messages with one of `roles` of several conversations, by conversation then time (the call log's transcripts). */
  ofConversations(conversationIds: string[], roles: MessageRole[]): Promise<Message[]>;
  /** Reported bot answers: each one's text, thumb and the visitor question before it (the bug reports page). */
  reported(messageIds: string[]): Promise<Record<string, ReportedAnswer>>;
  /** Handoff notes and thumbs-down written in [start, end) (the daily digest). */
  digestCounts(start: number, end: number, handoffNote: string): Promise<{ handoffs: number; ratedDown: number }>;
  count(): Promise<number>;
  /** Before the chatbot is deleted: what the conversations' cascade does not remove (the search rows; a shard's whole storage). */
  dropAll(): Promise<void>;
}

/** Letters and digits of a search, as FTS5 sees words (unicode61); at most 8. */
export function searchWords(q: string): string[] {
  return (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}

const ftsString = (s: string) => `"${s.replaceAll('"', '""')}"`;

/**
 * MATCH expression for visitor messages of one chatbot containing every word, the last one as a
 * prefix (a search typed halfway still finds). Words are quoted and confined to the body column.
 */
export function conversationSearchMatch(chatbotId: string, words: string[]): string {
  const terms = words.map((w, i) => (i === words.length - 1 ? `${ftsString(w)}*` : ftsString(w)));
  return `chatbot_id:${ftsString(ftsChatbotToken(chatbotId))} AND body:(${terms.join(" AND ")})`;
}

/** MATCH expression for every search row of one chatbot. */
export const chatbotSearchRows = (chatbotId: string) => `chatbot_id:${ftsString(ftsChatbotToken(chatbotId))}`;

/** A visitor message whose client message id the chatbot's shard already holds in that conversation (a retried send). */
export class DuplicateClientMessage extends Error {
  constructor() {
    super("UNIQUE constraint failed: messages.conversation_id, messages.client_message_id");
    this.name = "DuplicateClientMessage";
  }
}

/** True when a write failed on the (conversation, client message id) unique index: the message is already stored. */
export function isDuplicateClientMessage(error: unknown): boolean {
  if (error instanceof DuplicateClientMessage) return true;
  const text = String((error as { cause?: unknown })?.cause ?? "") + String((error as Error)?.message ?? error);
  return /UNIQUE constraint failed: messages\.conversation_id, messages\.client_message_id/.test(text);
}

/** The insert of one message (batched by callers that store it with D1 rows in one transaction). */
export function messageInsert(db: Database, ref: ChatbotRef, m: NewMessage) {
  return db
    .insert(messages)
    .values({
      id: m.id,
      conversationId: m.conversationId,
      orgId: ref.orgId,
      chatbotId: ref.chatbotId,
      role: m.role,
      content: m.content,
      sources: m.sources ?? [],
      answered: m.answered ?? null,
      model: m.model ?? null,
      latencyMs: m.latencyMs ?? null,
      firstTokenMs: m.firstTokenMs ?? null,
      credits: m.credits ?? 0,
      clientMessageId: m.clientMessageId ?? null,
      createdAt: m.createdAt,
    })
    .onConflictDoNothing({ target: messages.id });
}

/** The statement that makes a visitor message findable by the conversation list's search (the chatbot id as one token, as in chunks_fts). */
export function searchInsert(db: Database, ref: ChatbotRef, conversationId: string, text: string) {
  return db.insert(conversationSearch).values({ chatbotId: sql`lower(hex(${ref.chatbotId}))`, body: text, conversationId });
}

// The statements every chat message runs (append, latest, byClientMessageId: the shard's share of a
// turn) as fixed SQL bound with D1's own API, not built by drizzle each time: query building and
// result mapping were most of the message store's CPU in bench:cpu's profile (issue #21). Columns
// are named as drizzle names them, so a row reads as a `Message` after `messageFromRow`.
const MESSAGE_COLUMNS =
  "id, conversation_id AS conversationId, org_id AS orgId, chatbot_id AS chatbotId, role, content, sources, answered, model, " +
  "latency_ms AS latencyMs, first_token_ms AS firstTokenMs, credits, feedback, client_message_id AS clientMessageId, created_at AS createdAt";
const SQL_STORED_IDS = "SELECT id FROM messages WHERE id IN (SELECT value FROM json_each(?1))";
const SQL_COUNTS =
  "SELECT conversation_id AS id, count(*) AS n FROM messages WHERE conversation_id IN (SELECT value FROM json_each(?1)) GROUP BY conversation_id";
const SQL_INSERT =
  "INSERT INTO messages (id, conversation_id, org_id, chatbot_id, role, content, sources, answered, model, latency_ms, first_token_ms, credits, client_message_id, created_at) " +
  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) ON CONFLICT (id) DO NOTHING";
const SQL_SEARCH_INSERT = "INSERT INTO conversation_search (chatbot_id, body, conversation_id) VALUES (lower(hex(?1)), ?2, ?3)";
const SQL_LATEST = `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ?1 AND org_id = ?2 AND chatbot_id = ?3 AND role IN (SELECT value FROM json_each(?4)) ORDER BY created_at DESC, id DESC LIMIT ?5`;
const SQL_BY_CLIENT_ID = `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE org_id = ?1 AND chatbot_id = ?2 AND client_message_id = ?3 AND role = 'visitor'`;

type MessageRow = Omit<Message, "sources" | "answered"> & { sources: string; answered: number | null };

/** A row of MESSAGE_COLUMNS as drizzle reads it: `sources` parsed, `answered` a boolean. */
export function messageFromRow(r: MessageRow): Message {
  return { ...r, sources: JSON.parse(r.sources) as MessageSource[], answered: r.answered === null ? null : r.answered !== 0 };
}

/** The chatbot's messages in D1 (`ctx.db`) — or, run inside a shard, in the shard's storage. */
export function d1MessageStore(ctx: { db: Database }, ref: ChatbotRef): MessageStore {
  const db = ctx.db;
  const d1 = d1Client(db);
  const mine = and(eq(messages.orgId, ref.orgId), eq(messages.chatbotId, ref.chatbotId));
  const inConversation = (conversationId: string) => and(eq(messages.conversationId, conversationId), mine);
  const counts = async (conversationIds: string[]) => {
    const out: Record<string, number> = {};
    if (!conversationIds.length) return out;
    const { results } = await d1.prepare(SQL_COUNTS).bind(JSON.stringify(conversationIds)).all<{ id: string; n: number }>();
    for (const r of results) out[r.id] = r.n;
    return out;
  };
  return {
    kind: "d1",
    async append(rows) {
      const conversationIds = [...new Set(rows.map((r) => r.conversationId))];
      if (!rows.length) return { inserted: [], duplicate: false, counts: {} };
      const { results: already } = await d1
        .prepare(SQL_STORED_IDS)
        .bind(JSON.stringify(rows.map((r) => r.id)))
        .all<{ id: string }>();
      const stored = new Set(already.map((r) => r.id));
      const fresh = rows.filter((r) => !stored.has(r.id));
      if (fresh.length) {
        const stmts = [
          ...fresh.map((m) =>
            d1
              .prepare(SQL_INSERT)
              .bind(
                m.id,
                m.conversationId,
                ref.orgId,
                ref.chatbotId,
                m.role,
                m.content,
                JSON.stringify(m.sources ?? []),
                m.answered == null ? null : m.answered ? 1 : 0,
                m.model ?? null,
                m.latencyMs ?? null,
                m.firstTokenMs ?? null,
                m.credits ?? 0,
                m.clientMessageId ?? null,
                m.createdAt,
              ),
          ),
          ...fresh.filter((m) => m.role === "visitor").map((m) => d1.prepare(SQL_SEARCH_INSERT).bind(ref.chatbotId, m.content, m.conversationId)),
        ];
        try {
          await d1.batch(stmts);
        } catch (e) {
          if (isDuplicateClientMessage(e)) return { inserted: [], duplicate: true, counts: await counts(conversationIds) };
          throw e;
        }
      }
      return { inserted: fresh.map((r) => r.id), duplicate: false, counts: await counts(conversationIds) };
    },
    transcript: (conversationId) => db.select().from(messages).where(inConversation(conversationId)).orderBy(asc(messages.createdAt), asc(messages.id)).all(),
    async latest(conversationId, roles, limit) {
      const { results } = await d1.prepare(SQL_LATEST).bind(conversationId, ref.orgId, ref.chatbotId, JSON.stringify(roles), limit).all<MessageRow>();
      return results.map(messageFromRow).reverse();
    },
    after: (conversationId, createdAt, roles, limit) =>
      db
        .select()
        .from(messages)
        .where(and(inConversation(conversationId), sql`${messages.createdAt} > ${createdAt}`, inArray(messages.role, roles)))
        .orderBy(asc(messages.createdAt), asc(messages.id))
        .limit(limit)
        .all(),
    async lastOf(conversationIds) {
      const out: Record<string, Pick<Message, "content" | "role">> = {};
      if (!conversationIds.length) return out;
      // One parameter for any number of ids (D1 binds at most 100); each id's newest row by its index.
      const rows = await db.all<{ conversation_id: string; content: string; role: MessageRole }>(
        sql`select m.conversation_id, m.content, m.role from json_each(${JSON.stringify(conversationIds)}) c
          join messages m on m.rowid = (select m2.rowid from messages m2 where m2.conversation_id = c.value order by m2.created_at desc, m2.rowid desc limit 1)
          where m.chatbot_id = ${ref.chatbotId}`,
      );
      for (const r of rows) out[r.conversation_id] = { content: r.content, role: r.role };
      return out;
    },
    byClientMessageId: async (clientMessageId) =>
      (await d1.prepare(SQL_BY_CLIENT_ID).bind(ref.orgId, ref.chatbotId, clientMessageId).all<MessageRow>()).results.map(messageFromRow),
    async get(messageId) {
      return (
        (await db
          .select()
          .from(messages)
          .where(and(eq(messages.id, messageId), mine))
          .get()) ?? null
      );
    },
    async setFeedback(messageId, value) {
      const row = await db
        .update(messages)
        .set({ feedback: value })
        .where(and(eq(messages.id, messageId), mine))
        .returning({ c: messages.conversationId })
        .get();
      if (!row) return undefined;
      const r = await db.get<{ rating: number | null }>(
        sql`select case when min(feedback) < 0 then -1 when max(feedback) > 0 then 1 else null end as rating from messages where conversation_id = ${row.c} and feedback is not null`,
      );
      return { conversationId: row.c, rating: r?.rating ?? null };
    },
    async search(words, cap) {
      if (!words.length) return { conversationIds: [], capped: false };
      const match = conversationSearchMatch(ref.chatbotId, words);
      const [hits, n] = await Promise.all([
        db.all<{ id: string }>(
          sql`select conversation_id as id from (select conversation_id from conversation_search where conversation_search match ${match} order by rowid desc limit ${cap})`,
        ),
        db.get<{ n: number }>(sql`select count(*) as n from (select 1 from conversation_search where conversation_search match ${match} limit ${cap + 1})`),
      ]);
      return { conversationIds: [...new Set(hits.map((h) => h.id))], capped: (n?.n ?? 0) > cap };
    },
    ofConversations: (conversationIds, roles) =>
      conversationIds.length
        ? db
            .select()
            .from(messages)
            .where(
              and(mine, sql`${messages.conversationId} in (select value from json_each(${JSON.stringify(conversationIds)}))`, inArray(messages.role, roles)),
            )
            .orderBy(asc(messages.conversationId), asc(messages.createdAt), asc(messages.id))
            .all()
        : Promise.resolve([]),
    async reported(messageIds) {
      const out: Record<string, ReportedAnswer> = {};
      if (!messageIds.length) return out;
      const rows = await db.all<{ id: string; answer: string; feedback: number | null; question: string | null }>(
        sql`select m.id, m.content as answer, m.feedback,
          (select v.content from messages v where v.conversation_id = m.conversation_id and v.role = 'visitor' and v.created_at <= m.created_at order by v.created_at desc limit 1) as question
          from messages m where m.id in (select value from json_each(${JSON.stringify(messageIds)})) and m.chatbot_id = ${ref.chatbotId}`,
      );
      for (const r of rows) out[r.id] = { answer: r.answer, feedback: r.feedback, question: r.question };
      return out;
    },
    async digestCounts(start, end, handoffNote) {
      const window = and(mine, sql`${messages.createdAt} >= ${start}`, sql`${messages.createdAt} < ${end}`);
      const [handoffs, down] = await Promise.all([
        db
          .select({ n: sql<number>`count(*)` })
          .from(messages)
          .where(and(window, eq(messages.role, "system"), eq(messages.content, handoffNote)))
          .get(),
        db
          .select({ n: sql<number>`count(*)` })
          .from(messages)
          .where(and(window, eq(messages.role, "bot"), eq(messages.feedback, -1)))
          .get(),
      ]);
      return { handoffs: Number(handoffs?.n ?? 0), ratedDown: Number(down?.n ?? 0) };
    },
    async count() {
      return (
        (
          await db
            .select({ n: sql<number>`count(*)` })
            .from(messages)
            .where(mine)
            .get()
        )?.n ?? 0
      );
    },
    async dropAll() {
      // The messages go with their conversations (ON DELETE CASCADE); the search index has no foreign key.
      await db.run(
        sql`delete from conversation_search where rowid in (select rowid from conversation_search where conversation_search match ${chatbotSearchRows(ref.chatbotId)})`,
      );
    },
  };
}

/**
 * What a chatbot's ConversationShard object answers (workers/durable-objects/conversation-shard.ts
 * implements it): the store's methods, each with the chatbot's ref first; the object serves only the
 * chatbot it holds.
 */
export type ConversationShardApi = {
  [K in Exclude<keyof MessageStore, "kind">]: MessageStore[K] extends (...a: infer A) => infer R ? (ref: ChatbotRef, ...a: A) => R : never;
};

/**
 * The chatbot's shard object, named by its id, seen through the part of its RPC a module uses
 * (messages by default; notes, pending tool calls). Only for callers that checked the permission.
 */
export const conversationShardStub = <Api = ConversationShardApi>(env: Pick<Env, "CONVERSATION_SHARD">, ref: ChatbotRef) =>
  env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(ref.chatbotId)) as unknown as Api;

/** The chatbot's own shard. Reach it only through `messageStore` after the permission check. */
export function shardMessageStore(env: Pick<Env, "CONVERSATION_SHARD">, ref: ChatbotRef): MessageStore {
  const shard = conversationShardStub(env, ref);
  return {
    kind: "shard",
    append: (rows) => shard.append(ref, rows),
    transcript: (id) => shard.transcript(ref, id),
    latest: (id, roles, limit) => shard.latest(ref, id, roles, limit),
    after: (id, at, roles, limit) => shard.after(ref, id, at, roles, limit),
    lastOf: (ids) => shard.lastOf(ref, ids),
    byClientMessageId: (clientMessageId) => shard.byClientMessageId(ref, clientMessageId),
    get: (id) => shard.get(ref, id),
    setFeedback: (id, value) => shard.setFeedback(ref, id, value),
    search: (words, cap) => shard.search(ref, words, cap),
    ofConversations: (ids, roles) => shard.ofConversations(ref, ids, roles),
    reported: (ids) => shard.reported(ref, ids),
    digestCounts: (start, end, note) => shard.digestCounts(ref, start, end, note),
    count: () => shard.count(ref),
    dropAll: () => shard.dropAll(ref),
  };
}

type StoreContext = Pick<ServiceContext, "env" | "db">;

/** Where the chatbot's row says its messages are ('d1' for a chatbot not found). */
export async function messageStoreKind(ctx: { db: Database }, ref: ChatbotRef): Promise<MessageStoreKind> {
  // Fixed SQL: live chat's mirror asks this for every message it writes (issue #21, ADR 049).
  const row = await d1Client(ctx.db)
    .prepare("SELECT message_store AS k FROM chatbots WHERE id = ?1 AND org_id = ?2")
    .bind(ref.chatbotId, ref.orgId)
    .first<{ k: MessageStoreKind }>();
  return row?.k ?? "d1";
}

/**
 * Where the chatbot's messages and its conversation index (ADR 044) are: as the caller gives them
 * (its row's `messageStore` / `conversationStore`), else both read in one look-up ('d1' for a chatbot
 * not found).
 */
export async function chatbotStores(
  ctx: { db: Database },
  ref: ChatbotRef,
  given: { messageStore?: MessageStoreKind; conversationStore?: MessageStoreKind } = {},
): Promise<{ messages: MessageStoreKind; conversations: MessageStoreKind }> {
  if (given.messageStore && given.conversationStore) return { messages: given.messageStore, conversations: given.conversationStore };
  const row = await d1Client(ctx.db)
    .prepare("SELECT message_store AS messages, conversation_store AS conversations FROM chatbots WHERE id = ?1 AND org_id = ?2")
    .bind(ref.chatbotId, ref.orgId)
    .first<{ messages: MessageStoreKind; conversations: MessageStoreKind }>();
  return { messages: given.messageStore ?? row?.messages ?? "d1", conversations: given.conversationStore ?? row?.conversations ?? "d1" };
}

/**
 * The chatbot's shard store, or null when its messages are (still) in D1 — for callers that keep
 * their own D1 statements (one batch with counters) and branch only for the shard. `env` reaches
 * the shard; a caller without it (tests, D1-only tools) is refused for a chatbot in its shard
 * rather than answered from D1.
 */
export async function messageShard(ctx: { db: Database; env?: Env }, ref: ChatbotRef, kind?: MessageStoreKind): Promise<MessageStore | null> {
  const where = kind ?? (await messageStoreKind(ctx, ref));
  if (where !== "shard") return null;
  if (!ctx.env) throw new Error("this chatbot's messages are in its shard: the caller needs env");
  return shardMessageStore(ctx.env, ref);
}

/** The store the chatbot's row names; `kind` when the caller already holds the row. 'moving' reads and writes D1 until the switch. */
export async function messageStore(ctx: StoreContext, ref: ChatbotRef, kind?: MessageStoreKind): Promise<MessageStore> {
  const where = kind ?? (await messageStoreKind(ctx, ref));
  if (where === "shard") return shardMessageStore(ctx.env, ref);
  const d1 = d1MessageStore(ctx, ref);
  if (where === "d1") return d1;
  // Moving: D1 serves; deleting the chatbot also drops the shard's partial copy.
  return {
    ...d1,
    async dropAll() {
      await d1.dropAll();
      await conversationShardStub(ctx.env, ref).dropAll(ref);
    },
  };
}
