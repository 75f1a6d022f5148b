import { benchConfig } from "./vitest.shared";

// The retrieval benchmark (bench/retrieval.bench.test.ts): chunking, indexing and retrieval.
// Knobs come from bench/retrieval.mjs; see bench/README.md.
// BENCH_STORE=shard keeps the knowledge in the chatbot's KnowledgeShard (issue #20): the Worker entry
// is then the shard's class (bench/shard-entry.ts), as in bench:shards.
const shard = process.env.BENCH_STORE === "shard";

export default benchConfig({
  spec: "bench/retrieval.bench.test.ts",
  ...(shard ? { main: "./bench/shard-entry.ts", durableObjects: { KNOWLEDGE_SHARD: { className: "KnowledgeShard", useSQLite: true } } } : {}),
  testTimeout: 600_000,
  bindings: {
    BENCH_ABLATION: process.env.BENCH_ABLATION ?? "1",
    // Optional JSON [{name, tuning}] replacing the ablation list (for exploring settings).
    BENCH_CONFIGS: process.env.BENCH_CONFIGS ?? "",
    BENCH_DEBUG: process.env.BENCH_DEBUG ?? "0",
    BENCH_RECALL10: process.env.BENCH_RECALL10 ?? "0",
    BENCH_TARGET: process.env.BENCH_TARGET ?? "",
    BENCH_STORE: shard ? "shard" : "d1",
  },
});
