import { describe, expect, it } from "vitest";
import { DEFAULT_GENERAL_SETTINGS } from "./chatbot-settings";
import {
  DEFAULT_UI_SETTINGS,
  fallbackOffers,
  frameAncestors,
  isOriginAllowed,
  normaliseOriginPattern,
  originMatches,
  readAccessSettings,
  readUiSettings,
  type UiSettings,
} from "./widget-settings";

describe("normaliseOriginPattern", () => {
  it("accepts hosts, ports, schemes and wildcards, lower-cased", () => {
    expect(normaliseOriginPattern("example.com")).toBe("example.com");
    expect(normaliseOriginPattern("  Shop.Example.COM ")).toBe("shop.example.com");
    expect(normaliseOriginPattern("https://shop.example.com")).toBe("https://shop.example.com");
    expect(normaliseOriginPattern("http://localhost:3000")).toBe("http://localhost:3000");
    expect(normaliseOriginPattern("localhost:8080")).toBe("localhost:8080");
    expect(normaliseOriginPattern("*.example.com")).toBe("*.example.com");
    expect(normaliseOriginPattern("https://*.example.co.uk")).toBe("https://*.example.co.uk");
    expect(normaliseOriginPattern("xn--bcher-kva.example")).toBe("xn--bcher-kva.example");
  });

  it("tolerates a pasted URL: path, query, fragment and trailing slash are dropped", () => {
    expect(normaliseOriginPattern("https://shop.example.com/")).toBe("https://shop.example.com");
    expect(normaliseOriginPattern("https://Shop.Example.com/products/1?ref=a#top")).toBe("https://shop.example.com");
    expect(normaliseOriginPattern("http://localhost:5173/#/chat")).toBe("http://localhost:5173");
  });

  it("drops the scheme's default port so the pattern matches what browsers send", () => {
    expect(normaliseOriginPattern("https://shop.example.com:443")).toBe("https://shop.example.com");
    expect(normaliseOriginPattern("http://shop.example.com:80/x")).toBe("http://shop.example.com");
    expect(normaliseOriginPattern("https://shop.example.com:80")).toBe("https://shop.example.com:80");
  });

  it("rejects whole TLDs, other schemes, spaces, credentials and bad ports", () => {
    for (const bad of [
      "",
      "   ",
      "*",
      "*.com",
      "https://*.com",
      "javascript:alert(1)",
      "javascript://example.com/%0aalert(1)",
      "data:text/html,<script>alert(1)</script>",
      "ftp://example.com",
      "example .com",
      "exa_mple.com",
      "-example.com",
      "example-.com",
      "https://user:pass@example.com",
      "https://example.com:99999",
      "https://example.com:0",
      "*.*.example.com",
      "shop.*.example.com",
      "[::1]",
    ]) {
      expect(normaliseOriginPattern(bad), bad).toBeNull();
    }
  });

  it("rejects anything that could inject into the CSP header", () => {
    for (const attack of [
      "a.com; script-src *",
      "a.com;script-src 'unsafe-inline'",
      "a.com 'unsafe-inline'",
      "a.com\r\nSet-Cookie: x=1",
      "a.com\nframe-ancestors *",
      "'self'",
      "'none'",
      "a.com,b.com",
      'a.com"',
      "https://a.com/;script-src *", // the path part is dropped, not kept
    ]) {
      const out = normaliseOriginPattern(attack);
      if (out !== null) expect(out, attack).toMatch(/^(https?:\/\/)?(\*\.)?[a-z0-9.-]+(:\d+)?$/);
      else expect(out).toBeNull();
    }
    expect(normaliseOriginPattern("a.com; script-src *")).toBeNull();
    expect(normaliseOriginPattern("https://a.com/;script-src *")).toBe("https://a.com");
  });
});

describe("originMatches", () => {
  it("matches exact hosts on either scheme when the pattern names none", () => {
    expect(originMatches("https://example.com", ["example.com"])).toBe(true);
    expect(originMatches("http://example.com", ["example.com"])).toBe(true);
    expect(originMatches("https://www.example.com", ["example.com"])).toBe(false);
    expect(originMatches("https://example.com.evil.test", ["example.com"])).toBe(false);
    expect(originMatches("https://notexample.com", ["example.com"])).toBe(false);
  });

  it("honours the pattern's scheme", () => {
    expect(originMatches("https://shop.example.com", ["https://shop.example.com"])).toBe(true);
    expect(originMatches("http://shop.example.com", ["https://shop.example.com"])).toBe(false);
  });

  it("wildcards match any subdomain depth but not the apex", () => {
    expect(originMatches("https://a.example.com", ["*.example.com"])).toBe(true);
    expect(originMatches("https://a.b.example.com", ["*.example.com"])).toBe(true);
    expect(originMatches("https://example.com", ["*.example.com"])).toBe(false);
    expect(originMatches("https://badexample.com", ["*.example.com"])).toBe(false);
    expect(originMatches("https://example.com.evil.test", ["*.example.com"])).toBe(false);
  });

  it("ports must be equal; the default port is the empty port", () => {
    expect(originMatches("http://localhost:3000", ["localhost:3000"])).toBe(true);
    expect(originMatches("http://localhost:3001", ["localhost:3000"])).toBe(false);
    expect(originMatches("http://localhost", ["localhost:3000"])).toBe(false);
    expect(originMatches("https://example.com:8443", ["example.com"])).toBe(false);
    expect(originMatches("https://example.com:443", ["example.com"])).toBe(true); // URL drops :443
  });

  it("never matches opaque or non-http origins", () => {
    expect(originMatches("null", ["example.com", "null"])).toBe(false);
    expect(originMatches("file://", ["example.com"])).toBe(false);
    expect(originMatches("chrome-extension://abc", ["abc"])).toBe(false);
    expect(originMatches("not a url", ["example.com"])).toBe(false);
  });

  it("ignores stored patterns that are not valid", () => {
    expect(originMatches("https://a.com", ["a.com; script-src *"])).toBe(false);
  });
});

describe("isOriginAllowed", () => {
  it("allows any site when no origin is listed, otherwise only listed ones (and not a missing origin)", () => {
    expect(isOriginAllowed("https://anything.test", { allowedOrigins: [] })).toBe(true);
    expect(isOriginAllowed(null, { allowedOrigins: [] })).toBe(true);
    expect(isOriginAllowed("https://shop.example.com", { allowedOrigins: ["*.example.com"] })).toBe(true);
    expect(isOriginAllowed("https://other.test", { allowedOrigins: ["*.example.com"] })).toBe(false);
    expect(isOriginAllowed(null, { allowedOrigins: ["*.example.com"] })).toBe(false);
  });
});

describe("frameAncestors", () => {
  it("is * when unrestricted, else 'self' plus the patterns", () => {
    expect(frameAncestors({ allowedOrigins: [] })).toBe("frame-ancestors *");
    expect(frameAncestors({ allowedOrigins: ["https://shop.example.com", "*.example.org", "localhost:3000"] })).toBe(
      "frame-ancestors 'self' https://shop.example.com *.example.org localhost:3000",
    );
  });

  it("leaves out stored values that are not valid patterns, so nothing can be injected", () => {
    const csp = frameAncestors({ allowedOrigins: ["a.com; script-src *", "b.com\r\nX-Evil: 1", "c.com"] });
    expect(csp).toBe("frame-ancestors 'self' c.com");
    expect(csp).not.toMatch(/[;\r\n]/);
  });
});

describe("reading settings", () => {
  it("falls back to defaults field by field", () => {
    const access = readAccessSettings({ access: { rateLimitPerMinute: 5, rateLimitPerHour: "lots", requireVerified: true } });
    expect(access).toEqual({ allowedOrigins: [], rateLimitPerMinute: 5, rateLimitPerHour: 100, requireVerified: true });
    expect(readAccessSettings(null).rateLimitPerMinute).toBe(10);
    expect(readUiSettings({ ui: { humanHandoff: true, brandColor: "red" } })).toMatchObject({ humanHandoff: true, brandColor: "#4f46e5" });
  });
});

describe("no dead end after a fallback", () => {
  it("a new chatbot asks for contact details after a fallback, which its default fallback message invites", () => {
    const ui = readUiSettings({});
    expect(ui.leadForm.timing).toBe("on-intent");
    expect(DEFAULT_GENERAL_SETTINGS.fallbackMessage).toMatch(/leave your contact/);
    expect(fallbackOffers(ui)).toMatchObject({ leadForm: true });
    expect(fallbackOffers(ui).summary).toBe(
      "After the fallback message, the visitor is offered the contact form. It is also offered under the answer when the visitor asks for a price, a quote, a demo or a call.",
    );
  });

  it("says what the visitor is offered for every combination, and warns when nothing is", () => {
    const offers = (timing: UiSettings["leadForm"]["timing"], humanHandoff: boolean) =>
      fallbackOffers({ humanHandoff, leadForm: { ...DEFAULT_UI_SETTINGS.leadForm, timing } });
    expect(offers("on-fallback", true).summary).toBe("After the fallback message, the visitor is offered the contact form and can press “Talk to a human”.");
    expect(offers("after-first-answer", false).leadForm).toBe(true);
    expect(offers("on-fallback", false).leadForm).toBe(true);
    expect(offers("off", true)).toMatchObject({ leadForm: false, human: true });
    expect(offers("off", true).summary).toContain("can press “Talk to a human”");
    expect(offers("before-chat", false).summary).toContain("already left their contact details");
    const none = offers("off", false);
    expect(none).toMatchObject({ leadForm: false, human: false });
    expect(none.summary).toContain("nothing else is offered");
    expect(none.summary).toContain("Do not ask visitors to leave their contact");
  });
});
