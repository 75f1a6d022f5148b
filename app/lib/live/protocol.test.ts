import { describe, expect, it } from "vitest";
import { clientFrame, LIVE_PROTOCOL_VERSION, mergeBySeq, parseClientFrame, parseServerFrame, serverFrame } from "./protocol";

describe("live protocol", () => {
  it("round-trips every frame it builds, stamped with the version", () => {
    const raw = serverFrame({ type: "ack", clientId: "abcdefgh", seq: 3, id: "msg_1" });
    expect(JSON.parse(raw).v).toBe(LIVE_PROTOCOL_VERSION);
    expect(parseServerFrame(raw)).toEqual({ ok: true, frame: { v: 1, type: "ack", clientId: "abcdefgh", seq: 3, id: "msg_1" } });
    const send = parseClientFrame(clientFrame({ type: "send", clientId: "c_12345678", text: "  Hello  " }));
    expect(send).toEqual({ ok: true, frame: { v: 1, type: "send", clientId: "c_12345678", text: "Hello" } });
  });

  it("refuses other versions, unknown types, bad fields and non-JSON with a message", () => {
    expect(parseClientFrame(JSON.stringify({ v: 2, type: "ping" }))).toMatchObject({ ok: false, message: expect.stringContaining("version") });
    expect(parseClientFrame(JSON.stringify({ v: 1, type: "dance" })).ok).toBe(false);
    expect(parseClientFrame(JSON.stringify({ v: 1, type: "send", clientId: "short", text: "x" }))).toMatchObject({
      ok: false,
      message: expect.stringContaining("clientId"),
    });
    expect(parseClientFrame(JSON.stringify({ v: 1, type: "send", clientId: "c_12345678", text: "   " }))).toMatchObject({
      ok: false,
      message: expect.stringContaining("text"),
    });
    expect(parseClientFrame(JSON.stringify({ v: 1, type: "sync", after: -1 })).ok).toBe(false);
    expect(parseClientFrame("{not json").ok).toBe(false);
    expect(parseClientFrame(new ArrayBuffer(3)).ok).toBe(false);
    expect(parseClientFrame("x".repeat(9000)).ok).toBe(false);
  });

  it("merges catch-up by seq and drops what is already held", () => {
    const m = (seq: number) => ({ id: `m${seq}`, seq });
    expect(mergeBySeq([m(1), m(3)], [m(3), m(2), m(4)]).map((x) => x.seq)).toEqual([1, 2, 3, 4]);
    const held = [m(1)];
    expect(mergeBySeq(held, [m(1)])).toBe(held);
  });
});
