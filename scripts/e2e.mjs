#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end specs (tests/e2e/**/*.e2e.ts) in Node vitest with Chromium.
// Builds first when build/server/index.js is missing; the global setup (tests/e2e/support/global-setup.ts)
// starts `wrangler dev` on a fresh .e2e/state. Extra arguments go to vitest
// (e.g. `npm run test:e2e -- smoke`, `--reporter=json --outputFile.json=…`).
// E2E_PORT (default 8799) chooses the port; CHROMIUM_PATH the browser (default /usr/bin/chromium).
import { existsSync } from "node:fs";
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
  process.exit(code ?? 1);
}

main().catch((err) => {
  console.error(`\n[parley] e2e failed: ${err.message}`);
  process.exit(1);
});
