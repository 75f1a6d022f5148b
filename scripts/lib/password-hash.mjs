// Password hashing for seed data, byte-compatible with app/.server/auth/password.ts:
//   pbkdf2-sha256$<rounds>x<iterations>$<salt base64>$<hash base64>
// Round 1's password is the UTF-8 of password.normalize("NFKC"); each next round uses the previous
// round's 32 output bytes as its password; the salt is the same 16 bytes for every round.
// WebCrypto only (globalThis.crypto.subtle exists in Node >= 20 and in workerd), so the workerd test
// tests/integration/seed-hash.test.ts imports this very module.

export const ROUNDS = 6;
export const ITERATIONS_PER_ROUND = 100_000;
const SALT_BYTES = 16;
const KEY_BITS = 256;

function toBase64(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * @param {string} password
 * @param {{ salt?: Uint8Array, rounds?: number, iterations?: number }} [options]
 * @returns {Promise<string>}
 */
export async function hashPassword(password, options = {}) {
  const { subtle } = globalThis.crypto;
  const rounds = options.rounds ?? ROUNDS;
  const iterations = options.iterations ?? ITERATIONS_PER_ROUND;
  const salt = options.salt ?? globalThis.crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  let key = new TextEncoder().encode(password.normalize("NFKC"));
  for (let i = 0; i < rounds; i++) {
    const material = await subtle.importKey("raw", key, "PBKDF2", false, ["deriveBits"]);
    const bits = await subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, KEY_BITS);
    key = new Uint8Array(bits);
  }
  return `pbkdf2-sha256$${rounds}x${iterations}$${toBase64(salt)}$${toBase64(key)}`;
}
