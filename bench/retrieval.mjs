#!/usr/bin/env node
// `npm run bench:retrieval [-- --corpus PATH --eval PATH --no-ablation]`
// Runs bench/retrieval.bench.test.ts inside workerd (vitest-pool-workers), prints a table and writes
// bench/results/retrieval.json. Paths are resolved relative to the repository root.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { args, corpus, evalFile, ROOT } from "./cli.mjs";

const ablation = !args.includes("--no-ablation");

const started = Date.now();
const child = spawn(process.execPath, [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "bench/vitest.retrieval.config.ts", "--reporter=dot"], {
  cwd: ROOT,
  env: { ...process.env, BENCH_CORPUS: corpus, BENCH_EVAL: evalFile, BENCH_ABLATION: ablation ? "1" : "0", WRANGLER_SEND_METRICS: "false" },
  stdio: ["ignore", "pipe", "pipe"],
});
let out = "";
let err = "";
child.stdout.on("data", (d) => (out += d));
child.stderr.on("data", (d) => (err += d));
const code = await new Promise((resolve) => child.on("close", resolve));
const line = out.split("\n").find((l) => l.includes("BENCH_RESULT "));
if (code !== 0 || !line) {
  process.stderr.write(out + err);
  console.error(`\nbench:retrieval failed (exit ${code})`);
  process.exit(1);
}
const result = JSON.parse(line.slice(line.indexOf("BENCH_RESULT ") + "BENCH_RESULT ".length));
const wallMs = Date.now() - started;
const f = (x) => x.toFixed(3);
console.log(`\nRetrieval benchmark: ${result.documents} documents → ${result.chunks} chunks, ${result.questions} questions, k=${result.k} (document level)`);
console.log(`ingest (chunk + index + embed, in workerd): ${(result.ingestMs / 1000).toFixed(1)} s; wall time ${(wallMs / 1000).toFixed(1)} s\n`);
const w = Math.max(...result.rows.map((r) => r.name.length));
console.log(`${"configuration".padEnd(w)}  precision  recall  MRR    ms/query  unanswerable`);
for (const r of result.rows)
  console.log(`${r.name.padEnd(w)}  ${f(r.precision)}      ${f(r.recall)}   ${f(r.mrr)}  ${r.msPerQuery.toFixed(1).padStart(8)}  ${r.unanswerable}${r.recallAt10 !== undefined ? `  (recall@10 ${f(r.recallAt10)})` : ""}`);
if (process.env.BENCH_DEBUG === "1") writeFileSync(path.join(ROOT, "bench/results/debug.txt"), out);
console.log(`\nrelevance floor: ${result.offTopic.unanswerable}/${result.offTopic.questions} off-topic questions marked unanswerable (default settings)`);
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
const file = path.join(ROOT, "bench/results/retrieval.json");
writeFileSync(
  file,
  JSON.stringify({ date: new Date().toISOString(), machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.arch()}` }, corpus: path.relative(ROOT, corpus), eval: path.relative(ROOT, evalFile), wallMs, ...result }, null, 2) + "\n",
);
console.log(`\nwrote ${path.relative(ROOT, file)}`);
