import { describe, expect, it, vi } from "vitest";
import { ShardMeta } from "./shard-meta";

// A stand-in for a Durable Object's SqlStorage that understands ShardMeta's own statements and
// counts the reads of shard_meta, so the test sees whether `owns` goes to storage.
function fakeSql() {
  const rows = new Map<string, string>();
  let reads = 0;
  const cursor = (out: { value: string }[]) => ({ toArray: () => out });
  const sql = {
    exec(query: string, ...bindings: string[]) {
      if (query.startsWith("SELECT value FROM shard_meta WHERE key = 'schema'")) return cursor(rows.has("schema") ? [{ value: rows.get("schema")! }] : []);
      if (query.startsWith("SELECT value FROM shard_meta")) {
        reads++;
        return cursor(rows.has(bindings[0]) ? [{ value: rows.get(bindings[0])! }] : []);
      }
      if (query.startsWith("INSERT INTO shard_meta (key, value) VALUES ('schema'")) rows.set("schema", bindings[0]);
      else if (query.startsWith("INSERT INTO shard_meta")) rows.set(bindings[0], bindings[1]);
      return cursor([]);
    },
  };
  return { sql: sql as unknown as SqlStorage, rows, reads: () => reads };
}

const schema = { sql: "CREATE TABLE IF NOT EXISTS t (x)", version: 1, label: "test shard" };
const mine = { orgId: "org_a", chatbotId: "cb_a" };
const other = { orgId: "org_b", chatbotId: "cb_b" };

describe("ShardMeta.owns", () => {
  it("reads the owner from storage once per object, and still refuses another chatbot", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const store = fakeSql();
    store.rows.set("owner", "org_a/cb_a"); // an object that already holds a chatbot
    const meta = new ShardMeta(store.sql, schema);
    for (let i = 0; i < 5; i++) expect(meta.owns(mine)).toBe(true);
    expect(meta.owns(other)).toBe(false);
    expect(store.reads()).toBe(1);
  });

  it("is fixed by the first call, and taken again after the storage was emptied", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const store = fakeSql();
    const meta = new ShardMeta(store.sql, schema);
    expect(meta.owns(mine)).toBe(true);
    expect(store.rows.get("owner")).toBe("org_a/cb_a");
    expect(meta.owns(other)).toBe(false);
    // deleteAll() then forget(): the remembered owner goes with the storage.
    store.rows.clear();
    meta.forget();
    expect(meta.owns(other)).toBe(true);
    expect(meta.owns(mine)).toBe(false);
    expect(store.rows.get("owner")).toBe("org_b/cb_b");
  });
});
