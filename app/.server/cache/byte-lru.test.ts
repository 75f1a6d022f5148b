import { describe, expect, it } from "vitest";
import { ByteLru, ENTRY_OVERHEAD_BYTES, stringBytes } from "./byte-lru";

const strings = (maxBytes: number, maxEntries?: number) =>
  new ByteLru<string, string>({ maxBytes, maxEntries, sizeOf: (k, v) => stringBytes(k) + stringBytes(v) });

describe("ByteLru", () => {
  it("counts the estimated bytes of what it holds", () => {
    const c = strings(10_000);
    c.set("a", "xyz");
    expect(c.bytes).toBe(2 + 6 + ENTRY_OVERHEAD_BYTES);
    c.set("a", "x"); // replacing counts the new size only
    expect(c.bytes).toBe(2 + 2 + ENTRY_OVERHEAD_BYTES);
    c.delete("a");
    expect(c.bytes).toBe(0);
    expect(c.size).toBe(0);
  });

  it("evicts the least recently used entries when the bytes exceed the budget", () => {
    const entry = ENTRY_OVERHEAD_BYTES + 2 + 200; // key of 1 char, value of 100
    const c = strings(entry * 3);
    c.set("a", "a".repeat(100)).set("b", "b".repeat(100)).set("c", "c".repeat(100));
    expect(c.size).toBe(3);
    c.get("a"); // a is now the most recently used
    c.set("d", "d".repeat(100));
    expect([...c.keys()]).toEqual(["c", "a", "d"]);
    expect(c.bytes).toBeLessThanOrEqual(c.maxBytes);
    // One big value pushes out as many as it needs.
    c.set("e", "e".repeat(250));
    expect(c.has("c")).toBe(false);
    expect(c.has("a")).toBe(false);
    expect(c.bytes).toBeLessThanOrEqual(c.maxBytes);
  });

  it("stays within its budget whatever is stored, and never keeps a value larger than the budget", () => {
    const c = strings(50_000);
    for (let i = 0; i < 5_000; i++) c.set(`k${i}`, "v".repeat(i % 300));
    expect(c.bytes).toBeLessThanOrEqual(50_000);
    expect(c.size).toBeGreaterThan(0);
    c.set("huge", "x".repeat(30_000));
    expect(c.has("huge")).toBe(false);
    expect(c.bytes).toBeLessThanOrEqual(50_000);
  });

  it("also caps the number of entries when asked", () => {
    const c = strings(1_000_000, 2);
    c.set("a", "1").set("b", "2").set("c", "3");
    expect([...c.keys()]).toEqual(["b", "c"]);
  });

  it("peek does not change recency; clear empties", () => {
    const entry = ENTRY_OVERHEAD_BYTES + 4;
    const c = strings(entry * 2);
    c.set("a", "1").set("b", "2");
    expect(c.peek("a")).toBe("1");
    c.set("c", "3");
    expect(c.has("a")).toBe(false);
    c.clear();
    expect(c.size).toBe(0);
    expect(c.bytes).toBe(0);
  });
});
