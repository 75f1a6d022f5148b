import { describe, expect, it } from "vitest";
import { constantTimeEqual, formEncode, planForPrice, signStripePayload, verifyStripeSignature } from "./stripe";

const body = '{"id":"evt_1"}';
// HMAC-SHA256("whsec_abc", "1700000000.{body}") computed independently with Node's crypto.
const KNOWN = "79f159714a0d01d9505691104b38e71f0dbb0d4bdeef387b113d07b870f50db3";

describe("Stripe signature verification (Stripe's manual scheme)", () => {
  it("matches an independently computed signature, within the 5-minute tolerance", async () => {
    expect(await signStripePayload("whsec_abc", body, 1700000000)).toBe(`t=1700000000,v1=${KNOWN}`);
    expect(await verifyStripeSignature(body, `t=1700000000,v1=${KNOWN}`, "whsec_abc", { nowS: 1700000000 + 300 })).toEqual({ ok: true });
    expect(await verifyStripeSignature(body, `t=1700000000,v1=${KNOWN}`, "whsec_abc", { nowS: 1700000000 + 301 })).toMatchObject({ ok: false });
    expect(await verifyStripeSignature(body, `t=1700000000,v1=${KNOWN}`, "whsec_abc", { nowS: 1700000000 - 301 })).toMatchObject({ ok: false });
  });

  it("accepts any of several v1 signatures, ignores other schemes, refuses malformed headers", async () => {
    const now = { nowS: 1700000000 };
    expect(await verifyStripeSignature(body, `t=1700000000,v1=${"a".repeat(64)},v0=${KNOWN},v1=${KNOWN}`, "whsec_abc", now)).toEqual({ ok: true });
    expect(await verifyStripeSignature(body, `t=1700000000,v0=${KNOWN}`, "whsec_abc", now)).toMatchObject({ ok: false });
    expect(await verifyStripeSignature(body, `v1=${KNOWN}`, "whsec_abc", now)).toMatchObject({ ok: false });
    expect(await verifyStripeSignature(body, null, "whsec_abc", now)).toMatchObject({ ok: false });
    expect(await verifyStripeSignature(`${body} `, `t=1700000000,v1=${KNOWN}`, "whsec_abc", now)).toMatchObject({ ok: false });
    expect(await verifyStripeSignature(body, `t=1700000000,v1=${KNOWN}`, "whsec_other", now)).toMatchObject({ ok: false });
  });

  it("compares in constant time and encodes forms the way Stripe reads them", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
    expect(constantTimeEqual("", "")).toBe(true);
    expect(formEncode({ "line_items[0][price]": "price_1", mode: "subscription", skip: undefined })).toBe(
      "line_items%5B0%5D%5Bprice%5D=price_1&mode=subscription",
    );
    expect(planForPrice({ STRIPE_PRICE_GROWTH: "price_g" }, "price_g")).toBe("growth");
    expect(planForPrice({ STRIPE_PRICE_GROWTH: "price_g" }, "price_x")).toBeNull();
  });
});
