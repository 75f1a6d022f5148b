import { DurableObject } from "cloudflare:workers";
import { ShardMeta } from "./shard-meta";
import { createDb } from "../../app/.server/db/client";
import type { Env } from "../../app/.server/env";
import { MESSAGE_SHARD_SCHEMA, MESSAGE_SHARD_SCHEMA_VERSION } from "../../app/.server/chat/message-shard-schema";
import {
  d1MessageStore,
  type AppendResult,
  type ChatbotRef,
  type ConversationShardApi,
  type Message,
  type MessageRole,
  type NewMessage,
  type ReportedAnswer,
  type SearchHits,
} from "../../app/.server/chat/message-store";
import {
  COLUMNS,
  movedValues,
  messageChecksums,
  type ConversationChecksums,
  type ConversationShardMoveApi,
  type MovedMessage,
  type ShardMoveState,
} from "../../app/.server/chat/message-move";
import {
  BY_IDS_SQL,
  conversationHash,
  CONVERSATION_COLUMNS,
  movedConversationsSchema,
  visitorLeadHash,
  visitorLeadsSchema,
  type ConversationIndexMoveApi,
  type ImportResult,
  type IndexCounts,
  type MovedConversation,
  type VisitorLead,
} from "../../app/.server/chat/conversation-move";
import { d1FromSqlStorage } from "../../app/.server/retrieval/sql-storage-d1";
import type { AnsweredBy, QuestionBatch, QuestionListQuery } from "../../app/.server/analytics/question-rows";
import type { KeyedCount } from "../../app/.server/analytics/questions";
import {
  d1ConversationIndex,
  type Conversation,
  type ConversationFlags,
  type ConversationIndexShardApi,
  type CountMark,
  type VisitorCounts,
  type VisitorDay,
  type LeadReset,
  type InboxLists,
  type LeadMark,
  type LiveChange,
  type MessageUpdate,
  type OpenInput,
} from "../../app/.server/chat/conversation-index";
import type { ConversationListPage } from "../../app/.server/chat/conversation-list";
import {
  openTurnOn,
  storeMessagesSchema,
  turnInputSchema,
  type ConversationTurnShardApi,
  type StoredMessages,
  type StoreMessagesInput,
  type TurnInput,
  type TurnOpening,
} from "../../app/.server/chat/conversations";
import { d1Client } from "../../app/.server/db/client";
import type { CountDecision } from "../../app/.server/analytics/record";
import type { ConversationListParams } from "../../app/lib/schemas/conversation-list";
import { noteRowSchema, notesOn, type ConversationNote, type NoteRow, type NotesShardApi } from "../../app/.server/inbox/notes";
import { movedNotesSchema, noteHash, NOTE_COLUMNS, NOTES_BY_IDS_SQL, type MovedNote, type NotesMoveApi } from "../../app/.server/inbox/notes-move";
import { pendingCallSchema, pendingOn, type PendingCall, type PendingShardApi } from "../../app/.server/tools/local-intent";

// One chatbot's messages (issue #20, ADR 040): every message of its conversations and the visitor
// messages' FTS5 search index, in the object's own SQLite storage (10 GB per object). The
// conversation rows stay in D1. The object is named by the chatbot's id and reached only through
// `messageStore()` after the caller's permission check; every call also carries the chatbot's ref,
// which must match the chatbot the object holds (fixed by its first call).

export class ConversationShard
  extends DurableObject<Env>
  implements
    ConversationShardApi,
    ConversationShardMoveApi,
    ConversationIndexShardApi,
    ConversationIndexMoveApi,
    ConversationTurnShardApi,
    NotesShardApi,
    NotesMoveApi,
    PendingShardApi
{
  private readonly shard = new ShardMeta(this.ctx.storage.sql, {
    sql: MESSAGE_SHARD_SCHEMA,
    version: MESSAGE_SHARD_SCHEMA_VERSION,
    label: "conversation shard",
  });

  /**
   * The D1 implementation of the message store, run over this object's storage. One drizzle
   * instance per object: making one builds drizzle's map of the whole schema, which per call was
   * ~1.4 ms of CPU a chat message in bench:cpu's profile (issue #21).
   */
  private db?: ReturnType<typeof createDb>;
  private store(ref: ChatbotRef) {
    this.db ??= createDb(d1FromSqlStorage(this.ctx.storage));
    return d1MessageStore({ db: this.db }, ref);
  }

  async append(ref: ChatbotRef, rows: NewMessage[]): Promise<AppendResult> {
    if (!this.shard.owns(ref)) return { inserted: [], duplicate: false, counts: {} };
    return this.store(ref).append(rows);
  }

  async transcript(ref: ChatbotRef, conversationId: string): Promise<Message[]> {
    if (!this.shard.owns(ref)) return [];
    return this.store(ref).transcript(conversationId);
  }

  async latest(ref: ChatbotRef, conversationId: string, roles: MessageRole[], limit: number): Promise<Message[]> {
    if (!this.shard.owns(ref)) return [];
    return this.store(ref).latest(conversationId, roles, limit);
  }

  async after(ref: ChatbotRef, conversationId: string, createdAt: number, roles: MessageRole[], limit: number): Promise<Message[]> {
    if (!this.shard.owns(ref)) return [];
    return this.store(ref).after(conversationId, createdAt, roles, limit);
  }

  async lastOf(ref: ChatbotRef, conversationIds: string[]): Promise<Record<string, Pick<Message, "content" | "role">>> {
    if (!this.shard.owns(ref)) return {};
    return this.store(ref).lastOf(conversationIds);
  }

  async byClientMessageId(ref: ChatbotRef, clientMessageId: string): Promise<Message[]> {
    if (!this.shard.owns(ref)) return [];
    return this.store(ref).byClientMessageId(clientMessageId);
  }

  async get(ref: ChatbotRef, messageId: string): Promise<Message | null> {
    if (!this.shard.owns(ref)) return null;
    return this.store(ref).get(messageId);
  }

  async setFeedback(ref: ChatbotRef, messageId: string, value: -1 | 1 | null): Promise<{ conversationId: string; rating: number | null } | undefined> {
    if (!this.shard.owns(ref)) return undefined;
    const set = await this.store(ref).setFeedback(messageId, value);
    // While D1's rows are being removed after the switch, the move must not put D1's older thumb over this one.
    if (set && this.shard.get("move") === "serving") this.ctx.storage.sql.exec("INSERT INTO move_touched (id) VALUES (?) ON CONFLICT DO NOTHING", messageId);
    return set;
  }

  async search(ref: ChatbotRef, words: string[], cap: number): Promise<SearchHits> {
    if (!this.shard.owns(ref)) return { conversationIds: [], capped: false };
    return this.store(ref).search(words, cap);
  }

  async ofConversations(ref: ChatbotRef, conversationIds: string[], roles: MessageRole[]): Promise<Message[]> {
    if (!this.shard.owns(ref)) return [];
    return this.store(ref).ofConversations(conversationIds, roles);
  }

  async reported(ref: ChatbotRef, messageIds: string[]): Promise<Record<string, ReportedAnswer>> {
    if (!this.shard.owns(ref)) return {};
    return this.store(ref).reported(messageIds);
  }

  async digestCounts(ref: ChatbotRef, start: number, end: number, handoffNote: string): Promise<{ handoffs: number; ratedDown: number }> {
    if (!this.shard.owns(ref)) return { handoffs: 0, ratedDown: 0 };
    return this.store(ref).digestCounts(start, end, handoffNote);
  }

  async count(ref: ChatbotRef): Promise<number> {
    if (!this.shard.owns(ref)) return 0;
    return this.store(ref).count();
  }

  // ——— the conversation index (app/.server/chat/conversation-index.ts, ADR 044) ———
  // The same D1 implementation over this object's storage, next to the messages it lists; a new
  // conversation copies its visitor's contact from `visitor_leads` instead of D1's leads.

  private index(ref: ChatbotRef) {
    this.db ??= createDb(d1FromSqlStorage(this.ctx.storage));
    return d1ConversationIndex({ db: this.db }, ref, "shard");
  }

  // A refused open or create answers null (a result, not a rejected call: ShardMeta.owns); the
  // caller's side (shardConversationIndex) turns it into an error, as a turn cannot go on without one.
  async indexOpen(ref: ChatbotRef, input: OpenInput): Promise<(Conversation & { isNew?: boolean }) | null> {
    if (!this.shard.owns(ref)) return null;
    return this.index(ref).open(input);
  }

  async indexCreate(ref: ChatbotRef, input: OpenInput): Promise<(Conversation & { isNew: true }) | null> {
    if (!this.shard.owns(ref)) return null;
    return this.index(ref).create(input);
  }

  async indexGet(ref: ChatbotRef, conversationId: string, visitorId?: string): Promise<Conversation | null> {
    if (!this.shard.owns(ref)) return null;
    return this.index(ref).get(conversationId, visitorId);
  }

  async indexByIds(ref: ChatbotRef, conversationIds: string[]): Promise<Conversation[]> {
    if (!this.shard.owns(ref)) return [];
    return this.index(ref).byIds(conversationIds);
  }

  async indexLeadScope(ref: ChatbotRef, visitorId: string | null, conversationIds: string[]): Promise<{ id: string; visitorId: string }[]> {
    if (!this.shard.owns(ref)) return [];
    return this.index(ref).leadScope(visitorId, conversationIds);
  }

  async indexResetLeads(ref: ChatbotRef, reset: LeadReset): Promise<number> {
    if (!this.shard.owns(ref)) return 0;
    return this.index(ref).resetLeads(reset);
  }

  async indexHasConversation(ref: ChatbotRef, of: { visitorId?: string; verified?: true } = {}): Promise<boolean> {
    if (!this.shard.owns(ref)) return false;
    return this.index(ref).hasConversation(of);
  }

  async indexLatestOpen(ref: ChatbotRef, visitorId: string, channel?: Conversation["channel"]): Promise<Conversation | null> {
    if (!this.shard.owns(ref)) return null;
    return this.index(ref).latestOpen(visitorId, channel);
  }

  async indexRecordMessages(ref: ChatbotRef, conversationId: string, update: MessageUpdate): Promise<Conversation | null> {
    if (!this.shard.owns(ref)) return null;
    return this.index(ref).recordMessages(conversationId, update);
  }

  async indexSetFlags(ref: ChatbotRef, conversationId: string, flags: ConversationFlags): Promise<boolean> {
    if (!this.shard.owns(ref)) return false;
    return this.index(ref).setFlags(conversationId, flags);
  }

  async indexApplyLive(ref: ChatbotRef, conversationId: string, change: LiveChange): Promise<boolean> {
    if (!this.shard.owns(ref)) return false;
    return this.index(ref).applyLive(conversationId, change);
  }

  async indexMarkLead(ref: ChatbotRef, mark: LeadMark): Promise<number> {
    if (!this.shard.owns(ref)) return 0;
    return this.index(ref).markLead(mark);
  }

  async indexList(ref: ChatbotRef, params: ConversationListParams, opts?: { limit?: number }): Promise<ConversationListPage> {
    if (!this.shard.owns(ref)) return { rows: [], total: 0, older: null, newer: null, searchCapped: false };
    return this.index(ref).list(params, opts);
  }

  async indexInboxLists(ref: ChatbotRef, userId: string): Promise<InboxLists> {
    if (!this.shard.owns(ref)) return { waiting: [], live: [], mine: [], closed: [] };
    return this.index(ref).inboxLists(userId);
  }

  async indexActivity(ref: ChatbotRef, start: number, end: number): Promise<{ active: number; started: number }> {
    if (!this.shard.owns(ref)) return { active: 0, started: 0 };
    return this.index(ref).activity(start, end);
  }

  async indexCountOnce(ref: ChatbotRef, conversationId: string, mark: CountMark): Promise<CountDecision | null> {
    if (!this.shard.owns(ref)) return null;
    return this.index(ref).countOnce(conversationId, mark);
  }

  async indexVisitorCounts(ref: ChatbotRef, range: { from: string; to: string }, also?: VisitorDay[]): Promise<VisitorCounts> {
    if (!this.shard.owns(ref)) return { days: [], unique: 0 };
    return this.index(ref).visitorCounts(range, also);
  }

  async indexAddVisitors(ref: ChatbotRef, rows: VisitorDay[]): Promise<number> {
    if (!this.shard.owns(ref)) return 0;
    return this.index(ref).addVisitors(rows);
  }

  async indexTopQuestions(ref: ChatbotRef, query: QuestionListQuery): Promise<KeyedCount[]> {
    if (!this.shard.owns(ref)) return [];
    return this.index(ref).topQuestions(query);
  }

  async indexMarkQuestionsAnswered(ref: ChatbotRef, by: AnsweredBy): Promise<number> {
    if (!this.shard.owns(ref)) return 0;
    return this.index(ref).markQuestionsAnswered(by);
  }

  async indexAddQuestions(ref: ChatbotRef, batch: QuestionBatch): Promise<boolean> {
    if (!this.shard.owns(ref)) return false;
    return this.index(ref).addQuestions(batch);
  }

  // ——— agents' notes and the engine's pending tool calls (inbox/notes.ts, tools/local-intent.ts, ADR 054) ———
  // The same drizzle code D1 runs, over this object's storage; rows of another chatbot are refused.

  private drizzle() {
    return (this.db ??= createDb(d1FromSqlStorage(this.ctx.storage)));
  }

  async notesAdd(ref: ChatbotRef, raw: NoteRow): Promise<boolean> {
    if (!this.shard.owns(ref)) return false;
    const row = noteRowSchema.safeParse(raw);
    if (!row.success || row.data.chatbotId !== ref.chatbotId || row.data.orgId !== ref.orgId) return false;
    await notesOn(this.drizzle(), ref).add(row.data);
    return true;
  }

  async notesList(ref: ChatbotRef, conversationId: string): Promise<ConversationNote[]> {
    if (!this.shard.owns(ref) || typeof conversationId !== "string") return [];
    return notesOn(this.drizzle(), ref).list(conversationId);
  }

  async pendingGet(ref: ChatbotRef, conversationId: string, now: number): Promise<PendingCall | null> {
    if (!this.shard.owns(ref) || typeof conversationId !== "string" || typeof now !== "number") return null;
    return pendingOn(this.drizzle(), ref).get(conversationId, now);
  }

  async pendingSet(ref: ChatbotRef, raw: PendingCall): Promise<boolean> {
    if (!this.shard.owns(ref)) return false;
    const row = pendingCallSchema.safeParse(raw);
    if (!row.success || row.data.chatbotId !== ref.chatbotId) return false;
    await pendingOn(this.drizzle(), ref).set(row.data);
    return true;
  }

  async pendingClear(ref: ChatbotRef, conversationId: string): Promise<boolean> {
    if (!this.shard.owns(ref) || typeof conversationId !== "string") return false;
    await pendingOn(this.drizzle(), ref).clear(conversationId);
    return true;
  }

  // ——— a turn on the index (chat/conversations.ts, ADR 044 §5): one call before the answer, one after ———

  /** The turn's opening batch (retry look-up, the conversation found or created, its history) over this object's storage. */
  async indexOpenTurn(ref: ChatbotRef, input: TurnInput): Promise<TurnOpening | null> {
    if (!this.shard.owns(ref)) return null;
    this.db ??= createDb(d1FromSqlStorage(this.ctx.storage));
    return openTurnOn(d1Client(this.db), ref, turnInputSchema.parse(input), "shard");
  }

  /**
   * An exchange's or a live mirror's messages, then their conversation's row (its count is what the
   * object now holds), then the once-only analytics decision when a message was new. Nothing awaited
   * between them but this object's own storage, so the writes commit together (the object's implicit
   * transaction); a duplicate client message id writes nothing.
   */
  async indexStoreMessages(ref: ChatbotRef, rows: NewMessage[], raw: StoreMessagesInput): Promise<StoredMessages | null> {
    if (!this.shard.owns(ref)) return null;
    const input = storeMessagesSchema.parse(raw);
    const written = await this.store(ref).append(rows);
    if (written.duplicate) return { written, row: null, decision: null };
    const index = this.index(ref);
    const row = await index.recordMessages(input.conversationId, { count: written.counts[input.conversationId] ?? 0, ...input.update });
    const decision = row && input.mark && written.inserted.length ? await index.countOnce(input.conversationId, input.mark) : null;
    return { written, row, decision };
  }

  // ——— the move from D1 (app/.server/chat/message-move.ts, ADR 042) ———
  // `move` in shard_meta: absent (never moved, or emptied), 'copying', 'serving' (D1 switched or is
  // switching to this object), 'finished'. Nothing of the move can empty or overwrite a shard that serves.

  /** Empties the object for a new copy; refused once it serves (a step of a chain the move left behind). */
  async resetForMove(ref: ChatbotRef): Promise<{ ok: boolean }> {
    if (!this.shard.owns(ref)) return { ok: false };
    const state = this.shard.get("move");
    if (state === "serving" || state === "finished") {
      console.error(`conversation shard of ${ref.chatbotId} refused to be emptied by the move: it serves`);
      return { ok: false };
    }
    await this.ctx.storage.deleteAll();
    this.shard.forget();
    this.shard.owns(ref);
    this.shard.set("move", "copying");
    return { ok: true };
  }

  /**
   * D1's rows with their ids: a row not here is added (with a search row for a visitor message, as
   * the store's append writes it); for a row already here only the thumb is taken from D1 — unless
   * the visitor changed it here since this object serves. Messages never change otherwise. A row
   * whose client message id its conversation already holds under another id (a retried send stored
   * here after the switch) is the same message: skipped. `stored`: how many of the rows the object
   * now holds (by id, or as that retried send) — all of them unless it refused.
   */
  async importMessages(ref: ChatbotRef, rows: MovedMessage[]): Promise<{ imported: number; stored: number }> {
    if (!this.shard.owns(ref)) return { imported: 0, stored: 0 };
    const sql = this.ctx.storage.sql;
    let imported = 0;
    let stored = 0;
    this.ctx.storage.transactionSync(() => {
      sql.exec("CREATE TABLE IF NOT EXISTS move_touched (id TEXT PRIMARY KEY NOT NULL)");
      if (!this.shard.get("move")) this.shard.set("move", "copying");
      for (const r of rows) {
        const inserted =
          sql.exec(
            `INSERT INTO messages (org_id, chatbot_id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
            ref.orgId,
            ref.chatbotId,
            ...movedValues(r),
          ).rowsWritten > 0;
        if (inserted) {
          imported++;
          stored++;
          // As the store's append indexes a visitor message (message-store.ts searchInsert).
          if (r.role === "visitor")
            sql.exec(
              "INSERT INTO conversation_search (chatbot_id, body, conversation_id) VALUES (lower(hex(?)), ?, ?)",
              ref.chatbotId,
              r.content,
              r.conversation_id,
            );
          continue;
        }
        const held = sql
          .exec("SELECT 1 FROM messages WHERE id = ? OR (conversation_id = ? AND client_message_id = ?) LIMIT 1", r.id, r.conversation_id, r.client_message_id)
          .toArray().length;
        stored += held;
        sql.exec(
          "UPDATE messages SET feedback = ? WHERE id = ? AND feedback IS NOT ? AND NOT EXISTS (SELECT 1 FROM move_touched WHERE id = ?)",
          r.feedback,
          r.id,
          r.feedback,
          r.id,
        );
      }
    });
    return { imported, stored };
  }

  /** Per conversation: count and checksum, by the same function the move runs on D1. */
  async checksums(ref: ChatbotRef, conversationIds: string[]): Promise<ConversationChecksums> {
    if (!this.shard.owns(ref)) return {};
    return messageChecksums(d1FromSqlStorage(this.ctx.storage), ref, conversationIds);
  }

  /** What the switch compares with D1: the messages held, and whether the search index has one row per visitor message. */
  async moveState(ref: ChatbotRef): Promise<ShardMoveState> {
    if (!this.shard.owns(ref)) return { count: 0, visitorMessages: 0, searchRows: 0 };
    const sql = this.ctx.storage.sql;
    const m = sql.exec<{ n: number; v: number | null }>("SELECT count(*) AS n, sum(role = 'visitor') AS v FROM messages").one();
    const s = sql.exec<{ n: number }>("SELECT count(*) AS n FROM conversation_search").one();
    return { count: m.n, visitorMessages: m.v ?? 0, searchRows: s.n };
  }

  /** Just before D1 switches to this object: from now on the visitors' thumbs here win over D1's, and the move cannot empty it. */
  async beginServing(ref: ChatbotRef): Promise<void> {
    if (!this.shard.owns(ref)) return;
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS move_touched (id TEXT PRIMARY KEY NOT NULL)");
    this.shard.set("move", "serving");
  }

  /** D1's rows are gone: nothing of the move is kept but that it finished. */
  async finishMove(ref: ChatbotRef): Promise<void> {
    if (!this.shard.owns(ref)) return;
    this.ctx.storage.sql.exec("DROP TABLE IF EXISTS move_touched");
    this.shard.set("move", "finished");
  }

  /** Deleting the chatbot (or a failed move's partial copy): the object's whole storage. */
  async dropAll(ref: ChatbotRef): Promise<void> {
    if (!this.shard.owns(ref)) return;
    await this.ctx.storage.deleteAll();
    this.shard.forget();
  }

  // ——— the conversation index's move from D1 (app/.server/chat/conversation-move.ts, ADR 051) ———
  // `index_move` in shard_meta: absent or '' (never moved, or dropped), 'copying', 'serving' (D1
  // switched or is switching to this object), 'finished'. `move_index` holds the checksum of each
  // conversation as the move last wrote it: once the object serves, D1's later version replaces a
  // conversation only if the object has not changed it since (else the object's own write wins).

  private indexMoveState() {
    return this.shard.get("index_move") ?? "";
  }

  private bundles(ref: ChatbotRef, ids: string[]): MovedConversation[] {
    return this.ctx.storage.sql.exec<MovedConversation>(BY_IDS_SQL, ref.chatbotId, ref.orgId, JSON.stringify(ids)).toArray();
  }

  private clearIndex() {
    const sql = this.ctx.storage.sql;
    for (const table of [
      "conversations",
      "conversation_agents",
      "analytics_conversations",
      "analytics_visitors",
      "analytics_questions",
      "analytics_question_days",
      "analytics_question_moves",
      "visitor_leads",
      "conversation_notes",
    ])
      sql.exec(`DELETE FROM ${table}`);
    sql.exec("DROP TABLE IF EXISTS move_index");
  }

  /** Empties the conversation index (the messages stay) for a new copy; refused once the object serves. */
  async resetIndexForMove(ref: ChatbotRef): Promise<{ ok: boolean }> {
    if (!this.shard.owns(ref)) return { ok: false };
    const state = this.indexMoveState();
    if (state === "serving" || state === "finished") {
      console.error(`conversation shard of ${ref.chatbotId} refused to empty its conversation index for a move: it serves`);
      return { ok: false };
    }
    this.ctx.storage.transactionSync(() => this.clearIndex());
    this.shard.set("index_move", "copying");
    return { ok: true };
  }

  /**
   * D1's conversations (row, agent row, analytics mark) by id, each replacing what the object holds
   * — unless it serves and changed that conversation itself since the move last wrote it (`kept`).
   * Rows of another chatbot or organisation, or malformed ones, are refused (counted, never thrown).
   */
  async importConversations(ref: ChatbotRef, raw: MovedConversation[]): Promise<ImportResult> {
    const n = Array.isArray(raw) ? raw.length : 0;
    if (!this.shard.owns(ref)) return { imported: 0, kept: [], refused: n };
    const parsed = movedConversationsSchema.safeParse(raw);
    if (!parsed.success) return { imported: 0, kept: [], refused: n };
    const sql = this.ctx.storage.sql;
    const serving = ["serving", "finished"].includes(this.indexMoveState());
    const out: ImportResult = { imported: 0, kept: [], refused: 0 };
    this.ctx.storage.transactionSync(() => {
      sql.exec("CREATE TABLE IF NOT EXISTS move_index (id TEXT PRIMARY KEY NOT NULL, hash INTEGER NOT NULL)");
      if (!this.indexMoveState()) this.shard.set("index_move", "copying");
      for (const r of parsed.data) {
        if (r.chatbot_id !== ref.chatbotId || r.org_id !== ref.orgId || typeof r.id !== "string") {
          out.refused++;
          continue;
        }
        if (serving) {
          const [current] = this.bundles(ref, [r.id]);
          const written = sql.exec<{ hash: number }>("SELECT hash FROM move_index WHERE id = ?", r.id).toArray()[0];
          if (current && (!written || conversationHash(current) !== written.hash)) {
            out.kept.push(r.id);
            continue;
          }
        }
        sql.exec(
          `INSERT OR REPLACE INTO conversations (${CONVERSATION_COLUMNS.join(", ")}) VALUES (${CONVERSATION_COLUMNS.map(() => "?").join(", ")})`,
          ...CONVERSATION_COLUMNS.map((c) => r[c]),
        );
        if (r.agent_name === null) sql.exec("DELETE FROM conversation_agents WHERE conversation_id = ?", r.id);
        else
          sql.exec(
            "INSERT OR REPLACE INTO conversation_agents (conversation_id, org_id, chatbot_id, user_id, agent_name, taken_at, closed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            r.id,
            ref.orgId,
            ref.chatbotId,
            r.agent_user_id,
            r.agent_name,
            r.agent_taken_at,
            r.agent_closed_at,
          );
        if (r.counted_day === null) sql.exec("DELETE FROM analytics_conversations WHERE conversation_id = ?", r.id);
        else
          sql.exec(
            "INSERT OR REPLACE INTO analytics_conversations (conversation_id, chatbot_id, day, problem) VALUES (?, ?, ?, ?)",
            r.id,
            ref.chatbotId,
            r.counted_day,
            r.counted_problem,
          );
        sql.exec("INSERT OR REPLACE INTO move_index (id, hash) VALUES (?, ?)", r.id, conversationHash(r));
        out.imported++;
      }
    });
    return out;
  }

  /** Each held conversation's checksum (the same function the move runs over D1's rows); absent ones are left out. */
  async conversationChecksums(ref: ChatbotRef, ids: string[]): Promise<Record<string, number>> {
    if (!this.shard.owns(ref) || !Array.isArray(ids)) return {};
    return Object.fromEntries(this.bundles(ref, ids.slice(0, 1_000)).map((r) => [r.id, conversationHash(r)]));
  }

  private visitorRange(after: string, through: string | null) {
    return through === null ? { where: "visitor_id > ?", params: [after] } : { where: "visitor_id > ? AND visitor_id <= ?", params: [after, through] };
  }

  /** Replaces the visitors' contacts with ids in (after, through] by D1's (through null: to the end). */
  async importVisitorLeads(ref: ChatbotRef, after: string, through: string | null, raw: VisitorLead[]): Promise<number> {
    if (!this.shard.owns(ref)) return 0;
    const parsed = visitorLeadsSchema.safeParse(raw);
    if (!parsed.success || typeof after !== "string") return 0;
    const range = this.visitorRange(after, through);
    // The rows are D1's for this very range (SQLite's order on both sides; no JavaScript comparison, whose order differs beyond ASCII).
    const rows = parsed.data;
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      sql.exec(`DELETE FROM visitor_leads WHERE ${range.where}`, ...range.params);
      for (const r of rows)
        sql.exec("INSERT INTO visitor_leads (visitor_id, name, email, updated_at) VALUES (?, ?, ?, ?)", r.visitor_id, r.name, r.email, r.updated_at);
    });
    return rows.length;
  }

  async visitorLeadsChecksum(ref: ChatbotRef, after: string, through: string | null): Promise<{ count: number; hash: number }> {
    if (!this.shard.owns(ref)) return { count: 0, hash: 0 };
    const range = this.visitorRange(after, through);
    const rows = this.ctx.storage.sql
      .exec<VisitorLead>(`SELECT visitor_id, name, email, updated_at FROM visitor_leads WHERE ${range.where}`, ...range.params)
      .toArray();
    return { count: rows.length, hash: rows.reduce((h, r) => (h + visitorLeadHash(r)) >>> 0, 0) };
  }

  /** The exact counts the switch compares with D1's. */
  async indexMoveCounts(ref: ChatbotRef): Promise<IndexCounts> {
    if (!this.shard.owns(ref)) return { conversations: 0, agents: 0, counted: 0, visitors: 0 };
    return this.ctx.storage.sql
      .exec<IndexCounts>(
        `SELECT (SELECT count(*) FROM conversations) AS conversations,
          (SELECT count(*) FROM conversation_agents a JOIN conversations c ON c.id = a.conversation_id) AS agents,
          (SELECT count(*) FROM analytics_conversations x JOIN conversations c ON c.id = x.conversation_id) AS counted,
          (SELECT count(*) FROM visitor_leads) AS visitors`,
      )
      .one();
  }

  /** Just before D1 switches: from now on the object's own changes win over D1's, and the move cannot empty it. */
  async beginServingIndex(ref: ChatbotRef): Promise<void> {
    if (!this.shard.owns(ref)) return;
    this.shard.set("index_move", "serving");
  }

  /** D1's rows are gone: nothing of the move is kept but that it finished. */
  async finishIndexMove(ref: ChatbotRef): Promise<void> {
    if (!this.shard.owns(ref)) return;
    this.ctx.storage.sql.exec("DROP TABLE IF EXISTS move_index");
    this.shard.set("index_move", "finished");
  }

  /** D1's notes by id, each replacing what the object holds (notes never change but for a deleted author). Rows of another chatbot or organisation, or malformed ones, are refused. */
  async importNotes(ref: ChatbotRef, raw: MovedNote[]): Promise<{ imported: number; refused: number }> {
    const n = Array.isArray(raw) ? raw.length : 0;
    if (!this.shard.owns(ref)) return { imported: 0, refused: n };
    const parsed = movedNotesSchema.safeParse(raw);
    if (!parsed.success) return { imported: 0, refused: n };
    const sql = this.ctx.storage.sql;
    const out = { imported: 0, refused: 0 };
    this.ctx.storage.transactionSync(() => {
      for (const r of parsed.data) {
        if (r.chatbot_id !== ref.chatbotId || r.org_id !== ref.orgId) {
          out.refused++;
          continue;
        }
        sql.exec(
          `INSERT OR REPLACE INTO conversation_notes (${NOTE_COLUMNS.join(", ")}) VALUES (${NOTE_COLUMNS.map(() => "?").join(", ")})`,
          ...NOTE_COLUMNS.map((c) => r[c]),
        );
        out.imported++;
      }
    });
    return out;
  }

  /** Each held note's checksum (the same function the move runs over D1's rows); absent ones are left out. */
  async noteChecksums(ref: ChatbotRef, ids: string[]): Promise<Record<string, number>> {
    if (!this.shard.owns(ref) || !Array.isArray(ids)) return {};
    const rows = this.ctx.storage.sql.exec<MovedNote>(NOTES_BY_IDS_SQL, JSON.stringify(ids.slice(0, 1_000)), ref.chatbotId, ref.orgId).toArray();
    return Object.fromEntries(rows.map((r) => [r.id, noteHash(r)]));
  }

  async noteCount(ref: ChatbotRef): Promise<number> {
    if (!this.shard.owns(ref)) return 0;
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM conversation_notes").one().n;
  }

  /** A failed move: D1 serves (again), so the copy of the index goes; the messages stay. */
  async dropIndexCopy(ref: ChatbotRef): Promise<void> {
    if (!this.shard.owns(ref)) return;
    this.ctx.storage.transactionSync(() => this.clearIndex());
    this.shard.set("index_move", "");
  }
}
