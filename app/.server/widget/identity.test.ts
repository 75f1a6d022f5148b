import { describe, expect, it } from "vitest";
import { sealSecret } from "../crypto/secret-box";
import { isValidVisitorHash, verifyVisitor, visitorHashFor } from "./identity";

const env = { ENVIRONMENT: "development" as const };
const ctx = { env } as Parameters<typeof verifyVisitor>[0];

describe("visitor identity hashes", () => {
  it("is hex HMAC-SHA256(secret, visitorId) — the RFC 4231 test vector", async () => {
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
    expect(await visitorHashFor("Jefe", "what do ya want for nothing?")).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  });

  it("accepts the right hash in any case and refuses wrong, truncated or malformed ones", async () => {
    const hash = await visitorHashFor("s3cret", "visitor_12345678");
    expect(await isValidVisitorHash("s3cret", "visitor_12345678", hash)).toBe(true);
    expect(await isValidVisitorHash("s3cret", "visitor_12345678", hash.toUpperCase())).toBe(true);
    expect(await isValidVisitorHash("s3cret", "visitor_12345679", hash)).toBe(false);
    expect(await isValidVisitorHash("other", "visitor_12345678", hash)).toBe(false);
    expect(await isValidVisitorHash("s3cret", "visitor_12345678", hash.slice(0, 63))).toBe(false);
    expect(await isValidVisitorHash("s3cret", "visitor_12345678", `${hash.slice(0, 63)}g`)).toBe(false);
    expect(await isValidVisitorHash("s3cret", "visitor_12345678", "")).toBe(false);
    expect(await isValidVisitorHash("s3cret", "visitor_12345678", null)).toBe(false);
  });

  it("verifies against the chatbot's sealed secret; no secret or an unreadable one verifies nobody", async () => {
    const sealed = await sealSecret(env, "idsec_abc");
    const hash = await visitorHashFor("idsec_abc", "visitor_abcdefgh");
    expect(await verifyVisitor(ctx, { identitySecret: sealed }, "visitor_abcdefgh", hash)).toBe(true);
    expect(await verifyVisitor(ctx, { identitySecret: sealed }, "visitor_abcdefgh", undefined)).toBe(false);
    expect(await verifyVisitor(ctx, { identitySecret: null }, "visitor_abcdefgh", hash)).toBe(false);
    expect(await verifyVisitor(ctx, { identitySecret: "v1.bm90IGEgc2VjcmV0" }, "visitor_abcdefgh", hash)).toBe(false);
  });
});
