// Shared by the benchmark wrappers: repository root, `--name value` arguments, the data files.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const args = process.argv.slice(2);
export const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
// The shared data sets live beside the checkout (`../shared`); from a git worktree under
// `<dir>/wt/<name>` they are two levels up. BENCH_SHARED overrides both.
export const SHARED =
  process.env.BENCH_SHARED ??
  [path.resolve(ROOT, "../shared"), path.resolve(ROOT, "../../shared")].find((d) => existsSync(path.join(d, "bench"))) ??
  path.resolve(ROOT, "../shared");
export const corpus = path.resolve(ROOT, arg("--corpus", path.join(SHARED, "bench/anthropic-docs/corpus.json")));
export const evalFile = path.resolve(ROOT, arg("--eval", path.join(SHARED, "bench/anthropic-docs/eval.json")));
