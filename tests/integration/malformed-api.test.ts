import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiKey } from "~/.server/api-keys/api-keys";
import { organisations } from "~/.server/db/schema";
import { api } from "../../workers/api";
import { db } from "../factories";
import { CRAWL_TIMEOUT_MS, inPool, ODD, setup } from "./crawl-support";
import { request } from "./helpers";

// Hostile and broken input against every API endpoint, read from the Hono router itself (so a new
// endpoint is covered without anyone remembering to add it): nothing answers 5xx. A file of its own,
// apart from the pages' crawl (malformed-input.test.ts): in this test pool the Worker answers more
// slowly as one file's requests pile up, and the API's endpoints have grown with every channel.

describe("a crawl of every API endpoint with malformed input answers below 500", async () => {
  const { owner, org, bot, params } = await setup();
  await db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, org.id));
  const created = await createApiKey({ db }, { orgId: org.id, chatbotId: bot.id }, { name: "Crawl", userId: owner.id });
  if (!created.ok) throw new Error(created.message);
  const apiRoutes = api.routes.filter((r) => !(r.method === "ALL" && r.path === "/*"));
  const apiBase = [
    ...new Set(
      apiRoutes.map((r) =>
        `/api${r.path}`
          .replace(/\/\*$/, "")
          .replace(/:chatbotId/g, params.chatbotId)
          .replace(/:id/g, "x"),
      ),
    ),
  ];
  const apiOdd = new Set<string>();
  for (const r of apiRoutes) for (const odd of ODD) apiOdd.add(`/api${r.path}`.replace(/\/\*$/, "").replace(/:[a-zA-Z]+/g, odd));

  it("covers the API's endpoints", () => expect(apiBase.length).toBeGreaterThanOrEqual(15));

  it(
    `every API endpoint (${apiBase.length} paths) with every method and broken bodies; ${apiOdd.size} paths with odd parameters`,
    async () => {
      const failures: string[] = [];
      const bodies: { contentType?: string; body?: string }[] = [
        {},
        { contentType: "application/json", body: "" },
        { contentType: "application/json", body: "{" },
        { contentType: "application/json", body: "null" },
        { contentType: "application/json", body: "[]" },
        {
          contentType: "application/json",
          body: JSON.stringify({
            visitorId: "\u0000",
            message: { nested: true },
            conversationId: 12,
            fields: "x",
            messageId: [],
            type: "url",
            url: "file:///etc/passwd",
          }),
        },
        { contentType: "application/json", body: JSON.stringify({ visitorId: "v".repeat(5000), message: "x".repeat(60_000) }) },
        { contentType: "text/plain", body: "hello" },
        { contentType: "multipart/form-data", body: "--x" },
        { contentType: "application/x-www-form-urlencoded", body: "a=%ff" },
      ];
      // A real key so the v1 routes get as far as reading the body; a forged Stripe signature.
      const headers = { Authorization: `Bearer ${created.key}`, "Stripe-Signature": "t=1,v1=zz", Origin: "https://elsewhere.example" };
      const jobs: [string, string, { contentType?: string; body?: string }][] = [];
      for (const path of apiBase) {
        jobs.push(["GET", path, {}], ["OPTIONS", path, {}], ["PUT", path, bodies[2]], ["DELETE", path, {}]);
        for (const b of bodies) jobs.push(["POST", path, b]);
      }
      for (const path of apiOdd) jobs.push(["GET", path, {}], ["POST", path, bodies[2]]);
      await inPool(jobs, async ([method, path, b]) => {
        const h: Record<string, string> = { ...headers };
        if (b.contentType) h["Content-Type"] = b.contentType;
        const res = await request(path, { method, body: b.body, headers: h });
        // A 503 from the Stripe webhook means "not configured on this server", which is the truth here.
        if (res.status >= 500 && !(res.status === 503 && path.startsWith("/api/stripe")))
          failures.push(`${method} ${path} ${b.contentType ?? ""} ${(b.body ?? "").slice(0, 30)} → ${res.status}`);
        // Read to the end like a client would: a chat answer holds its slot of the local admission gate
        // (workers/admission.ts) until its body is sent.
        await res.arrayBuffer().catch(() => undefined);
      });
      expect(failures).toEqual([]);
    },
    CRAWL_TIMEOUT_MS,
  );
});
