#!/usr/bin/env node
// `npm run bench:answers` — runs bench/answers.bench.test.ts inside workerd (vitest-pool-workers),
// prints one table per half (dev, test) and writes bench/results/answers.json.
// Knobs (environment): BENCH_SETS=shop,saas (only these sets), BENCH_DEBUG=1 (per-question replies of
// the dev halves in the result file), BENCH_MODEL=gpt-4o-mini (a real model; needs its key),
// BENCH_STORE=shard (the knowledge in each chatbot's KnowledgeShard instead of D1), BENCH_OUT.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runBenchInWorkerd } from "./cli.mjs";

const started = Date.now();
const { result } = await runBenchInWorkerd("bench/vitest.answers.config.ts", { name: "bench:answers" });
const wallMs = Date.now() - started;
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(0)}%`.padStart(5) : "    —");
const GOALS = { correct: 0.9, falseRefusal: 0.03, offtopic: 0.95, unanswerable: 0.7 };

console.log(`\nAnswer benchmark (model: ${result.model}, knowledge in ${result.store ?? "d1"}), wall time ${(wallMs / 1000).toFixed(0)} s`);
for (const half of ["dev", "test"]) {
  console.log(`\n${half} half${half === "test" ? " (never tuned on)" : " (tuning)"}`);
  console.log("set          chunks  answerable  correct  wrong  false refusal   unanswerable refused   off-topic refused");
  const tot = { answerable: 0, correct: 0, wrong: 0, falseRefusal: 0, unanswerable: 0, unanswerableRefused: 0, offtopic: 0, offtopicRefused: 0 };
  const row = (name, chunks, s) =>
    console.log(
      `${name.padEnd(12)} ${String(chunks).padStart(6)}  ${String(s.answerable).padStart(10)}  ${pct(s.correct, s.answerable)}    ${String(s.wrong).padStart(3)}  ${String(s.falseRefusal).padStart(4)} ${pct(s.falseRefusal, s.answerable)}      ${String(s.unanswerableRefused).padStart(3)}/${String(s.unanswerable).padEnd(3)} ${pct(s.unanswerableRefused, s.unanswerable)}       ${String(s.offtopicRefused).padStart(3)}/${String(s.offtopic).padEnd(3)} ${pct(s.offtopicRefused, s.offtopic)}`,
    );
  for (const s of result.sets) {
    if (!s[half].answerable && !s[half].offtopic) continue;
    row(s.name, s.chunks, s[half]);
    for (const k of Object.keys(tot)) tot[k] += s[half][k];
  }
  row("all", "", tot);
  const met = (ok) => (ok ? "met" : "NOT met");
  console.log(
    `goals: correct ≥ 90% ${met(tot.correct / tot.answerable >= GOALS.correct)}; false refusals ≤ 3% ${met(tot.falseRefusal / tot.answerable <= GOALS.falseRefusal)}; ` +
      `on-topic unanswerable refused ≥ 70% ${met(tot.unanswerableRefused / tot.unanswerable >= GOALS.unanswerable)}; off-topic refused ≥ 95% ${met(tot.offtopicRefused / tot.offtopic >= GOALS.offtopic)}`,
  );
}
// The demo chatbot's own docs (bench/answers/parley-docs): answered, with sources? Not in the goals.
for (const s of result.sets.filter((x) => x.demo.answerable)) {
  const d = s.demo;
  const withSources = s.rows.filter(
    (r) => r.half === "demo" && r.outcome === "correct" && (Array.isArray(r.sources) ? r.sources.length : r.sources) > 0,
  ).length;
  console.log(
    `\ndemo knowledge (${s.name}, ${s.documents} docs, ${s.chunks} chunks): ${d.correct}/${d.answerable} answered correctly (${withSources} with sources), ${d.falseRefusal} refused; off-topic refused ${d.offtopicRefused}/${d.offtopic}`,
  );
}
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
const file = path.resolve(ROOT, process.env.BENCH_OUT ?? "bench/results/answers.json");
writeFileSync(
  file,
  JSON.stringify({ date: new Date().toISOString(), machine: { cpus: os.cpus().length, node: process.version }, wallMs, ...result }, null, 1) + "\n",
);
console.log(`\nwrote ${path.relative(ROOT, file)}`);
