// Shared by the benchmark wrappers: repository root, `--name value` arguments, the data files.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const args = process.argv.slice(2);
export const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
export const corpus = path.resolve(ROOT, arg("--corpus", "../shared/bench/anthropic-docs/corpus.json"));
export const evalFile = path.resolve(ROOT, arg("--eval", "../shared/bench/anthropic-docs/eval.json"));
