import { exports } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { sealSecret } from "~/.server/crypto/secret-box";
import { chatbots, widgetSites } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { MAX_SITES_PER_KIND, RECYCLE_AFTER_MS, siteOfRequest, upsertSiteEvent } from "~/.server/widget/site-activity";
import { env } from "cloudflare:workers";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { BASE, request } from "./helpers";

// The widget's loads and refusals counted per site (origin) and chatbot, through the real Worker:
// the loader's config request, the chat API, the widget actions and the iframe page. The writes run
// after the response (waitUntil), so the tests wait for the rows to appear.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;
const SHOP = "https://shop.example.com";
const OTHER = "https://other.example.net";

function call(path: string, opts: { method?: string; origin?: string; referer?: string; body?: unknown; cookie?: string } = {}) {
  const headers: Record<string, string> = { "CF-Connecting-IP": `10.30.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` };
  if (opts.origin) headers.Origin = opts.origin;
  if (opts.referer) headers.Referer = opts.referer;
  if (opts.cookie) headers.Cookie = opts.cookie;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  return worker.fetch(
    new Request(BASE + path, {
      method: opts.method ?? (opts.body !== undefined ? "POST" : "GET"),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    }),
  );
}

async function botWith(settings: Record<string, unknown> = {}, visibility: "public" | "private" = "public") {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Sites");
  await db.update(chatbots).set({ settings, visibility }).where(eq(chatbots.id, bot.id));
  return { owner, org, bot };
}

type Row = typeof widgetSites.$inferSelect;
const rowsOf = (chatbotId: string) => db.select().from(widgetSites).where(eq(widgetSites.chatbotId, chatbotId)).all();

/** Waits until the chatbot's rows satisfy `check` (they are written after the response). */
async function rowsUntil(chatbotId: string, check: (rows: Row[]) => boolean, timeoutMs = 5_000): Promise<Row[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await rowsOf(chatbotId);
    if (check(rows)) return rows;
    if (Date.now() > until) throw new Error(`rows never matched: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const find = (rows: Row[], origin: string, kind: string) => rows.find((r) => r.origin === origin && r.kind === kind);
const visitor = () => `v_${newId().slice(0, 20)}`;

describe("siteOfRequest", () => {
  const own = [BASE];
  it("takes a foreign Origin, else the iframe's host from a Parley Referer; never Parley itself or junk", () => {
    expect(siteOfRequest(own, { origin: SHOP })).toBe(SHOP);
    expect(siteOfRequest(own, { origin: "https://Shop.Example.com" })).toBe(SHOP);
    expect(siteOfRequest(own, { origin: BASE })).toBeNull();
    expect(siteOfRequest(own, { origin: "null" })).toBeNull();
    expect(siteOfRequest(own, { origin: "https://shop.example.com/path" })).toBeNull();
    expect(siteOfRequest(own, { origin: `https://${"a".repeat(400)}.com` })).toBeNull();
    expect(siteOfRequest(own, { origin: BASE, referer: `${BASE}/widget/frame/cb_x?host=${encodeURIComponent(SHOP)}&v=1` })).toBe(SHOP);
    expect(siteOfRequest(own, { referer: `${BASE}/widget/frame/cb_x?host=${encodeURIComponent(SHOP)}` })).toBe(SHOP);
    // A Referer from elsewhere, the test page, or a preview (host = Parley) names no site.
    expect(siteOfRequest(own, { referer: `${OTHER}/widget/frame/cb_x?host=${encodeURIComponent(SHOP)}` })).toBeNull();
    expect(siteOfRequest(own, { origin: BASE, referer: `${BASE}/test/cb_x` })).toBeNull();
    expect(siteOfRequest(own, { origin: BASE, referer: `${BASE}/widget/frame/cb_x?preview=1&host=${encodeURIComponent(BASE)}` })).toBeNull();
    expect(siteOfRequest(own, {})).toBeNull();
  });
});

describe("the loader's config request", () => {
  it("counts loads per allowed site, and refusals per refused site; Parley's own pages and origin-less calls count nothing", async () => {
    const { bot } = await botWith({ access: { allowedOrigins: ["shop.example.com"] } });
    for (let i = 0; i < 3; i++) expect((await call(`/api/widget/${bot.id}/config`, { origin: SHOP })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await call(`/api/widget/${bot.id}/config`, { origin: OTHER })).status).toBe(403);
    expect((await call(`/api/widget/${bot.id}/config`, { origin: BASE })).status).toBe(200);
    expect((await call(`/api/widget/${bot.id}/config`)).status).toBe(200);
    const rows = await rowsUntil(bot.id, (r) => find(r, SHOP, "loaded")?.count === 3 && find(r, OTHER, "origin_not_allowed")?.count === 2);
    expect(rows.map((r) => `${r.origin} ${r.kind} ${r.count}`).sort()).toEqual([`${OTHER} origin_not_allowed 2`, `${SHOP} loaded 3`]);
    const loaded = find(rows, SHOP, "loaded")!;
    expect(loaded.lastSeenAt).toBeGreaterThanOrEqual(loaded.firstSeenAt);
  });

  it("a private chatbot's refusal is counted as private, still answering 404 as for an unknown id", async () => {
    const { bot } = await botWith({}, "private");
    const res = await call(`/api/widget/${bot.id}/config`, { origin: SHOP });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "No chatbot with this id." } });
    const rows = await rowsUntil(bot.id, (r) => r.length > 0);
    expect(rows.map((r) => [r.origin, r.kind, r.count])).toEqual([[SHOP, "private", 1]]);
  });
});

describe("the chat API, widget actions and iframe page", () => {
  it("origin not allowed: chat messages, history and actions from a refused site are counted", async () => {
    const { bot } = await botWith({ access: { allowedOrigins: ["shop.example.com"] } });
    const vid = visitor();
    expect((await call(`/api/chat/${bot.id}`, { origin: OTHER, body: { visitorId: vid, message: "hi", stream: false } })).status).toBe(403);
    expect((await call(`/api/chat/${bot.id}/history?visitorId=${vid}`, { origin: OTHER })).status).toBe(403);
    expect((await call(`/api/widget/${bot.id}/handoff`, { origin: OTHER, body: { visitorId: vid } })).status).toBe(403);
    const rows = await rowsUntil(bot.id, (r) => find(r, OTHER, "origin_not_allowed")?.count === 3);
    expect(rows).toHaveLength(1);
  });

  it("unverified visitor: the iframe's chat (Parley's origin) is counted against the host page named in its address", async () => {
    const { bot } = await botWith({ access: { requireVerified: true } });
    await db
      .update(chatbots)
      .set({ identitySecret: await sealSecret(env as unknown as Env, "s3cret") })
      .where(eq(chatbots.id, bot.id));
    const referer = `${BASE}/widget/frame/${bot.id}?host=${encodeURIComponent(SHOP)}&v=1`;
    const res = await call(`/api/chat/${bot.id}`, { origin: BASE, referer, body: { visitorId: visitor(), message: "hi", stream: false, channel: "widget" } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("visitor_not_verified");
    // A forged hash is refused the same way.
    await call(`/api/chat/${bot.id}/history?visitorId=${visitor()}&hash=${"0".repeat(64)}`, { referer });
    const rows = await rowsUntil(bot.id, (r) => find(r, SHOP, "visitor_not_verified")?.count === 2);
    expect(rows).toHaveLength(1);
  });

  it("private: the chat API from the iframe is counted as private", async () => {
    const { bot } = await botWith({}, "private");
    const referer = `${BASE}/widget/frame/${bot.id}?host=${encodeURIComponent(SHOP)}`;
    expect((await call(`/api/chat/${bot.id}`, { origin: BASE, referer, body: { visitorId: visitor(), message: "hi", stream: false } })).status).toBe(404);
    await rowsUntil(bot.id, (r) => find(r, SHOP, "private")?.count === 1);
  });

  it("the iframe page refused for a host not allowed counts it; the dashboard preview counts nothing", async () => {
    const { bot } = await botWith({ access: { allowedOrigins: ["shop.example.com"] } });
    expect((await call(`/widget/frame/${bot.id}?host=${encodeURIComponent(OTHER)}`)).status).toBe(403);
    expect((await call(`/widget/frame/${bot.id}?preview=1&host=${encodeURIComponent(BASE)}`)).status).toBe(200);
    const rows = await rowsUntil(bot.id, (r) => r.length > 0);
    expect(rows.map((r) => [r.origin, r.kind])).toEqual([[OTHER, "origin_not_allowed"]]);
  });

  it("rate limiting is not a site refusal: nothing is recorded for a 429", async () => {
    const { bot } = await botWith({ access: { rateLimitPerMinute: 1, rateLimitPerHour: 100 } });
    const vid = visitor();
    const ip = "10.31.1.1";
    const send = () =>
      worker.fetch(
        new Request(`${BASE}/api/chat/${bot.id}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip, Origin: SHOP },
          body: JSON.stringify({ visitorId: vid, message: "hello", stream: false }),
        }),
      );
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(429);
    await new Promise((r) => setTimeout(r, 300));
    expect(await rowsOf(bot.id)).toEqual([]);
  });
});

describe("the cap per chatbot", () => {
  it(`keeps at most ${MAX_SITES_PER_KIND} sites per kind; listed sites keep counting; a quiet row makes room, a fresh one does not`, async () => {
    const { bot } = await botWith();
    const ctx = { db };
    const now = Date.now();
    for (let i = 0; i < MAX_SITES_PER_KIND; i++) expect(await upsertSiteEvent(ctx, bot.id, `https://s${i}.example.com`, "origin_not_allowed", now)).toBe(true);
    // Full: a new site is dropped while every row is fresh…
    expect(await upsertSiteEvent(ctx, bot.id, "https://new.example.com", "origin_not_allowed", now + 1)).toBe(false);
    // …a listed site still counts, and other kinds have their own room.
    expect(await upsertSiteEvent(ctx, bot.id, "https://s3.example.com", "origin_not_allowed", now + 2)).toBe(true);
    expect(await upsertSiteEvent(ctx, bot.id, SHOP, "loaded", now + 2)).toBe(true);
    let rows = await rowsOf(bot.id);
    expect(rows.filter((r) => r.kind === "origin_not_allowed")).toHaveLength(MAX_SITES_PER_KIND);
    expect(find(rows, "https://s3.example.com", "origin_not_allowed")?.count).toBe(2);
    expect(find(rows, "https://new.example.com", "origin_not_allowed")).toBeUndefined();

    // s0 has been quiet for longer than RECYCLE_AFTER_MS: the next new site takes its place.
    await db
      .update(widgetSites)
      .set({ lastSeenAt: now - RECYCLE_AFTER_MS - 1 })
      .where(and(eq(widgetSites.chatbotId, bot.id), eq(widgetSites.origin, "https://s0.example.com")));
    expect(await upsertSiteEvent(ctx, bot.id, "https://new.example.com", "origin_not_allowed", now + 3)).toBe(true);
    rows = await rowsOf(bot.id);
    expect(rows.filter((r) => r.kind === "origin_not_allowed")).toHaveLength(MAX_SITES_PER_KIND);
    expect(find(rows, "https://s0.example.com", "origin_not_allowed")).toBeUndefined();
    expect(find(rows, "https://new.example.com", "origin_not_allowed")?.count).toBe(1);
  });

  it("a flood of invented Origin headers through the Worker stays within the cap", async () => {
    const { bot } = await botWith({ access: { allowedOrigins: ["shop.example.com"] } });
    const n = MAX_SITES_PER_KIND + 15;
    for (let i = 0; i < n; i += 13)
      await Promise.all(
        Array.from({ length: Math.min(13, n - i) }, (_, j) =>
          call(`/api/widget/${bot.id}/config`, { origin: `https://x${i + j}-${newId().slice(0, 6)}.evil.test` }),
        ),
      );
    // Wait until the writes have settled (no change for a moment), then check the bound.
    let last = -1;
    for (let stable = 0; stable < 3;) {
      await new Promise((r) => setTimeout(r, 100));
      const size = (await rowsOf(bot.id)).length;
      stable = size === last ? stable + 1 : 0;
      last = size;
    }
    expect(last).toBe(MAX_SITES_PER_KIND);
  });
});

describe("Origins & access shows the sites and allows one in a click", async () => {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Allow");
  const editor = await makeUser({ name: "Editor" });
  const agent = await makeUser({ name: "Agent" });
  await addMember(org.id, editor.id, "editor");
  await addMember(org.id, agent.id, "agent");
  await db
    .update(chatbots)
    .set({ settings: { access: { allowedOrigins: ["shop.example.com"], rateLimitPerMinute: 7 } } })
    .where(eq(chatbots.id, bot.id));
  const path = `/app/${org.id}/${bot.id}/settings/oryg`;
  const accessOf = async (id: string) =>
    ((await db.select({ settings: chatbots.settings }).from(chatbots).where(eq(chatbots.id, id)).get())!.settings as { access: Record<string, unknown> })
      .access;

  it("lists each refused site with its reason, count and last seen, and the sites it loaded on", async () => {
    await call(`/api/widget/${bot.id}/config`, { origin: SHOP });
    await call(`/api/widget/${bot.id}/config`, { origin: OTHER });
    await call(`/api/widget/${bot.id}/config`, { origin: OTHER });
    await rowsUntil(bot.id, (r) => find(r, OTHER, "origin_not_allowed")?.count === 2 && !!find(r, SHOP, "loaded"));
    const html = await (await request(path, { cookie: editor.cookie })).text();
    expect(html).toContain("Where your widget was used");
    const refusedRow = html.match(new RegExp(`<li[^>]*>(?:(?!</li>).)*${OTHER.replace(/\./g, "\\.")}(?:(?!</li>).)*</li>`, "s"))?.[0] ?? "";
    expect(refusedRow).toContain("Site not in allowed origins");
    expect(refusedRow).toContain(">2 times<");
    expect(refusedRow).toMatch(/<time dateTime="\d{4}-/);
    expect(refusedRow).toContain('name="intent" value="allow-site"');
    expect(refusedRow).toContain(`name="site" value="${OTHER}"`);
    expect(refusedRow).toContain("Allow this site");
    expect(html).toContain("Loaded on");
    const loadedRow = html.match(new RegExp(`<li[^>]*>(?:(?!</li>).)*>${SHOP.replace(/\./g, "\\.")}<(?:(?!</li>).)*</li>`, "s"))?.[0] ?? "";
    expect(loadedRow).toContain(">1 load<");
  });

  it("Allow this site adds the origin through the access settings (nothing else changes); the row then says Allowed now", async () => {
    const res = await request(path, { cookie: editor.cookie, form: { intent: "allow-site", site: OTHER } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`${OTHER} is now an allowed origin.`);
    expect(await accessOf(bot.id)).toMatchObject({ allowedOrigins: ["shop.example.com", OTHER], rateLimitPerMinute: 7 });
    const page = await (await request(path, { cookie: editor.cookie })).text();
    expect(page).toContain("Allowed now");
    // The form's textarea shows the new list, so a later save keeps the site.
    expect(page).toMatch(new RegExp(`shop\\.example\\.com\\n${OTHER.replace(/\./g, "\\.")}</textarea>`));
    // The site now passes.
    expect((await call(`/api/widget/${bot.id}/config`, { origin: OTHER })).status).toBe(200);
    // Allowing it again changes nothing.
    const again = await request(path, { cookie: editor.cookie, form: { intent: "allow-site", site: OTHER } });
    expect(await again.text()).toContain(`${OTHER} is already allowed.`);
    expect((await accessOf(bot.id)).allowedOrigins).toEqual(["shop.example.com", OTHER]);
  });

  it("refuses what is not a site, a full list, and an empty list stays open to every site", async () => {
    for (const site of ["", "*.example.com", "javascript:alert(1)", "not a site", "x".repeat(400)]) {
      const res = await request(path, { cookie: editor.cookie, form: { intent: "allow-site", site } });
      expect(res.status, site).toBe(400);
    }
    expect((await accessOf(bot.id)).allowedOrigins).toEqual(["shop.example.com", OTHER]);

    const full = await botWith({ access: { allowedOrigins: Array.from({ length: 50 }, (_, i) => `site${i}.example.com`) } });
    const res = await request(`/app/${full.org.id}/${full.bot.id}/settings/oryg`, { cookie: full.owner.cookie, form: { intent: "allow-site", site: SHOP } });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("The allowed origins list is full (50).");
    expect((await accessOf(full.bot.id)).allowedOrigins).toHaveLength(50);

    const open = await botWith({ access: { allowedOrigins: [] } });
    const r = await request(`/app/${open.org.id}/${open.bot.id}/settings/oryg`, { cookie: open.owner.cookie, form: { intent: "allow-site", site: SHOP } });
    expect(await r.text()).toContain(`${SHOP} is already allowed.`);
    expect((await accessOf(open.bot.id)).allowedOrigins).toEqual([]);
  });

  it("is for editors and above (agent 403); another organisation's chatbot answers 404 and is not changed", async () => {
    expect((await request(path, { cookie: agent.cookie, form: { intent: "allow-site", site: "https://agent.example.com" } })).status).toBe(403);
    const outsider = await makeUser({ name: "Outsider" });
    const theirs = await makeOrg(outsider.id, "Theirs");
    expect((await request(path, { cookie: outsider.cookie, form: { intent: "allow-site", site: "https://outsider.example.com" } })).status).toBe(404);
    // Their own org id with our chatbot id: still 404.
    const mixed = `/app/${theirs.org.id}/${bot.id}/settings/oryg`;
    expect((await request(mixed, { cookie: outsider.cookie, form: { intent: "allow-site", site: "https://outsider.example.com" } })).status).toBe(404);
    expect((await accessOf(bot.id)).allowedOrigins).toEqual(["shop.example.com", OTHER]);
  });
});
