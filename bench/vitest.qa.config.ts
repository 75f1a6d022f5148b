import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { benchConfig, ROOT } from "./vitest.shared";

// The Q&A match benchmark (bench/qa.bench.test.ts, ADR 022): StackFAQ's threads as Q&A pairs (the
// corpus and eval of ../shared/bench/stackfaq, passed as BENCH_CORPUS/BENCH_EVAL by bench/qa.mjs),
// and every question of the answer sets as questions from other businesses. See bench/README.md.
const dir = path.join(ROOT, "bench/answers");
const foreign = readdirSync(dir)
  .filter((name) => statSync(path.join(dir, name)).isDirectory())
  .sort()
  .flatMap((name) => (JSON.parse(readFileSync(path.join(dir, name, "questions.json"), "utf8")) as { question: string }[]).map((q) => q.question));

export default benchConfig({
  spec: "bench/qa.bench.test.ts",
  testTimeout: 600_000,
  bindings: { BENCH_FOREIGN: JSON.stringify(foreign), BENCH_QA_CLOSENESS: process.env.BENCH_QA_CLOSENESS ?? "" },
});
