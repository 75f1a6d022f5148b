import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { benchConfig, ROOT } from "./vitest.shared";

// The answer benchmark (bench/answers.bench.test.ts): every set under bench/answers/<set>/ (its
// knowledge *.md files and questions.json) is read here, in Node, and handed to the worker as one
// JSON text binding. Knobs come from bench/answers.mjs; see bench/README.md.
// BENCH_ANSWERS_DIR=bench/probes asks the probe questions instead (tuning only, see bench/README.md).
const dir = path.join(ROOT, process.env.BENCH_ANSWERS_DIR ?? "bench/answers");
const only = (process.env.BENCH_SETS ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const sets = readdirSync(dir)
  .filter((name) => statSync(path.join(dir, name)).isDirectory() && (only.length === 0 || only.includes(name)))
  .sort()
  .map((name) => {
    // A set's knowledge is its own *.md files, or (docs-from.txt) every *.md under a folder of the
    // repository, one document each: the demo chatbot's knowledge is content/docs.
    const from = path.join(dir, name, "docs-from.txt");
    const base = existsSync(from) ? path.join(ROOT, readFileSync(from, "utf8").trim()) : path.join(dir, name);
    const files = existsSync(from)
      ? (readdirSync(base, { recursive: true }) as string[]).filter((f) => f.endsWith(".md")).sort()
      : readdirSync(base)
          .filter((f) => f.endsWith(".md"))
          .sort();
    return {
      name,
      documents: files.map((f) => {
        const text = readFileSync(path.join(base, f), "utf8").replace(/^---\n[\s\S]*?\n---\n/, "");
        const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? f.replace(/\.md$/, "");
        return { title, text };
      }),
      questions: JSON.parse(readFileSync(path.join(dir, name, "questions.json"), "utf8")),
    };
  });

// A real model (documented in bench/README.md, never in CI): BENCH_MODEL names a model of the
// registry (e.g. gpt-4o-mini, or "compat" with OPENAI_BASE_URL), with its keys from the environment.
const modelEnv: Record<string, string> = {};
for (const k of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_COMPAT_MODEL", "OPENAI_EMBEDDING_MODEL"]) if (process.env[k]) modelEnv[k] = process.env[k]!;

// BENCH_STORE=shard keeps each set's knowledge in its chatbot's KnowledgeShard (issue #20): the Worker
// entry is then the shard's class (bench/shard-entry.ts), as in bench:shards.
const shard = process.env.BENCH_STORE === "shard";

export default benchConfig({
  spec: "bench/answers.bench.test.ts",
  r2Buckets: ["FILES"],
  ...(shard ? { main: "./bench/shard-entry.ts", durableObjects: { KNOWLEDGE_SHARD: { className: "KnowledgeShard", useSQLite: true } } } : {}),
  testTimeout: 1_800_000,
  bindings: {
    BENCH_ANSWER_SETS: JSON.stringify(sets),
    BENCH_MODEL: process.env.BENCH_MODEL ?? "local",
    // Per-question lines of the dev halves (never the test halves) go to the result file when "1".
    BENCH_DEBUG: process.env.BENCH_DEBUG ?? "0",
    BENCH_STORE: shard ? "shard" : "d1",
    ...modelEnv,
  },
});
