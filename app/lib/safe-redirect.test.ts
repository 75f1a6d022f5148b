import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps same-site paths", () => expect(safeRedirect("/app/org_1?x=1")).toBe("/app/org_1?x=1"));
  it("refuses other origins and odd input", () => {
    for (const bad of ["//evil.example", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "", null, undefined])
      expect(safeRedirect(bad)).toBe("/app");
  });
});
