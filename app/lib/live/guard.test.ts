import { describe, expect, it, vi } from "vitest";
import { checkServerFrame, checkSnapshot, readServerFrame, WIDGET_FRAMES } from "./guard";
import { liveSnapshotSchema, serverFrameSchema } from "./protocol";
import { typingThrottle, TYPING_EVERY_MS, TYPING_IDLE_MS } from "./wire";

// The widget's zod-free guard must say yes and no exactly where the zod schema does (ADR 026):
// valid frames of every type the widget reads, then every field of each replaced by wrong values,
// removed, or nested values broken the same way.

const msg = { seq: 3, id: "msg_1", role: "human", text: "Hi", at: 1_700_000_000_000, author: "Ada" };
const VALID: Record<string, object[]> = {
  welcome: [
    { conversationId: "cv_1", status: "human", agent: { id: "u_1", name: "Ada" }, seq: 4 },
    { conversationId: "cv_1", status: "bot", agent: null, seq: 0 },
  ],
  message: [
    { message: msg },
    { message: { seq: 1, id: "m", role: "visitor", text: "", at: 0 } },
    {
      message: {
        seq: 2,
        id: "m",
        role: "bot",
        text: "x",
        at: 5,
        author: null,
        sources: [{ n: 1, title: "T", url: null, snippet: "s", sourceId: "s1", chunkId: 2 }],
      },
    },
    { message: { seq: 2, id: "m", role: "system", text: "x", at: 5, sources: [] } },
  ],
  ack: [{ clientId: "c_12345678", seq: 1, id: "msg_2" }],
  status: [
    { status: "waiting", agent: null },
    { status: "closed", agent: { id: "u", name: "A" } },
  ],
  error: [
    { code: "forbidden", message: "No." },
    { code: "x", message: "y", clientId: "c" },
  ],
  pong: [{}],
  typing: [
    { who: "agent", name: "Ada", on: true },
    { who: "visitor", on: false },
  ],
  read: [
    { by: "visitor", seq: 0 },
    { by: "agent", seq: 12 },
  ],
  online: [
    { who: "agent", on: true, name: "Ada" },
    { who: "visitor", on: false },
  ],
};

const WRONG: unknown[] = [undefined, null, "", "x", "human", 0, -1, 1, 1.5, 2 ** 60, true, false, [], {}, [1], { id: "u", name: "A" }];

/** Every variant of `value` with one leaf (or object) replaced by each wrong value or removed. */
function* broken(value: unknown): Generator<unknown> {
  for (const w of WRONG) yield w;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) for (const b of broken(value[i])) yield value.map((x, j) => (j === i ? b : x));
  } else if (value && typeof value === "object") {
    for (const k of Object.keys(value)) {
      const { [k]: _, ...without } = value as Record<string, unknown>;
      yield without;
      for (const b of broken((value as Record<string, unknown>)[k])) yield { ...value, [k]: b };
    }
  }
}

const zodSays = (x: unknown) => serverFrameSchema.safeParse(x).success;

describe("widget frame guard", () => {
  it("reads only frame types the protocol has", () => {
    const types = serverFrameSchema.options.map((o) => o.shape.type.value);
    for (const t of Object.keys(WIDGET_FRAMES)) expect(types).toContain(t);
    expect(Object.keys(VALID).sort()).toEqual(Object.keys(WIDGET_FRAMES).sort());
  });

  it("accepts every valid frame zod accepts", () => {
    for (const [type, samples] of Object.entries(VALID)) {
      for (const s of samples) {
        const f = { v: 1, type, ...s };
        expect(zodSays(f), JSON.stringify(f)).toBe(true);
        expect(checkServerFrame(f), JSON.stringify(f)).toEqual(f);
        expect(readServerFrame(JSON.stringify(f))).toEqual(f);
        // Extra keys are ignored on both sides.
        expect(checkServerFrame({ ...f, extra: 1 })).not.toBeNull();
      }
    }
  });

  it("refuses exactly what zod refuses, field by field", () => {
    let compared = 0;
    for (const [type, samples] of Object.entries(VALID)) {
      for (const s of samples) {
        for (const b of broken({ v: 1, type, ...s })) {
          const z = zodSays(b);
          const g = checkServerFrame(b) !== null;
          // The guard reads a subset: a frame it accepts, zod accepts; a widget frame zod accepts, it accepts.
          if (g || (z && (b as { type?: string })?.type && Object.keys(WIDGET_FRAMES).includes((b as { type: string }).type))) {
            expect(g, JSON.stringify(b)).toBe(z);
          } else expect(g).toBe(false);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("refuses other versions, non-JSON, long text and the inbox's frames", () => {
    expect(checkServerFrame({ v: 2, type: "pong" })).toBeNull();
    expect(readServerFrame("{nope")).toBeNull();
    expect(readServerFrame(new ArrayBuffer(2))).toBeNull();
    expect(readServerFrame(JSON.stringify({ v: 1, type: "pong", pad: "x".repeat(9000) }))).toBeNull();
    expect(checkServerFrame({ v: 1, type: "changed", conversationId: "c", status: "bot" })).toBeNull();
    expect(checkServerFrame({ v: 1, type: "toString" })).toBeNull();
  });

  it("checks the HTTP fallback's snapshot like liveSnapshotSchema", () => {
    const s = { v: 1, conversationId: "cv", status: "human", agent: { id: "u", name: "A" }, seq: 3, messages: [msg] };
    for (const b of [s, ...broken(s)]) expect(checkSnapshot(b) !== null, JSON.stringify(b)).toBe(liveSnapshotSchema.safeParse(b).success);
  });
});

describe("typing throttle", () => {
  it("says on at most every 2 s while typing, off after a pause or at once on stop", () => {
    vi.useFakeTimers();
    try {
      const sent: boolean[] = [];
      const t = typingThrottle(
        (on) => sent.push(on),
        () => Date.now(),
      );
      t.input();
      t.input();
      vi.advanceTimersByTime(TYPING_EVERY_MS - 1);
      t.input();
      expect(sent).toEqual([true]);
      vi.advanceTimersByTime(1);
      t.input();
      expect(sent).toEqual([true, true]);
      vi.advanceTimersByTime(TYPING_IDLE_MS);
      expect(sent).toEqual([true, true, false]);
      t.input();
      t.stop();
      t.stop();
      expect(sent).toEqual([true, true, false, true, false]);
    } finally {
      vi.useRealTimers();
    }
  });
});
