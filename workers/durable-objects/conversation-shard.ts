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
import { d1FromSqlStorage } from "../../app/.server/retrieval/sql-storage-d1";

// One chatbot's messages (issue #20, ADR 040): every message of its conversations and the visitor
// messages' FTS5 search index, in the object's own SQLite storage (10 GB per object). The
// conversation rows stay in D1. The object is named by the chatbot's id and reached only through
// `messageStore()` after the caller's permission check; every call also carries the chatbot's ref,
// which must match the chatbot the object holds (fixed by its first call).

export class ConversationShard extends DurableObject<Env> implements ConversationShardApi {
  private readonly shard = new ShardMeta(this.ctx.storage.sql, {
    sql: MESSAGE_SHARD_SCHEMA,
    version: MESSAGE_SHARD_SCHEMA_VERSION,
    label: "conversation shard",
  });

  /** The D1 implementation of the message store, run over this object's storage. */
  private store(ref: ChatbotRef) {
    return d1MessageStore({ db: createDb(d1FromSqlStorage(this.ctx.storage)) }, ref);
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
    return this.store(ref).setFeedback(messageId, value);
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

  /** Deleting the chatbot (or a failed move's partial copy): the object's whole storage. */
  async dropAll(ref: ChatbotRef): Promise<void> {
    if (!this.shard.owns(ref)) return;
    await this.ctx.storage.deleteAll();
    this.shard.forget();
  }
}
