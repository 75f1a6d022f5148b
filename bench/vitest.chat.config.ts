import { benchConfig } from "./vitest.shared";

// The chat latency / ingestion-throughput benchmark (bench/chat.bench.test.ts): the answer engine,
// indexing and crawler, plus a local R2 bucket (the crawler keeps its state there). Knobs come from
// bench/chat.mjs; see bench/README.md.
// BENCH_STORE=shard keeps the chatbots' knowledge in their KnowledgeShard (issue #20): the Worker
// entry is then the shard's class (bench/shard-entry.ts), as in bench:shards and bench:answers.
const shard = process.env.BENCH_STORE === "shard";

export default benchConfig({
  spec: "bench/chat.bench.test.ts",
  r2Buckets: ["FILES"],
  ...(shard ? { main: "./bench/shard-entry.ts", durableObjects: { KNOWLEDGE_SHARD: { className: "KnowledgeShard", useSQLite: true } } } : {}),
  testTimeout: 3_600_000,
  bindings: {
    BENCH_SIZES: process.env.BENCH_SIZES ?? "1000,10000,100000",
    BENCH_QUESTIONS: process.env.BENCH_QUESTIONS ?? "100",
    BENCH_WARMUP: process.env.BENCH_WARMUP ?? "5",
    BENCH_PAGES: process.env.BENCH_PAGES ?? "150",
    // Skip a size whose build is projected (from the measured chunks/s) to take longer than this.
    BENCH_MAX_BUILD_S: process.env.BENCH_MAX_BUILD_S ?? "900",
    BENCH_STORE: shard ? "shard" : "d1",
  },
});
