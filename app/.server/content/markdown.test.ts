import { describe, expect, it } from "vitest";
import { readingMinutes, renderMarkdown, resolveHref, sanitizeHtml, slugify } from "./markdown";

describe("markdown rendering", () => {
  it("removes script, event handlers and javascript: links", () => {
    const { html } = renderMarkdown(
      [
        "Hello <script>alert(1)</script> world",
        "",
        '<img src="x.png" onerror="alert(2)">',
        "",
        "[click](javascript:alert(3)) and <a href=\"javascript:alert(4)\">raw</a>",
        "",
        '<div onclick="alert(5)"><iframe src="https://evil.example"></iframe><style>body{}</style>kept text</div>',
        "",
        "![img](javascript:alert(6))",
      ].join("\n"),
    );
    expect(html).not.toMatch(/<script|alert\(1\)|onerror|onclick|javascript:|<iframe|<style|<div/i);
    expect(html).toContain("kept text");
    expect(html).toContain("world");
  });

  it("keeps only allowlisted classes", () => {
    expect(sanitizeHtml('<span class="hljs-keyword evil">x</span><p class="x">y</p>')).toBe('<span class="hljs-keyword">x</span><p>y</p>');
  });

  it("gives headings unique ids with a self-link and lists them for the table of contents", () => {
    const r = renderMarkdown("# Title\n\nIntro\n\n## Rate limits\n\ntext\n\n### Per `visitor` & IP\n\n## Rate limits\n\n## Main\n", { dropLeadingH1: true });
    expect(r.leadingTitle).toBe("Title");
    expect(r.html).not.toContain("<h1");
    expect(r.headings).toEqual([
      { depth: 2, text: "Rate limits", id: "rate-limits" },
      { depth: 3, text: "Per visitor & IP", id: "per-visitor-ip" },
      { depth: 2, text: "Rate limits", id: "rate-limits-1" },
      { depth: 2, text: "Main", id: "main-1" }, // "main" is the page's own landmark id
    ]);
    expect(r.html).toContain('<h2 id="rate-limits"><a class="heading-anchor" href="#rate-limits">Rate limits</a></h2>');
    expect(r.html).toContain('<h3 id="per-visitor-ip">');
  });

  it("highlights code on the server and records runnable samples", () => {
    const r = renderMarkdown("## Sign\n\n```js run=identity-hash\nconst a = 1; // <b>\n```\n\n```unknownlang\n<x>\n```\n");
    expect(r.html).toContain('<code class="hljs language-js">');
    expect(r.html).toMatch(/<span class="hljs-keyword">const<\/span>/);
    expect(r.html).toContain("&lt;b&gt;");
    expect(r.html).toContain('<code class="hljs">&lt;x&gt;</code>');
    expect(r.samples).toEqual([
      { lang: "js", flags: ["run=identity-hash"], code: "const a = 1; // <b>", section: "Sign" },
      { lang: "unknownlang", flags: [], code: "<x>", section: "Sign" },
    ]);
  });

  it("renders tables, images and links; external links get rel=noopener, .md links become site paths", () => {
    const r = renderMarkdown("| a | b |\n|:--|--:|\n| 1 | 2 |\n\n![Logo](/logo.png \"The logo\")\n\n[ext](https://example.com) [rel](../widget/embed.md#snippet) [abs](/docs/api)\n", { path: "/docs/api/rest-api" });
    expect(r.html).toContain(`<table tabindex="0">`); // it scrolls sideways on a phone: reachable by keyboard
    expect(r.html).toMatch(/<th align="left">a<\/th>/);
    expect(r.html).toContain('<img src="/logo.png" alt="Logo" title="The logo" loading="lazy" decoding="async">');
    expect(r.html).toContain('<a href="https://example.com" rel="noopener">ext</a>');
    expect(r.html).toContain('<a href="/docs/widget/embed#snippet">rel</a>');
    expect(r.html).toContain('<a href="/docs/api">abs</a>');
  });

  it("splits plain-text sections for search and counts words", () => {
    const r = renderMarkdown("Intro **bold** text.\n\n## One\n\nFirst `code` part.\n\n### Two\n\n- a\n- b\n");
    expect(r.sections).toEqual([
      { heading: null, id: null, text: "Intro bold text." },
      { heading: "One", id: "one", text: "First code part." },
      { heading: "Two", id: "two", text: "a b" },
    ]);
    expect(r.words).toBe(10);
  });

  it("resolves relative links and slugs", () => {
    expect(resolveHref("sibling.md", "/docs/widget/embed")).toBe("/docs/widget/sibling");
    expect(resolveHref("./index.md", "/docs/widget/index")).toBe("/docs/widget");
    expect(resolveHref("mailto:a@b.c", "/x")).toBe("mailto:a@b.c");
    expect(slugify("Héllo, World — 2!")).toBe("hello-world-2");
  });

  it("reading time is words / 220, at least one minute", () => {
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(219)).toBe(1);
    expect(readingMinutes(660)).toBe(3);
  });
});
