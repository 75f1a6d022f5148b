import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// The chat latency / ingestion-throughput benchmark (bench/chat.bench.test.ts) runs the product's
// own answer engine, indexing and crawler inside workerd against a real (local) D1 with the real
// migrations, plus a local R2 bucket (the crawler keeps its state there). No Worker entry, no
// wrangler.toml, no build: see bench/README.md. Paths and knobs come from bench/chat.mjs.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const corpusPath = path.resolve(ROOT, process.env.BENCH_CORPUS ?? "../shared/bench/anthropic-docs/corpus.json");
const evalPath = path.resolve(ROOT, process.env.BENCH_EVAL ?? "../shared/bench/anthropic-docs/eval.json");

export default defineConfig({
  root: ROOT,
  plugins: [
    tsconfigPaths({ root: ROOT }),
    cloudflareTest(async () => ({
      miniflare: {
        compatibilityDate: "2025-10-01",
        compatibilityFlags: ["nodejs_compat"],
        d1Databases: ["DB"],
        r2Buckets: ["FILES"],
        bindings: {
          ENVIRONMENT: "development",
          APP_NAME: "Parley",
          MAIL_FROM: "bench@parley.test",
          TEST_MIGRATIONS: await readD1Migrations(path.join(ROOT, "migrations")),
          BENCH_CORPUS: readFileSync(corpusPath, "utf8"),
          BENCH_EVAL: readFileSync(evalPath, "utf8"),
          BENCH_SIZES: process.env.BENCH_SIZES ?? "1000,10000,100000",
          BENCH_QUESTIONS: process.env.BENCH_QUESTIONS ?? "100",
          BENCH_WARMUP: process.env.BENCH_WARMUP ?? "5",
          BENCH_PAGES: process.env.BENCH_PAGES ?? "150",
          // Skip a size whose build is projected (from the measured chunks/s) to take longer than this.
          BENCH_MAX_BUILD_S: process.env.BENCH_MAX_BUILD_S ?? "900",
        },
      },
    })),
  ],
  test: {
    include: ["bench/chat.bench.test.ts"],
    setupFiles: ["./tests/setup/apply-migrations.ts"],
    testTimeout: 3_600_000,
    hookTimeout: 600_000,
    deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "cookie", "set-cookie-parser"] } } },
  },
});
