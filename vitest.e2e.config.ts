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
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
