import { describe, expect, it } from "vitest";
import { markdownToHtml, safeHref } from "./markdown";

// The markdown step of the widget's answer rendering (DOMPurify, the second step, needs a DOM and
// is checked in Chromium by tests/e2e/widget-chat.e2e.ts).

describe("safeHref", () => {
  it("keeps absolute http, https and mailto links", () => {
    expect(safeHref("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(safeHref("http://example.com")).toBe("http://example.com/");
    expect(safeHref("mailto:help@example.com")).toBe("mailto:help@example.com");
  });

  it("refuses script, data and relative targets however they are spelled", () => {
    for (const href of [
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "\u0001javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:x",
      "/relative",
      "#top",
      "//evil.example",
      "",
      null,
    ]) {
      expect(safeHref(href), String(href)).toBeNull();
    }
  });
});

describe("markdownToHtml", () => {
  const html = (md: string) => markdownToHtml(md);

  it("renders the usual markdown and [n] citations", () => {
    const out = html("**Yes** — see [the guide](https://example.com/guide) [1][2].\n\n- one\n- two");
    expect(out).toContain("<strong>Yes</strong>");
    expect(out).toContain('<a href="https://example.com/guide" target="_blank" rel="noopener noreferrer nofollow">the guide</a>');
    expect(out).toContain('<sup class="pc-cite">[1]</sup><sup class="pc-cite">[2]</sup>');
    expect(out).toContain("<li>one</li>");
  });

  it("shows raw HTML as text", () => {
    const out = html(
      `<img src=x onerror=window.__pwned=1> <svg onload=window.__pwned=1> <script>alert(1)</script>\n\n<iframe src="javascript:alert(1)"></iframe>`,
    );
    expect(out).not.toMatch(/<(img|svg|script|iframe)/i);
    expect(out).toContain("&lt;img src=x onerror=window.__pwned=1&gt;");
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("drops unsafe link targets but keeps their text", () => {
    const out = html(
      `[click](javascript:window.__pwned=1) [x](JAVASCRIPT:alert(1)) [y](&#106;avascript:alert(1)) [z](javascript&#58;alert(1)) <a href="javascript:alert(1)">a</a> ![i](javascript:alert(1)) [r][1]\n\n[1]: javascript:alert(1)`,
    );
    expect(out.toLowerCase()).not.toContain('href="javascript');
    expect(out).not.toMatch(/<a [^>]*href="(?!https?:|mailto:)/i);
    expect(out).toContain("click");
    expect(out).toContain("&lt;a href=&quot;javascript:alert(1)&quot;&gt;");
  });

  it("turns images into links and headings into bold paragraphs", () => {
    const out = html("# Title\n\n![diagram](https://example.com/d.png)");
    expect(out).toContain("<p><strong>Title</strong></p>");
    expect(out).not.toContain("<img");
    expect(out).toContain('<a href="https://example.com/d.png"');
  });

  it("escapes quotes in link targets", () => {
    const out = html(`[x](https://example.com/"onmouseover="alert(1))`);
    expect(out).not.toMatch(/"\s*onmouseover=/);
  });
});
