import type { ChatbotRef } from "../../app/.server/retrieval/types";

/**
 * What a per-chatbot shard (KnowledgeShard, ConversationShard) keeps about itself in its SQLite
 * storage: its schema version, the chatbot it holds, marks of a move. One place, so both shards
 * create their tables and guard their tenant the same way.
 */
export class ShardMeta {
  private ready = false;
  /**
   * The owner as stored, kept in memory once read or written: `owns` runs on every call of a shard
   * (several per chat message), and a SQL read each time showed in bench:cpu's profile (issue #21,
   * ADR 049). Only `set` writes shard_meta and only `forget` follows an emptied storage, so the copy
   * cannot go stale; a new object instance reads it again.
   */
  private owner: string | undefined;

  constructor(
    private readonly sql: SqlStorage,
    private readonly schema: { sql: string; version: number; label: string },
  ) {}

  get(key: string): string | undefined {
    this.ensure();
    return this.sql.exec<{ value: string }>("SELECT value FROM shard_meta WHERE key = ?", key).toArray()[0]?.value;
  }

  set(key: string, value: string) {
    this.ensure();
    if (key === "owner") this.owner = undefined; // read back by owns(), after the write
    this.sql.exec("INSERT INTO shard_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }

  /** Creates the tables on first use (and again after the storage was emptied: call `forget` then). */
  ensure() {
    if (this.ready) return;
    this.sql.exec("CREATE TABLE IF NOT EXISTS shard_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)");
    const stored = this.sql.exec<{ value: string }>("SELECT value FROM shard_meta WHERE key = 'schema'").toArray()[0]?.value;
    if (stored !== String(this.schema.version)) {
      this.sql.exec(this.schema.sql);
      this.sql.exec(
        "INSERT INTO shard_meta (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        String(this.schema.version),
      );
    }
    this.ready = true;
  }

  /** The storage was emptied: the tables are created again on next use. */
  forget() {
    this.ready = false;
    this.owner = undefined;
  }

  /**
   * Whether `ref` is the chatbot this object holds (fixed by its first call). A call for another
   * chatbot gets nothing and writes nothing: callers name the object by the chatbot's id after the
   * permission check, so a mismatch is a bug, logged, never a way into another tenant's data.
   * (Refusals are results, not exceptions: a rejected RPC also surfaces as an unhandled rejection
   * under the test pool, workers-sdk #14736.)
   */
  owns(ref: ChatbotRef): boolean {
    const owner = `${ref.orgId}/${ref.chatbotId}`;
    const held = (this.owner ??= this.get("owner"));
    if (!held) {
      this.set("owner", owner);
      this.owner = owner;
    } else if (held !== owner) {
      console.error(`${this.schema.label} of ${held} refused a call for ${owner}`);
      return false;
    }
    return true;
  }
}
