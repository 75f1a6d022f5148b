import { benchConfig } from "./vitest.shared";

// The retrieval benchmark (bench/retrieval.bench.test.ts): chunking, indexing and retrieval.
// Knobs come from bench/retrieval.mjs; see bench/README.md.
export default benchConfig({
  spec: "bench/retrieval.bench.test.ts",
  testTimeout: 600_000,
  bindings: {
    BENCH_ABLATION: process.env.BENCH_ABLATION ?? "1",
    // Optional JSON [{name, tuning}] replacing the ablation list (for exploring settings).
    BENCH_CONFIGS: process.env.BENCH_CONFIGS ?? "",
    BENCH_DEBUG: process.env.BENCH_DEBUG ?? "0",
    BENCH_RECALL10: process.env.BENCH_RECALL10 ?? "0",
    BENCH_TARGET: process.env.BENCH_TARGET ?? "",
  },
});
