#!/usr/bin/env node
// `npm run bench:conversations`
// Runs bench/conversations.bench.test.ts inside workerd (vitest-pool-workers), prints a table and
// writes bench/results/conversations.json. Knobs (environment): BENCH_CONVERSATIONS (default
// 100000), BENCH_RUNS (40).
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// p95 of one page of the chatbot home's list (page + count): a list or filter reads one index range;
// a search also reads up to 2,000 FTS5 matches and sorts them.
const GOALS_P95_MS = { list: 50, search: 150 };
const goalOf = (name) => (name.startsWith("search") ? GOALS_P95_MS.search : GOALS_P95_MS.list);

const started = Date.now();
const child = spawn(
  process.execPath,
  [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "bench/vitest.conversations.config.ts", "--reporter=dot"],
  { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, stdio: ["ignore", "pipe", "pipe"] },
);
let out = "";
let err = "";
child.stdout.on("data", (d) => {
  out += d;
  for (const l of String(d).split("\n"))
    if (l.includes("BENCH_PROGRESS ")) console.error(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${l.slice(l.indexOf("BENCH_PROGRESS ") + 15)}`);
});
child.stderr.on("data", (d) => (err += d));
const code = await new Promise((resolve) => child.on("close", resolve));
const line = out.split("\n").find((l) => l.includes("BENCH_RESULT "));
if (code !== 0 || !line) {
  process.stderr.write(out + err);
  console.error(`\nbench:conversations failed (exit ${code})`);
  process.exit(1);
}
const result = JSON.parse(line.slice(line.indexOf("BENCH_RESULT ") + "BENCH_RESULT ".length));
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
