import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "./secret-box";

const dev = { ENVIRONMENT: "development" as const };

describe("secret box", () => {
  it("round-trips and never stores the plaintext", async () => {
    const sealed = await sealSecret(dev, "whsec_top_secret");
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(sealed).not.toContain("whsec_top_secret");
    expect(await openSecret(dev, sealed)).toBe("whsec_top_secret");
  });
  it("uses a fresh IV each time", async () => {
    expect(await sealSecret(dev, "x")).not.toBe(await sealSecret(dev, "x"));
  });
  it("cannot be opened with another key", async () => {
    const sealed = await sealSecret({ ENVIRONMENT: "production", SECRETS_KEY: btoa("a".repeat(32)) }, "secret");
    await expect(openSecret({ ENVIRONMENT: "production", SECRETS_KEY: btoa("b".repeat(32)) }, sealed)).rejects.toThrow();
  });
  it("refuses to run in production without SECRETS_KEY", async () => {
    await expect(sealSecret({ ENVIRONMENT: "production" }, "x")).rejects.toThrow(/SECRETS_KEY/);
  });
});
