import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

// Every hostile value must land on this site: either the fallback or a path that a browser resolves
// against our own origin. `landsOnSite` checks the second the way a browser would.
const ORIGIN = "https://parley.example";
function landsOnSite(location: string): boolean {
  // Browsers strip tabs/newlines and read "\" as "/" before resolving; do the same.
  const cleaned = location.replace(/[\t\n\r]/g, "").replace(/\\/g, "/");
  return new URL(cleaned, ORIGIN).origin === ORIGIN;
}

const HOSTILE: string[] = [
  "/\t/evil.example/phish", // the reported bypass
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "/\r\n/evil.example",
  "\t//evil.example",
  " //evil.example",
  "/ /evil.example",
  "/\u0000/evil.example",
  "/\u000b/evil.example",
  "/\u000c/evil.example",
  "/\u007f/evil.example",
  "/\u00a0/evil.example",
  "/\u2028/evil.example",
  "/\u200b/evil.example",
  "/\ufeff/evil.example",
  "//evil.example",
  "///evil.example",
  "////evil.example",
  "/\\evil.example",
  "\\/evil.example",
  "\\\\evil.example",
  "/\\/evil.example",
  "/.//evil.example",
  "/./\\evil.example",
  "https://evil.example",
  "https:evil.example",
  "http:/evil.example",
  "HTTPS://evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "//user@evil.example",
  "/@evil.example", // a path, but checked all the same
  "//parley.example@evil.example",
  "//evil.example%2F..",
  "//еvil.example", // Cyrillic е (IDN)
  "//xn--vil-jed.example",
  "/%09/evil.example", // encoded: stays an encoded path on this site
  "/%2F%2Fevil.example",
  "/%5Cevil.example",
  "/%5C%5Cevil.example",
  "%2F%2Fevil.example",
  "%2f%2fevil.example",
  "%5C%5Cevil.example",
  "evil.example",
  "./evil.example",
  "../evil.example",
  "?next=//evil.example",
  "#//evil.example",
  "",
  "/".repeat(3000),
];

describe("safeRedirect", () => {
  it("keeps same-site paths, queries and fragments", () => {
    expect(safeRedirect("/app/org_1?x=1")).toBe("/app/org_1?x=1");
    expect(safeRedirect("/app/org_1/cb_2/kb#sources")).toBe("/app/org_1/cb_2/kb#sources");
    expect(safeRedirect("/login?redirectTo=%2Finvite%2Fabc")).toBe("/login?redirectTo=%2Finvite%2Fabc");
  });

  it("percent-encodes what a header cannot carry instead of failing", () => {
    expect(safeRedirect("/café")).toBe("/caf%C3%A9");
    expect(() => new Headers({ Location: safeRedirect("/日本") })).not.toThrow();
  });

  it(`sends each of ${HOSTILE.length} hostile variants to this site`, () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
    for (const bad of HOSTILE) {
      const out = safeRedirect(bad);
      expect(landsOnSite(out), JSON.stringify(bad)).toBe(true);
      expect(out.startsWith("/") && !out.startsWith("//"), JSON.stringify(bad)).toBe(true);
      expect(() => new Headers({ Location: out }), JSON.stringify(bad)).not.toThrow();
    }
  });

  it("falls back for anything that is not a clean path", () => {
    for (const bad of [
      "/\t/evil.example",
      "/\n/x",
      "/\r/x",
      "//evil.example",
      "/\\evil.example",
      "/.//evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "",
      null,
      undefined,
    ])
      expect(safeRedirect(bad)).toBe("/app");
    expect(safeRedirect("//evil.example", "/login")).toBe("/login");
  });

  it("refuses non-string form values", () => {
    expect(safeRedirect(new File(["/app"], "x.txt"))).toBe("/app");
  });
});
