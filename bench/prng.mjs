// Deterministic pseudo-random numbers (mulberry32), so every benchmark run makes the same choices:
// the messages bench:load sends, bench:live's pauses, bench:chat's and bench:shards' replicas.
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The array in a seeded order (Fisher–Yates from the end). */
export function shuffled(xs, rnd) {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** What a replica of the corpus calls itself after the original title ("— Guide 1"). */
export const REPLICA_VARIANTS = ["Guide", "Notes", "Reference", "Handbook", "FAQ", "Overview", "Manual", "Primer", "Digest", "Companion"];
