import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { constantTimeEqual } from "./crypto";

// Workers' WebCrypto refuses PBKDF2 above 100,000 iterations per call, so the 600,000 iterations
// OWASP asks for PBKDF2-SHA256 are done as 6 chained calls of 100,000 (ADR 003). The parameters
// are stored with each hash so they can be raised later and old hashes still verify.
const ROUNDS = 6;
const ITERATIONS_PER_ROUND = 100_000;
const SALT_BYTES = 16;
const KEY_BITS = 256;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, rounds: number, iterations: number): Promise<Uint8Array<ArrayBuffer>> {
  let key = new TextEncoder().encode(password.normalize("NFKC")) as Uint8Array<ArrayBuffer>;
  for (let i = 0; i < rounds; i++) {
    const material = await crypto.subtle.importKey("raw", key, "PBKDF2", false, ["deriveBits"]);
    const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, KEY_BITS);
    key = new Uint8Array(bits);
  }
  return key;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, ROUNDS, ITERATIONS_PER_ROUND);
  return `pbkdf2-sha256$${ROUNDS}x${ITERATIONS_PER_ROUND}$${encodeBase64(salt)}$${encodeBase64(hash)}`;
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const [scheme, params, saltB64, hashB64] = stored.split("$");
  if (scheme !== "pbkdf2-sha256" || !params || !saltB64 || !hashB64) return false;
  const [rounds, iterations] = params.split("x").map(Number);
  if (!Number.isInteger(rounds) || !Number.isInteger(iterations) || rounds < 1 || iterations < 1) return false;
  const expected = decodeBase64(hashB64);
  const actual = await derive(password, new Uint8Array(decodeBase64(saltB64)), rounds, iterations);
  return constantTimeEqual(actual, expected);
}

/** A hash of a random password, used to spend the same time when the email is unknown. */
export const DUMMY_HASH = "pbkdf2-sha256$6x100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
