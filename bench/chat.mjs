#!/usr/bin/env node
// `npm run bench:chat [-- --corpus PATH --eval PATH]`
// Runs bench/chat.bench.test.ts inside workerd (vitest-pool-workers), prints a table and writes
// bench/results/chat.json. Knobs (environment): BENCH_SIZES (default 1000,10000,100000),
// BENCH_QUESTIONS (100), BENCH_WARMUP (5), BENCH_PAGES (150), BENCH_MAX_BUILD_S (900), BENCH_STORE
// (d1 or shard: where the chatbots' knowledge is kept), BENCH_OUT.
import path from "node:path";
import { corpus, evalFile, ROOT, runBenchInWorkerd, writeResult } from "./cli.mjs";

const GOALS = { 10000: 50, 100000: 150 }; // p95 first byte, ms

const started = Date.now();
const { result } = await runBenchInWorkerd("bench/vitest.chat.config.ts", { name: "bench:chat", env: { BENCH_CORPUS: corpus, BENCH_EVAL: evalFile } });
const wallMs = Date.now() - started;
const ms = (x) => x.toFixed(1).padStart(7);
const c = result.crawl;
console.log(
  `\nChat benchmark (knowledge in ${result.store ?? "d1"}): ${result.documents} documents → ${result.baseChunks} base chunks (larger sizes: seeded synthetic replicas); wall time ${(wallMs / 1000).toFixed(0)} s`,
);
console.log(
  `crawler + ingestion: ${c.pages} pages (${c.chunks} chunks, ${c.steps} steps) in ${(c.ms / 1000).toFixed(2)} s → ${c.pagesPerSec.toFixed(1)} pages/s\n`,
);
console.log(
  "chunks   indexChunks chunks/s  first byte p50 / p95 (ms)   full answer p50 / p95 (ms)  retrieve() alone p50 / p95  recall@3 / MRR@3  goal p95 first byte",
);
for (const r of result.sizes) {
  const goal = GOALS[r.chunks];
  const verdict = goal === undefined ? "—" : `≤ ${goal} ms: ${r.firstByteMs.p95 <= goal ? "met" : "NOT met"}`;
  console.log(
    `${String(r.chunks).padEnd(8)} ${r.build.chunksPerSec.toFixed(0).padStart(20)}  ${ms(r.firstByteMs.p50)} / ${ms(r.firstByteMs.p95)}      ${ms(r.fullAnswerMs.p50)} / ${ms(r.fullAnswerMs.p95)}    ${ms(r.retrieveOnlyMs.p50)} / ${ms(r.retrieveOnlyMs.p95)}     ${r.quality.recallAt3.toFixed(3)} / ${r.quality.mrrAt3.toFixed(3)}    ${verdict}`,
  );
}
for (const s of result.skipped) console.log(`${s.size}: not measured — ${s.reason}`);
writeResult("bench/results/chat.json", {
  corpus: path.relative(ROOT, corpus),
  eval: path.relative(ROOT, evalFile),
  goals: { p95FirstByteMs: GOALS },
  wallMs,
  ...result,
});
