import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// The retrieval benchmark runs the product's own chunking, indexing and retrieval inside workerd
// against a real (local) D1 with the real migrations. The corpus and questions are read here, in
// Node, and handed to the worker as text bindings. Paths come from bench/retrieval.mjs.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const corpusPath = path.resolve(ROOT, process.env.BENCH_CORPUS ?? "../shared/bench/anthropic-docs/corpus.json");
const evalPath = path.resolve(ROOT, process.env.BENCH_EVAL ?? "../shared/bench/anthropic-docs/eval.json");

export default defineConfig({
  root: ROOT,
  plugins: [
    tsconfigPaths({ root: ROOT }),
    // No Worker entry and no wrangler.toml: the benchmark needs only D1, so it does not depend on
    // the built app (build/server) and cannot be disturbed by a concurrent `remix vite:build`.
    cloudflareTest(async () => ({
      miniflare: {
        compatibilityDate: "2025-10-01",
        compatibilityFlags: ["nodejs_compat"],
        d1Databases: ["DB"],
        bindings: {
          ENVIRONMENT: "development",
          TEST_MIGRATIONS: await readD1Migrations(path.join(ROOT, "migrations")),
          BENCH_CORPUS: readFileSync(corpusPath, "utf8"),
          BENCH_EVAL: readFileSync(evalPath, "utf8"),
          BENCH_ABLATION: process.env.BENCH_ABLATION ?? "1",
          // Optional JSON [{name, tuning}] replacing the ablation list (for exploring settings).
          BENCH_CONFIGS: process.env.BENCH_CONFIGS ?? "",
          BENCH_DEBUG: process.env.BENCH_DEBUG ?? "0",
          BENCH_RECALL10: process.env.BENCH_RECALL10 ?? "0",
          BENCH_TARGET: process.env.BENCH_TARGET ?? "",
        },
      },
    })),
  ],
  test: {
    include: ["bench/retrieval.bench.test.ts"],
    setupFiles: ["./tests/setup/apply-migrations.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "cookie", "set-cookie-parser"] } } },
  },
});
