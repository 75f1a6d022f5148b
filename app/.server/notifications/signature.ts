import { constantTimeEqual, randomToken } from "../auth/crypto";
import { hmacSha256Hex } from "../crypto/hmac";

// Webhook signatures, the Stripe scheme (documented in content/docs/api/webhooks.md):
//   Parley-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>
// During a secret rotation's grace period the header carries one v1 per live secret, so a receiver
// that still has the old secret and one that has the new both verify.

export const SIGNATURE_HEADER = "Parley-Signature";
/** How old a signature a receiver should accept (the docs tell receivers the same). */
export const REPLAY_WINDOW_SECONDS = 5 * 60;
/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

/** A new signing secret: "whsec_" + 160 random bits. The whole string is the HMAC key. */
export function newWebhookSecret(): string {
  return `whsec_${randomToken(20)}`;
}

/** The header value for `body` signed at `t` (unix seconds) with each of `secrets` (newest first). */
export async function signatureHeader(secrets: string[], body: string, t: number): Promise<string> {
  const parts = [`t=${t}`];
  for (const secret of secrets) parts.push(`v1=${await hmacSha256Hex(secret, `${t}.${body}`)}`);
  return parts.join(",");
}

export type SignatureCheck = { ok: true } | { ok: false; reason: "malformed" | "stale" | "mismatch" };

/** What a receiver does (the server uses it in tests and to explain the scheme): any v1 matching, within the window. */
export async function verifySignature(
  header: string | null | undefined,
  body: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = REPLAY_WINDOW_SECONDS,
): Promise<SignatureCheck> {
  if (!header) return { ok: false, reason: "malformed" };
  let t: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === "t" && /^\d{1,12}$/.test(v ?? "")) t = Number(v);
    else if (k === "v1" && v) candidates.push(v);
  }
  if (t === null || !candidates.length) return { ok: false, reason: "malformed" };
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return { ok: false, reason: "stale" };
  const expected = new TextEncoder().encode(await hmacSha256Hex(secret, `${t}.${body}`));
  return candidates.some((c) => constantTimeEqual(new TextEncoder().encode(c), expected)) ? { ok: true } : { ok: false, reason: "mismatch" };
}
