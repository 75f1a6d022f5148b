import { DurableObject } from "cloudflare:workers";
import { ShardMeta } from "./shard-meta";
import { createDb } from "../../app/.server/db/client";
import type { Env } from "../../app/.server/env";
import {
  d1KnowledgeStore,
  type ChunkSelection,
  type KnowledgeShardApi,
  type SourceOf,
  type StoreRetrieveOptions,
} from "../../app/.server/retrieval/knowledge-store";
import { SHARD_SCHEMA, SHARD_SCHEMA_VERSION } from "../../app/.server/retrieval/shard-schema";
import { d1FromSqlStorage } from "../../app/.server/retrieval/sql-storage-d1";
import type { ChatbotRef, ChunkInput, RetrievalResult } from "../../app/.server/retrieval/types";
import { chunkChecksums, textChecksums, type MovedChunk, type MovedText, type SourceChecksums } from "../../app/.server/retrieval/knowledge-move";
import { putContentStatements, type ContentPart } from "../../app/.server/kb/document-text";
import type { QaPair } from "../../app/.server/kb/sources";
import { forgetChatbotStats } from "../../app/.server/retrieval/search";
import { shardVectorize } from "../../app/.server/retrieval/shard-vectorize";

// One chatbot's knowledge (issue #20): its chunks, their FTS5 index, term statistics, features and
// the offline vectors in the object's own SQLite storage (10 GB per object), and retrieval running
// here, next to the data — one call from the answer path instead of a D1 round trip per step. The
// object is named by the chatbot's id and reached only through `knowledgeStore()` after the
// caller's permission check; every call also carries the chatbot's ref, which must match.

export class KnowledgeShard extends DurableObject<Env> implements KnowledgeShardApi {
  private readonly shardEnv: Env;
  private readonly shard = new ShardMeta(this.ctx.storage.sql, { sql: SHARD_SCHEMA, version: SHARD_SCHEMA_VERSION, label: "knowledge shard" });

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The domain code reads `env.DB`: inside the shard that is this object's storage. Vectorize,
    // when bound (production), stays the vector index; offline the vectors live here too.
    const plainUpTo = () => Number(this.shard.get("moved_max_id") ?? 0);
    this.shardEnv = { ...env, DB: d1FromSqlStorage(ctx.storage) };
    if (env.VECTORIZE) this.shardEnv.VECTORIZE = shardVectorize(env.VECTORIZE, ctx.id.toString(), plainUpTo);
  }

  private context() {
    return { env: this.shardEnv, db: createDb(this.shardEnv.DB) };
  }

  /** The D1 implementation of the chatbot's knowledge, run over this object's storage (which holds only this chatbot's chunks). */
  private store(ref: ChatbotRef) {
    return d1KnowledgeStore(this.context(), ref, { ownDatabase: true });
  }

  private noteSource(source: SourceOf) {
    this.ctx.storage.sql.exec(
      "INSERT INTO knowledge_sources (id, type) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET type = excluded.type",
      source.sourceId,
      source.type,
    );
  }

  async indexChunks(ref: ChatbotRef, source: SourceOf, chunks: ChunkInput[]): Promise<{ chunkIds: number[] }> {
    if (!this.shard.owns(ref)) return { chunkIds: [] };
    this.noteSource(source);
    return this.store(ref).indexChunks(source, chunks);
  }

  async deleteChunks(ref: ChatbotRef, sourceId: string, which: ChunkSelection): Promise<{ deleted: number }> {
    if (!this.shard.owns(ref)) return { deleted: 0 };
    const r = await this.store(ref).deleteChunks(sourceId, which);
    if ("all" in which) this.dropSource(sourceId);
    return r;
  }

  /** A deleted source's row and content (its chunks went first). */
  private dropSource(sourceId: string) {
    this.ctx.storage.sql.exec("DELETE FROM knowledge_source_contents WHERE source_id = ?", sourceId);
    this.ctx.storage.sql.exec("DELETE FROM knowledge_sources WHERE id = ?", sourceId);
  }

  // ——— a text or Q&A source's content (ADR 075) ———

  async putContent(ref: ChatbotRef, source: SourceOf, parts: readonly ContentPart[]): Promise<void> {
    if (!this.shard.owns(ref)) return;
    this.noteSource(source);
    await this.store(ref).putContent(source, parts);
  }

  async contentSlice(ref: ChatbotRef, sourceId: string, offset: number, length: number): Promise<string | null> {
    if (!this.shard.owns(ref)) return null;
    return this.store(ref).contentSlice(sourceId, offset, length);
  }

  async qaPairCount(ref: ChatbotRef, sourceId: string): Promise<number | "invalid" | null> {
    if (!this.shard.owns(ref)) return null;
    return this.store(ref).qaPairCount(sourceId);
  }

  async qaPairs(ref: ChatbotRef, sourceId: string, offset: number, limit: number): Promise<QaPair[]> {
    if (!this.shard.owns(ref)) return [];
    return this.store(ref).qaPairs(sourceId, offset, limit);
  }

  async retrieve(ref: ChatbotRef, query: string, opts: StoreRetrieveOptions = {}): Promise<RetrievalResult> {
    if (!this.shard.owns(ref)) return { passages: [], answerable: false };
    return this.store(ref).retrieve(query, opts);
  }

  async maxChunkId(ref: ChatbotRef, sourceId: string): Promise<number> {
    if (!this.shard.owns(ref)) return 0;
    return this.store(ref).maxChunkId(sourceId);
  }

  async countChunks(ref: ChatbotRef, sourceId?: string): Promise<number> {
    if (!this.shard.owns(ref)) return 0;
    return this.store(ref).countChunks(sourceId);
  }

  async countVectorsNotOf(ref: ChatbotRef, model: string): Promise<number> {
    if (!this.shard.owns(ref)) return 0;
    return this.store(ref).countVectorsNotOf(model);
  }

  /** Deleting the chatbot: its vectors where they live outside (Vectorize), then the object's whole storage. */
  async dropAll(ref: ChatbotRef): Promise<void> {
    if (!this.shard.owns(ref)) return;
    await this.store(ref).dropAll();
    await this.ctx.storage.deleteAll();
    this.shard.forget();
  }

  // ——— the move from D1 (app/.server/retrieval/knowledge-move.ts) ———

  /** Chunks copied from D1 with their ids (and offline vectors); an id already here is skipped, so a re-run step adds nothing twice. */
  async importChunks(ref: ChatbotRef, rows: MovedChunk[]): Promise<{ imported: number }> {
    if (!this.shard.owns(ref)) return { imported: 0 };
    const sql = this.ctx.storage.sql;
    let imported = 0;
    this.ctx.storage.transactionSync(() => {
      for (const r of rows) {
        sql.exec("INSERT INTO knowledge_sources (id, type) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET type = excluded.type", r.source_id, r.source_type);
        imported +=
          sql.exec(
            "INSERT INTO chunks (id, source_id, chatbot_id, org_id, position, title, heading, url, text, features, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            r.id,
            r.source_id,
            ref.chatbotId,
            ref.orgId,
            r.position,
            r.title,
            r.heading,
            r.url,
            r.text,
            r.features,
            r.created_at,
          ).rowsWritten > 0
            ? 1
            : 0;
        if (r.vector && r.model)
          sql.exec(
            "INSERT INTO chunk_vectors (chunk_id, chatbot_id, model, vector) VALUES (?, ?, ?, ?) ON CONFLICT (chunk_id) DO NOTHING",
            r.id,
            ref.chatbotId,
            r.model,
            r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength),
          );
      }
      const max = rows.reduce((m, r) => Math.max(m, r.id), Number(this.shard.get("moved_max_id") ?? 0));
      this.shard.set("moved_max_id", String(max));
    });
    forgetChatbotStats(ref.chatbotId);
    return { imported };
  }

  async checksums(ref: ChatbotRef): Promise<SourceChecksums> {
    if (!this.shard.owns(ref)) return {};
    return chunkChecksums(this.shardEnv.DB, ref);
  }

  /** Source contents copied from D1; a part already here is replaced by the same text, so a re-run step changes nothing. */
  async importTexts(ref: ChatbotRef, rows: MovedText[]): Promise<{ imported: number }> {
    if (!this.shard.owns(ref)) return { imported: 0 };
    const db = this.shardEnv.DB;
    const statements = rows.flatMap((r) => putContentStatements(db, r.source_id, [r]));
    for (const r of rows) this.noteSource({ sourceId: r.source_id, type: r.source_type });
    await db.batch(statements);
    return { imported: rows.length };
  }

  async textChecksums(ref: ChatbotRef): Promise<SourceChecksums> {
    if (!this.shard.owns(ref)) return {};
    return textChecksums(this.shardEnv.DB, ref, { ownDatabase: true });
  }

  /** Drops a source's rows here without touching Vectorize (D1's rows, still serving, share those vectors). */
  async forgetSource(ref: ChatbotRef, sourceId: string): Promise<void> {
    if (!this.shard.owns(ref)) return;
    this.ctx.storage.sql.exec("DELETE FROM chunks WHERE source_id = ?", sourceId);
    this.dropSource(sourceId);
    forgetChatbotStats(ref.chatbotId);
  }

  /** A failed move: the partial copy goes, Vectorize untouched (D1 serves on). */
  async forgetAll(ref: ChatbotRef): Promise<void> {
    if (!this.shard.owns(ref)) return;
    await this.ctx.storage.deleteAll();
    this.shard.forget();
  }
}
