#!/usr/bin/env node
// `npm run bench:qa` — the Q&A match benchmark (bench/qa.bench.test.ts, ADR 022): how often a Q&A
// pair wins for a paraphrase of its question (right pair), for a paraphrase of another pair's
// question (wrong pair) and for other businesses' questions. Writes bench/results/qa.json.
// Knobs: BENCH_QA_CLOSENESS=0.7 (the bar), BENCH_OUT.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, runBenchInWorkerd } from "./cli.mjs";

const shared = [path.resolve(ROOT, "../shared"), path.resolve(ROOT, "../../shared")];
const { existsSync } = await import("node:fs");
const base = process.env.BENCH_SHARED ?? shared.find((d) => existsSync(path.join(d, "bench/stackfaq"))) ?? shared[0];
const { result } = await runBenchInWorkerd("bench/vitest.qa.config.ts", {
  name: "bench:qa",
  env: { BENCH_CORPUS: path.join(base, "bench/stackfaq/corpus.json"), BENCH_EVAL: path.join(base, "bench/stackfaq/eval.json") },
});
console.log(`\nQ&A match benchmark: ${result.pairs} pairs (StackFAQ threads), ${result.msPerQuestion} ms per question`);
console.log("half       questions  right pair wins  wrong pair wins  no pair wins");
for (const half of ["dev", "test", "foreign"]) {
  const rows = result.rows.filter((r) => r.half === half);
  const n = (w) => rows.filter((r) => r.won === w).length;
  const pct = (x) => `${((100 * x) / rows.length).toFixed(1)}%`;
  console.log(
    `${half.padEnd(10)} ${String(rows.length).padStart(9)}  ${`${n("right")} (${pct(n("right"))})`.padStart(15)}  ${`${n("wrong")} (${pct(n("wrong"))})`.padStart(15)}  ${`${n("none")} (${pct(n("none"))})`.padStart(12)}`,
  );
}
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
const file = path.resolve(ROOT, process.env.BENCH_OUT ?? "bench/results/qa.json");
// Per question: the outcome and the best Q&A candidate with its closeness parts (one line each).
const rows = result.rows.map((r) => JSON.stringify({ half: r.half, question: r.question, won: r.won, best: r.candidates[0] ?? null }));
writeFileSync(
  file,
  `{"date":${JSON.stringify(new Date().toISOString())},"pairs":${result.pairs},"msPerQuestion":${result.msPerQuestion},"rows":[\n${rows.join(",\n")}\n]}\n`,
);
console.log(`wrote ${path.relative(ROOT, file)}`);
