import { and, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { newId } from "../auth/crypto";
import type { AppContext } from "../context";
import type { ChatSource } from "~/lib/schemas/chat";
import { prepareOn, type BoundSql } from "../db/client";
import { conversations, messages, type MessageSource } from "../db/schema";
import { z } from "zod";
import { clientMessageIdSchema } from "~/lib/schemas/chat";
import { dayIn } from "~/lib/time-zone";
import type { Env } from "../env";
import { bindAll, exchangeStatements, liveMessageStatements, orgTimeZone, questionOf, type CountDecision, type CountedConversation } from "../analytics/record";
import {
  DuplicateClientMessage,
  chatbotStores,
  isDuplicateClientMessage,
  messageInsert,
  messageShard,
  searchInsert,
  type AppendResult,
  type MessageStore,
  type MessageStoreKind,
  type NewMessage,
} from "./message-store";
import {
  conversationIndex,
  countedConversation,
  countMarkSchema,
  d1Client,
  openFacts,
  openInputSchema,
  openStatements,
  RESOLVED_ID,
  recordMessagesStatement,
  type ConversationStoreKind,
  type CountMark,
  type LeadSource,
  type StoredConversation,
} from "./conversation-index";

export { isDuplicateClientMessage };

// Conversations and their messages. Dashboard reads are scoped by organisation and chatbot; visitor
// reads by chatbot and visitor id (the visitor id is a random secret the browser keeps). The
// conversation rows are D1's; the messages are wherever the chatbot's message store is (ADR 040):
// D1's own queries below when it is D1 (one batch with the counters, as before), the chatbot's
// shard through `message-store.ts` when it is there. Callers holding the chatbot's row pass its
// `messageStore` so no look-up is added to the answer path.

type Ctx = Pick<AppContext, "db"> & Partial<Pick<AppContext, "env">>;
type Where = MessageStoreKind | undefined;

const shardStore = (ctx: Ctx, ref: ChatbotRef, kind: Where) => messageShard(ctx, ref, kind);

const storesOf = chatbotStores;
export type Conversation = typeof conversations.$inferSelect;
export type Message = typeof messages.$inferSelect;
export type ChatbotRef = { orgId: string; chatbotId: string };

/** A stored message's sources as the chat shows them: numbered in order, so [n] in the text is sources[n - 1]. */
export function numberedSources(stored: MessageSource[] | null | undefined): ChatSource[] {
  return (stored ?? []).map((s, i) => ({ n: i + 1, title: s.title, url: s.url, snippet: s.snippet, sourceId: s.sourceId, chunkId: s.chunkId }));
}
type Channel = Conversation["channel"];

/**
 * The visitor's open conversation on this chatbot and channel (the one named by `conversationId`
 * when it is theirs), or a new one; `fresh` always starts a new one. In the chatbot's conversation
 * index (`kind`, its row's `conversationStore`; looked up when not given).
 */
export async function getOrCreateConversation(
  ctx: Ctx,
  ref: ChatbotRef,
  input: ConversationInput & { fresh?: boolean },
  kind?: ConversationStoreKind,
): Promise<Conversation & { isNew?: boolean }> {
  const index = await conversationIndex(ctx, ref, kind);
  return input.fresh ? index.create(input) : index.open(input);
}

type ConversationInput = { visitorId: string; channel: Channel; conversationId?: string | null; country?: string | null; pageUrl?: string | null };
type HistoryMessage = Pick<Message, "role" | "content">;

/** A new conversation, whatever the visitor already has ("New conversation"). */
export async function createConversation(
  ctx: Ctx,
  ref: ChatbotRef,
  input: ConversationInput,
  kind?: ConversationStoreKind,
): Promise<Conversation & { isNew: true }> {
  return (await conversationIndex(ctx, ref, kind)).create(input);
}

/** What a turn reads before it answers (openTurn): the retried send's stored message, the conversation, its recent messages. */
export type TurnOpening = { conversation: Conversation & { isNew?: boolean }; sent: SentMessage | null; history: HistoryMessage[] | null; also: unknown };

/** openTurn's input as the chatbot's shard takes it (checked on both sides of the call). */
export const turnInputSchema = openInputSchema.extend({
  clientMessageId: clientMessageIdSchema.optional(),
  historyLimit: z.number().int().min(1).max(100).optional(),
});
export type TurnInput = z.input<typeof turnInputSchema>;

/**
 * What a visitor turn reads before it answers, in ONE round trip (it sits before the first byte of
 * every answer, and under load each round trip is CPU on the one local runtime, issue #21): the
 * message already stored under this client message id (a retried send), the visitor's conversation
 * — the one named by `conversationId` when it is theirs and open, else their open one on this
 * channel, else a new one — and, with `historyLimit`, that conversation's last messages (oldest
 * first, as recentMessages gives them). A batch is one transaction, so two requests of the same
 * visitor cannot both insert; the insert is skipped when the named conversation is open. For a
 * chatbot whose conversation index is in its shard, see openTurnInShard.
 */
export async function openTurn(
  ctx: Ctx,
  ref: ChatbotRef,
  input: ConversationInput & { clientMessageId?: string; historyLimit?: number },
  /** One more statement for the same round trip (the reply's credit, chat/turn.ts); its rows come back as `also`. */
  also?: BoundSql | null,
): Promise<TurnOpening> {
  return openTurnOn(d1Client(ctx.db), ref, input, "d1", also);
}

/**
 * openTurn's batch on a D1 client: D1, or a chatbot shard's storage behind D1's API (the shard runs
 * it as it is, its conversations and messages side by side, with its own lead source, ADR 044 §5).
 */
export async function openTurnOn(client: D1Database, ref: ChatbotRef, input: TurnInput, leads: LeadSource, also?: BoundSql | null): Promise<TurnOpening> {
  // The conversation index's own statements (chat/conversation-index.ts), sent with the turn's. All
  // are fixed SQL bound with D1's API: built by drizzle they were the largest share of query building
  // in bench:cpu's profile (issue #21). The credit comes from usage.ts, fixed SQL as well (ADR 049).
  const o = openStatements(client, ref, openFacts(input), leads);
  const extra = also ?? null;
  const statements = [
    o.insert,
    o.open,
    o.named,
    input.clientMessageId ? client.prepare(TURN_SQL.sent).bind(ref.orgId, ref.chatbotId, input.visitorId, input.clientMessageId) : null,
    input.historyLimit ? client.prepare(TURN_SQL.recent).bind(...o.who, input.historyLimit) : null,
    extra ? client.prepare(extra.sql).bind(...extra.params) : null,
  ] as const;
  const present = statements.filter((q) => q !== null);
  const results = await client.batch(present);
  const out = statements.map((q) => (q === null ? null : (results[present.indexOf(q)].results ?? [])));
  const [, openRows, namedRows, sentRows, historyRows, alsoResult] = out as [
    unknown,
    StoredConversation[],
    StoredConversation[] | null,
    SentMessage[] | null,
    RecentRow[] | null,
    unknown,
  ];
  return { conversation: o.pick(openRows, namedRows), sent: sentRows?.[0] ?? null, history: historyRows ? historyFrom(historyRows) : null, also: alsoResult };
}

/**
 * Where the messages of an exchange or a live mirror go when the chatbot's conversation index is in
 * its shard (ADR 044 §5): the messages, then the conversation's row from them (`count` is what the
 * conversation holds after the append), then — when `mark` is given and a message was new — the
 * once-only analytics decision (ADR 048), all in one call to the object.
 */
export const storeMessagesSchema = z
  .object({
    conversationId: z.string().min(1).max(200),
    update: z.object({
      at: z.number().int().nonnegative(),
      title: z.string().max(140).optional(),
      unanswered: z.boolean().optional(),
      pageUrl: z.string().max(2_000).nullish(),
    }),
    mark: countMarkSchema.nullable(),
  })
  .strict();
export type StoreMessagesInput = z.input<typeof storeMessagesSchema> & { mark: CountMark | null };
/** `row`: the conversation after it (null when not this chatbot's); `decision`: what D1's analytics add (null: count nothing). */
export type StoredMessages = { written: AppendResult; row: Conversation | null; decision: CountDecision | null };

/** The turn's side of a chatbot's ConversationShard (workers/durable-objects/conversation-shard.ts); a refusal answers null. */
export type ConversationTurnShardApi = {
  indexOpenTurn(ref: ChatbotRef, input: TurnInput): Promise<TurnOpening | null>;
  indexStoreMessages(ref: ChatbotRef, rows: NewMessage[], input: StoreMessagesInput): Promise<StoredMessages | null>;
};

/** The chatbot's shard object (the same one as its messages and index). Only after the permission check. */
const turnShard = (env: Pick<Env, "CONVERSATION_SHARD">, ref: ChatbotRef) =>
  env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(ref.chatbotId)) as unknown as ConversationTurnShardApi;

function needsEnv(ctx: Ctx): Env {
  if (!ctx.env) throw new Error("this chatbot's conversations are in its shard: the caller needs env");
  return ctx.env;
}

/**
 * openTurn for a chatbot whose conversation index is in its shard: ONE call to the object (the retry
 * look-up, the conversation found or created and its history, one transaction there); the reply's
 * credit is the caller's own D1 statement (chat/turn.ts).
 */
export async function openTurnInShard(ctx: Ctx, ref: ChatbotRef, input: TurnInput): Promise<TurnOpening> {
  const opened = await turnShard(needsEnv(ctx), ref).indexOpenTurn(ref, turnInputSchema.parse(input));
  if (!opened) throw new Error(`the conversation shard named by ${ref.chatbotId} refused the turn: it holds another chatbot`);
  return opened;
}

// The turn's message statements (D1's messages; a chatbot whose messages are in its shard reads them
// there, chat/turn.ts). Each binds ?1 org, ?2 chatbot, ?3 visitor first.
const TURN_SQL = {
  // The visitor's message with this client message id on this chatbot, in any of their conversations (binds org, chatbot, visitor, client message id).
  sent: `SELECT m.id AS id, m.conversation_id AS conversationId, m.created_at AS createdAt, c.status AS status
    FROM messages m JOIN conversations c ON c.id = m.conversation_id
    WHERE c.chatbot_id = ?2 AND c.org_id = ?1 AND c.visitor_id = ?3 AND m.client_message_id = ?4 AND m.role = 'visitor' LIMIT 1`,
  // As recentQuery, of the conversation this turn resolves to (binds openStatements' ?1–?5, then ?6 the limit).
  recent: `SELECT role, content, created_at AS createdAt, id FROM messages
    WHERE conversation_id = ${RESOLVED_ID} AND role IN ('visitor', 'bot', 'human')
    ORDER BY created_at DESC, id DESC LIMIT ?6`,
};

export type BatchItem = Parameters<Ctx["db"]["batch"]>[0][number];

/**
 * The condition under which openTurn's batch counts the reply's credit (chat/turn.ts): the conversation
 * the turn resolves to is not held by a person (a held message gets no bot reply, so its credit was
 * counted and then given back: a round trip for nothing, issue #21), and, when `clientMessageId` is
 * given, the message is not a retry of a stored one. Binds openStatements' ?1–?5, then ?6.
 */
export function turnCreditCondition(
  ref: ChatbotRef,
  where: { visitorId: string; channel: string; conversationId?: string | null },
  clientMessageId?: string,
): BoundSql {
  const notHeld = `coalesce((SELECT status FROM conversations WHERE id = ${RESOLVED_ID}), 'bot') <> 'human'`;
  const who = [ref.orgId, ref.chatbotId, where.visitorId, where.channel, where.conversationId ?? null];
  if (!clientMessageId) return { sql: notHeld, params: who };
  return { sql: `${notHeld} AND NOT EXISTS (${TURN_SQL.sent.replace("?4", "?6")})`, params: [...who, clientMessageId] };
}

/** The visitor proved their id with an identity hash (identity verification); never unset. */
export async function markConversationVerified(ctx: Ctx, conversation: Pick<Conversation, "id" | "orgId" | "chatbotId">, kind?: ConversationStoreKind) {
  await (await conversationIndex(ctx, conversation, kind)).setFlags(conversation.id, { verified: true });
}

type RecentRow = { role: Message["role"]; content: string; createdAt: number; id: string };

/** The last `limit` visitor/bot/human messages of a conversation in D1 (newest first; historyFrom orders them). */
function recentQuery(ctx: Ctx, conversationId: string | SQL, limit: number) {
  return ctx.db
    .select({ role: messages.role, content: messages.content, createdAt: messages.createdAt, id: messages.id })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), or(eq(messages.role, "visitor"), eq(messages.role, "bot"), eq(messages.role, "human"))))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
}

const historyFrom = (rows: RecentRow[]): HistoryMessage[] => rows.reverse().map(({ role, content }) => ({ role, content }));

/** The last `limit` visitor/bot/human messages of a conversation, oldest first (prompt history). */
export async function recentMessages(
  ctx: Ctx,
  conversation: Pick<Conversation, "id" | "orgId" | "chatbotId">,
  limit = 10,
  kind?: MessageStoreKind,
): Promise<HistoryMessage[]> {
  const shard = await shardStore(ctx, { orgId: conversation.orgId, chatbotId: conversation.chatbotId }, kind);
  if (shard) return (await shard.latest(conversation.id, ["visitor", "bot", "human"], limit)).map(({ role, content }) => ({ role, content }));
  return historyFrom(await recentQuery(ctx, conversation.id, limit).all());
}

export type NewBotMessage = {
  content: string;
  sources: MessageSource[];
  answered: boolean;
  model: string | null;
  latencyMs: number | null;
  firstTokenMs: number | null;
  credits: number;
};

/**
 * Stores one exchange (the visitor's message, and the bot's reply when there is one) and bumps the
 * conversation's counters, in one batch: either all of it is saved or none. With the chatbot's
 * messages in its shard, the messages are stored there first, then the counters (ADR 040).
 */
export async function recordExchange(
  ctx: Ctx,
  conversation: Pick<Conversation, "id" | "orgId" | "chatbotId" | "title" | "visitorId" | "channel" | "country">,
  input: {
    visitorText: string;
    askedAt: number;
    bot: (NewBotMessage & { id: string; at: number }) | null;
    clientMessageId?: string;
    /** The visitor got no answer: the bot fell back, hit the reply limit, or failed (the list's "unanswered"). */
    unanswered?: boolean;
    /** The organisation's time zone (the analytics day); looked up when not given. */
    timeZone?: string;
    /** The page the visitor wrote from (the widget sends it), kept as the conversation's latest. */
    pageUrl?: string | null;
    /** Where the chatbot's messages are (its row's `messageStore`); looked up when not given. */
    messageStore?: MessageStoreKind;
    /** Where the chatbot's conversation index is (its row's `conversationStore`); looked up when not given. */
    conversationStore?: ConversationStoreKind;
  },
) {
  const ref = { orgId: conversation.orgId, chatbotId: conversation.chatbotId };
  const visitorId = newId("msg_");
  const added = input.bot ? 2 : 1;
  const last = input.bot?.at ?? input.askedAt;
  const title = conversation.title ?? input.visitorText.slice(0, 140);
  const visitor: NewMessage = {
    id: visitorId,
    conversationId: conversation.id,
    role: "visitor",
    content: input.visitorText,
    clientMessageId: input.clientMessageId ?? null,
    createdAt: input.askedAt,
  };
  // A bot reply always sorts after the question it answers, even within the same millisecond.
  const bot: NewMessage | null = input.bot
    ? (({ id, at, ...rest }) => ({ ...rest, id, conversationId: conversation.id, role: "bot" as const, createdAt: Math.max(at, input.askedAt + 1) }))(input.bot)
    : null;
  const d1 = d1Client(ctx.db);
  const facts = {
    timeZone: input.timeZone ?? (await orgTimeZone(ctx, conversation.orgId)),
    askedAt: input.askedAt,
    visitorText: input.visitorText,
    bot: input.bot,
    unanswered: !!input.unanswered,
  };
  // Both kinds from the caller's chatbot row (the turn, live chat, the phone), else one look-up: never
  // assumed, as a shard index's conversation updated in D1 would be lost without an error.
  const stores = await storesOf(ctx, ref, input);
  if (stores.conversations === "shard") {
    // ADR 044 §5: one call to the shard (messages, the conversation's row, the once-only analytics
    // decision), then D1's analytics with that decision. Messages first, as below: a failure between
    // leaves the exchange stored and possibly uncounted, never counted and lost.
    const stored = await turnShard(needsEnv(ctx), ref).indexStoreMessages(ref, bot ? [visitor, bot] : [visitor], {
      conversationId: conversation.id,
      update: { at: last, title, unanswered: input.unanswered, pageUrl: input.pageUrl },
      mark: { day: dayIn(facts.timeZone, input.askedAt), problem: facts.unanswered, visitor: true, question: questionOf(facts) ?? undefined },
    });
    if (!stored) throw new Error(`the conversation shard named by ${ref.chatbotId} refused the exchange: it holds another chatbot`);
    if (stored.written.duplicate) throw new DuplicateClientMessage();
    if (stored.decision) await d1.batch(bindAll(d1, exchangeStatements(conversation, facts, stored.decision)));
    return { visitorMessageId: visitorId };
  }
  // The batch goes to D1 as is (each statement's own SQL), not through drizzle's batch, which
  // prepares and maps every item again (bench:cpu's profile, issue #21). The conversation's update
  // and the counters are fixed SQL, not built by drizzle per message (ADR 047, 049).
  const update = recordMessagesStatement(d1, ref, conversation.id, { added, at: last, title, unanswered: input.unanswered, pageUrl: input.pageUrl });
  // The daily analytics rows, counted in the same batch (analytics/record.ts; they run first: a new
  // conversation is recognised before this exchange is stored).
  const [counted, ...counting] = bindAll(d1, exchangeStatements(conversation, facts));
  const shard = await shardStore(ctx, ref, stores.messages);
  if (shard) {
    // Messages first: a failure after this leaves them stored and uncounted, never counted and lost.
    const written = await shard.append(bot ? [visitor, bot] : [visitor]);
    if (written.duplicate) throw new DuplicateClientMessage();
    await d1.batch([counted, ...counting, update]);
    return { visitorMessageId: visitorId };
  }
  const visitorInsert = prepareOn(d1, messageInsert(ctx.db, ref, visitor));
  const searchable = prepareOn(d1, searchInsert(ctx.db, ref, conversation.id, input.visitorText));
  if (bot) await d1.batch([counted, ...counting, visitorInsert, prepareOn(d1, messageInsert(ctx.db, ref, bot)), update, searchable]);
  else await d1.batch([counted, ...counting, visitorInsert, update, searchable]);
  return { visitorMessageId: visitorId };
}

export type StoredExchange = {
  conversationId: string;
  visitorMessageId: string;
  /** The reply stored after the visitor message, if any (none when the model failed). */
  reply: Pick<Message, "id" | "content" | "sources" | "answered"> | null;
  /** No reply because a person holds the conversation (live chat stored the message for them). */
  held: boolean;
};

/** The visitor message stored under a client message id (TURN_SQL.sent), the start of a StoredExchange. */
export type SentMessage = { id: string; conversationId: string; createdAt: number; status: Conversation["status"] };

/**
 * The exchange a visitor already sent with this client message id on this chatbot (in any of their
 * conversations), so a retried send is answered from what was stored instead of being stored again.
 */
export async function findClientMessage(
  ctx: Ctx,
  ref: ChatbotRef,
  visitorId: string,
  clientMessageId: string,
  kind?: MessageStoreKind,
  conversationStore?: ConversationStoreKind,
): Promise<StoredExchange | null> {
  const shard = await shardStore(ctx, ref, kind);
  if (shard) return findClientMessageInShard(ctx, shard, ref, visitorId, clientMessageId, conversationStore);
  const sent = await d1Client(ctx.db).prepare(TURN_SQL.sent).bind(ref.orgId, ref.chatbotId, visitorId, clientMessageId).first<SentMessage>();
  return sent ? storedExchange(ctx, sent) : null;
}

/** What was stored after a visitor message found by its client message id: its reply, or that a person held the conversation. */
export async function storedExchange(ctx: Ctx, sent: SentMessage): Promise<StoredExchange> {
  const after = and(eq(messages.conversationId, sent.conversationId), sql`${messages.createdAt} > ${sent.createdAt}`);
  // The reply is the bot's message that came next — not a bot answer to a later message, which a
  // conversation handed back to the bot after this one was held would otherwise be taken for.
  const next = await ctx.db
    .select({ id: messages.id, role: messages.role, content: messages.content, sources: messages.sources, answered: messages.answered })
    .from(messages)
    .where(and(after, inArray(messages.role, ["bot", "visitor"])))
    .orderBy(messages.createdAt, messages.id)
    .limit(1)
    .get();
  const reply = next?.role === "bot" ? next : null;
  // No bot reply because a person held the conversation then: it still is, or a person (or their
  // hand-back or close note) spoke after it.
  const held =
    !reply &&
    (sent.status === "human" ||
      !!(await ctx.db
        .select({ id: messages.id })
        .from(messages)
        .where(and(after, inArray(messages.role, ["human", "system"])))
        .limit(1)
        .get()));
  return { conversationId: sent.conversationId, visitorMessageId: sent.id, reply, held };
}

/**
 * findClientMessage for a chatbot whose messages are in its shard: the sent message there, its
 * conversation (the visitor's?) in the chatbot's conversation index (`conversationStore`, looked up
 * when not given).
 */
async function findClientMessageInShard(
  ctx: Ctx,
  shard: MessageStore,
  ref: ChatbotRef,
  visitorId: string,
  clientMessageId: string,
  conversationStore?: ConversationStoreKind,
): Promise<StoredExchange | null> {
  const candidates = await shard.byClientMessageId(clientMessageId);
  if (!candidates.length) return null;
  const index = await conversationIndex(ctx, ref, conversationStore);
  // Usually one candidate: the same client message id in another visitor's conversation is not theirs.
  const theirs = (await Promise.all([...new Set(candidates.map((m) => m.conversationId))].map((id) => index.get(id, visitorId)))).filter((c) => c !== null);
  return shardExchange(shard, candidates, theirs);
}

/** The exchange of a sent message found in a message shard, given its visitor's conversations among the candidates'. */
async function shardExchange(
  shard: MessageStore,
  candidates: Pick<Message, "id" | "conversationId" | "createdAt">[],
  theirs: Pick<Conversation, "id" | "status">[],
): Promise<StoredExchange | null> {
  const sent = candidates.find((m) => theirs.some((c) => c.id === m.conversationId));
  if (!sent) return null;
  const status = theirs.find((c) => c.id === sent.conversationId)!.status;
  // As in D1: the reply is the bot's message that came next, not an answer to a later message.
  const [next] = await shard.after(sent.conversationId, sent.createdAt, ["bot", "visitor"], 1);
  const reply = next?.role === "bot" ? { id: next.id, content: next.content, sources: next.sources, answered: next.answered } : null;
  const held = !reply && (status === "human" || (await shard.after(sent.conversationId, sent.createdAt, ["human", "system"], 1)).length > 0);
  return { conversationId: sent.conversationId, visitorMessageId: sent.id, reply, held };
}

/** What was stored after a retried send found by a shard's openTurn (its conversation is the visitor's there). */
export async function storedExchangeInShard(ctx: Ctx, ref: ChatbotRef, sent: SentMessage): Promise<StoredExchange> {
  const shard = (await shardStore(ctx, ref, "shard"))!;
  return (await shardExchange(shard, [sent], [{ id: sent.conversationId, status: sent.status }]))!;
}

export type ConversationRow = {
  id: string;
  visitorId: string;
  channel: Channel;
  status: Conversation["status"];
  messageCount: number;
  createdAt: number;
  lastMessageAt: number;
  firstQuestion: string | null;
  lastMessage: string | null;
  lastRole: Message["role"] | null;
};

/** The chatbot's conversations, most recent activity first, with their first question and last message. */
export async function listConversations(
  ctx: Ctx,
  ref: ChatbotRef,
  opts: { limit?: number; before?: number; messageStore?: MessageStoreKind; conversationStore?: ConversationStoreKind } = {},
): Promise<ConversationRow[]> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const stores = await storesOf(ctx, ref, opts);
  if (stores.conversations === "shard") {
    // The index's list page (the chatbot home's, in the shard next to the messages): "before" is a
    // keyset position whose id sorts before every id, so rows at exactly that time are left out, as below.
    const index = await conversationIndex(ctx, ref, "shard");
    const page = await index.list({ q: "", filters: [], older: opts.before ? { at: opts.before, id: "" } : null, newer: null }, { limit });
    return page.rows.map((r) => ({
      id: r.id,
      visitorId: r.visitorId,
      channel: r.channel,
      status: r.status,
      messageCount: r.messageCount,
      createdAt: r.createdAt,
      lastMessageAt: r.lastMessageAt,
      firstQuestion: r.firstQuestion,
      lastMessage: r.lastMessage,
      lastRole: r.lastRole,
    }));
  }
  const shard = await shardStore(ctx, ref, stores.messages);
  // In a shard the last messages are asked of it for the page's rows only (one call).
  const lastMessage = sql<
    string | null
  >`(select m.content from messages m where m.conversation_id = ${conversations.id} order by m.created_at desc, m.id desc limit 1)`;
  const lastRole = sql<
    Message["role"] | null
  >`(select m.role from messages m where m.conversation_id = ${conversations.id} order by m.created_at desc, m.id desc limit 1)`;
  const rows = await ctx.db
    .select({
      id: conversations.id,
      visitorId: conversations.visitorId,
      channel: conversations.channel,
      status: conversations.status,
      messageCount: conversations.messageCount,
      createdAt: conversations.createdAt,
      lastMessageAt: conversations.lastMessageAt,
      firstQuestion: conversations.title,
      lastMessage: shard ? sql<string | null>`null` : lastMessage,
      lastRole: shard ? sql<Message["role"] | null>`null` : lastRole,
    })
    .from(conversations)
    .where(
      and(
        eq(conversations.orgId, ref.orgId),
        eq(conversations.chatbotId, ref.chatbotId),
        sql`${conversations.messageCount} > 0`,
        opts.before ? lt(conversations.lastMessageAt, opts.before) : undefined,
      ),
    )
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(limit)
    .all();
  if (!shard || !rows.length) return rows;
  const last = await shard.lastOf(rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, lastMessage: last[r.id]?.content ?? null, lastRole: last[r.id]?.role ?? null }));
}

/** One conversation with all its messages, or null when it is not this organisation's chatbot's. */
export async function getTranscript(
  ctx: Ctx,
  ref: ChatbotRef,
  conversationId: string,
  kind?: MessageStoreKind,
  conversationStore?: ConversationStoreKind,
): Promise<{ conversation: Conversation; messages: Message[] } | null> {
  const stores = await storesOf(ctx, ref, { messageStore: kind, conversationStore });
  const shard = await shardStore(ctx, ref, stores.messages);
  const conversation = await (await conversationIndex(ctx, ref, stores.conversations)).get(conversationId);
  if (!conversation) return null;
  if (shard) return { conversation, messages: await shard.transcript(conversation.id) };
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversation.id), eq(messages.orgId, ref.orgId)))
    .orderBy(messages.createdAt, messages.id)
    .all();
  return { conversation, messages: rows };
}

/** The visitor's most recent conversation on this chatbot with its last `limit` messages (restoring a chat after reload). */
export async function getVisitorHistory(
  ctx: Ctx,
  ref: ChatbotRef,
  visitorId: string,
  opts: { channel?: Channel; limit?: number; messageStore?: MessageStoreKind; conversationStore?: ConversationStoreKind } = {},
): Promise<{ conversation: Conversation; messages: Message[] } | null> {
  const stores = await storesOf(ctx, ref, opts);
  const shard = await shardStore(ctx, ref, stores.messages);
  const conversation = await (await conversationIndex(ctx, ref, stores.conversations)).latestOpen(visitorId, opts.channel);
  if (!conversation) return null;
  if (shard) return { conversation, messages: await shard.latest(conversation.id, ["visitor", "bot", "human"], opts.limit ?? 100) };
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversation.id), or(eq(messages.role, "visitor"), eq(messages.role, "bot"), eq(messages.role, "human"))))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(opts.limit ?? 100)
    .all();
  return { conversation, messages: rows.reverse() };
}

/**
 * Mirrors one message of a live conversation (stored first in its Durable Object, which gave it its
 * id and time) into D1, so the transcript, the list, search and analytics see it. Inserting twice
 * is harmless: the id is the key, the count is recounted, and the daily analytics rows (ADR 020,
 * counted in the same batch) add nothing for a message already stored, so the object may retry a
 * mirror. With the chatbot's messages in its shard the message goes there first; the count is the
 * shard's and the analytics count only a message the shard did not hold yet (ADR 040).
 */
export async function recordLiveMessage(
  ctx: Ctx,
  /** The analytics' values (visitor, channel, country) are read from the chatbot's index when not given. */
  conversation: LiveConversationRef,
  m: { id: string; role: "visitor" | "human" | "system"; content: string; createdAt: number; clientMessageId?: string | null },
  opts: {
    retry?: boolean;
    /** The organisation's time zone (the analytics day); looked up when not given. */ timeZone?: string;
    /** Where the chatbot's messages are; looked up when not given. */ messageStore?: MessageStoreKind;
    /** Where the chatbot's conversation index is; looked up (with the messages') when not given. */ conversationStore?: ConversationStoreKind;
  } = {},
) {
  const ref = { orgId: conversation.orgId, chatbotId: conversation.chatbotId };
  // Both stores in one look-up when the caller holds neither (live chat's object asks per message).
  const { messages: messageStore, conversations: conversationStore } = await storesOf(ctx, ref, opts);
  if (conversationStore === "shard") return mirrorToShardIndex(ctx, conversation, m, opts);
  const shard = await shardStore(ctx, ref, messageStore);
  if (shard) return mirrorToShard(ctx, shard, conversation, m, opts);
  if (opts.retry && (await ctx.db.select({ id: messages.id }).from(messages).where(eq(messages.id, m.id)).get())) return;
  const insert = ctx.db
    .insert(messages)
    .values({
      id: m.id,
      conversationId: conversation.id,
      orgId: conversation.orgId,
      chatbotId: conversation.chatbotId,
      role: m.role,
      content: m.content,
      clientMessageId: m.clientMessageId ?? null,
      createdAt: m.createdAt,
    })
    .onConflictDoNothing();
  const update = ctx.db
    .update(conversations)
    .set({
      messageCount: sql`(select count(*) from ${messages} where ${messages.conversationId} = ${conversation.id})`,
      lastMessageAt: sql`max(${conversations.lastMessageAt}, ${m.createdAt})`,
      ...(m.role === "visitor" ? { title: sql`coalesce(${conversations.title}, ${m.content.slice(0, 140)})` } : {}),
    })
    .where(eq(conversations.id, conversation.id));
  const search = m.role === "visitor" ? [searchInsert(ctx.db, conversation, conversation.id, m.content)] : [];
  // The daily analytics rows (ADR 020), first in the same batch: the count asks whether the message
  // is already stored, so a repeated mirror counts nothing. System notes are not counted, nor a
  // conversation this chatbot does not hold. The batch goes to D1 as is, as recordExchange's does.
  const d1 = d1Client(ctx.db);
  const counters = await liveCounting(ctx, conversation, { ...m, timeZone: opts.timeZone });
  await d1.batch([...bindAll(d1, counters), prepareOn(d1, insert), prepareOn(d1, update), ...search.map((q) => prepareOn(d1, q))]);
}

/** A live message's conversation, with the values analytics counts it by when the caller holds them. */
type LiveConversationRef = Pick<Conversation, "id" | "orgId" | "chatbotId"> & Partial<Pick<Conversation, "visitorId" | "channel" | "country">>;

/** The analytics statements of a live message: none for a system note or a conversation this chatbot does not hold. */
async function liveCounting(
  ctx: Ctx,
  conversation: LiveConversationRef,
  m: Omit<Parameters<typeof liveMessageStatements>[1], "timeZone"> & { timeZone?: string },
): Promise<BoundSql[]> {
  if (m.role === "system") return [];
  const counted = await countedConversation(ctx, conversation);
  if (!counted) return [];
  return liveMessageStatements(counted, { ...m, timeZone: m.timeZone ?? (await orgTimeZone(ctx, conversation.orgId)) });
}

/** recordLiveMessage for a chatbot whose messages are in its shard: the message there, then the counters and analytics in D1. */
async function mirrorToShard(
  ctx: Ctx,
  shard: MessageStore,
  conversation: LiveConversationRef,
  m: { id: string; role: "visitor" | "human" | "system"; content: string; createdAt: number; clientMessageId?: string | null },
  opts: { timeZone?: string },
) {
  const written = await shard.append([{ ...m, conversationId: conversation.id, clientMessageId: m.clientMessageId ?? null }]);
  const fresh = written.inserted.length > 0;
  const count = written.counts[conversation.id] ?? 0;
  // A repeated mirror (or one whose D1 half failed before) writes the same values again: harmless.
  const d1 = d1Client(ctx.db);
  const update = recordMessagesStatement(d1, conversation, conversation.id, {
    count,
    at: m.createdAt,
    ...(m.role === "visitor" ? { title: m.content.slice(0, 140) } : {}),
  });
  const counters = await liveCounting(ctx, conversation, { ...m, fresh, timeZone: opts.timeZone });
  await d1.batch([...bindAll(d1, counters), update]);
}

/**
 * recordLiveMessage for a chatbot whose conversation index is in its shard (ADR 044 §5): one call to
 * the shard (the message, the conversation's count and activity, the once-only analytics decision),
 * then D1's analytics with that decision — nothing when the message was already there.
 */
async function mirrorToShardIndex(
  ctx: Ctx,
  conversation: LiveConversationRef,
  m: { id: string; role: "visitor" | "human" | "system"; content: string; createdAt: number; clientMessageId?: string | null },
  opts: { timeZone?: string },
) {
  const ref = { orgId: conversation.orgId, chatbotId: conversation.chatbotId };
  const counts = m.role !== "system";
  const timeZone = counts ? (opts.timeZone ?? (await orgTimeZone(ctx, conversation.orgId))) : null;
  const stored = await turnShard(needsEnv(ctx), ref).indexStoreMessages(
    ref,
    [{ ...m, conversationId: conversation.id, clientMessageId: m.clientMessageId ?? null }],
    {
      conversationId: conversation.id,
      update: { at: m.createdAt, ...(m.role === "visitor" ? { title: m.content.slice(0, 140) } : {}) },
      mark: timeZone ? { day: dayIn(timeZone, m.createdAt), problem: false, visitor: m.role === "visitor" } : null,
    },
  );
  if (!stored) throw new Error(`the conversation shard named by ${ref.chatbotId} refused the message: it holds another chatbot`);
  if (!timeZone || !stored.decision || !stored.row) return;
  const row = stored.row;
  const counted: CountedConversation = { ...ref, id: row.id, visitorId: row.visitorId, channel: row.channel, country: row.country };
  const d1 = d1Client(ctx.db);
  await d1.batch(bindAll(d1, liveMessageStatements(counted, { ...m, timeZone, fresh: stored.written.inserted.length > 0 }, stored.decision)));
}
