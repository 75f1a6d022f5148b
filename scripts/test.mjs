#!/usr/bin/env node
// `npm test`: everything, from a clean clone.
//   install (if needed) → format check → Chromium and PHP (apt-get when root) → WordPress plugin checks → build → vitest in workerd
//   → the message and conversation tests again with messages and index in D1, then with only the
//   conversation index in D1 → the knowledge tests with knowledge in shards → e2e → bundle budget.
// Stops at the first failing stage; always ends with one line `tests: N passed, M failed`
// (vitest + e2e counts, read from their JSON reports in .e2e/reports/). Exit code 0 only if all passed.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { bin, build, ensureDependencies, forwardSignals, formatDuration, log, ROOT, run, StageError } from "./lib/common.mjs";
import { modeTestFiles, STORE_MODES } from "./lib/message-store-tests.mjs";

const REPORTS = path.join(ROOT, ".e2e", "reports");
const totals = { passed: 0, failed: 0, skipped: 0 };
const timings = [];

function isRoot() {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

async function ensureChromium() {
  const custom = process.env.CHROMIUM_PATH;
  const chromium = custom ?? "/usr/bin/chromium";
  if (existsSync(chromium)) return;
  if (custom) throw new StageError(`CHROMIUM_PATH=${custom} does not exist. Point it at a Chromium binary, or unset it to use /usr/bin/chromium.`);
  if (!isRoot()) {
    console.error("\n[parley] The end-to-end tests need Debian's Chromium at /usr/bin/chromium. Install it with:\n\n    sudo apt-get install chromium\n");
    throw new StageError("Chromium is missing (see above).");
  }
  log("Installing Chromium for the end-to-end tests (apt-get install chromium)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  await run("apt-get", ["update"], { env, label: "apt-get update" });
  await run("apt-get", ["install", "-y", "chromium"], { env, label: "apt-get install chromium" });
  if (!existsSync(chromium)) throw new StageError(`apt-get installed chromium but ${chromium} does not exist.`);
}

const PLUGIN = path.join(ROOT, "integrations", "wordpress", "parley-chatbot");

/** PHP for the WordPress plugin's checks: installed like Chromium (apt-get when root), else a clear instruction. */
async function ensurePhp() {
  if ((await run("php", ["--version"], { check: false, quiet: true }).catch(() => ({ code: 1 }))).code === 0) return;
  if (!isRoot()) {
    console.error("\n[parley] The WordPress plugin's checks need PHP. Install it with:\n\n    sudo apt-get install php-cli\n");
    throw new StageError("PHP is missing (see above).");
  }
  log("Installing PHP for the WordPress plugin's checks (apt-get install php-cli)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  await run("apt-get", ["update"], { env, label: "apt-get update" });
  await run("apt-get", ["install", "-y", "php-cli"], { env, label: "apt-get install php-cli" });
}

/** `php -l` on every file of the plugin, then its unit test (the identity hash the Worker accepts). */
async function pluginChecks() {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (e.name.endsWith(".php")) files.push(f);
    }
  };
  walk(PLUGIN);
  for (const f of files) await run("php", ["-l", f], { label: `php -l ${path.relative(ROOT, f)}` });
  await run("php", [path.join(PLUGIN, "tests", "identity-test.php")], { label: "WordPress plugin identity test" });
  totals.passed += files.length + 1;
  console.log(`[parley] WordPress plugin: ${files.length} files lint clean, identity test passed`);
}

/** Add a vitest JSON report's counts to the totals; returns them. */
function count(reportFile) {
  if (!existsSync(reportFile)) return undefined;
  try {
    const r = JSON.parse(readFileSync(reportFile, "utf8"));
    const c = { passed: r.numPassedTests ?? 0, failed: r.numFailedTests ?? 0, skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0) };
    totals.passed += c.passed;
    totals.failed += c.failed;
    totals.skipped += c.skipped;
    return c;
  } catch {
    return undefined;
  }
}

/** A vitest run (unit or e2e): stdout reporter plus a JSON report for the counts. */
async function vitestStage(name, cmd, args, reportFile, env = {}) {
  rmSync(reportFile, { force: true });
  const { code } = await run(cmd, [...args, "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`], {
    check: false,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
  });
  const c = count(reportFile);
  if (c) console.log(`[parley] ${name}: ${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ""}`);
  if (code !== 0) {
    throw new StageError(
      c?.failed ? `${name}: ${c.failed} test(s) failed` : `${name}: vitest exited with code ${code}${c ? "" : " before writing its report"}`,
    );
  }
  if (!c || c.passed === 0) throw new StageError(`${name}: no test ran`);
}

async function stage(name, fn) {
  const t0 = performance.now();
  try {
    await fn();
  } finally {
    timings.push([name, performance.now() - t0]);
  }
}

async function main() {
  forwardSignals();
  mkdirSync(REPORTS, { recursive: true });
  await stage("install", ensureDependencies);
  // The code's format (Prettier, .prettierrc.json): `npm run format` fixes what this refuses.
  await stage("format", () => {
    const p = bin("prettier");
    return run(p.cmd, [...p.pre, "--check", "{app,workers,scripts,tests,bench}/**/*.{ts,tsx,mjs}", "*.ts"], { label: "prettier --check" });
  });
  await stage("chromium", ensureChromium);
  await stage("php", ensurePhp);
  await stage("WordPress plugin (php)", pluginChecks);
  await stage("build", build);
  await stage("unit + integration (workerd)", async () => {
    log("Unit and integration tests (vitest in workerd)…");
    const v = bin("vitest"); // may only exist after the install stage
    await vitestStage("unit + integration", v.cmd, [...v.pre, "run"], path.join(REPORTS, "unit.json"));
  });
  // The run above keeps the tests' chatbots' messages and conversation index in their shards, as new
  // chatbots do; the message and conversation tests run again with messages and index in D1, where
  // chatbots created before keep them until moved (ADR 040), then with only the index in D1, where a
  // chatbot whose messages moved keeps it until its index moves too (ADR 044, ADR 051). Last, the
  // knowledge tests that go through the product run with the chatbots' knowledge in their shards.
  for (const [key, mode] of Object.entries(STORE_MODES)) {
    await stage(`${mode.stage} (workerd)`, async () => {
      log(`${mode.tests ?? "The message and conversation tests"} again, ${mode.what}…`);
      const v = bin("vitest");
      await vitestStage(mode.stage, v.cmd, [...v.pre, "run", ...modeTestFiles(mode)], path.join(REPORTS, `unit-${key}.json`), mode.env);
    });
  }
  await stage("end-to-end (Chromium)", () =>
    vitestStage("end-to-end", process.execPath, [path.join(ROOT, "scripts", "e2e.mjs")], path.join(REPORTS, "e2e.json")),
  );
  await stage("bundle budget", () => run(process.execPath, [path.join(ROOT, "scripts", "check-bundle.mjs")], { label: "check:bundle" }));
}

const started = performance.now();
let failure;
try {
  await main();
} catch (err) {
  failure = err;
}
console.log("\n[parley] Stages:");
for (const [name, ms] of timings) console.log(`  ${name.padEnd(30)} ${formatDuration(ms)}`);
console.log(`  ${"total".padEnd(30)} ${formatDuration(performance.now() - started)}`);
if (failure) console.error(`\n[parley] npm test FAILED at "${timings.at(-1)?.[0] ?? "start"}": ${failure.message}`);
else console.log("\n[parley] npm test: all stages passed.");
if (totals.skipped) console.log(`(${totals.skipped} skipped)`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failure || totals.failed ? 1 : 0);
