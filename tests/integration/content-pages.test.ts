import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { loadBlog } from "~/.server/content/blog";
import { loadDocs } from "~/.server/content/docs";
import { assertWellFormedXml } from "~/.server/content/xml-check";
import worker from "../../workers/app";
import { BASE, request } from "./helpers";

// The blog and the docs through the real Worker. Blog assertions use whatever posts exist
// (content/blog is written separately), docs assertions the real content/docs tree.

const html = async (path: string) => {
  const res = await request(path);
  return { res, body: await res.text() };
};
const titleOf = (body: string) => body.match(/<title>([^<]*)<\/title>/)?.[1];
const decode = (s: string) =>
  s.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">");

describe("docs pages", () => {
  const docs = loadDocs();
  const nested = docs.ordered.find((p) => p.slug.includes("/"))!;

  it("/docs lists every section and page, with the search box, no client JS", async () => {
    const { res, body } = await html("/docs");
    expect(res.status).toBe(200);
    expect(titleOf(body)).toBe("Documentation · Parley");
    for (const p of docs.pages.values()) if (p.slug) expect(body).toContain(`href="${p.url}"`);
    expect(body).toContain('href="/docs/api"');
    expect(body).toMatch(/<form[^>]*action="\/docs\/search"/);
    expect(body).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
  });

  it("a nested page: title, sidebar with aria-current, TOC, anchors, highlighted code, prev/next, canonical", async () => {
    const { res, body } = await html(nested.url);
    expect(res.status).toBe(200);
    expect(decode(titleOf(body)!)).toBe(`${nested.title} · Docs · Parley`);
    expect(body).toContain(`<link rel="canonical" href="${BASE}${nested.url}"/>`);
    const current = [...body.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]).filter((a) => a.includes(`href="${nested.url}"`));
    expect(current.length).toBeGreaterThan(0);
    for (const a of current) expect(a).toContain('aria-current="page"');
    const h2 = nested.headings.find((h) => h.depth === 2)!;
    expect(body).toContain(`<h2 id="${h2.id}"><a class="heading-anchor" href="#${h2.id}">`);
    if (nested.headings.length >= 2) expect(body).toContain("On this page");
    const i = docs.ordered.indexOf(nested);
    if (docs.ordered[i + 1]) expect(body).toMatch(new RegExp(`href="${docs.ordered[i + 1].url}" rel="next"|rel="next"[^>]*href="${docs.ordered[i + 1].url}"`));
    if (docs.ordered[i - 1] && docs.ordered[i - 1].slug)
      expect(body).toMatch(new RegExp(`href="${docs.ordered[i - 1].url}"[^>]*rel="prev"|rel="prev"[^>]*href="${docs.ordered[i - 1].url}"`));
    expect(body).not.toContain("Edit this page"); // DOCS_EDIT_URL is empty in wrangler.toml
    expect(body).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
  });

  it("code samples are highlighted on the server", async () => {
    const withCode = docs.ordered.find((p) => /class="hljs language-/.test(p.html))!;
    const { body } = await html(withCode.url);
    expect(body).toMatch(/<code class="hljs language-\w+">[^<]*<span class="hljs-/);
  });

  it("every docs page answers 200 with a unique title", async () => {
    const titles = new Set<string>();
    for (const p of docs.pages.values()) {
      const { res, body } = await html(p.url);
      expect(res.status, p.url).toBe(200);
      const t = titleOf(body)!;
      expect(titles.has(t), `duplicate title ${t}`).toBe(false);
      titles.add(t);
    }
  });

  it("shows 'Edit this page' when DOCS_EDIT_URL is set", async () => {
    const ctx = createExecutionContext();
    const req = new Request(BASE + nested.url, { headers: { "CF-Connecting-IP": "10.9.9.9" } });
    const res = await worker.fetch(req, { ...(env as object), DOCS_EDIT_URL: "https://github.com/acme/parley/edit/main/" } as never, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`<a href="https://github.com/acme/parley/edit/main/${nested.file}" rel="noopener"`);
  });

  it("unknown docs pages answer the 404 screen", async () => {
    for (const path of ["/docs/nope", `${nested.url}/deeper`, "/docs/widget/nope/nope"]) {
      const { res, body } = await html(path);
      expect(res.status, path).toBe(404);
      expect(body).toContain("Page not found");
    }
  });

  it("/docs/search ranks pages and sections, marks the terms, works without JS", async () => {
    const { res, body } = await html("/docs/search?q=identity+verification");
    expect(res.status).toBe(200);
    expect(body).toMatch(/<mark[^>]*>(identity|Identity)<\/mark>/);
    const first = body.match(/<ol[^>]*>\s*<li><h2[^>]*><a[^>]*href="([^"]+)"/)?.[1];
    expect(first).toMatch(/^\/docs\/widget\/security/);
    expect(body).toContain('name="robots" content="noindex"');
    // REST API endpoints are searchable too.
    const api = await html("/docs/search?q=conversations");
    expect(api.body).toContain('href="/docs/api#get--conversations"');
    // Nothing found, empty, too long.
    expect((await html("/docs/search?q=zzqqxxyy")).body).toContain("Nothing in the docs matches");
    expect((await html("/docs/search")).res.status).toBe(200);
    const long = await html(`/docs/search?q=${"a".repeat(300)}`);
    expect(long.res.status).toBe(200);
    expect(long.body).toContain("at most 200 characters");
  });
});

describe("blog", () => {
  const blog = loadBlog();

  it("/blog lists every post newest first with date, author, reading time and tags", async () => {
    const { res, body } = await html("/blog");
    expect(res.status).toBe(200);
    expect(titleOf(body)).toBe("Blog · Parley");
    expect(body).toContain('type="application/rss+xml"');
    let last = -1;
    for (const p of blog.posts) {
      const at = body.indexOf(`href="${p.url}"`);
      expect(at, p.url).toBeGreaterThan(last);
      last = at;
      expect(body).toContain(`<time dateTime="${p.date}">`);
      expect(body).toContain(`${p.readingMinutes} min read`);
    }
    if (!blog.posts.length) expect(body).toContain("No posts have been published yet.");
  });

  it("filters by tag with plain links; an unknown tag is a 404", async () => {
    if (blog.tags.length) {
      const tag = blog.tags[blog.tags.length - 1].tag;
      const { res, body } = await html(`/blog?tag=${tag}`);
      expect(res.status).toBe(200);
      for (const p of blog.posts) expect(body.includes(`href="${p.url}"`), p.slug).toBe(p.tags.includes(tag));
    }
    expect((await html("/blog?tag=no-such-tag-anywhere")).res.status).toBe(404);
    expect((await html("/blog?tag=%3Cscript%3E")).res.status).toBe(404);
  });

  it("a post: article meta, BlogPosting JSON-LD, canonical, more posts", async () => {
    const post = blog.posts[0];
    if (!post) return; // no posts yet: the docs tests cover the renderer
    const { res, body } = await html(post.url);
    expect(res.status).toBe(200);
    expect(body).toContain('<meta property="og:type" content="article"/>');
    expect(body).toContain(`<meta property="article:published_time" content="${post.date}"/>`);
    const ld = JSON.parse(decode(body.match(/<script type="application\/ld\+json">([^<]*)<\/script>/)![1]));
    expect(ld).toMatchObject({ "@type": "BlogPosting", headline: post.title, datePublished: post.date, author: { name: post.author }, url: BASE + post.url });
    expect(body).toContain(`<link rel="canonical" href="${BASE}${post.url}"/>`);
    expect(body).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
    if (blog.posts.length > 1) expect(body).toMatch(/Older post|Newer post/);
  });

  it("every post answers 200 with a unique title; unknown slugs are 404", async () => {
    const titles = new Set<string>();
    for (const p of blog.posts) {
      const { res, body } = await html(p.url);
      expect(res.status).toBe(200);
      expect(titles.has(titleOf(body)!)).toBe(false);
      titles.add(titleOf(body)!);
    }
    const { res, body } = await html("/blog/no-such-post");
    expect(res.status).toBe(404);
    expect(body).toContain("Page not found");
  });

  it("/blog/rss.xml is well-formed RSS 2.0 with absolute links", async () => {
    const res = await request("/blog/rss.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/rss\+xml/);
    const xml = await res.text();
    assertWellFormedXml(xml);
    expect(xml).toContain(`<link>${BASE}/blog</link>`);
    expect([...xml.matchAll(/<item>/g)]).toHaveLength(Math.min(50, blog.posts.length));
    for (const p of blog.posts.slice(0, 50)) expect(xml).toContain(`<link>${BASE}${p.url}</link>`);
  });
});
