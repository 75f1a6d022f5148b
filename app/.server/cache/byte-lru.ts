// A least-recently-used cache bounded by an estimate of the bytes it holds (and by entries), for the
// per-isolate memoisation in app/.server (stems, term statistics, chunk features). A Worker isolate
// has 128 MB in production, shared by every request it serves at once: every cache that lives at
// module scope states its budget in bytes here instead of growing with the data it has seen.
//
// Sizes are estimates (V8 does not expose an object's size): strings count 2 bytes per character,
// typed arrays their byteLength, and each entry a fixed overhead for the Map slot and its objects.

/** Map slot + key/value object headers, roughly. */
export const ENTRY_OVERHEAD_BYTES = 64;

/** Upper bound of a string's size in V8 (two-byte representation). */
export const stringBytes = (s: string) => 2 * s.length;

export type ByteLruOptions<K, V> = {
  /** The most bytes the entries may add up to; the least recently used go first. */
  maxBytes: number;
  /** Optional cap on the number of entries too. */
  maxEntries?: number;
  /** Estimated size of one entry (key and value), without the fixed overhead. */
  sizeOf: (key: K, value: V) => number;
};

export class ByteLru<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private total = 0;
  readonly maxBytes: number;
  readonly maxEntries: number;
  private readonly sizeOf: (key: K, value: V) => number;

  constructor(options: ByteLruOptions<K, V>) {
    this.maxBytes = options.maxBytes;
    this.maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
    this.sizeOf = options.sizeOf;
  }

  /** Estimated bytes held. */
  get bytes() {
    return this.total;
  }

  get size() {
    return this.map.size;
  }

  /** The value, marked as the most recently used. */
  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  /** The value without changing its recency. */
  peek(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Stores the value (most recently used), then evicts the least recently used past the budget. A value bigger than the whole budget is not kept. */
  set(key: K, value: V): this {
    this.delete(key);
    const bytes = this.sizeOf(key, value) + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes) return this;
    this.map.set(key, { value, bytes });
    this.total += bytes;
    while (this.total > this.maxBytes || this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
    return this;
  }

  delete(key: K): boolean {
    const hit = this.map.get(key);
    if (!hit) return false;
    this.map.delete(key);
    this.total -= hit.bytes;
    return true;
  }

  /** Keys from least to most recently used (safe to delete while iterating a copy: `[...cache.keys()]`). */
  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  clear() {
    this.map.clear();
    this.total = 0;
  }
}
