import { decodeBase64 } from "@oslojs/encoding";
import { describe, expect, it } from "vitest";
import { hashPassword as appHashPassword, verifyPassword } from "../../app/.server/auth/password";
import { isCommonPassword } from "../../app/.server/auth/common-passwords";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { hashPassword as seedHashPassword } from "../../scripts/lib/password-hash.mjs";

// scripts/seed.mjs hashes the demo password in Node; the Worker verifies it in workerd.
// Both sides must produce the same bytes for the same password and salt.
describe("seed password hashing (scripts/lib/password-hash.mjs)", () => {
  it("produces hashes the app's verifyPassword accepts, and only for the right password", async () => {
    const stored = await seedHashPassword(DEMO.password);
    expect(stored).toMatch(/^pbkdf2-sha256\$6x100000\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await verifyPassword(stored, DEMO.password)).toBe(true);
    expect(await verifyPassword(stored, `${DEMO.password}x`)).toBe(false);
  });

  it("is byte-identical to the app's hashPassword for the same salt", async () => {
    const password = "Ünïcødé ﬁne pässwörd";
    const fromApp = await appHashPassword(password);
    const salt = decodeBase64(fromApp.split("$")[2]!);
    expect(await seedHashPassword(password, { salt })).toBe(fromApp);
  });

  it("normalises to NFKC like the app does", async () => {
    const stored = await seedHashPassword("ｐａｒｌｅｙ-ﬁxture-2026");
    expect(await verifyPassword(stored, "parley-fixture-2026")).toBe(true);
  });

  it("uses a demo password the signup rules would accept", () => {
    expect(DEMO.password.length).toBeGreaterThanOrEqual(8);
    expect(isCommonPassword(DEMO.password)).toBe(false);
  });
});
