import { describe, expect, it } from "vitest";
import { buildSearchIndex, searchDocs, snippet, stem, tokenize, type SearchDoc } from "./search";

const docs: SearchDoc[] = [
  { url: "/docs/widget/security", pageTitle: "Identity verification", heading: null, anchor: null, text: "Sign visitor ids on your server so Parley knows who is chatting." },
  { url: "/docs/widget/security", pageTitle: "Identity verification", heading: "Rate limits", anchor: "rate-limits", text: "Each visitor may send ten messages per minute and a hundred per hour." },
  { url: "/docs/widget/embed", pageTitle: "Embed the widget", heading: "The snippet", anchor: "the-snippet", text: "Paste one script tag. Rate limits are set on the security page." },
  { url: "/docs/api/rest", pageTitle: "REST API", heading: "Keys", anchor: "keys", text: "Create a key for your server. Keys are shown once and stored hashed." },
  { url: "/docs/kb", pageTitle: "Knowledge", heading: "Limits", anchor: "limits", text: "Plans limit knowledge characters; the limit of the Free plan is one million characters." },
];

describe("docs search", () => {
  const index = buildSearchIndex(docs);

  it("stems plurals and drops stop words", () => {
    expect(stem("limits")).toBe("limit");
    expect(stem("policies")).toBe("policy");
    expect(stem("access")).toBe("access");
    expect(tokenize("What are the rate limits?")).toEqual(["rate", "limit"]);
  });

  it("ranks a heading match above a body mention, and titles highest", () => {
    const results = searchDocs(index, "rate limits");
    expect(results[0]).toMatchObject({ url: "/docs/widget/security", anchor: "rate-limits", heading: "Rate limits" });
    expect(results.map((r) => r.url)).toContain("/docs/widget/embed");
    expect(results.findIndex((r) => r.url === "/docs/widget/embed")).toBeGreaterThan(0);
    expect(searchDocs(index, "identity")[0]).toMatchObject({ url: "/docs/widget/security" });
  });

  it("prefers sections matching every word of the query", () => {
    const results = searchDocs(index, "server keys");
    expect(results[0]).toMatchObject({ url: "/docs/api/rest", anchor: "keys" });
  });

  it("matches word prefixes when nothing matches exactly", () => {
    expect(searchDocs(index, "verif")[0]?.url).toBe("/docs/widget/security");
  });

  it("returns nothing for stop words or unknown words", () => {
    expect(searchDocs(index, "the and")).toEqual([]);
    expect(searchDocs(index, "zzzzqqq")).toEqual([]);
  });

  it("keeps at most two sections per page", () => {
    const many = buildSearchIndex(Array.from({ length: 5 }, (_, i) => ({ url: "/docs/x", pageTitle: "X", heading: `H${i}`, anchor: `h${i}`, text: "widget widget" })));
    expect(searchDocs(many, "widget")).toHaveLength(2);
  });

  it("cuts a snippet around the matches and marks them", () => {
    const text = `${"filler ".repeat(40)}the rate limit applies per visitor ${"more ".repeat(40)}`;
    const s = snippet(text, ["rate", "limit"]);
    expect(s[0]).toEqual({ text: expect.stringMatching(/^… /), hit: false });
    expect(s.filter((x) => x.hit).map((x) => x.text)).toEqual(["rate", "limit"]);
    expect(s[s.length - 1].text.endsWith(" …")).toBe(true);
  });
});
