import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createApiKey } from "~/.server/api-keys/api-keys";
import { organisations } from "~/.server/db/schema";
import { API_BODY_LIMIT, bodyLimitFor, limitApiBodies } from "../../workers/api/body-limit";
import { db, makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

// One body-size limit for the whole API (workers/api/body-limit.ts): 64 KB for JSON, more only where
// a route needs it. Refused with 413 { error: { code: "payload_too_large" } } before the body is
// read in full — a declared Content-Length is enough, and a chunked body is read only up to the limit.

/** A body of `bytes` bytes, streamed without a Content-Length; counts what was pulled from it. */
function streamedBody(bytes: number) {
  const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
  let sent = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => sent, cancelled: () => cancelled };
}

async function expectTooLarge(res: Response) {
  expect(res.status).toBe(413);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("payload_too_large");
  expect(body.error.message).toMatch(/larger than this endpoint accepts/);
}

const big = (bytes: number) => JSON.stringify({ visitorId: "v_big", message: "x".repeat(bytes) });

describe("API body-size limit", async () => {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Limits");
  await db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, org.id));
  const created = await createApiKey({ db }, { orgId: org.id, chatbotId: bot.id }, { name: "Server", userId: owner.id });
  if (!created.ok) throw new Error(created.message);
  const key = created.key;
  const json = { "Content-Type": "application/json" };

  it("the limits: 64 KB by default, 12 MB for a new source, 512 KB for Stripe's events", () => {
    expect(API_BODY_LIMIT).toBe(64 * 1024);
    expect(bodyLimitFor("POST", "/api/chat/cb_x")).toBe(64 * 1024);
    expect(bodyLimitFor("POST", "/api/v1/sources")).toBe(12 * 1024 * 1024);
    expect(bodyLimitFor("POST", "/api/stripe/webhook")).toBe(512 * 1024);
    expect(bodyLimitFor("GET", "/api/v1/sources")).toBe(64 * 1024);
  });

  it("chat router: a 10 MB message → 413; a body just under the limit is read and validated (400)", async () => {
    await expectTooLarge(await request(`/api/chat/${bot.id}`, { method: "POST", headers: json, body: big(10 * 1024 * 1024) }));
    await expectTooLarge(await request(`/api/chat/${bot.id}`, { method: "POST", headers: json, body: big(API_BODY_LIMIT) }));
    const under = await request(`/api/chat/${bot.id}`, { method: "POST", headers: json, body: big(API_BODY_LIMIT - 200) });
    expect(under.status).toBe(400);
    expect(((await under.json()) as { error: { code: string } }).error.code).toBe("invalid_input");
  });

  it("a chunked body without Content-Length is cut off at the limit and cancelled, never read in full", async () => {
    // The middleware on its own, in this isolate: a stream crossing into the Worker entry is piped
    // by the runtime, which hides whether it was cancelled.
    const app = new Hono();
    let handled = 0;
    app.use("*", limitApiBodies);
    app.post("/api/chat/:id", async (c) => {
      handled++;
      return c.json({ bytes: (await c.req.text()).length });
    });
    const huge = streamedBody(50 * 1024 * 1024);
    await expectTooLarge(await app.request("/api/chat/x", { method: "POST", headers: json, body: huge.stream }));
    expect(huge.pulled()).toBeLessThanOrEqual(API_BODY_LIMIT + 16 * 1024);
    expect(huge.cancelled()).toBe(true);
    expect(handled).toBe(0);
    // Under the limit, the handler gets the whole body.
    const small = streamedBody(32 * 1024);
    const ok = await app.request("/api/chat/x", { method: "POST", headers: json, body: small.stream });
    expect(await ok.json()).toEqual({ bytes: 32 * 1024 });
  });

  it("widget router: leads, feedback, bug reports and handoff refuse 10 MB", async () => {
    for (const action of ["leads", "feedback", "bug-reports", "handoff"]) {
      await expectTooLarge(await request(`/api/widget/${bot.id}/${action}`, { method: "POST", headers: json, body: big(10 * 1024 * 1024) }));
    }
  });

  it("v1 router: 10 MB to /chat and /leads → 413, before the key is even checked", async () => {
    await expectTooLarge(await request("/api/v1/chat", { method: "POST", headers: { ...json, Authorization: `Bearer ${key}` }, body: big(10 * 1024 * 1024) }));
    await expectTooLarge(await request("/api/v1/leads", { method: "POST", headers: { ...json, Authorization: `Bearer ${key}` }, body: big(10 * 1024 * 1024) }));
    await expectTooLarge(await request("/api/v1/chat", { method: "POST", headers: json, body: big(10 * 1024 * 1024) }));
  });

  it("v1 router: a 1 MB text source is accepted (the route that needs more), 13 MB is not", async () => {
    const text = "Our returns policy allows thirty days. ".repeat(27_000); // ≈ 1 MB
    const ok = await request("/api/v1/sources", {
      method: "POST",
      headers: { ...json, Authorization: `Bearer ${key}` },
      body: JSON.stringify({ type: "text", title: "Policy", text }),
    });
    expect(ok.status).toBeLessThan(300);
    await expectTooLarge(
      await request("/api/v1/sources", {
        method: "POST",
        headers: { ...json, Authorization: `Bearer ${key}` },
        body: JSON.stringify({ type: "text", title: "Huge", text: "x".repeat(13 * 1024 * 1024) }),
      }),
    );
  });

  it("stripe router: an event over 512 KB → 413", async () => {
    await expectTooLarge(
      await request("/api/stripe/webhook", { method: "POST", headers: { ...json, "Stripe-Signature": "t=1,v1=00" }, body: big(600 * 1024) }),
    );
  });

  it("health router: a body on an endpoint that takes none is still capped", async () => {
    await expectTooLarge(await request("/api/health", { method: "POST", headers: json, body: big(10 * 1024 * 1024) }));
  });
});
