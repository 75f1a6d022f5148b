import { describe, expect, it } from "vitest";
import { readSessionToken, serializeBlankSessionCookie, serializeSessionCookie } from "./session";

describe("session cookie", () => {
  it("is __Host-, Secure, HttpOnly and SameSite=Lax in production", () => {
    const c = serializeSessionCookie("a".repeat(32), Date.now() + 1000, true);
    expect(c.startsWith("__Host-parley_session=")).toBe(true);
    for (const attr of ["Secure", "HttpOnly", "SameSite=Lax", "Path=/"]) expect(c).toContain(attr);
    expect(c).not.toContain("Domain=");
    expect(serializeBlankSessionCookie(true)).toContain("Max-Age=0");
  });

  it("reads only a well-formed token from the right cookie", () => {
    const token = "abcdefghijklmnopqrstuvwxyz234567";
    const req = (cookie: string) => new Request("http://x/", { headers: { Cookie: cookie } });
    expect(readSessionToken(req(`other=1; __Host-parley_session=${token}`), true)).toBe(token);
    expect(readSessionToken(req(`parley_session=${token}`), true)).toBeNull();
    expect(readSessionToken(req(`__Host-parley_session=../../etc`), true)).toBeNull();
  });
});
