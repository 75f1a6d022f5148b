import { benchConfig } from "./vitest.shared";

// The conversation-list benchmark (bench/conversations.bench.test.ts) inside workerd against a local
// D1 with the real migrations. Its data is synthetic (the corpus bindings benchConfig adds go unused).
// Knobs come from bench/conversations.mjs; see bench/README.md.
export default benchConfig({
  spec: "bench/conversations.bench.test.ts",
  testTimeout: 1_800_000,
  bindings: {
    BENCH_CONVERSATIONS: process.env.BENCH_CONVERSATIONS ?? "100000",
    BENCH_RUNS: process.env.BENCH_RUNS ?? "40",
  },
});
