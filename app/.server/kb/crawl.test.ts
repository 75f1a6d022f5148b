import { describe, expect, it } from "vitest";
import { crawlSite, extractLinks, fetchUrl, matchesPattern, normaliseUrl, parseRobots, passesFilters, robotsAllows } from "./crawl";
import { SITE, testSite } from "./fixtures/test-site";

describe("crawl helpers", () => {
  it("normalises URLs: drops fragments and credentials, keeps the query as is, resolves relatives", () => {
    expect(normaliseUrl("/a/b#frag", `${SITE}/x/`)).toBe(`${SITE}/a/b`);
    expect(normaliseUrl("https://u:p@Docs.Example.test:443/p?b=2&a=1#h")).toBe(`${SITE}/p?b=2&a=1`);
    expect(normaliseUrl("mailto:x@y.z")).toBeNull();
    expect(normaliseUrl("javascript:alert(1)")).toBeNull();
  });

  it("parses robots.txt for * and ParleyBot; longest rule wins, Allow wins ties", () => {
    const txt = "User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: Googlebot\nDisallow: /";
    const rules = parseRobots(txt);
    expect(robotsAllows(rules, `${SITE}/private/x`)).toBe(false);
    expect(robotsAllows(rules, `${SITE}/private/open/page`)).toBe(true);
    expect(robotsAllows(rules, `${SITE}/public`)).toBe(true);
    const specific = parseRobots("User-agent: *\nDisallow:\n\nUser-agent: ParleyBot\nDisallow: /docs/*.pdf$");
    expect(robotsAllows(specific, `${SITE}/docs/a.pdf`)).toBe(false);
    expect(robotsAllows(specific, `${SITE}/docs/a.pdf.html`)).toBe(true);
  });

  it("include/exclude patterns: path globs, prefixes and full-URL patterns", () => {
    expect(matchesPattern(`${SITE}/docs/a/b`, "/docs/*")).toBe(true);
    expect(matchesPattern(`${SITE}/docsx`, "/docs/*")).toBe(false);
    expect(matchesPattern(`${SITE}/blog`, "/blog")).toBe(true);
    expect(matchesPattern(`${SITE}/list?page=2`, "*?page=*")).toBe(true);
    expect(passesFilters(`${SITE}/docs/a`, ["/docs/*"], ["*/a"])).toBe(false);
    expect(passesFilters(`${SITE}/anything`, [], [])).toBe(true);
  });

  it("extracts links relative to <base href> and leaves nofollow out", () => {
    const links = extractLinks('<base href="/sub/"><a href="a">A</a><a rel="nofollow" href="/b">B</a><a href="#top">T</a>', `${SITE}/x`);
    expect(links).toEqual([`${SITE}/sub/a`, `${SITE}/sub/`]);
  });
});

describe("fetchUrl", () => {
  const host = new URL(SITE).host;
  it("follows a same-site redirect and reports the final address", async () => {
    const { fetcher } = testSite();
    const r = await fetchUrl(`${SITE}/moved`, { fetcher, host });
    expect(r).toMatchObject({ ok: true, url: `${SITE}/guide/moved-here` });
  });
  it("detects redirect loops, off-site redirects and too many hops", async () => {
    const hops = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`/hop${i}`, () => new Response(null, { status: 302, headers: { Location: `/hop${i + 1}` } })]),
    );
    const { fetcher } = testSite(hops);
    expect(await fetchUrl(`${SITE}/loop-a`, { fetcher, host })).toMatchObject({ ok: false, reason: "it redirects in a loop" });
    expect(await fetchUrl(`${SITE}/away`, { fetcher, host })).toMatchObject({ ok: false, reason: expect.stringContaining("another site") });
    expect(await fetchUrl(`${SITE}/hop0`, { fetcher, host })).toMatchObject({ ok: false, reason: "it redirects more than 5 times" });
  });
  it("records 404s, skips non-HTML and pages over 2 MB, and times out", async () => {
    const { fetcher } = testSite({ "/slow": () => new Promise<Response>(() => {}) as unknown as Response });
    expect(await fetchUrl(`${SITE}/missing`, { fetcher, host })).toMatchObject({ ok: false, status: 404, reason: "not found (404)" });
    expect(await fetchUrl(`${SITE}/manual.pdf`, { fetcher, host })).toMatchObject({ ok: false, reason: "not an HTML page (application/pdf)" });
    expect(await fetchUrl(`${SITE}/huge`, { fetcher, host })).toMatchObject({ ok: false, reason: "the page is larger than 2 MB" });
    const slowFetcher = async (req: Request) => (new URL(req.url).pathname === "/slow" ? new Promise<Response>(() => {}) : fetcher(req));
    expect(await fetchUrl(`${SITE}/slow`, { fetcher: slowFetcher, host, timeoutMs: 50 })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("did not answer"),
    });
  });
});

describe("crawlSite over the test site", () => {
  it("crawls the same site only, uses the sitemap index, respects robots.txt and records every skip", async () => {
    const site = testSite();
    const { pages, state } = await crawlSite(`${SITE}/`, { fetcher: site.fetcher, maxPages: 50 });
    const urls = pages.map((p) => p.url).sort();
    expect(urls).toEqual(
      [`${SITE}/`, `${SITE}/blog/post-1`, `${SITE}/guide/configure`, `${SITE}/guide/install`, `${SITE}/guide/moved-here`, `${SITE}/orphan`].sort(),
    );
    // robots.txt: the disallowed path is never even requested.
    expect(site.log.some((p) => p.startsWith("/private"))).toBe(false);
    expect(site.log).toContain("/robots.txt");
    expect(site.log).toContain("/sitemap-pages.xml");
    // Fragments are dropped, so /guide/configure is fetched once.
    expect(site.log.filter((p) => p === "/guide/configure")).toHaveLength(1);
    const reasons = Object.fromEntries(state.skipped.map((s) => [new URL(s.url).pathname, s.reason]));
    expect(reasons).toMatchObject({
      "/private/secret": "robots.txt does not allow it",
      "/missing": "not found (404)",
      "/loop-a": "it redirects in a loop",
      "/huge": "the page is larger than 2 MB",
      "/manual.pdf": "not an HTML page (application/pdf)",
    });
    expect(reasons["/away"]).toContain("another site");
    expect(state.done).toBe(true);
  });

  it("stops at the page cap and applies include/exclude patterns", async () => {
    const capped = await crawlSite(`${SITE}/`, { fetcher: testSite().fetcher, maxPages: 2 });
    expect(capped.pages).toHaveLength(2);
    const guides = await crawlSite(`${SITE}/`, { fetcher: testSite().fetcher, maxPages: 50, include: ["/guide/*"], exclude: ["/guide/configure"] });
    expect(guides.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(["/guide/install"]);
    // A link outside the include patterns is not followed (the redirect /moved → /guide/moved-here included).
  });
});
