#!/usr/bin/env node
// `npm run bench:conversations`
// Runs bench/conversations.bench.test.ts inside workerd (vitest-pool-workers), prints a table and
// writes bench/results/conversations.json. Knobs (environment): BENCH_CONVERSATIONS (default
// 100000), BENCH_RUNS (40).
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runBenchInWorkerd } from "./cli.mjs";
// p95 of one page of the chatbot home's list (page + count): a list or filter reads one index range;
// a search also reads up to 2,000 FTS5 matches and sorts them.
const GOALS_P95_MS = { list: 50, search: 150 };
const goalOf = (name) => (name.startsWith("search") ? GOALS_P95_MS.search : GOALS_P95_MS.list);

const started = Date.now();
const { result } = await runBenchInWorkerd("bench/vitest.conversations.config.ts", { name: "bench:conversations" });
console.log(
  `\nConversation list: ${result.conversations.toLocaleString("en-GB")} conversations in one chatbot (+ ${result.neighbour.toLocaleString("en-GB")} in a neighbour), ${result.runs} runs per case; seeded in ${(result.seedMs / 1000).toFixed(1)} s\n`,
);
console.log(`${"case".padEnd(48)} ${"matching".padStart(9)}  p50 (ms)  p95 (ms)  goal p95`);
for (const c of result.cases) {
  console.log(
    `${c.name.padEnd(48)} ${String(c.total).padStart(9)}  ${c.p50.toFixed(1).padStart(8)}  ${c.p95.toFixed(1).padStart(8)}  ≤ ${goalOf(c.name)} ms: ${c.p95 <= goalOf(c.name) ? "met" : "NOT met"}`,
  );
}
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
const file = path.join(ROOT, "bench/results/conversations.json");
writeFileSync(
  file,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
      goalsP95Ms: GOALS_P95_MS,
      wallMs: Date.now() - started,
      ...result,
    },
    null,
    2,
  ) + "\n",
);
console.log(`\nwrote ${path.relative(ROOT, file)}`);
