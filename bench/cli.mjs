// Shared by the benchmark wrappers: repository root, `--name value` arguments, the data files.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
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

/**
 * Runs one benchmark spec inside workerd (`vitest run --config <config>`) and returns the JSON the
 * spec printed after `BENCH_RESULT ` (plus its raw output). `BENCH_PROGRESS ` lines are echoed as they
 * come. Exits the process with the spec's output when it fails or prints no result.
 */
export async function runBenchInWorkerd(config, { name, env = {} }) {
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", config, "--reporter=dot"], {
    cwd: ROOT,
    env: { ...process.env, ...env, WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  // Decoded as a stream: a character split between two chunks ("€" is three bytes) stays whole.
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (d) => {
    out += d;
    for (const l of String(d).split("\n"))
      if (l.includes("BENCH_PROGRESS ")) console.error(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${l.slice(l.indexOf("BENCH_PROGRESS ") + 15)}`);
  });
  child.stderr.on("data", (d) => (err += d));
  const code = await new Promise((resolve) => child.on("close", resolve));
  const line = out.split("\n").find((l) => l.includes("BENCH_RESULT "));
  if (code !== 0 || !line) {
    process.stderr.write(out + err);
    console.error(`\n${name} failed (exit ${code})`);
    process.exit(1);
  }
  return { result: JSON.parse(line.slice(line.indexOf("BENCH_RESULT ") + "BENCH_RESULT ".length)), out };
}

/** Writes a benchmark's result JSON with the date and the machine it ran on (BENCH_OUT overrides the path). */
export function writeResult(defaultFile, data) {
  const file = path.resolve(ROOT, process.env.BENCH_OUT ?? defaultFile);
  mkdirSync(path.dirname(file), { recursive: true });
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memGB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    loadAvg: os.loadavg(),
  };
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), machine, ...data }, null, 2) + "\n");
  console.log(`\nwrote ${path.relative(ROOT, file)}`);
}
