import { describe, expect, it } from "vitest";
import { adjacentPosts, buildBlog, loadBlog } from "./blog";
import { blogRss, escapeXml, rfc822 } from "./rss";
import { assertWellFormedXml } from "./xml-check";

const fixtures = import.meta.glob("./fixtures/blog/*.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

describe("blog", () => {
  const blog = buildBlog(fixtures, "./fixtures/blog/");

  it("sorts posts newest first, with slug, tags (as slugs) and reading time", () => {
    expect(blog.posts.map((p) => p.slug)).toEqual(["newer-post", "older-post"]);
    const older = blog.bySlug.get("older-post")!;
    expect(older).toMatchObject({ url: "/blog/older-post", date: "2026-01-15", author: "Ada Lovelace", tags: ["support", "knowledge-base"], readingMinutes: 1 });
    expect(older.html).not.toContain("<h1");
    expect(blog.bySlug.get("newer-post")!.author).toBe("Grace O'Hopper");
    expect(blog.tags).toEqual([
      { tag: "support", count: 2 },
      { tag: "knowledge-base", count: 1 },
    ]);
    expect(adjacentPosts(blog, "older-post")).toMatchObject({ newer: { slug: "newer-post" }, older: null });
  });

  it("refuses malformed posts naming the file", () => {
    const post = (fm: string) => ({ "/content/blog/p.md": `---\n${fm}\n---\nText` });
    expect(() => buildBlog(post("title: T\ndate: 2026-02-30\nauthor: A\nsummary: S"))).toThrow(/^content\/blog\/p\.md: date/);
    expect(() => buildBlog(post("title: T\ndate: 2026-02-03\nsummary: S"))).toThrow(/content\/blog\/p\.md: author/);
    expect(() => buildBlog(post("title: T\ndate: 2026-02-03\nauthor: A\nsummary: S\ntags: support"))).toThrow(/tags/);
    expect(() => buildBlog({ "/content/blog/Bad_Name.md": "---\ntitle: T\n---\n" })).toThrow(/content\/blog\/Bad_Name\.md/);
  });

  it("every real post parses (whatever posts exist)", () => {
    const real = loadBlog();
    for (const p of real.posts) {
      expect(p.title, p.file).not.toBe("");
      expect(p.html.length, p.file).toBeGreaterThan(0);
    }
  });
});

describe("RSS feed", () => {
  const blog = buildBlog(fixtures, "./fixtures/blog/");
  const xml = blogRss(blog.posts, "https://parley.example/");

  it("is well-formed RSS 2.0 with absolute links and escaped text", () => {
    assertWellFormedXml(xml);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"')).toBe(true);
    expect(xml).toContain("<link>https://parley.example/blog</link>");
    expect(xml).toContain('<atom:link href="https://parley.example/blog/rss.xml" rel="self" type="application/rss+xml"/>');
    const items = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]);
    expect(items).toHaveLength(2);
    expect(items[0]).toContain("<link>https://parley.example/blog/newer-post</link>");
    expect(items[0]).toContain("<pubDate>Sun, 01 Mar 2026 00:00:00 +0000</pubDate>");
    expect(items[0]).toContain("<dc:creator>Grace O&apos;Hopper</dc:creator>");
    expect(items[1]).toContain("<title>Older post: quotes &amp; &lt;angles&gt;</title>");
    expect(items[1]).toContain("<description>An older post with characters that need escaping &lt;b&gt;&amp;&lt;/b&gt;.</description>");
    expect(items[1]).toContain("<category>knowledge-base</category>");
  });

  it("escapes and dates", () => {
    expect(escapeXml(`a & <b> "c" 'd'\u0001`)).toBe("a &amp; &lt;b&gt; &quot;c&quot; &apos;d&apos;");
    expect(rfc822("2026-11-02")).toBe("Mon, 02 Nov 2026 00:00:00 +0000");
  });

  it("the checker catches broken XML", () => {
    expect(() => assertWellFormedXml("<a><b></a>")).toThrow();
    expect(() => assertWellFormedXml("<a>x & y</a>")).toThrow();
    expect(() => assertWellFormedXml("<a>x</a><b/>")).toThrow();
  });
});
