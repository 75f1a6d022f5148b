import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// Shared shape of the benchmark configs: the product's own code runs inside workerd against a real
// (local) D1 with the real migrations. No Worker entry and no wrangler.toml, so a benchmark does not
// depend on the built app (build/server) and cannot be disturbed by a concurrent `remix vite:build`.
// The corpus and questions are read here, in Node, and handed to the worker as text bindings.
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// `../shared` beside the checkout, or two levels up from a git worktree (same rule as bench/cli.mjs).
const SHARED =
  process.env.BENCH_SHARED ??
  [path.resolve(ROOT, "../shared"), path.resolve(ROOT, "../../shared")].find((d) => existsSync(path.join(d, "bench"))) ??
  path.resolve(ROOT, "../shared");
const corpusPath = path.resolve(ROOT, process.env.BENCH_CORPUS ?? path.join(SHARED, "bench/anthropic-docs/corpus.json"));
const evalPath = path.resolve(ROOT, process.env.BENCH_EVAL ?? path.join(SHARED, "bench/anthropic-docs/eval.json"));

export function benchConfig(opts: {
  spec: string;
  bindings: Record<string, string>;
  r2Buckets?: string[];
  testTimeout: number;
  /** A Worker entry exporting Durable Object classes the benchmark binds (e.g. bench/shard-entry.ts). */
  main?: string;
  durableObjects?: Record<string, { className: string; useSQLite: boolean }>;
}) {
  return defineConfig({
    root: ROOT,
    plugins: [
      tsconfigPaths({ root: ROOT }),
      cloudflareTest(async () => ({
        ...(opts.main ? { main: opts.main } : {}),
        miniflare: {
          durableObjects: opts.durableObjects ?? {},
          compatibilityDate: "2025-10-01",
          compatibilityFlags: ["nodejs_compat"],
          d1Databases: ["DB"],
          r2Buckets: opts.r2Buckets ?? [],
          bindings: {
            ENVIRONMENT: "development",
            APP_NAME: "Parley",
            MAIL_FROM: "bench@parley.test",
            TEST_MIGRATIONS: await readD1Migrations(path.join(ROOT, "migrations")),
            BENCH_CORPUS: readFileSync(corpusPath, "utf8"),
            BENCH_EVAL: readFileSync(evalPath, "utf8"),
            ...opts.bindings,
          },
        },
      })),
    ],
    test: {
      include: [opts.spec],
      setupFiles: ["./tests/setup/apply-migrations.ts"],
      testTimeout: opts.testTimeout,
      hookTimeout: 600_000,
      deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "cookie", "set-cookie-parser"] } } },
    },
  });
}
