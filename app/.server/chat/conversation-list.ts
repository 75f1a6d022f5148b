import { sql, type SQL } from "drizzle-orm";
import type { ConversationCursor, ConversationFilter, ConversationListParams } from "~/lib/schemas/conversation-list";
import type { AppContext } from "../context";
import type { ChatbotRef, Conversation, ConversationRow, Message } from "./conversations";
// conversation-index.ts imports this module too (its list runs listWithMessages); neither uses the
// other at load time, so the cycle is harmless.
import { shardConversationIndex } from "./conversation-index";
import { chatbotStores, conversationSearchMatch, messageStore, searchWords, type MessageStoreKind } from "./message-store";

// The chatbot home's conversation list: filters, search and keyset pages that stay fast at 100k
// conversations. Every filter is a flag or column on the conversation (kept up to date where
// messages, leads, ratings, reports and handoffs are written) with its own partial index, so a page
// is a range scan of one index in (last activity, id) order, whatever the page number. A search
// gathers the matching conversation ids first (message text through FTS5, visitor id and lead
// email through index ranges), then reads only those rows. Routes see rows and cursors, never SQL.

// `env` reaches a chatbot's message shard (ADR 040); without it a chatbot in its shard is refused.
type Ctx = Pick<AppContext, "db"> & Partial<Pick<AppContext, "env">>;

export const CONVERSATION_PAGE_SIZE = 50;

/** A row of the REST API's list, plus what the chatbot home shows about it (lead, badges). */
export type ConversationListRow = ConversationRow & {
  leadName: string | null;
  leadEmail: string | null;
  hasLead: boolean;
  unanswered: boolean;
  ratedDown: boolean;
  reported: boolean;
  waiting: boolean;
};

export type ConversationListPage = {
  rows: ConversationListRow[];
  /** How many conversations match the filters and search (all pages). */
  total: number;
  /** Where the next (older) page starts, null on the last page. */
  older: ConversationCursor | null;
  /** Where the previous (newer) page ends, null on the first page. */
  newer: ConversationCursor | null;
  /** The text search matched more messages than it reads: only the most recent were searched. */
  searchCapped: boolean;
};

/** Each filter's condition, written as its partial index's WHERE so the planner can use the index. */
const FILTER_SQL: Record<ConversationFilter, SQL> = {
  unanswered: sql.raw(`c.unanswered = 1`),
  "rated-down": sql.raw(`c.rating = -1`),
  reported: sql.raw(`c.reported = 1`),
  waiting: sql.raw(`c.status = 'waiting'`),
  lead: sql.raw(`c.has_lead = 1`),
};

// Upper bound of a prefix range: any text starting with the prefix sorts below prefix + U+10FFFF.
const prefixEnd = (prefix: string) => `${prefix}\u{10FFFF}`;

/**
 * How many of the most recent matching messages a text search reads. FTS5 hands matches back newest
 * first (its rowids grow with time) and stops there, so a word in every third conversation costs
 * the same as a rarer one; the screen says when the cap was reached (more words narrow it).
 */
export const SEARCH_MESSAGE_CAP = 2_000;

/**
 * Where the message half of a search comes from: D1's FTS5 table (null), or the conversation ids the
 * chatbot's message shard found (ADR 040), handed to D1 as one JSON parameter.
 */
export type ShardHits = { ids: string[] } | null;

/** The ids a search matches: message text, visitor id prefix, lead email prefix (each indexed). */
function searchIds(ref: ChatbotRef, q: string, hits: ShardHits): SQL {
  const parts: SQL[] = [];
  const words = searchWords(q);
  if (words.length && hits) parts.push(sql`select value as id from json_each(${JSON.stringify(hits.ids)})`);
  else if (words.length) {
    const match = conversationSearchMatch(ref.chatbotId, words);
    parts.push(
      sql`select conversation_id as id from (select conversation_id from conversation_search where conversation_search match ${match} order by rowid desc limit ${SEARCH_MESSAGE_CAP})`,
    );
  }
  parts.push(sql`select id from conversations where chatbot_id = ${ref.chatbotId} and visitor_id >= ${q} and visitor_id < ${prefixEnd(q)}`);
  const email = q.toLowerCase();
  parts.push(
    sql`select id from conversations where chatbot_id = ${ref.chatbotId} and lead_email is not null and lead_email >= ${email} and lead_email < ${prefixEnd(email)}`,
  );
  return sql.join(parts, sql` union `);
}

/** Whether a text search has more matching messages than it reads (SEARCH_MESSAGE_CAP). */
function searchCappedQuery(ref: ChatbotRef, q: string): SQL | null {
  const words = searchWords(q);
  if (!words.length) return null;
  return sql`select count(*) as n from (select 1 from conversation_search where conversation_search match ${conversationSearchMatch(ref.chatbotId, words)} limit ${SEARCH_MESSAGE_CAP + 1})`;
}

type Direction = "older" | "newer";

/**
 * The FROM and WHERE of a list query. With a search, the matching ids drive (CROSS JOIN keeps them
 * the outer loop) and are read by primary key; without one, the filter's partial index does.
 */
function listFrom(
  ref: ChatbotRef,
  params: Pick<ConversationListParams, "q" | "filters">,
  cursor: { dir: Direction; at: ConversationCursor } | null,
  hits: ShardHits = null,
): SQL {
  const where: SQL[] = [sql`c.org_id = ${ref.orgId}`, sql`c.chatbot_id = ${ref.chatbotId}`, sql.raw(`c.message_count > 0`)];
  for (const f of params.filters) where.push(FILTER_SQL[f]);
  if (cursor) {
    where.push(
      cursor.dir === "older"
        ? sql`(c.last_message_at, c.id) < (${cursor.at.at}, ${cursor.at.id})`
        : sql`(c.last_message_at, c.id) > (${cursor.at.at}, ${cursor.at.id})`,
    );
  }
  const from = params.q ? sql`(${searchIds(ref, params.q, hits)}) hits cross join conversations c on c.id = hits.id` : sql`conversations c`;
  return sql`from ${from} where ${sql.join(where, sql` and `)}`;
}

type RawRow = {
  id: string;
  visitor_id: string;
  channel: Conversation["channel"];
  status: Conversation["status"];
  message_count: number;
  created_at: number;
  last_message_at: number;
  title: string | null;
  last_message: string | null;
  last_role: Message["role"] | null;
  lead_name: string | null;
  lead_email: string | null;
  has_lead: number;
  unanswered: number;
  rating: number | null;
  reported: number;
};

/** The page query itself (exported for the EXPLAIN QUERY PLAN tests). `limit` rows plus one to know if there are more. */
export function conversationPageQuery(
  ref: ChatbotRef,
  params: Pick<ConversationListParams, "q" | "filters">,
  cursor: { dir: Direction; at: ConversationCursor } | null,
  limit: number,
  /** Set when the chatbot's messages are in its shard: the search's message hits, and no last-message lookup in D1. */
  shard?: { hits: ShardHits },
): SQL {
  const order = cursor?.dir === "newer" ? sql.raw(`c.last_message_at asc, c.id asc`) : sql.raw(`c.last_message_at desc, c.id desc`);
  const last = (col: string) =>
    shard ? sql.raw(`null`) : sql.raw(`(select m.${col} from messages m where m.conversation_id = p.id order by m.created_at desc, m.rowid desc limit 1)`);
  // A search reads all its (capped) matches anyway to sort them, so it counts them in the same pass;
  // a list without one walks an index in order and stops after the page (its count is separate).
  const total = params.q ? sql`, count(*) over () as total` : sql``;
  // The page is picked first and the last message looked up for its rows only: a sort (search)
  // would otherwise compute those lookups for every match. Rows come back in any order (sortPage).
  return sql`with p as materialized (select c.id, c.visitor_id, c.channel, c.status, c.message_count, c.created_at, c.last_message_at, c.title,
      c.lead_name, c.lead_email, c.has_lead, c.unanswered, c.rating, c.reported${total}
    ${listFrom(ref, params, cursor, shard?.hits ?? null)} order by ${order} limit ${limit + 1})
    select p.*, ${last("content")} as last_message, ${last("role")} as last_role from p`;
}

/** The count query of a list state (exported for the EXPLAIN QUERY PLAN tests). */
export function conversationCountQuery(ref: ChatbotRef, params: Pick<ConversationListParams, "q" | "filters">, hits: ShardHits = null): SQL {
  return sql`select count(*) as n ${listFrom(ref, params, null, hits)}`;
}

function toRow(r: RawRow): ConversationListRow {
  return {
    id: r.id,
    visitorId: r.visitor_id,
    channel: r.channel,
    status: r.status,
    messageCount: r.message_count,
    createdAt: r.created_at,
    lastMessageAt: r.last_message_at,
    firstQuestion: r.title,
    lastMessage: r.last_message,
    lastRole: r.last_role,
    leadName: r.lead_name,
    leadEmail: r.lead_email,
    hasLead: !!r.has_lead,
    unanswered: !!r.unanswered,
    ratedDown: r.rating === -1,
    reported: !!r.reported,
    waiting: r.status === "waiting",
  };
}

type Db = AppContext["db"];
type Cursor = { dir: Direction; at: ConversationCursor } | null;

/** The page position `params` asks for (older wins over newer, as the links never carry both). */
const cursorOf = (params: ConversationListParams): Cursor =>
  params.older ? { dir: "older", at: params.older } : params.newer ? { dir: "newer", at: params.newer } : null;

const pageLimit = (limit?: number) => Math.min(Math.max(limit ?? CONVERSATION_PAGE_SIZE, 1), 200);

/** Rows of a page query (nearest the cursor first) as the list page: its order, total and both cursors. */
function pageOf(raw: (RawRow & { total?: number })[], cursor: Cursor, limit: number, counted: number | undefined, searchCapped: boolean): ConversationListPage {
  // Nearest the cursor first (the query's own order), then the page in the list's order.
  const newer = cursor?.dir === "newer";
  raw.sort((a, b) => (a.last_message_at - b.last_message_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) * (newer ? 1 : -1));
  const more = raw.length > limit;
  const page = raw.slice(0, limit).map(toRow);
  if (newer) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  const at = (r: ConversationListRow): ConversationCursor => ({ at: r.lastMessageAt, id: r.id });
  return {
    rows: page,
    total: counted ?? raw[0]?.total ?? 0,
    searchCapped,
    // Going back (newer), there are older rows: the ones this page came from.
    older: last && (cursor?.dir === "newer" || more) ? at(last) : null,
    newer: first && (cursor?.dir === "older" || (cursor?.dir === "newer" && more)) ? at(first) : null,
  };
}

/**
 * A page of the list where the conversation rows and the messages are in the same SQLite database —
 * D1 for a chatbot whose messages are there, or a chatbot's ConversationShard holding both (ADR 044,
 * which runs this very function over its storage): the page, its last messages, the FTS5 search and
 * the counts are local queries.
 */
export async function listWithMessages(db: Db, ref: ChatbotRef, params: ConversationListParams, opts: { limit?: number } = {}): Promise<ConversationListPage> {
  const limit = pageLimit(opts.limit);
  const cursor = cursorOf(params);
  const capped = params.q ? searchCappedQuery(ref, params.q) : null;
  const [raw, counted, cappedCount] = await Promise.all([
    db.all<RawRow & { total?: number }>(conversationPageQuery(ref, params, cursor, limit)),
    // With a search and a page position, the window count only sees the rows past the cursor.
    params.q && !cursor ? null : db.get<{ n: number }>(conversationCountQuery(ref, params)),
    capped ? db.get<{ n: number }>(capped) : null,
  ]);
  return pageOf(raw, cursor, limit, counted?.n, (cappedCount?.n ?? 0) > SEARCH_MESSAGE_CAP);
}

/**
 * One page of the chatbot's conversations, newest activity first: `older` continues after a row,
 * `newer` goes back before one. Rows with the same last activity are ordered by id, so no row is
 * skipped or repeated across pages.
 */
export async function findConversations(
  ctx: Ctx,
  ref: ChatbotRef,
  params: ConversationListParams,
  opts: {
    limit?: number;
    /** Where the chatbot's messages and conversation index are (its row's `messageStore`, `conversationStore`); looked up when not given. */
    messageStore?: MessageStoreKind;
    conversationStore?: MessageStoreKind;
  } = {},
): Promise<ConversationListPage> {
  const stores = await chatbotStores(ctx, ref, opts);
  const kind = stores.messages;
  if (kind !== "shard") return listWithMessages(ctx.db, ref, params, opts);
  if (!ctx.env) throw new Error("this chatbot's messages are in its shard: the caller needs env");
  // The index next to the messages (ADR 044): the whole page is one query in the shard.
  if (stores.conversations === "shard") return shardConversationIndex(ctx.env, ref).list(params, opts);
  const limit = pageLimit(opts.limit);
  const cursor = cursorOf(params);
  const store = await messageStore({ db: ctx.db, env: ctx.env }, ref, kind);
  // In a shard, its FTS5 finds the conversations first; D1 then reads only those rows.
  const found = params.q && searchWords(params.q).length ? await store.search(searchWords(params.q), SEARCH_MESSAGE_CAP) : null;
  const shard = { hits: found ? { ids: found.conversationIds } : null };
  const [raw, counted] = await Promise.all([
    ctx.db.all<RawRow & { total?: number }>(conversationPageQuery(ref, params, cursor, limit, shard)),
    params.q && !cursor ? null : ctx.db.get<{ n: number }>(conversationCountQuery(ref, params, shard.hits)),
  ]);
  if (raw.length) {
    const last = await store.lastOf(raw.map((r) => r.id));
    for (const r of raw) {
      r.last_message = last[r.id]?.content ?? null;
      r.last_role = last[r.id]?.role ?? null;
    }
  }
  return pageOf(raw, cursor, limit, counted?.n, found ? found.capped : false);
}
