// Answer-time samples as a fixed histogram (ADR 020): every reply adds one to its bucket of the
// day, so the median and p95 of any range come from summing at most a few hundred small rows, with
// no message scan. Buckets grow geometrically (each 15 % wider than the one before, from 50 ms), so
// a percentile read from them is within about 7 % of the exact value at any scale.

const FIRST_EDGE_MS = 50;
const GROWTH = 1.15;
/** Bucket 0 is [0, 50 ms); bucket b ≥ 1 is [50·1.15^(b-1), 50·1.15^b); the last one is open-ended (~55 min on). */
export const LAST_BUCKET = 80;

export function answerTimeBucket(ms: number): number {
  if (!(ms >= FIRST_EDGE_MS)) return 0;
  return Math.min(LAST_BUCKET, 1 + Math.floor(Math.log(ms / FIRST_EDGE_MS) / Math.log(GROWTH) + 1e-9));
}

/** [lower, upper) edges of bucket `b`, in ms. */
export function bucketEdges(b: number): [number, number] {
  if (b <= 0) return [0, FIRST_EDGE_MS];
  return [FIRST_EDGE_MS * GROWTH ** (b - 1), FIRST_EDGE_MS * GROWTH ** b];
}

/**
 * The p-th percentile (0 < p ≤ 100, nearest rank) of the samples counted in `histogram`
 * (bucket → count), interpolated linearly inside its bucket; null without samples.
 */
export function percentileFromHistogram(histogram: Map<number, number>, p: number): number | null {
  const buckets = [...histogram.entries()].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((s, [, n]) => s + n, 0);
  if (!total) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [b, n] of buckets) {
    if (seen + n >= rank) {
      const [lo, hi] = bucketEdges(b);
      // The rank-th sample sits (rank - seen) of n into this bucket: spread evenly across it.
      return Math.round(lo + ((rank - seen - 0.5) / n) * (hi - lo));
    }
    seen += n;
  }
  return null;
}
