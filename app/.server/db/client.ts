import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

// drizzle builds its relational map of the whole schema when an instance is made; doing that on every
// request showed in CPU profiles under load (issue #21). One instance per D1 binding object is kept
// (a drizzle instance holds no per-request state), weakly, so a new binding gets a new instance.
const instances = new WeakMap<D1Database, ReturnType<typeof make>>();
const make = (d1: D1Database) => drizzle(d1, { schema });

export function createDb(d1: D1Database) {
  let db = instances.get(d1);
  if (!db) instances.set(d1, (db = make(d1)));
  return db;
}

export type Db = ReturnType<typeof createDb>;
export { schema };

/**
 * A statement as SQL text with its parameters. The statements every chat message runs are kept in
 * this form and bound on D1's API rather than built by drizzle per message (issue #21, ADR 047, 049).
 */
export type BoundSql = { sql: string; params: unknown[] };

/** The D1 binding under a drizzle instance (D1, or a shard's storage behind D1's API). */
export const d1Client = (db: Db): D1Database => (db as unknown as { $client: D1Database }).$client;

/** Prepares fixed SQL, or the SQL a drizzle query renders, on a D1 binding (for its own `batch`). */
export function prepareOn(d1: D1Database, q: BoundSql | { toSQL(): BoundSql }): D1PreparedStatement {
  const { sql, params } = "toSQL" in q ? q.toSQL() : q;
  return d1.prepare(sql).bind(...params);
}
