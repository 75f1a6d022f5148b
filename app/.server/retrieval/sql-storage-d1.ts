// A Durable Object's SQLite storage behind the slice of D1's API that the knowledge code uses
// (prepare → bind → all/first/run/raw, batch), so retrieval and indexing run unchanged inside a
// chatbot's knowledge shard (issue #20) instead of sending each statement to D1.
//
// Differences from D1 that matter here: DO SQL is synchronous and binds only strings, numbers,
// null and ArrayBuffers (booleans become 0/1, typed arrays their buffer); a batch is one
// synchronous transaction, as D1's is.

type Value = string | number | null | ArrayBuffer;

function toValue(v: unknown): Value {
  if (v === null || typeof v === "string" || typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof ArrayBuffer) return v;
  if (ArrayBuffer.isView(v)) return v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer;
  throw new TypeError(`Cannot bind a value of type ${v === undefined ? "undefined" : typeof v}.`);
}

const meta = (changes: number, rowsRead: number) => ({
  duration: 0,
  size_after: 0,
  rows_read: rowsRead,
  rows_written: changes,
  last_row_id: 0,
  changed_db: changes > 0,
  changes,
});

class Statement {
  constructor(
    private readonly sql: SqlStorage,
    readonly query: string,
    readonly values: Value[] = [],
  ) {}

  bind(...values: unknown[]) {
    return new Statement(this.sql, this.query, values.map(toValue));
  }

  private exec() {
    return this.sql.exec(this.query, ...this.values);
  }

  all<T = Record<string, unknown>>() {
    const cursor = this.exec();
    const results = cursor.toArray() as T[];
    return { results, success: true as const, meta: meta(cursor.rowsWritten, cursor.rowsRead) };
  }

  first<T = Record<string, unknown>>(column?: string): T | null {
    const row = this.exec().toArray()[0] as Record<string, unknown> | undefined;
    if (!row) return null;
    return (column ? row[column] : row) as T;
  }

  run() {
    return this.all();
  }

  raw<T = unknown[]>(opts?: { columnNames?: boolean }): T[] {
    const cursor = this.exec();
    const rows = [...cursor.raw()] as T[];
    return opts?.columnNames ? [cursor.columnNames as T, ...rows] : rows;
  }
}

/** Runs every statement as D1 would, each promise-returning, in one transaction for `batch`. */
export function d1FromSqlStorage(storage: DurableObjectStorage): D1Database {
  const sql = storage.sql;
  const wrap = (s: Statement): D1PreparedStatement =>
    ({
      bind: (...v: unknown[]) => wrap(s.bind(...v)),
      all: async () => s.all(),
      first: async (column?: string) => s.first(column),
      run: async () => s.run(),
      raw: async (opts?: { columnNames?: boolean }) => s.raw(opts),
      __statement: s,
    }) as unknown as D1PreparedStatement;
  const db = {
    prepare: (query: string) => wrap(new Statement(sql, query)),
    batch: async (statements: D1PreparedStatement[]) =>
      storage.transactionSync(() => statements.map((st) => (st as unknown as { __statement: Statement }).__statement.all())),
    exec: async (query: string) => {
      const cursor = sql.exec(query);
      cursor.toArray();
      return { count: 1, duration: 0 };
    },
    dump: async () => {
      throw new Error("dump is not supported on a Durable Object's storage.");
    },
    withSession: () => db,
  };
  return db as unknown as D1Database;
}
