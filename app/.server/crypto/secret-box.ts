import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { isDevelopment, type Env } from "../env";
import { ByteLru, stringBytes } from "../cache/byte-lru";

// Secrets the product must read back (identity-verification secrets, integration credentials) are
// encrypted at rest with AES-256-GCM under SECRETS_KEY (32 random bytes, base64; a Worker secret).
// Development and tests use a fixed key so a laptop needs no setup; production refuses to run without one.
// Stored form: "v1." + base64(iv ‖ ciphertext+tag).

const DEV_KEY = "cGFybGV5LWRldmVsb3BtZW50LWtleS1ub3Qtc2VjcmV0"; // "parley-development-key-not-secret"
// One entry per configured key (normally one); bounded anyway (app/.server/cache/byte-lru.ts).
const keyCache = new ByteLru<string, Promise<CryptoKey>>({ maxBytes: 64 * 1024, maxEntries: 8, sizeOf: (raw) => stringBytes(raw) + 512 });

function importKey(env: Pick<Env, "SECRETS_KEY" | "ENVIRONMENT">): Promise<CryptoKey> {
  const raw = env.SECRETS_KEY ?? (isDevelopment(env) ? DEV_KEY : undefined);
  if (!raw) throw new Error("SECRETS_KEY is not set: add it with `wrangler secret put SECRETS_KEY` (32 random bytes, base64).");
  let key = keyCache.get(raw);
  if (!key) {
    // SHA-256 of the configured bytes gives exactly 32 bytes whatever length was supplied.
    key = crypto.subtle
      .digest("SHA-256", new Uint8Array(decodeBase64(raw)))
      .then((bytes) => crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]));
    keyCache.set(raw, key);
  }
  return key;
}

export async function sealSecret(env: Pick<Env, "SECRETS_KEY" | "ENVIRONMENT">, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await importKey(env), new TextEncoder().encode(plaintext)));
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return `v1.${encodeBase64(out)}`;
}

export async function openSecret(env: Pick<Env, "SECRETS_KEY" | "ENVIRONMENT">, stored: string): Promise<string> {
  if (!stored.startsWith("v1.")) throw new Error("Unknown secret format.");
  const bytes = decodeBase64(stored.slice(3));
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, await importKey(env), bytes.slice(12));
  return new TextDecoder().decode(plain);
}
