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
