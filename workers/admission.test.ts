import { describe, expect, it } from "vitest";
import { AdmissionGate, GateFull, releaseWhenSent } from "./admission";

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe("AdmissionGate", () => {
  it("works on at most `max` at once and lets the others in, in line order, as slots free", async () => {
    const gate = new AdmissionGate(2, 10, 5_000);
    const a = await gate.enter();
    const b = await gate.enter();
    const order: string[] = [];
    const c = gate.enter().then((r) => (order.push("c"), r));
    await tick();
    const d = gate.enter().then((r) => (order.push("d"), r));
    await tick(20);
    expect(gate.working).toBe(2);
    expect(gate.waiting).toBe(2);
    expect(order).toEqual([]);
    a();
    a(); // releasing twice frees one slot only
    const releaseC = await c;
    expect(order).toEqual(["c"]);
    expect(gate.working).toBe(2);
    b();
    const releaseD = await d;
    expect(order).toEqual(["c", "d"]);
    releaseC();
    releaseD();
    expect(gate.working).toBe(0);
    expect(gate.waiting).toBe(0);
  });

  it("refuses at once when the line is full, and after waiting too long", async () => {
    const gate = new AdmissionGate(1, 1, 30);
    const hold = await gate.enter();
    const waiting = gate.enter();
    await expect(gate.enter()).rejects.toBeInstanceOf(GateFull);
    await expect(waiting).rejects.toBeInstanceOf(GateFull);
    expect(gate.waiting).toBe(0);
    hold();
    (await gate.enter())();
  });
});

describe("releaseWhenSent", () => {
  it("releases once the body has been read to the end, not before", async () => {
    let released = 0;
    const res = releaseWhenSent(new Response("hello world"), () => released++);
    expect(released).toBe(0);
    expect(await res.text()).toBe("hello world");
    expect(released).toBe(1);
  });

  it("releases when the reader goes away, and at once for a response without a body", async () => {
    let released = 0;
    const stream = new ReadableStream({ pull: (c) => c.enqueue(new TextEncoder().encode("x")) });
    const res = releaseWhenSent(new Response(stream), () => released++);
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(released).toBe(1);
    releaseWhenSent(new Response(null, { status: 204 }), () => released++);
    expect(released).toBe(2);
  });
});
