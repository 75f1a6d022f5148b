import { encodeBase64 } from "@oslojs/encoding";

// Twilio's request signature, exactly as its webhook security guide documents it:
// X-Twilio-Signature = Base64(HMAC-SHA1(auth token, full URL + each POST parameter sorted by name
// as name followed by value)). Checked on every request before anything is read or written.

const encoder = new TextEncoder();

/** The string Twilio signs: the URL it called (with its query string), then the POST parameters by name. */
export function signedPayload(url: string, params: Iterable<[string, string]>): string {
  const sorted = [...params].sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return url + sorted.map(([k, v]) => k + v).join("");
}

/** The X-Twilio-Signature of a request (tests sign simulated Twilio requests with it). */
export async function twilioSignature(authToken: string, url: string, params: Iterable<[string, string]>): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(authToken), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  return encodeBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(signedPayload(url, params)))));
}

/** Equal strings compared in time that depends only on their lengths. */
function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/**
 * Whether `signature` is Twilio's for one of `urls` (the URL as this Worker received it, and as it
 * was configured on the number when that differs, e.g. behind a proxy). A missing header is false.
 */
export async function verifyTwilioSignature(
  authToken: string,
  signature: string | null | undefined,
  urls: string[],
  params: Iterable<[string, string]>,
): Promise<boolean> {
  if (!signature) return false;
  const list = [...params];
  let ok = false;
  // Every candidate is computed and compared, so timing does not say which one matched.
  for (const url of new Set(urls)) if (constantTimeEqual(await twilioSignature(authToken, url, list), signature)) ok = true;
  return ok;
}
