import { describe, expect, it } from "vitest";
import { loadBlog } from "~/.server/content/blog";
import { loadDocs } from "~/.server/content/docs";
import { COMPARISONS, comparisonPath } from "~/lib/comparisons";
import { STUDIO_TOOLS } from "~/lib/studio/tools";
import { BASE, request } from "./helpers";

describe("discoverability", () => {
  it("sitemap.xml lists every public page, post, doc and studio tool, once, with absolute URLs", async () => {
    const res = await request("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(new Set(locs).size).toBe(locs.length);
    for (const loc of locs) expect(loc.startsWith(`${BASE}/`)).toBe(true);
    const paths = locs.map((l) => new URL(l).pathname);
    const expected = [
      "/",
      "/product/analytics",
      ...COMPARISONS.map(comparisonPath),
      "/product/live-chat",
      "/product/live-chat-alternative",
      "/voice",
      "/pricing",
      "/company",
      "/privacy",
      "/blog",
      "/docs",
      "/docs/api",
      "/studio",
      ...loadBlog().posts.map((p) => p.url),
      ...loadDocs().ordered.map((d) => d.url),
      ...STUDIO_TOOLS.map((t) => `/studio/${t.slug}`),
    ];
    for (const p of expected) expect(paths).toContain(p);
    expect(loadBlog().posts.length).toBeGreaterThanOrEqual(6);
    // Posts carry their date; nothing private is listed.
    expect(xml).toMatch(/<loc>[^<]+\/blog\/[a-z0-9-]+<\/loc><lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);
    expect(paths.some((p) => /^\/(app|api|test|widget|dev)(\/|$)/.test(p))).toBe(false);
    // Every listed page answers 200.
    for (const p of paths) expect([p, (await request(p)).status]).toEqual([p, 200]);
  });

  it("robots.txt points at the sitemap and keeps crawlers out of the app and the API", async () => {
    const res = await request("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain("User-agent: *\nAllow: /\n");
    for (const d of ["/app", "/api/", "/widget/", "/test/"]) expect(text).toContain(`Disallow: ${d}\n`);
    expect(text).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });

  it("an unknown blog or docs slug is the not-found screen inside the site, marked noindex", async () => {
    for (const p of ["/blog/no-such-post", "/docs/no/such/page", "/studio/no-such-tool"]) {
      const res = await request(p);
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain('<meta name="robots" content="noindex"/>');
      expect(html).toContain("Page not found");
      expect(html).toContain('aria-label="Main"'); // the site's navigation is there
      expect(html.match(/<main\b/g)).toHaveLength(1);
    }
  });
});
