import { describe, expect, it } from "vitest";
import { buildDocs, humanise, loadDocs, neighbours, type DocTreeNode } from "./docs";
import { ContentError } from "./front-matter";
import { PLAN_IDS, PLANS, formatBytes, formatCount } from "~/lib/plans";

const fixtures = import.meta.glob("./fixtures/docs/**/*.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const FIXTURE_ROOT = "./fixtures/docs/";

const outline = (nodes: DocTreeNode[]): unknown[] => nodes.map((n) => (n.kind === "page" ? n.url : { [n.label]: outline(n.children) }));

describe("docs tree", () => {
  const docs = buildDocs(fixtures, FIXTURE_ROOT);

  it("nests folders any depth, orders pages by `order` and folders by the parent's `sections`, then smallest order", () => {
    expect(outline(docs.tree)).toEqual([
      { Guide: ["/docs/guide/intro", { Advanced: ["/docs/guide/advanced/deep"] }, "/docs/guide/later"] },
      { Zeta: ["/docs/zeta/z"] },
      { Alpha: ["/docs/alpha/a"] },
    ]);
    expect(docs.home?.url).toBe("/docs");
    expect(docs.home?.title).toBe("Fixture docs");
  });

  it("walks previous/next across the whole tree in reading order", () => {
    expect(docs.ordered.map((p) => p.slug)).toEqual(["", "guide/intro", "guide/advanced/deep", "guide/later", "zeta/z", "alpha/a"]);
    expect(neighbours(docs, "guide/advanced/deep")).toMatchObject({ previous: { slug: "guide/intro" }, next: { slug: "guide/later" } });
    expect(neighbours(docs, "alpha/a").next).toBeNull();
    expect(neighbours(docs, "nope")).toEqual({ previous: null, next: null });
  });

  it("renders pages with the front-matter title, headings and the repository path", () => {
    const intro = docs.pages.get("guide/intro")!;
    expect(intro.title).toBe("Introduction");
    expect(intro.html).not.toContain("<h1");
    expect(intro.headings).toEqual([{ depth: 2, text: "Install the widget", id: "install-the-widget" }]);
    expect(intro.file).toBe("./fixtures/docs/guide/intro.md");
  });

  it("humanises folder names", () => {
    expect(humanise("getting-started")).toBe("Getting started");
    expect(humanise("api")).toBe("API");
    expect(humanise("rest-api-keys")).toBe("REST API keys");
    expect(humanise("self-hosting")).toBe("Self-hosting");
  });

  it("refuses malformed files naming them", () => {
    const ok = "---\ntitle: T\nsummary: S\n---\nx";
    expect(() => buildDocs({ "/content/docs/a.md": "---\ntitle: T\n---\nx" })).toThrow(/^content\/docs\/a\.md: summary/);
    expect(() => buildDocs({ "/content/docs/a.md": "---\ntitle: T\nsummary: S\norder: first\n---\nx" })).toThrow(/content\/docs\/a\.md: order/);
    expect(() => buildDocs({ "/content/docs/Bad Name.md": ok })).toThrow(ContentError);
    expect(() => buildDocs({ "/content/docs/search.md": ok })).toThrow(/built-in page/);
    expect(() => buildDocs({ "/content/docs/a.md": "---\ntitle: T\nsummary: S\nsections: [x]\n---\nx" })).toThrow(/index\.md/);
  });
});

describe("the site's real docs", () => {
  it("all parse, with a title, a summary and a unique URL", () => {
    const docs = loadDocs();
    expect(docs.pages.size).toBeGreaterThan(5);
    for (const p of docs.pages.values()) {
      expect(p.title.length, p.file).toBeGreaterThan(0);
      expect(p.summary.length, p.file).toBeGreaterThan(0);
      expect(p.file).toMatch(/^content\/docs\/.+\.md$/);
    }
    expect(new Set(docs.ordered.map((p) => p.url)).size).toBe(docs.pages.size);
  });

  it("internal links between docs pages point at pages that exist", () => {
    const docs = loadDocs();
    const known = new Set([...docs.pages.values()].map((p) => p.url).concat(["/docs/api", "/docs/search", "/docs"]));
    for (const p of docs.pages.values()) {
      for (const m of p.html.matchAll(/href="(\/docs[^"#?]*)/g)) expect(known.has(m[1]), `${p.file} links to ${m[1]}`).toBe(true);
    }
  });

  // The demo chatbot answers "how much does it cost?" from this page: its prices must be PLANS'.
  it("the plans page states every plan's price and the Free plan's limits as PLANS has them", () => {
    const page = loadDocs().pages.get("account/plans-and-limits")!;
    const text = page.html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
    const prices = /Prices are per organisation per month, in US dollars: ([^.]+)\./.exec(text)?.[1] ?? "";
    for (const id of PLAN_IDS) expect(prices).toMatch(new RegExp(`${PLANS[id].name}(?: plan costs)? \\$${PLANS[id].priceMonthly}\\b`));
    const row = /Price per month((?:\s*\$\d+)+)/.exec(text)?.[1].trim().split(/\s+/);
    expect(row).toEqual(PLAN_IDS.map((id) => `$${PLANS[id].priceMonthly}`));
    const free = PLANS.free.limits;
    expect(text).toContain(
      `${free.chatbots} chatbot, ${formatCount(free.repliesPerMonth)} bot replies a month, ${formatCount(free.knowledgeChars)} knowledge characters and files up to ${formatBytes(free.fileSizeBytes)}`,
    );
  });
});
