import type { ChunkInput } from "~/.server/retrieval/types";
import { mulberry32, REPLICA_VARIANTS, shuffled } from "./prng.mjs";

// What the benchmarks that grow one chatbot's knowledge share (bench:chat, bench:shards): seeded
// replicas of the corpus's chunks, percentiles.

// ——— deterministic perturbation ———
export { shuffled };

/** Replica `r` (≥ 1) of a chunk: another title, URL and sentence order (seeded by r and position). */
export function replica(c: ChunkInput, r: number, seed: number): ChunkInput {
  const rnd = mulberry32(r * 1_000_003 + seed);
  const sentences = c.text.split(/(?<=[.!?])\s+/);
  const sep = c.url?.includes("?") ? "&" : "?";
  return {
    ...c,
    title: `${c.title} — ${REPLICA_VARIANTS[r % REPLICA_VARIANTS.length]} ${r}`,
    url: c.url ? `${c.url}${sep}replica=${r}` : c.url,
    text: sentences.length > 1 ? shuffled(sentences, rnd).join(" ") : c.text,
  };
}

/** A passage's URL without the replica marker replica() adds. */
export const originalUrl = (url: string | null) => (url ?? "").replace(/[?&]replica=\d+/, "");

// ——— stats ———
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
export const summary = (xs: number[]) => ({ p50: pct(xs, 50), p95: pct(xs, 95), max: Math.max(...xs), mean: xs.reduce((a, b) => a + b, 0) / xs.length });

/** An organisation on the Scale plan with one chatbot, written straight to D1 (`<kind>` names them). */
export async function makeBenchOrgAndBot(db: D1Database, kind: string, suffix: string, store: "d1" | "shard" = "d1") {
  const orgId = `org_${kind}_${suffix}`;
  const chatbotId = `cb_${kind}_${suffix}`;
  await db.batch([
    db
      .prepare("INSERT INTO organisations (id, name, slug, plan, period_start) VALUES (?, 'Bench', ?, 'scale', ?)")
      .bind(orgId, `${kind}-${suffix}`, Date.now()),
    db.prepare("INSERT INTO chatbots (id, org_id, name, knowledge_store) VALUES (?, ?, 'Docs assistant', ?)").bind(chatbotId, orgId, store),
  ]);
  return { orgId, chatbotId };
}
