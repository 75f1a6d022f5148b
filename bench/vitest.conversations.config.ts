import path from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// The conversation-list benchmark (bench/conversations.bench.test.ts): the product's list queries
// inside workerd against a local D1 with the real migrations. Synthetic data, so no corpus binding
// (unlike vitest.shared.ts). Knobs come from bench/conversations.mjs; see bench/README.md.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export default defineConfig({
  root: ROOT,
  plugins: [
    tsconfigPaths({ root: ROOT }),
    cloudflareTest(async () => ({
      miniflare: {
        compatibilityDate: "2025-10-01",
        compatibilityFlags: ["nodejs_compat"],
        d1Databases: ["DB"],
        bindings: {
          ENVIRONMENT: "development",
          TEST_MIGRATIONS: await readD1Migrations(path.join(ROOT, "migrations")),
          BENCH_CONVERSATIONS: process.env.BENCH_CONVERSATIONS ?? "100000",
          BENCH_RUNS: process.env.BENCH_RUNS ?? "40",
        },
      },
    })),
  ],
  test: {
    include: ["bench/conversations.bench.test.ts"],
    setupFiles: ["./tests/setup/apply-migrations.ts"],
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
  },
});
