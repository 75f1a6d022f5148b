import { defineConfig } from "vitest/config";

// End-to-end specs: plain Node vitest (not the workers pool) driving Debian's Chromium through
// playwright-core against the built Worker under `wrangler dev` on a fresh state dir.
// Run with `npm run test:e2e` (scripts/e2e.mjs builds first if needed). See docs/decisions/005-test-harness.md.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.e2e.ts"],
    environment: "node",
    globalSetup: ["./tests/e2e/support/global-setup.ts"],
    // One wrangler dev and one shared database: specs run one file at a time.
    fileParallelism: false,
    // On CI (two cores) a test is tried once more when it fails: three fresh-clone runs each lost one
    // different test to a 30+ s wait that never happens on a quiet machine (at least some were GETs
    // parked by wrangler's proxy, ADR 079, which the harness now releases).
    // A broken feature still fails both tries; scripts/e2e.mjs names every test that needed the
    // second try and the Worker's slow requests, so a flake is reported, not hidden (ADR 005).
    retry: process.env.CI ? 1 : 0,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
