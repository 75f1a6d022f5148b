import { benchConfig } from "./vitest.shared";

// The storage-shards benchmark (bench/shards.bench.test.ts, issue #20): retrieval and ingestion in a
// chatbot's knowledge shard next to D1, and many chatbots' shards queried at once. Knobs come from
// bench/shards.mjs; see bench/README.md.
export default benchConfig({
  spec: "bench/shards.bench.test.ts",
  testTimeout: 3_600_000,
  main: "./bench/shard-entry.ts",
  durableObjects: {
    KNOWLEDGE_SHARD: { className: "KnowledgeShard", useSQLite: true },
    CONVERSATION_SHARD: { className: "ConversationShard", useSQLite: true },
  },
  bindings: {
    BENCH_SIZES: process.env.BENCH_SIZES ?? "10000,100000",
    BENCH_QUESTIONS: process.env.BENCH_QUESTIONS ?? "100",
    BENCH_WARMUP: process.env.BENCH_WARMUP ?? "5",
    BENCH_BOTS: process.env.BENCH_BOTS ?? "200",
    BENCH_BOT_CHUNKS: process.env.BENCH_BOT_CHUNKS ?? "100",
    BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? "5",
    BENCH_INDEX_SIZES: process.env.BENCH_INDEX_SIZES ?? "10000,100000",
    BENCH_INDEX_CALLS: process.env.BENCH_INDEX_CALLS ?? "50",
  },
});
