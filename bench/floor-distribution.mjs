#!/usr/bin/env node
// Where the relevance floor stands against the questions it must separate (ADR 050). Reads result
// files written with BENCH_DEBUG=1 (bench:answers) and prints, per kind of question, how far each
// tuning question's best chunk got towards its floor (relevance / floor; ≥ 1 clears it) and the
// outcome. Only tuning rows (half "dev": the dev halves and bench/probes) carry diagnostics; test
// rows are skipped, never printed.
// Usage: node bench/floor-distribution.mjs bench/results/answers-debug.json [more.json …] [--list]
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const list = args.includes("--list");
const rows = [];
for (const f of args.filter((a) => !a.startsWith("--"))) {
  for (const s of JSON.parse(readFileSync(f, "utf8")).sets)
    for (const r of s.rows) if (r.half === "dev" && typeof r.floor === "number") rows.push({ set: s.name, ...r, ratio: r.floor ? r.relevance / r.floor : 0 });
}
const bands = [0, 0.5, 0.7, 0.8, 0.9, 1, 1.1, 1.25, 1.5, Infinity];
const label = (i) => (bands[i + 1] === Infinity ? `≥${bands[i]}` : `${bands[i]}–${bands[i + 1]}`);
console.log(`relevance / floor, tuning rows only (${rows.length})`);
console.log(["kind / outcome".padEnd(30), ...bands.slice(0, -1).map((_, i) => label(i).padStart(9))].join(""));
const groups = new Map();
for (const r of rows) {
  const key = `${r.kind} ${r.outcome}`;
  const g = groups.get(key) ?? bands.slice(0, -1).map(() => 0);
  g[bands.findIndex((b, i) => r.ratio >= b && r.ratio < bands[i + 1])]++;
  groups.set(key, g);
}
for (const [k, g] of [...groups].sort()) console.log([k.padEnd(30), ...g.map((n) => String(n).padStart(9))].join(""));
if (list)
  for (const r of rows.filter((x) => x.ratio >= 0.5 && x.ratio < 1.25).sort((a, b) => a.ratio - b.ratio))
    console.log([r.ratio.toFixed(2), (r.similarity ?? 0).toFixed(2), r.set.padEnd(10), r.kind.padEnd(12), r.outcome.padEnd(13), r.question].join("  "));
