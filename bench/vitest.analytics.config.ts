import { benchConfig } from "./vitest.shared";

// The analytics benchmark (bench/analytics.bench.test.ts) inside workerd against a local D1 with the
// real migrations. Its data is synthetic (the corpus bindings benchConfig adds go unused). Knobs come
// from bench/analytics.mjs; see bench/README.md.
export default benchConfig({
  spec: "bench/analytics.bench.test.ts",
  testTimeout: 3_600_000,
  bindings: {
    BENCH_MESSAGES: process.env.BENCH_MESSAGES ?? "1000000",
    BENCH_LEADS: process.env.BENCH_LEADS ?? "100000",
    BENCH_RUNS: process.env.BENCH_RUNS ?? "30",
    BENCH_WRITES: process.env.BENCH_WRITES ?? "100",
    BENCH_PROFILE: process.env.BENCH_PROFILE ?? "0",
  },
});
