import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "~/.server/api-keys/api-keys";
import { newId } from "~/.server/auth/crypto";
import { apiKeys, knowledgeSources, organisations } from "~/.server/db/schema";
import { readReply } from "~/lib/chat-stream";
import type { PlanId } from "~/lib/plans";
import { v1 } from "../../workers/api/v1";
import { ROUTES } from "~/lib/api/v1/openapi";
import { db, makeOrg, makeUser } from "../factories";
import { seedChunks } from "../knowledge-rows";
import { request } from "./helpers";

// The public REST API v1 through the real Worker: keys, plan gating, rate limit, every endpoint,
// isolation between chatbots, and the OpenAPI document + docs page generated from the same schemas.

async function setup(plan: PlanId = "starter") {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Api");
  await db.update(organisations).set({ plan }).where(eq(organisations.id, org.id));
  const created = await createApiKey({ db }, { orgId: org.id, chatbotId: bot.id }, { name: "Server", userId: owner.id });
  if (!created.ok) throw new Error(created.message);
  const sourceId = newId("ks_");
  await db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "Hours", status: "ready" });
  await seedChunks({ orgId: org.id, chatbotId: bot.id }, sourceId, [
    {
      title: "Opening hours",
      heading: null,
      url: "https://shop.example/hours",
      text: "Our shop in Lyon is open Monday to Saturday from 9:00 to 19:00.",
      position: 0,
    },
  ]);
  return { owner, org, bot, key: created.key, keyId: created.row.id };
}

const call = (path: string, key: string | null, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  request(`/api/v1${path}`, {
    method: init.method ?? (init.body !== undefined ? "POST" : "GET"),
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });

describe("REST API v1: authentication, plan and rate limit", () => {
  it("refuses missing, malformed, unknown and revoked keys with 401", async () => {
    const { org, bot, key, keyId } = await setup();
    for (const k of [null, "nope", `pk_${"a".repeat(32)}`]) {
      const res = await call("/sources", k);
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
    expect((await call("/sources", key)).status).toBe(200);
    await revokeApiKey({ db }, { orgId: org.id, chatbotId: bot.id }, keyId);
    expect((await call("/sources", key)).status).toBe(401);
  });

  it("needs a plan with the API", async () => {
    const { key } = await setup("free");
    const res = await call("/sources", key);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: "plan_required", message: expect.stringContaining("Starter") } });
  });

  it("stores keys hashed and limits each key to 60 requests a minute", async () => {
    const { key, keyId } = await setup();
    const row = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get();
    expect(JSON.stringify(row)).not.toContain(key);
    const first = await call("/leads", key);
    expect(first.headers.get("X-RateLimit-Limit")).toBe("60");
    expect(first.headers.get("X-RateLimit-Remaining")).toBe("59");
    // A fixed one-minute window: if the loop crosses a minute boundary the count restarts, so go on
    // until refused (at most two windows) and check at least 60 passed first.
    let last: Response | undefined;
    let passed = 0;
    for (let i = 0; i < 122; i++) {
      last = await call("/leads", key);
      if (last.status !== 200) break;
      passed++;
    }
    expect(last!.status).toBe(429);
    expect(passed).toBeGreaterThanOrEqual(59);
    expect(Number(last!.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await last!.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
  });
});

describe("REST API v1: endpoints", () => {
  it("answers a message with sources (JSON) and keeps the conversation", async () => {
    const { key } = await setup();
    const res = await call("/chat", key, { body: { message: "When is the shop in Lyon open?", visitorId: "customer_0001" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      conversationId: string;
      visitorId: string;
      message: { content: string; answered: boolean; sources: { title: string; url: string }[] };
    };
    expect(body.visitorId).toBe("customer_0001");
    expect(body.message.answered).toBe(true);
    expect(body.message.content).toMatch(/Monday to Saturday/);
    expect(body.message.sources[0]).toMatchObject({ title: "Opening hours", url: "https://shop.example/hours" });

    const list = (await (await call("/conversations", key)).json()) as { data: { id: string; channel: string }[]; nextBefore: number | null };
    expect(list.data.map((c) => c.id)).toContain(body.conversationId);
    expect(list.data[0].channel).toBe("api");
    const detail = (await (await call(`/conversations/${body.conversationId}`, key)).json()) as { messages: { role: string; sources: unknown[] }[] };
    expect(detail.messages.map((m) => m.role)).toEqual(["visitor", "bot"]);
    expect(detail.messages[1].sources).toHaveLength(1);
  });

  it("streams the answer as an AI SDK UI message stream", async () => {
    const { key } = await setup();
    const res = await call("/chat", key, { body: { message: "When is the shop in Lyon open?", stream: true } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/text\/event-stream/);
    expect(res.headers.get("X-Parley-Conversation-Id")).toMatch(/^cv_/);
    const reply = await readReply(res.body!);
    expect(reply.text).toMatch(/Monday to Saturday/);
  });

  it("validates input with messages that name the field", async () => {
    const { key } = await setup();
    const cases: [string, unknown, RegExp][] = [
      ["/chat", {}, /message/],
      ["/chat", { message: "x".repeat(2001) }, /2000/],
      ["/chat", { message: "hi", visitorId: "no" }, /visitorId/],
      ["/chat", "{not json", /JSON/],
      ["/leads", {}, /at least one/],
      ["/leads", { email: "not-an-email" }, /email/],
      ["/sources", { type: "pdf" }, /type/],
      ["/sources", { type: "text", text: "" }, /text/],
      ["/sources", { type: "qa", pairs: [{ question: "Q?", answer: "" }] }, /both a question and an answer/],
      ["/sources", { type: "url", url: "http://127.0.0.1/admin" }, /./],
    ];
    for (const [path, body, message] of cases) {
      const res = await call(path, key, { body });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const err = (await res.json()) as { error: { code: string; message: string } };
      expect(err.error.code).toBe("invalid_input");
      expect(err.error.message).toMatch(message);
    }
    expect((await call("/leads?limit=0", key)).status).toBe(400);
  });

  it("creates and lists leads and knowledge sources", async () => {
    const { key } = await setup();
    const lead = await call("/leads", key, { body: { name: "Ada", email: "ADA@example.com", custom: { Company: "Engines" } } });
    expect(lead.status).toBe(201);
    expect(await lead.json()).toMatchObject({ name: "Ada", email: "ada@example.com", source: "api", custom: { Company: "Engines" }, status: "new" });
    const leads = (await (await call("/leads", key)).json()) as { data: { name: string }[] };
    expect(leads.data.map((l) => l.name)).toEqual(["Ada"]);

    const created = await call("/sources", key, {
      body: { type: "qa", title: "Returns", pairs: [{ question: "Can I return an item?", answer: "Yes, within 30 days." }] },
    });
    expect(created.status).toBe(201);
    const source = (await created.json()) as { id: string; status: string; type: string };
    expect(source).toMatchObject({ type: "qa", status: "queued" });
    const got = (await (await call(`/sources/${source.id}`, key)).json()) as { id: string; title: string };
    expect(got).toMatchObject({ id: source.id, title: "Returns" });
    const all = (await (await call("/sources", key)).json()) as { data: { id: string }[] };
    expect(all.data.map((s) => s.id)).toContain(source.id);
  });

  it("answers 404 for another chatbot's conversations and sources", async () => {
    const a = await setup();
    const b = await setup();
    const chat = (await (await call("/chat", b.key, { body: { message: "When is the shop open?" } })).json()) as { conversationId: string };
    const sources = (await (await call("/sources", b.key)).json()) as { data: { id: string }[] };
    expect((await call(`/conversations/${chat.conversationId}`, a.key)).status).toBe(404);
    expect((await call(`/sources/${sources.data[0].id}`, a.key)).status).toBe(404);
    expect((await call(`/conversations/${chat.conversationId}`, b.key)).status).toBe(200);
  });
});

describe("REST API v1: OpenAPI document and docs page", () => {
  it("documents every route the router answers, as OpenAPI 3.1", async () => {
    const res = await request("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["Error", "ChatRequest", "ChatResponse", "Lead", "KnowledgeSource"]));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort());
    // The router answers exactly the documented routes (plus the document itself).
    const routed = v1.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
    expect([...new Set(routed)].sort()).toEqual([...ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path}`), "GET /openapi.json"].sort());
    // Every documented route exists: without a key it is a 401, never a 404.
    for (const r of ROUTES) {
      const res2 = await call(r.path.replace("{id}", "x"), null, { method: r.method.toUpperCase(), body: r.method === "post" ? {} : undefined });
      expect(res2.status, `${r.method} ${r.path}`).toBe(401);
    }
    expect((await call("/nope", null)).status).toBe(401);
  });

  it("renders the reference at /docs/api", async () => {
    const res = await request("/docs/api");
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const r of ROUTES) expect(html).toContain(`${r.method.toUpperCase()} /api/v1${r.path}`);
    expect(html).toContain("Authorization: Bearer pk_");
  });
});
