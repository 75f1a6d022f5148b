#!/usr/bin/env node
// `npm run bench:shards [-- --corpus PATH --eval PATH]` (issue #20)
// Runs bench/shards.bench.test.ts inside workerd (vitest-pool-workers), prints a table and writes
// bench/results/shards.json. Knobs (environment): BENCH_SIZES (default 10000,100000),
// BENCH_QUESTIONS (100), BENCH_WARMUP (5), BENCH_BOTS (200), BENCH_BOT_CHUNKS (100), BENCH_ROUNDS (5);
// a busy chatbot's conversation index: BENCH_INDEX_SIZES (10000,100000 conversations; empty: skipped),
// BENCH_INDEX_CALLS (50 per operation). BENCH_SIZES= BENCH_BOTS=0 runs only the conversation index.
import path from "node:path";
import { corpus, evalFile, ROOT, runBenchInWorkerd, writeResult } from "./cli.mjs";

const TARGET_P95_MS_AT_100K = 25;

const started = Date.now();
const { result, out } = await runBenchInWorkerd("bench/vitest.shards.config.ts", { name: "bench:shards", env: { BENCH_CORPUS: corpus, BENCH_EVAL: evalFile } });
const wallMs = Date.now() - started;
const ms = (x) => x.toFixed(1).padStart(7);
console.log(
  `\nStorage-shards benchmark: ${result.documents} documents → ${result.baseChunks} base chunks (larger sizes: seeded replicas); ${result.questions} questions; wall time ${(wallMs / 1000).toFixed(0)} s\n`,
);
console.log("chunks   store  index chunks/s  retrieve() p50 / p95 / max (ms)    recall@3 / MRR@3   results ≠ D1");
for (const r of result.sizes) {
  for (const kind of ["d1", "shard"]) {
    const s = r[kind];
    console.log(
      `${String(r.chunks).padEnd(8)} ${kind.padEnd(6)} ${s.build.chunksPerSec.toFixed(0).padStart(14)}  ${ms(s.retrieveMs.p50)} / ${ms(s.retrieveMs.p95)} / ${ms(s.retrieveMs.max)}   ${s.quality.recallAt3.toFixed(3)} / ${s.quality.mrrAt3.toFixed(3)}     ${kind === "shard" ? r.differentResults : ""}`,
    );
  }
  if (r.chunks === 100000) {
    const { d1, shard } = r;
    console.log(
      `  100k: shard p95 ${shard.retrieveMs.p95.toFixed(1)} ms vs D1 ${d1.retrieveMs.p95.toFixed(1)} ms (goal: no slower — ${shard.retrieveMs.p95 <= d1.retrieveMs.p95 ? "met" : "NOT met"}; target ≤ ${TARGET_P95_MS_AT_100K} ms — ${shard.retrieveMs.p95 <= TARGET_P95_MS_AT_100K ? "met" : "NOT met"})`,
    );
  }
}
const c = result.concurrent;
if (c.d1) {
  console.log(`\n${c.chatbots} chatbots × ${c.chunksEach} chunks, each asked one question at the same moment, ${c.rounds} rounds:`);
  console.log("store   per query p50 / p95 / max (ms)    round wall p50 / max (ms)   queries/s");
  for (const kind of ["d1", "shard"])
    console.log(
      `${kind.padEnd(7)} ${ms(c[kind].perQueryMs.p50)} / ${ms(c[kind].perQueryMs.p95)} / ${ms(c[kind].perQueryMs.max)}     ${ms(c[kind].roundWallMs.p50)} / ${ms(c[kind].roundWallMs.max)}   ${c[kind].queriesPerSec.toFixed(0).padStart(8)}`,
    );
}
const indexLine = out.split("\n").find((l) => l.includes("BENCH_INDEX_RESULT "));
const conversationIndex = indexLine ? JSON.parse(indexLine.slice(indexLine.indexOf("BENCH_INDEX_RESULT ") + "BENCH_INDEX_RESULT ".length)) : null;
if (conversationIndex?.sizes.length) {
  console.log(`\nA busy chatbot's conversation index (two messages a conversation), ${conversationIndex.calls} calls each, p50 / p95 / max (ms):`);
  console.log("conversations store  first page                 unanswered                 next page                  inbox lists                same page");
  for (const r of conversationIndex.sizes)
    for (const kind of ["d1", "shard"]) {
      const s = r[kind];
      const cell = (x) => `${ms(x.p50)} / ${ms(x.p95)} / ${ms(x.max)}`;
      console.log(
        `${String(r.conversations).padEnd(13)} ${kind.padEnd(6)} ${cell(s.firstPage)}  ${cell(s.unanswered)}  ${cell(s.nextPage)}  ${cell(s.inboxLists)}  ${kind === "shard" ? r.samePage : ""}`,
      );
    }
}
writeResult("bench/results/shards.json", { corpus: path.relative(ROOT, corpus), eval: path.relative(ROOT, evalFile), wallMs, ...result, conversationIndex });
