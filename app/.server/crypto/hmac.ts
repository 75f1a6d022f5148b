import { encodeHexLowerCase } from "@oslojs/encoding";

// HMAC-SHA256, the one primitive behind every signature Parley makes or checks: Stripe's and our own
// webhook signatures (billing/stripe.ts, notifications/signature.ts) and widget visitor hashes
// (widget/identity.ts).

const encoder = new TextEncoder();

export async function hmacSha256(secret: string, message: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

/** As lowercase hex. */
export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  return encodeHexLowerCase(await hmacSha256(secret, message));
}
