import { afterAll, describe, expect, it } from "vitest";
import { baseURL, closeBrowser, newPage } from "./support/browser";

// Walks the whole public site as the sitemap lists it — every page, blog post and doc — in Chromium:
// each answers 200, has a title no other page has, logs no console error, and every internal link on
// it leads somewhere (links are checked once each, by GET, without following the app's sign-in redirects).

async function sitemapPaths(): Promise<string[]> {
  const res = await fetch(new URL("/sitemap.xml", baseURL()));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/xml/);
  const xml = await res.text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
}

describe("the public site", () => {
  afterAll(closeBrowser);

  it("every sitemap page: 200, a unique title, no console errors, no broken internal links", { timeout: 600_000 }, async () => {
    const paths = await sitemapPaths();
    // Every section of the site is in the sitemap.
    for (const p of [
      "/",
      "/pricing",
      "/company",
      "/privacy",
      "/blog",
      "/docs",
      "/studio",
      "/product/chatbase-alternative",
      "/product/hubspot-alternative",
      "/product/zendesk-alternative",
    ])
      expect(paths).toContain(p);
    expect(paths.filter((p) => p.startsWith("/blog/")).length).toBeGreaterThanOrEqual(6);
    expect(paths.filter((p) => p.startsWith("/docs/")).length).toBeGreaterThanOrEqual(10);

    const titles = new Map<string, string>();
    const links = new Map<string, string>(); // link → first page it was seen on
    const problems: string[] = [];
    const tracked = await newPage();
    try {
      for (const p of paths) {
        const before = tracked.errors().length;
        const response = await tracked.page.goto(p, { waitUntil: "load" });
        if (response?.status() !== 200) problems.push(`${p}: status ${response?.status()}`);
        const title = (await tracked.page.title()).trim();
        if (!title) problems.push(`${p}: no title`);
        else if (titles.has(title)) problems.push(`${p}: same title as ${titles.get(title)} ("${title}")`);
        else titles.set(title, p);
        const newErrors = tracked.errors().slice(before);
        if (newErrors.length) problems.push(`${p}: console errors: ${newErrors.join(" | ")}`);
        const hrefs = await tracked.page.$$eval("a[href]", (as) => as.map((a) => a.getAttribute("href") ?? ""));
        for (const href of hrefs) {
          if (!href.startsWith("/") || href.startsWith("//")) continue;
          const target = href.split("#")[0];
          if (target && !links.has(target)) links.set(target, p);
        }
      }
    } finally {
      await tracked.close();
    }

    for (const [link, from] of links) {
      const res = await fetch(new URL(link, baseURL()), { redirect: "manual" });
      // A redirect (e.g. /app → /login for a visitor) is a working link; 4xx/5xx are not.
      if (res.status >= 400) problems.push(`broken link ${link} (on ${from}): ${res.status}`);
    }
    expect(problems).toEqual([]);
  });

  it("robots.txt allows the site, keeps crawlers out of the app and points at the sitemap", async () => {
    const res = await fetch(new URL("/robots.txt", baseURL()));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*/m);
    expect(text).toMatch(/^Disallow: \/app/m);
    expect(text).toMatch(/^Sitemap: http:\/\/.+\/sitemap\.xml$/m);
  });
});
