import { describe, expect, it } from "vitest";
import { ContentError, isIsoDate, parseFrontMatter } from "./front-matter";

describe("front matter", () => {
  it("parses plain, quoted, list, number, boolean and date values and returns the body", () => {
    const { data, body } = parseFrontMatter(
      `---\ntitle: Writing a knowledge base: part 1\nquoted: "He said \\"hi\\""\nsingle: 'It''s fine'\ndate: 2026-11-02\norder: 3\ndraft: false\ntags: [knowledge-base, "support, help", 'a']\nempty: []\n---\n# Body\n\ntext\n`,
      "content/blog/x.md",
    );
    expect(data).toEqual({
      title: "Writing a knowledge base: part 1",
      quoted: 'He said "hi"',
      single: "It's fine",
      date: "2026-11-02",
      order: 3,
      draft: false,
      tags: ["knowledge-base", "support, help", "a"],
      empty: [],
    });
    expect(body).toBe("# Body\n\ntext\n");
  });

  it("accepts CRLF line endings and a BOM", () => {
    const { data, body } = parseFrontMatter("\uFEFF---\r\ntitle: T\r\n---\r\nHello", "f.md");
    expect(data.title).toBe("T");
    expect(body).toBe("Hello");
  });

  const bad: [string, string, RegExp][] = [
    ["no front matter", "# Just markdown", /missing front matter/],
    ["unclosed", "---\ntitle: x\n", /not closed/],
    ["no colon", "---\ntitle x\n---\n", /line 2: expected "key: value"/],
    ["unterminated quote", '---\ntitle: "x\n---\n', /unterminated double-quoted/],
    ["unterminated list", "---\ntags: [a, b\n---\n", /list must end with \]/],
    ["empty value", "---\ntitle:\n---\n", /empty value/],
    ["duplicate key", "---\ntitle: a\ntitle: b\n---\n", /set twice/],
    ["nested list", "---\ntags: [a, [b]]\n---\n", /nested/],
    ["block string", "---\nsummary: |\n---\n", /not supported/],
    ["indented map", "---\nauthor:\n  name: x\n---\n", /line 2: empty value/],
  ];
  for (const [name, raw, message] of bad) {
    it(`rejects ${name}, naming the file`, () => {
      let err: unknown;
      try {
        parseFrontMatter(raw, "content/docs/broken.md");
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ContentError);
      expect((err as Error).message).toMatch(/^content\/docs\/broken\.md: /);
      expect((err as Error).message).toMatch(message);
    });
  }

  it("checks calendar dates", () => {
    expect(isIsoDate("2026-11-02")).toBe(true);
    expect(isIsoDate("2026-02-30")).toBe(false);
    expect(isIsoDate("2026-2-3")).toBe(false);
    expect(isIsoDate("November 2")).toBe(false);
  });
});
