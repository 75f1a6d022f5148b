#!/usr/bin/env node
// `npm run screens`: rebuilds, then drives the real product in Chromium to capture the screenshots the
// public product pages show (public/product/*.jpg and app/lib/product-screens.json). Commit the result.
import { bin, build, ensureDependencies, forwardSignals, log, run } from "./lib/common.mjs";

async function main() {
  forwardSignals();
  await ensureDependencies();
  await build();
  log("Capturing product screenshots (vitest.screens.config.ts)…");
  const vitest = bin("vitest");
  const { code } = await run(vitest.cmd, [...vitest.pre, "run", "--config", "vitest.screens.config.ts", ...process.argv.slice(2)], {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    check: false,
  });
  process.exit(code ?? 1);
}

main().catch((err) => {
  console.error(`\n[parley] screens failed: ${err.message}`);
  process.exit(1);
});
