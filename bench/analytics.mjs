#!/usr/bin/env node
// `npm run bench:analytics`
// Runs bench/analytics.bench.test.ts inside workerd (vitest-pool-workers), prints a table and writes
// bench/results/analytics.json. Knobs (environment): BENCH_MESSAGES (default 1000000), BENCH_LEADS
// (100000), BENCH_RUNS (30), BENCH_WRITES (100).
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runBenchInWorkerd } from "./cli.mjs";

// p95 of the analytics page's server work and of a leads search (issue #15).
const GOAL_P95_MS = 100;

const started = Date.now();
const { result } = await runBenchInWorkerd("bench/vitest.analytics.config.ts", { name: "bench:analytics" });
const n = (x) => x.toLocaleString("en-GB");
console.log(
  `\nAnalytics: ${n(result.stored.messages)} messages (${n(result.stored.conversations)} conversations) and ${n(result.stored.leads)} leads in one chatbot, ${result.runs} runs per case; seeded in ${(result.seedMs / 1000).toFixed(1)} s`,
);
console.log(
  `analytics rows: ${n(result.stored.dailyRows)} daily, ${n(result.stored.visitorRows)} visitor-days, ${n(result.stored.splitRows)} splits, ${n(result.stored.questionKeys)} question keys, ${n(result.stored.questionDayRows)} question-days\n`,
);
console.log(`${"case".padEnd(52)} p50 (ms)  p95 (ms)  goal p95`);
for (const c of result.cases) {
  const goal = c.kind === "write" || c.kind === "profile" ? "—" : `≤ ${GOAL_P95_MS} ms: ${c.p95 <= GOAL_P95_MS ? "met" : "NOT met"}`;
  console.log(`${c.name.padEnd(52)} ${c.p50.toFixed(1).padStart(8)}  ${c.p95.toFixed(1).padStart(8)}  ${goal}   ${c.detail}`);
}
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
const file = path.join(ROOT, "bench/results/analytics.json");
writeFileSync(
  file,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
      goalP95Ms: GOAL_P95_MS,
      wallMs: Date.now() - started,
      ...result,
    },
    null,
    2,
  ) + "\n",
);
console.log(`\nwrote ${path.relative(ROOT, file)}`);
