import { constantTimeEqual } from "../auth/crypto";
import type { AppContext } from "../context";
import { hmacSha256, hmacSha256Hex } from "../crypto/hmac";
import { openSecret } from "../crypto/secret-box";

// Identity verification: the customer's backend signs the visitor id it gives the widget with the
// chatbot's secret, HMAC-SHA256(secret, visitorId) as lowercase hex. A valid hash proves the visitor
// id was issued by the customer's site (a signed-in user), not made up in the browser.

export const NOT_VERIFIED_MESSAGE = "Please sign in on the website to chat with us.";

/** The hash the customer's server computes for a visitor id (documented in the embed docs). */
export async function visitorHashFor(secret: string, visitorId: string): Promise<string> {
  return hmacSha256Hex(secret, visitorId);
}

function hexToBytes(hex: string): Uint8Array | null {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Constant-time check of a visitor hash (any case of hex accepted). */
export async function isValidVisitorHash(secret: string, visitorId: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) return false;
  const given = hexToBytes(hash.trim());
  if (!given) return false;
  return constantTimeEqual(await hmacSha256(secret, visitorId), given);
}

/**
 * Whether this visitor id is proven by its hash. A chatbot without a secret (or with one that can no
 * longer be opened, e.g. after the encryption key changed) verifies nobody.
 */
export async function verifyVisitor(
  ctx: Pick<AppContext, "env">,
  chatbot: { identitySecret: string | null },
  visitorId: string,
  hash: string | null | undefined,
): Promise<boolean> {
  if (!chatbot.identitySecret || !hash) return false;
  let secret: string;
  try {
    secret = await openSecret(ctx.env, chatbot.identitySecret);
  } catch (err) {
    console.error("[widget] identity secret cannot be opened", err instanceof Error ? err.message : err);
    return false;
  }
  return isValidVisitorHash(secret, visitorId, hash);
}
