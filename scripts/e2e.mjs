#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end specs (tests/e2e/**/*.e2e.ts) in Node vitest with Chromium.
// Builds first when build/server/index.js is missing; the global setup (tests/e2e/support/global-setup.ts)
// starts `wrangler dev` on a fresh .e2e/state. Extra arguments go to vitest
// (e.g. `npm run test:e2e -- smoke`, `--reporter=json --outputFile.json=…`).
// E2E_PORT (default 8799) chooses the port; CHROMIUM_PATH the browser (default /usr/bin/chromium).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { bin, build, ensureDependencies, forwardSignals, log, ROOT, run, StageError } from "./lib/common.mjs";

async function main() {
  forwardSignals();
  await ensureDependencies();
  if (!existsSync(path.join(ROOT, "build", "server", "index.js"))) await build();
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    throw new StageError(
      `Chromium not found at ${chromium}. Install it (sudo apt-get install chromium) or set CHROMIUM_PATH; \`npm test\` installs it when run as root.`,
    );
  }
  log("End-to-end tests (vitest.e2e.config.ts, Chromium against wrangler dev)…");
  const vitest = bin("vitest");
  const { code } = await run(vitest.cmd, [...vitest.pre, "run", "--config", "vitest.e2e.config.ts", ...process.argv.slice(2)], {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    check: false,
  });
  reportStalls(process.argv.slice(2));
  process.exit(code ?? 1);
}

const SLOW_MS = 5_000;

/**
 * After the run: the Worker's requests that took SLOW_MS or more (from its request log) and the tests
 * that failed once and passed on CI's second try (vitest.e2e.config.ts), so a flake is on record.
 */
function reportStalls(args) {
  const logFile = path.join(ROOT, ".e2e", "wrangler.log");
  if (existsSync(logFile)) {
    const slow = readFileSync(logFile, "utf8")
      .split("\n")
      // The health check is polled while the runtime is still starting, so its first answer is slow by design.
      .filter((line) => !line.includes("/api/health") && Number(/\((\d+)ms\)\s*$/.exec(line)?.[1] ?? 0) >= SLOW_MS);
    if (slow.length) {
      console.log(`\n[parley] end-to-end: ${slow.length} request(s) to the Worker took ${SLOW_MS / 1000} s or more (.e2e/wrangler.log):`);
      for (const line of slow.slice(-20)) console.log(`  ${line.trim()}`);
    }
  }
  const json = args.find((a) => a.startsWith("--outputFile.json="))?.slice("--outputFile.json=".length);
  if (!json || !existsSync(json)) return;
  try {
    const retried = JSON.parse(readFileSync(json, "utf8"))
      .testResults.flatMap((f) => f.assertionResults.map((t) => ({ ...t, file: path.relative(ROOT, f.name) })))
      .filter((t) => t.status === "passed" && t.failureMessages?.length);
    for (const t of retried) {
      console.log(`\n[parley] end-to-end: passed only on its second try: ${t.file} > ${t.fullName}\n  first try: ${t.failureMessages[0].split("\n")[0]}`);
    }
  } catch {
    /* a report vitest did not finish writing: its own output says why */
  }
}

main().catch((err) => {
  console.error(`\n[parley] e2e failed: ${err.message}`);
  process.exit(1);
});
