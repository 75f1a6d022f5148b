#!/usr/bin/env node
// `npm run bench:retrieval [-- --no-ablation | --corpus PATH --eval PATH]`
// Runs bench/retrieval.bench.test.ts inside workerd (vitest-pool-workers) once per set and reports
// every set separately: by default the Anthropic docs (with the ablation unless --no-ablation) and
// the StackFAQ dev half (default configuration). `--corpus/--eval` measure one other set instead.
// Writes bench/results/retrieval.json (or BENCH_OUT); BENCH_STORE=shard keeps the knowledge in the
// chatbot's KnowledgeShard. Paths are resolved relative to the repository root.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { arg, args, ROOT, runBenchInWorkerd, SHARED } from "./cli.mjs";

const ablation = !args.includes("--no-ablation");
const custom = arg("--corpus", null);
const SETS = custom
  ? [
      {
        name: path.basename(path.dirname(path.resolve(ROOT, custom))),
        corpus: path.resolve(ROOT, custom),
        evalFile: path.resolve(ROOT, arg("--eval", path.join(SHARED, "bench/anthropic-docs/eval.json"))),
        ablation,
      },
    ]
  : [
      {
        name: "anthropic-docs",
        corpus: path.join(SHARED, "bench/anthropic-docs/corpus.json"),
        evalFile: path.join(SHARED, "bench/anthropic-docs/eval.json"),
        ablation,
      },
      {
        name: "stackfaq-dev",
        corpus: path.join(SHARED, "bench/stackfaq/corpus.json"),
        evalFile: path.join(SHARED, "bench/stackfaq/eval.json"),
        ablation: false,
      },
    ];

async function runSet(set) {
  const { result, out } = await runBenchInWorkerd("bench/vitest.retrieval.config.ts", {
    name: `bench:retrieval on ${set.name}`,
    env: { BENCH_CORPUS: set.corpus, BENCH_EVAL: set.evalFile, BENCH_ABLATION: set.ablation ? "1" : "0" },
  });
  if (process.env.BENCH_DEBUG === "1") writeFileSync(path.join(ROOT, `bench/results/debug-${set.name}.txt`), out);
  return result;
}

const started = Date.now();
const results = [];
const f = (x) => x.toFixed(3);
for (const set of SETS) {
  const t = Date.now();
  const result = await runSet(set);
  const wallMs = Date.now() - t;
  results.push({ name: set.name, corpus: path.relative(ROOT, set.corpus), eval: path.relative(ROOT, set.evalFile), wallMs, ...result });
  console.log(`\n== ${set.name}: ${result.documents} documents → ${result.chunks} chunks, ${result.questions} questions, k=${result.k} (document level)`);
  console.log(`ingest (chunk + index + embed, in workerd): ${(result.ingestMs / 1000).toFixed(1)} s; wall time ${(wallMs / 1000).toFixed(1)} s\n`);
  const w = Math.max(...result.rows.map((r) => r.name.length));
  console.log(`${"configuration".padEnd(w)}  precision  recall  MRR    ms/query  unanswerable`);
  for (const r of result.rows)
    console.log(
      `${r.name.padEnd(w)}  ${f(r.precision)}      ${f(r.recall)}   ${f(r.mrr)}  ${r.msPerQuery.toFixed(1).padStart(8)}  ${r.unanswerable}${r.recallAt10 !== undefined ? `  (recall@10 ${f(r.recallAt10)})` : ""}`,
    );
  console.log(`relevance floor: ${result.offTopic.unanswerable}/${result.offTopic.questions} off-topic questions marked unanswerable (default settings)`);
}
if (results.length > 1) {
  console.log("\nsummary (default configuration)");
  console.log("set              recall@3  MRR@3  answerable marked unanswerable  off-topic marked unanswerable");
  for (const r of results) {
    const d = r.rows.find((x) => x.name === "default" || x.name.endsWith("DEFAULT")) ?? r.rows[r.rows.length - 1];
    console.log(
      `${r.name.padEnd(16)} ${f(d.recall)}     ${f(d.mrr)}  ${String(d.unanswerable).padStart(4)}/${r.questions}                        ${r.offTopic.unanswerable}/${r.offTopic.questions}`,
    );
  }
}
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
const file = path.resolve(ROOT, process.env.BENCH_OUT ?? "bench/results/retrieval.json");
writeFileSync(
  file,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.arch()}` },
      wallMs: Date.now() - started,
      sets: results,
    },
    null,
    2,
  ) + "\n",
);
console.log(`\nwrote ${path.relative(ROOT, file)}`);
