import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiKey } from "~/.server/api-keys/api-keys";
import { organisations } from "~/.server/db/schema";
import { saveFaqDraft } from "~/.server/studio/faq-store";
import { api } from "../../workers/api";
import { db, makeOrg, makeUser } from "../factories";
import { BASE, request } from "./helpers";

// Hostile and broken input against every page and API endpoint: nothing answers 5xx. Routes are
// discovered from the route files and the API's router, so a new route is covered without anyone
// remembering to add it here.

const ROUTE_SOURCES = import.meta.glob("/app/routes/*.tsx", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

type Params = Record<string, string>;

/** A flat-route file name as a URL path ("app.$orgId.members.tsx" → "/app/org_…/members"). */
function routePath(file: string, params: Params): string {
  const name = file
    .split("/")
    .pop()!
    .replace(/\.tsx$/, "");
  const segments = name
    .replace(/\[\.\]/g, "\u0000")
    .split(".")
    .map((s) => s.replace(/\u0000/g, "."))
    .filter((s) => s !== "_index" && !s.startsWith("_"))
    .map((s) => s.replace(/_$/, ""))
    .map((s) => (s === "$" ? (params.$ ?? "x") : s.startsWith("$") ? params[s.slice(1)] : s));
  return `/${segments.join("/")}`;
}

const ROUTES = Object.entries(ROUTE_SOURCES).map(([file, source]) => ({
  file: file.split("/").pop()!,
  hasAction: /export (async )?function action\b|export const action\b/.test(source),
}));

async function setup() {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Malformed", { plan: "growth" });
  // A real FAQ draft: its import page looks the draft up before it reads the form.
  const draftId = await saveFaqDraft({ env }, { pairs: [{ question: "Do you ship abroad?", answer: "Yes, to the EU." }], title: null, url: null });
  const params: Params = { orgId: org.id, chatbotId: bot.id, token: "not-a-real-token", id: draftId, slug: "x", $: "no/such/page" };
  return { owner, org, bot, params };
}

// The four bodies of the security review, each sent as a same-origin form post would be.
const MALFORMED: { name: string; contentType: string; body: string; status: number }[] = [
  { name: "JSON", contentType: "application/json", body: "{}", status: 415 },
  { name: "text/plain", contentType: "text/plain", body: "intent=save", status: 415 },
  {
    name: "multipart without a boundary",
    contentType: "multipart/form-data",
    body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
    status: 400,
  },
  {
    name: "truncated multipart",
    contentType: "multipart/form-data; boundary=----parley",
    body: '------parley\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsa',
    status: 400,
  },
];

describe("every page action refuses a body that is not a form (400/415, never 500)", async () => {
  const { owner, params } = await setup();
  const actions = ROUTES.filter((r) => r.hasAction);

  it("finds the app's actions", () => expect(actions.length).toBeGreaterThanOrEqual(20));

  for (const route of actions) {
    for (const bad of MALFORMED) {
      it(`${route.file}: ${bad.name} → ${bad.status}`, async () => {
        // A form on an index route posts to "?index" (Remix's way of naming the index over its layout).
        const path = routePath(route.file, params) + (route.file.endsWith("_index.tsx") ? "?index" : "");
        // Logging out ends the session before the form is read: give it a session of its own.
        const cookie = route.file === "logout.tsx" ? (await makeUser()).cookie : owner.cookie;
        const res = await request(path, { method: "POST", cookie, body: bad.body, headers: { "Content-Type": bad.contentType, Origin: BASE } });
        expect(res.status, path).toBe(bad.status);
        const html = await res.text();
        expect(html).not.toMatch(/TypeError|at .*\.js:\d+/);
      });
    }
  }

  it("the error screen explains a refused body", async () => {
    const res = await request("/login", { method: "POST", body: "{}", headers: { "Content-Type": "application/json", Origin: BASE } });
    expect(res.status).toBe(415);
    expect(await res.text()).toContain("That request could not be read");
  });
});

describe("redirect targets after sign-in, sign-up, verification and logout stay on the site", async () => {
  const user = await makeUser({ password: "a perfectly fine password" });

  it("signed in, GET /login?redirectTo=/<tab>/evil.example goes to the dashboard, not away", async () => {
    const res = await request(`/login?redirectTo=${encodeURIComponent("/\t/evil.example")}`, { cookie: user.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/app");
  });

  for (const ch of ["%0A", "%0D", "%0D%0A", "%00"]) {
    it(`signed in, a ${ch} in redirectTo is refused, not a 500`, async () => {
      const res = await request(`/login?redirectTo=%2F${ch}%2Fx`, { cookie: user.cookie });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/app");
    });
  }

  it("POST /login with a tab-smuggled redirectTo lands on the site after sign-in", async () => {
    const res = await request("/login", { form: { email: user.email, password: "a perfectly fine password", redirectTo: "/\t/evil.example/phish" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/app");
  });

  it("a same-site redirectTo still works", async () => {
    const res = await request("/login", { form: { email: user.email, password: "a perfectly fine password", redirectTo: "/app/plans" } });
    expect(res.headers.get("Location")).toBe("/app/plans");
  });

  it("logout and signup refuse the same variants", async () => {
    const out = await request("/logout", { form: { redirectTo: "/\t/evil.example" }, cookie: user.cookie });
    expect(out.headers.get("Location")).toBe("/login");
    const up = await request("/signup", {
      form: { name: "New", email: `n-${Date.now()}@example.test`, password: "another perfectly fine password", redirectTo: "/\\evil.example" },
    });
    expect(up.status).toBe(302);
    expect(up.headers.get("Location")).not.toContain("evil");
  });
});

// Each crawl is several hundred requests. In this test pool the Worker answers more slowly as a file's
// requests pile up (a trivial 404 goes from ~10 ms to ~500 ms after 500 page requests; measured at
// d03c970 too, so not a regression of a route), so the limit leaves room on CI's two cores.
const CRAWL_TIMEOUT_MS = 300_000;

/** Runs `jobs` a few at a time: the Worker answers concurrent requests, and the crawl stays quick. */
async function inPool<T>(items: T[], run: (item: T) => Promise<void>, size = 8) {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

// Odd values for every path parameter, odd queries, every method, on every page and API endpoint.
describe("a crawl of every route with malformed input answers below 500", async () => {
  const { owner, org, bot, params } = await setup();
  await db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, org.id));
  const created = await createApiKey({ db }, { orgId: org.id, chatbotId: bot.id }, { name: "Crawl", userId: owner.id });
  if (!created.ok) throw new Error(created.message);
  const ODD = ["%00", "%ff", "..%2F..%2F", "a".repeat(600), "%3Cscript%3E%27", "\u{1F600}%E2%80%AE"];
  const QUERIES = ["", "?redirectTo=%0D%0A&q=%ff&page=-1&cursor=%00&from=not-a-date&to=9999999999999999&tag[]=x", `?${"x=1&".repeat(300)}`];
  const pages = ROUTES.map((r) => r.file);

  const basePaths = [...new Set(pages.map((file) => routePath(file, params)))];
  const oddPaths = new Set<string>();
  for (const file of pages) {
    for (const odd of ODD) {
      // One parameter at a time, so deeper routes are reached with a valid parent.
      for (const key of Object.keys(params)) oddPaths.add(routePath(file, { ...params, [key]: odd }));
    }
  }
  for (const p of basePaths) oddPaths.delete(p);

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

  it("covers pages and API endpoints", () => {
    expect(pages.length).toBeGreaterThanOrEqual(30);
    expect(apiBase.length).toBeGreaterThanOrEqual(15);
  });

  it(
    `GET of ${basePaths.length} page paths × ${QUERIES.length} queries signed in, HEAD signed out; GET of ${oddPaths.size} paths with odd parameters`,
    async () => {
      const failures: string[] = [];
      const jobs: [string, string, string | null][] = [];
      for (const path of basePaths) {
        jobs.push(["HEAD", path, null]);
        for (const query of QUERIES) jobs.push(["GET", path + query, owner.cookie]);
      }
      for (const path of oddPaths) jobs.push(["GET", path, owner.cookie]);
      await inPool(jobs, async ([method, path, cookie]) => {
        const res = await request(path, { method, cookie });
        if (res.status >= 500) failures.push(`${method} ${path}${cookie ? " (signed in)" : ""} → ${res.status}`);
        await res.body?.cancel();
      });
      expect(failures).toEqual([]);
    },
    CRAWL_TIMEOUT_MS,
  );

  it(
    "POST, PUT and DELETE of every page path with hostile form values",
    async () => {
      const failures: string[] = [];
      const forms: Record<string, string>[] = [
        {},
        { intent: "save", name: "\u0000".repeat(10), redirectTo: "/\r\n/x", orgId: "../../", chatbotId: "' OR 1=1", sourceId: "x".repeat(5000) },
        { intent: "x".repeat(10_000) },
      ];
      const jobs: [string, Record<string, string> | null][] = [];
      for (const file of pages) {
        const path = routePath(file, params) + (file.endsWith("_index.tsx") ? "?index" : "");
        if (file === "logout.tsx") continue; // would end the session the crawl uses; covered above
        for (const form of forms) jobs.push([path, form]);
        jobs.push([path, null]);
      }
      await inPool(jobs, async ([path, form]) => {
        for (const method of form ? ["POST"] : ["PUT", "DELETE"]) {
          const res = form
            ? await request(path, { cookie: owner.cookie, form })
            : await request(path, {
                method,
                cookie: owner.cookie,
                body: "a=1",
                headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
              });
          if (res.status >= 500) failures.push(`${method} ${path} ${JSON.stringify(form ?? {}).slice(0, 80)} → ${res.status}`);
          await res.body?.cancel();
        }
      });
      expect(failures).toEqual([]);
    },
    CRAWL_TIMEOUT_MS,
  );

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
