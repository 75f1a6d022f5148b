import { parse, type HTMLElement } from "node-html-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { loadBlog } from "~/.server/content/blog";
import { loadDocs } from "~/.server/content/docs";
import {
  COMPARISONS,
  comparisonPath,
  examplePlans,
  extrasFor,
  PARLEY,
  PRICE_EXAMPLE,
  PRICES_READ_ON,
  parleyPlanFor,
  planNeeded,
  type FeatureId,
  type ParleyFeature,
} from "~/lib/comparisons";
import { cheapestPlanWith, PLAN_IDS, PLANS, type PlanExtras } from "~/lib/plans";
import { makeOrg, makeUser } from "../factories";
import { BASE, request } from "./helpers";

// The comparison pages tell the truth (issue #19):
//  - every Parley "yes" links to a page that exists: a docs page (and the heading it points at), a
//    public page answering 200, or a dashboard route that answers 200 to its owner;
//  - a "not yet" row names the proof it will have, and that proof does not exist yet (when it does,
//    this test says which field to flip);
//  - every link in a Parley cell answers below 400 through the real Worker;
//  - every competitor claim carries a footnote to a source with a URL and the date it was read;
//  - no competitor price is quoted unless its own page said it (QUOTED below), and Parley's price for
//    the stated example is computed from PLANS.

const PATHS = COMPARISONS.map(comparisonPath);

/** Every dollar figure the competitor columns may say, with the source page that says it. */
const QUOTED: Record<string, string> = { "$25 per month": "cb-team" };

const ROUTE_FILES = new Set(Object.keys(import.meta.glob("/app/routes/*.tsx")).map((f) => f.slice("/app/routes/".length, -".tsx".length)));

/** `/app/:orgId/:chatbotId/tools` → `app.$orgId.$chatbotId.tools` (Remix flat routes). */
const routeFileFor = (pattern: string) =>
  pattern
    .slice(1)
    .split("/")
    .map((seg) => (seg.startsWith(":") ? `$${seg.slice(1)}` : seg))
    .join(".");

/** The route file a pattern resolves to: `x.tsx`, or `x._index.tsx` for a path that is also a layout. */
const hasRouteFile = (pattern: string) => ROUTE_FILES.has(routeFileFor(pattern)) || ROUTE_FILES.has(`${routeFileFor(pattern)}._index`);

/** "Yes" features with no dashboard screen of their own, and why. Every other "yes" names its screen. */
const NO_SCREEN: Partial<Record<FeatureId, string>> = {
  sources: "shown to visitors in the chat, under each answer",
  selfHost: "a command run on your own machine (npm run deploy)",
};

/** The plan extra each gated feature needs (app/lib/plans.ts is what the page shows; this pins which extra). */
const GATED: Partial<Record<FeatureId, keyof PlanExtras>> = {
  handoff: "liveChat",
  agentWorkflow: "liveChat",
  voice: "voice",
  phone: "phoneNumbers",
  woocommerce: "woocommerce",
  api: "api",
  webhooks: "webhooks",
};

const text = (el: HTMLElement | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();

async function load(path: string, cookie?: string) {
  const res = await request(path, { cookie });
  const html = await res.text();
  return { res, html, doc: parse(html) };
}

let owner: { cookie: string; orgId: string; chatbotId: string };

/** The status a proof answers with: docs and public pages as a visitor, dashboard patterns as the owner of a real chatbot. */
async function proofStatus(proof: string): Promise<{ status: number; html: string }> {
  const [path, anchor] = proof.split("#");
  if (path.startsWith("/app/") || path.includes("/:")) {
    const real = path.replace(":orgId", owner.orgId).replace(":chatbotId", owner.chatbotId);
    const res = await request(real, { cookie: owner.cookie });
    return { status: res.status, html: await res.text() };
  }
  const res = await request(path);
  const html = await res.text();
  if (anchor && res.status === 200 && !html.includes(`id="${anchor}"`)) return { status: 404, html };
  return { status: res.status, html };
}

const featuresUsed = (): [FeatureId, ParleyFeature][] => {
  const ids = new Set<FeatureId>(COMPARISONS.flatMap((c) => [...c.rows.map((r) => r.feature), ...c.differences]));
  return [...ids].map((id) => [id, PARLEY[id]]);
};

describe("comparison pages: claims about Parley", () => {
  beforeAll(async () => {
    const user = await makeUser();
    const { org, bot } = await makeOrg(user.id, "Comparer", { plan: "scale" });
    owner = { cookie: user.cookie, orgId: org.id, chatbotId: bot.id };
  });

  it("every “yes” links to a page or screen that exists", async () => {
    const docs = new Set(loadDocs().ordered.map((d) => d.url));
    const problems: string[] = [];
    for (const [id, f] of featuresUsed()) {
      if (f.status !== "yes") continue;
      if (!f.proof) {
        problems.push(`${id}: "yes" without a proof`);
        continue;
      }
      const path = f.proof.split("#")[0];
      if (path.startsWith("/docs/") && !docs.has(path)) problems.push(`${id}: ${path} is not a page in content/docs`);
      if (path.startsWith("/app/") && !hasRouteFile(path)) problems.push(`${id}: no route file for ${path}`);
      const { status } = await proofStatus(f.proof);
      if (status !== 200) problems.push(`${id}: ${f.proof} answers ${status}`);
    }
    expect(problems).toEqual([]);
  });

  it("every “not yet” names the proof it will have, and that proof does not exist yet", async () => {
    const notYet = featuresUsed().filter(([, f]) => f.status === "not-yet");
    for (const [id, f] of notYet) {
      expect(f.proof, id).toMatch(/^\//);
      const { status } = await proofStatus(f.proof!);
      // When this fails, the feature has been merged: set PARLEY.${id}.status to "yes" in app/lib/comparisons.ts.
      expect(status, `${id}: ${f.proof} exists now — flip PARLEY.${id}.status to "yes"`).toBe(404);
    }
  });

  it("every “yes” row names the dashboard screen that provides it: its route file exists and it answers 200 to the owner", async () => {
    const problems: string[] = [];
    for (const [id, f] of featuresUsed()) {
      if (f.status !== "yes") continue;
      if (!f.screen) {
        if (!NO_SCREEN[id]) problems.push(`${id}: "yes" without a screen (add PARLEY.${id}.screen, or NO_SCREEN with a reason)`);
        continue;
      }
      expect(f.screen, id).toMatch(/^\/app(\/|$)/);
      if (!hasRouteFile(f.screen)) problems.push(`${id}: no route file for ${f.screen} (${routeFileFor(f.screen)}.tsx)`);
      const { status } = await proofStatus(f.screen);
      if (status !== 200) problems.push(`${id}: ${f.screen} answers ${status} to a signed-in owner`);
    }
    expect(problems).toEqual([]);
    // The check has teeth: a screen that does not exist is caught both ways.
    expect(hasRouteFile("/app/:orgId/:chatbotId/no-such-screen")).toBe(false);
    expect((await proofStatus("/app/:orgId/:chatbotId/no-such-screen")).status).toBe(404);
  });

  it("a “yes” that needs a higher plan says which, derived from PLANS, and the example picks the plan its features need", async () => {
    // Which extra each gated feature needs, and nothing else is gated.
    for (const [id, f] of featuresUsed()) expect(f.needs?.extra, id).toBe(GATED[id]);
    for (const [id, extra] of Object.entries(GATED) as [FeatureId, keyof PlanExtras][]) {
      // A gated feature is not on Free (else the label would be pointless) and some plan has it.
      expect(PLANS.free.extras[extra], id).toBe(false);
      expect(planNeeded(PARLEY[id]), id).toBe(cheapestPlanWith(extra));
    }
    for (const c of COMPARISONS) {
      const { doc } = await load(comparisonPath(c));
      for (const row of doc.querySelectorAll("tbody tr[data-feature]")) {
        const id = row.getAttribute("data-feature") as FeatureId;
        const f: ParleyFeature = PARLEY[id];
        const labels = row.querySelectorAll('td[data-cell="parley"] [data-plan]');
        const plan = f.status === "yes" && f.needs ? cheapestPlanWith(f.needs.extra) : null;
        if (!plan) {
          expect(labels, `${c.slug} ${id}`).toHaveLength(0);
          continue;
        }
        expect(
          labels.map((l) => l.getAttribute("data-plan")),
          `${c.slug} ${id}`,
        ).toEqual([plan.id]);
        expect(text(labels[0]), `${c.slug} ${id}`).toContain(`${plan.name} plan and above`);
        // …and it is the first plan in PLAN_IDS order that has the extra.
        const first = PLAN_IDS.find((p) => PLANS[p].extras[f.needs!.extra]);
        expect(plan.id, `${c.slug} ${id}`).toBe(first);
      }
    }
    // Concretely, today: live inbox, voice and WooCommerce need Growth; phone needs Scale; API and webhooks need Starter.
    expect(planNeeded(PARLEY.handoff)?.id).toBe("growth");
    expect(planNeeded(PARLEY.woocommerce)?.id).toBe("growth");
    expect(planNeeded(PARLEY.voice)?.id).toBe("growth");
    expect(planNeeded(PARLEY.phone)?.id).toBe("scale");
    expect(planNeeded(PARLEY.api)?.id).toBe("starter");
    expect(planNeeded(PARLEY.webhooks)?.id).toBe("starter");
  });

  it("WooCommerce is among the differences on every page and a row of every table, linking to its docs page", async () => {
    for (const c of COMPARISONS) {
      expect(c.differences, c.slug).toContain("woocommerce");
      expect(
        c.rows.map((r) => r.feature),
        c.slug,
      ).toContain("woocommerce");
      const { doc } = await load(comparisonPath(c));
      const row = doc.querySelector('tbody tr[data-feature="woocommerce"]')!;
      expect(row.querySelector('td[data-cell="parley"] a')?.getAttribute("href"), c.slug).toBe("/docs/integrations/woocommerce");
      expect(doc.querySelector('#different a[href="/docs/integrations/woocommerce"]'), c.slug).not.toBeNull();
    }
  });

  it("the channels “no” names every channel Parley does answer on, phone calls included", () => {
    expect(PARLEY.phone.status).toBe("yes");
    for (const channel of [/widget/, /share link/, /REST API/, /phone calls/]) expect(PARLEY.channels.text).toMatch(channel);
  });

  it("a “no” claims nothing: no proof, no link", () => {
    for (const [id, f] of featuresUsed()) if (f.status === "no") expect(f.proof, id).toBeUndefined();
  });

  it("on each page, every Parley cell's link answers below 400, and “not yet” and “no” cells link nowhere", async () => {
    for (const path of PATHS) {
      const { doc } = await load(path);
      const rows = doc.querySelectorAll("tbody tr[data-feature]");
      const c = COMPARISONS.find((x) => comparisonPath(x) === path)!;
      expect(
        rows.map((r) => r.getAttribute("data-feature")),
        path,
      ).toEqual(c.rows.map((r) => r.feature));
      for (const row of rows) {
        const id = row.getAttribute("data-feature") as FeatureId;
        const links = row.querySelectorAll('td[data-cell="parley"] a').map((a) => a.getAttribute("href")!);
        expect(row.getAttribute("data-status"), `${path} ${id}`).toBe(PARLEY[id].status);
        expect(text(row.querySelector('td[data-cell="parley"]')), `${path} ${id}`).toContain(PARLEY[id].text);
        if (PARLEY[id].status === "yes") expect(links, `${path} ${id}`).toHaveLength(1);
        else expect(links, `${path} ${id}`).toEqual([]);
        for (const href of links) expect([href, (await request(href)).status < 400], `${path} ${id}`).toEqual([href, true]);
      }
      // The "where Parley is different" points and the migration steps link to real pages too.
      for (const a of doc.querySelectorAll("#different a, #migrate a, #reading a")) {
        const href = a.getAttribute("href")!;
        expect([href, (await request(href)).status], path).toEqual([href, 200]);
      }
    }
  });
});

describe("comparison pages: claims about competitors", () => {
  it("every competitor cell, strength, price note and sourced step has a footnote to a listed source", async () => {
    for (const c of COMPARISONS) {
      const ids = new Set(c.sources.map((s) => s.id));
      const cells = [
        ...c.rows.map((r) => r.them),
        ...c.strengths,
        ...c.pricingModel,
        ...c.example.notIncluded,
        ...c.migration.filter((m) => m.source).map((m) => ({ text: m.text, source: m.source! })),
      ];
      for (const cell of cells) expect(ids.has(cell.source), `${c.slug}: ${cell.text}`).toBe(true);
      // Every listed source is cited at least once, and says where and when it was read.
      for (const s of c.sources) {
        expect(
          cells.some((cell) => cell.source === s.id),
          `${c.slug}: ${s.id} is never cited`,
        ).toBe(true);
        expect(s.url, s.id).toMatch(/^https:\/\//);
        expect(s.readOn, s.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (s.pageDate) expect(s.pageDate <= s.readOn, s.id).toBe(true);
      }
      expect(c.pricingUrl).toMatch(/^https:\/\//);

      const { doc } = await load(comparisonPath(c));
      for (const cell of doc.querySelectorAll('td[data-cell="competitor"]')) {
        const href = cell.querySelector("sup a")?.getAttribute("href") ?? "";
        expect(href, text(cell)).toMatch(/^#source-/);
        const target = doc.querySelector(href);
        expect(target, href).not.toBeNull();
        expect(text(target), href).toMatch(/Read on \d{1,2} \w+ \d{4}/);
        expect(target!.querySelector("a")?.getAttribute("href"), href).toMatch(/^https:\/\//);
      }
    }
  });

  it("quotes no competitor price its own page did not state", () => {
    // The formulas are ours, not the competitor's: they carry no figure at all.
    for (const c of COMPARISONS) expect(c.example.formula, c.slug).not.toMatch(/[$€£]\s?\d/);
    for (const c of COMPARISONS) {
      const claims = [...c.rows.map((r) => r.them), ...c.strengths, ...c.pricingModel, ...c.example.notIncluded];
      for (const cell of claims) {
        for (const m of cell.text.matchAll(/\$\s?\d[\d,.]*(?:\s+per\s+\w+)?/g)) {
          expect(QUOTED[m[0]], `${c.slug}: "${m[0]}" in "${cell.text}" is not a quoted price`).toBe(cell.source);
        }
      }
    }
  });

  it("the price comparison works the stated example from PLANS, with the plan its features need, and dates the competitor price search", async () => {
    // Replies and seats alone fit Starter; the features each page's example needs (the live inbox) take it to Growth.
    expect(parleyPlanFor(PRICE_EXAMPLE.conversationsPerMonth, PRICE_EXAMPLE.seats)).toBe(PLANS.starter);
    for (const c of COMPARISONS) {
      const { one, three, extras } = examplePlans(c);
      expect(extras, c.slug).toEqual(extrasFor(c.exampleNeeds));
      expect(extras, c.slug).toContain("liveChat");
      for (const plan of [one!, three!]) {
        expect(plan, c.slug).not.toBeNull();
        for (const e of extras) expect(plan.extras[e], `${c.slug}: ${plan.id} lacks ${e}`).toBe(true);
        // The cheapest that fits: every cheaper plan lacks a needed extra, replies or seats.
        for (const id of PLAN_IDS.slice(0, PLAN_IDS.indexOf(plan.id))) {
          const p = PLANS[id];
          const fits = extras.every((e) => p.extras[e]) && p.limits.members >= PRICE_EXAMPLE.seats;
          expect(fits && p.limits.repliesPerMonth >= (plan === one ? 2_000 : 6_000), `${c.slug}: ${id} would do`).toBe(false);
        }
      }
      expect(one, c.slug).toBe(PLANS.growth);
      expect(three, c.slug).toBe(PLANS.growth);

      const { doc } = await load(comparisonPath(c));
      const price = doc.querySelector("#price")!;
      expect(text(price.querySelector("h2"))).toBe("Price for 2,000 conversations a month and 3 seats");
      expect(price.querySelectorAll("[data-price]").map((e) => Number(e.getAttribute("data-price")))).toEqual([one!.priceMonthly, three!.priceMonthly]);
      expect(text(price)).toContain(`$${one!.priceMonthly} a month`);
      // The arithmetic is shown, and the reason for the plan.
      expect(text(price)).toContain("2,000 × 1 = 2,000 credits");
      expect(text(price)).toContain("2,000 × 3 = 6,000 credits");
      expect(text(price.querySelector('[data-testid="example-needs"]'))).toContain("Growth plan and above");
      // The competitor side: how to work the example, its usage charges (footnoted), and the dated "could not read".
      expect(text(price)).toContain(c.example.formula);
      for (const li of price.querySelectorAll('[data-testid="not-included"] li')) expect(li.querySelector("sup a"), c.slug).not.toBeNull();
      expect(c.example.prices, c.slug).toBeNull();
      const notRead = price.querySelector('[data-competitor-price="not-read"]')!;
      expect(text(notRead), c.slug).toContain("26 November 2026");
      expect(text(notRead), c.slug).toMatch(/stored copies/);
      expect(PRICES_READ_ON).toBe("2026-11-26");
      expect(notRead.querySelector(`a[href="${c.pricingUrl}"]`), c.slug).not.toBeNull();
      // The only dollar figures in the section are Parley's and quoted ones.
      const allowed = new Set([`$${one!.priceMonthly}`, `$${three!.priceMonthly}`, ...Object.keys(QUOTED).map((q) => q.split(" ")[0])]);
      for (const m of text(price).matchAll(/\$\d[\d,.]*/g)) expect(allowed.has(m[0]), `${c.slug}: ${m[0]}`).toBe(true);
    }
  });
});

describe("comparison pages: a public page like the others", () => {
  it("answer 200 with their own title, description and canonical, one h1, no script and no cookie", async () => {
    // Every public page in the sitemap: each comparison page's title and description is its own.
    const sitemap = await (await request("/sitemap.xml")).text();
    const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].slice(BASE.length));
    expect(pages.length).toBeGreaterThan(20);
    for (const path of PATHS) expect(pages).toContain(path);
    const titles = new Map<string, string[]>();
    const descriptions = new Map<string, string[]>();
    for (const path of pages) {
      const { res, html, doc } = await load(path);
      expect(res.status, path).toBe(200);
      const title = text(doc.querySelector("title"));
      const description = doc.querySelector('meta[name="description"]')?.getAttribute("content") ?? "";
      titles.set(title, [...(titles.get(title) ?? []), path]);
      descriptions.set(description, [...(descriptions.get(description) ?? []), path]);
      if (!PATHS.includes(path)) continue;
      expect(description.length, path).toBeGreaterThan(80);
      expect(description.length, path).toBeLessThanOrEqual(200);
      expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href"), path).toBe(BASE + path);
      expect(doc.querySelectorAll("h1").length, path).toBe(1);
      expect(html, path).not.toMatch(/<script\b/);
      expect(res.headers.getSetCookie(), path).toEqual([]);
    }
    for (const path of PATHS) {
      const { doc } = await load(path);
      const title = text(doc.querySelector("title"));
      const description = doc.querySelector('meta[name="description"]')?.getAttribute("content") ?? "";
      expect(titles.get(title), `title of ${path}`).toEqual([path]);
      expect(descriptions.get(description), `description of ${path}`).toEqual([path]);
    }
  });

  it("are linked from /pricing, the footer of every public page, the sitemap and their related posts", async () => {
    const pricing = (await load("/pricing")).doc;
    for (const path of PATHS) expect(pricing.querySelector(`#faq a[href="${path}"]`), path).not.toBeNull();
    for (const page of ["/", "/docs", "/blog", ...PATHS]) {
      const footer = (await load(page)).doc.querySelector("footer")!;
      for (const path of PATHS) expect(footer.querySelector(`a[href="${path}"]`), `${page} → ${path}`).not.toBeNull();
    }
    const sitemap = await (await request("/sitemap.xml")).text();
    for (const path of PATHS) expect(sitemap).toContain(`<loc>${BASE}${path}</loc>`);
    const blog = loadBlog();
    for (const c of COMPARISONS) {
      // Each page lists its related posts, and every one of those posts links back to it.
      const posts = c.posts.map((s) => blog.bySlug.get(s));
      expect(posts.every(Boolean), c.slug).toBe(true);
      for (const [i, p] of posts.entries())
        expect(p!.html.includes(`href="${comparisonPath(c)}"`), `${c.posts[i]} does not link to ${comparisonPath(c)}`).toBe(true);
      const { doc } = await load(comparisonPath(c));
      expect(
        doc.querySelectorAll("#reading a").map((a) => a.getAttribute("href")),
        c.slug,
      ).toEqual(posts.map((p) => p!.url));
    }
  });
});
