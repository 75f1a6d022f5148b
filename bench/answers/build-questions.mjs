#!/usr/bin/env node
// Turns a set's questions.txt (the form the questions were written in) into questions.json.
// Lines: `A: question || fact ;; fact` (answerable; a fact may list alternatives with `|`),
// `U: question` (on-topic, not answered by the knowledge), `O: question` (off-topic).
// Halves alternate within each kind (dev, test, dev, …) so each half has the same mix.
// Usage: node bench/answers/build-questions.mjs bench/answers/<set>
//        node bench/answers/build-questions.mjs --all-dev bench/probes/<set>   (probe questions: every one a tuning question)
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const allDev = process.argv.includes("--all-dev");
const dir = process.argv.filter((a) => !a.startsWith("--")).at(-1);
const name = path.basename(dir);
const kinds = { A: "answerable", U: "unanswerable", O: "offtopic" };
const count = { A: 0, U: 0, O: 0 };
const out = [];
for (const line of readFileSync(path.join(dir, "questions.txt"), "utf8").split("\n")) {
  const m = /^([AUO]): (.+)$/.exec(line.trim());
  if (!m) continue;
  const [, k, rest] = m;
  const [question, facts] = rest.split(" || ");
  const n = count[k]++;
  out.push({
    id: `${name}-${k.toLowerCase()}${String(n + 1).padStart(2, "0")}`,
    question: question.trim(),
    kind: kinds[k],
    facts: k === "A" ? facts.split(" ;; ").map((f) => f.trim()) : [],
    half: allDev || n % 2 === 0 ? "dev" : "test",
  });
}
writeFileSync(path.join(dir, "questions.json"), JSON.stringify(out, null, 1) + "\n");
console.log(`${name}: ${count.A} answerable, ${count.U} unanswerable, ${count.O} off-topic`);
