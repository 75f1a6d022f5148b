import { describe, expect, it } from "vitest";
import { ROLE_DESCRIPTIONS } from "~/lib/permissions";

// One name per screen, and no copy that describes a feature before it exists (issue #14). Every
// source file, doc, blog post and public file is scanned for names that were retired and promises
// that were made too early; bring one back only together with the screen it names.

const FILES = {
  ...import.meta.glob(["/app/**/*.{ts,tsx}", "/app/.server/**/*.{ts,tsx}", "/workers/**/*.{ts,tsx}", "!/**/*.test.ts"], {
    query: "?raw",
    import: "default",
    eager: true,
  }),
  ...import.meta.glob(["/content/**/*.md", "/public/**/*.{html,txt,md,json,xml,webmanifest}"], { query: "?raw", import: "default", eager: true }),
} as Record<string, string>;

const RETIRED: { pattern: RegExp; why: string }[] = [
  { pattern: /Widget UI/, why: "the screen is called “Look & feel” (menu, title, docs, Studio)" },
  { pattern: /Plan & usage/, why: "the page is called “Plans and usage”" },
  { pattern: /deleting the organisation/i, why: "an organisation cannot be deleted from the dashboard yet" },
];

describe("copy names each screen one way and promises nothing unbuilt", () => {
  it("scans a real set of files", () => {
    expect(Object.keys(FILES).length).toBeGreaterThan(100);
    expect(Object.keys(FILES)).toContain("/app/lib/navigation.ts");
    expect(Object.keys(FILES).some((f) => f.startsWith("/content/docs/"))).toBe(true);
  });

  for (const { pattern, why } of RETIRED) {
    it(`nothing says ${pattern} (${why})`, () => {
      const hits = Object.entries(FILES)
        .filter(([path]) => path !== "/tests/integration/copy-promises.test.ts")
        .flatMap(([path, text]) => text.split("\n").flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])));
      expect(hits).toEqual([]);
    });
  }

  it("role descriptions only name what exists today", () => {
    for (const [role, text] of Object.entries(ROLE_DESCRIPTIONS)) {
      expect(text, role).not.toMatch(/tools|integrations|analytics|voice|billing|phone/i);
    }
  });
});
