import { DurableObject } from "cloudflare:workers";
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
import { d1FromSqlStorage } from "../../app/.server/retrieval/sql-storage-d1";

// One chatbot's messages (issue #20, ADR 040): every message of its conversations and the visitor
// messages' FTS5 search index, in the object's own SQLite storage (10 GB per object). The
// conversation rows stay in D1. The object is named by the chatbot's id and reached only through
// `messageStore()` after the caller's permission check; every call also carries the chatbot's ref,
// which must match the chatbot the object holds (fixed by its first call).

export class ConversationShard extends DurableObject<Env> implements ConversationShardApi {
  private ready = false;

  private meta(key: string): string | undefined {
    return this.ctx.storage.sql.exec<{ value: string }>("SELECT value FROM shard_meta WHERE key = ?", key).toArray()[0]?.value;
  }

  private setMeta(key: string, value: string) {
    this.ctx.storage.sql.exec("INSERT INTO shard_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }

  /** Creates the tables on first use (and again after `dropAll` emptied the storage). */
  private ensureSchema() {
    if (this.ready) return;
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS shard_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)");
    if (this.meta("schema") !== String(MESSAGE_SHARD_SCHEMA_VERSION)) {
      this.ctx.storage.sql.exec(MESSAGE_SHARD_SCHEMA);
      this.setMeta("schema", String(MESSAGE_SHARD_SCHEMA_VERSION));
    }
    this.ready = true;
  }

  /**
   * Whether `ref` is the chatbot this object holds. A call for another chatbot gets nothing and
   * writes nothing: a mismatch is a bug, logged, never a way into another tenant's conversations.
   * (Refusals are results, not exceptions: a rejected RPC also surfaces as an unhandled rejection
   * under the test pool, workers-sdk #14736.)
   */
  private owns(ref: ChatbotRef): boolean {
    this.ensureSchema();
    const owner = `${ref.orgId}/${ref.chatbotId}`;
    const held = this.meta("owner");
    if (!held) this.setMeta("owner", owner);
    else if (held !== owner) {
      console.error(`conversation shard of ${held} refused a call for ${owner}`);
      return false;
    }
    return true;
  }

  /** The D1 implementation of the message store, run over this object's storage. */
  private store(ref: ChatbotRef) {
    return d1MessageStore({ db: createDb(d1FromSqlStorage(this.ctx.storage)) }, ref);
  }

  async append(ref: ChatbotRef, rows: NewMessage[]): Promise<AppendResult> {
    if (!this.owns(ref)) return { inserted: [], duplicate: false, counts: {} };
    return this.store(ref).append(rows);
  }

  async transcript(ref: ChatbotRef, conversationId: string): Promise<Message[]> {
    if (!this.owns(ref)) return [];
    return this.store(ref).transcript(conversationId);
  }

  async latest(ref: ChatbotRef, conversationId: string, roles: MessageRole[], limit: number): Promise<Message[]> {
    if (!this.owns(ref)) return [];
    return this.store(ref).latest(conversationId, roles, limit);
  }

  async after(ref: ChatbotRef, conversationId: string, createdAt: number, roles: MessageRole[], limit: number): Promise<Message[]> {
    if (!this.owns(ref)) return [];
    return this.store(ref).after(conversationId, createdAt, roles, limit);
  }

  async lastOf(ref: ChatbotRef, conversationIds: string[]): Promise<Record<string, Pick<Message, "content" | "role">>> {
    if (!this.owns(ref)) return {};
    return this.store(ref).lastOf(conversationIds);
  }

  async byClientMessageId(ref: ChatbotRef, clientMessageId: string): Promise<Message[]> {
    if (!this.owns(ref)) return [];
    return this.store(ref).byClientMessageId(clientMessageId);
  }

  async get(ref: ChatbotRef, messageId: string): Promise<Message | null> {
    if (!this.owns(ref)) return null;
    return this.store(ref).get(messageId);
  }

  async setFeedback(ref: ChatbotRef, messageId: string, value: -1 | 1 | null): Promise<{ conversationId: string; rating: number | null } | undefined> {
    if (!this.owns(ref)) return undefined;
    return this.store(ref).setFeedback(messageId, value);
  }

  async search(ref: ChatbotRef, words: string[], cap: number): Promise<SearchHits> {
    if (!this.owns(ref)) return { conversationIds: [], capped: false };
    return this.store(ref).search(words, cap);
  }

  async ofConversations(ref: ChatbotRef, conversationIds: string[], roles: MessageRole[]): Promise<Message[]> {
    if (!this.owns(ref)) return [];
    return this.store(ref).ofConversations(conversationIds, roles);
  }

  async reported(ref: ChatbotRef, messageIds: string[]): Promise<Record<string, ReportedAnswer>> {
    if (!this.owns(ref)) return {};
    return this.store(ref).reported(messageIds);
  }

  async digestCounts(ref: ChatbotRef, start: number, end: number, handoffNote: string): Promise<{ handoffs: number; ratedDown: number }> {
    if (!this.owns(ref)) return { handoffs: 0, ratedDown: 0 };
    return this.store(ref).digestCounts(start, end, handoffNote);
  }

  async count(ref: ChatbotRef): Promise<number> {
    if (!this.owns(ref)) return 0;
    return this.store(ref).count();
  }

  /** Deleting the chatbot (or a failed move's partial copy): the object's whole storage. */
  async dropAll(ref: ChatbotRef): Promise<void> {
    if (!this.owns(ref)) return;
    await this.ctx.storage.deleteAll();
    this.ready = false;
  }
}
