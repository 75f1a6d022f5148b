import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// Unit and integration tests run inside workerd with the real bindings of wrangler.toml and the
// real migrations applied (tests/setup/apply-migrations.ts). `main` is the built Worker entry, so
// `SELF`/`exports.default.fetch` exercise Hono + Remix exactly as `wrangler dev` does.
export default defineConfig({
  plugins: [
    tsconfigPaths(),
    cloudflareTest(async () => ({
      main: "./workers/app.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          ENVIRONMENT: "development",
          // Custom tools may call the local test API (tests/setup/tool-test-api.ts); ADR 031.
          TOOLS_ALLOW_PRIVATE_NETWORK: "1",
          TEST_MIGRATIONS: await readD1Migrations("./migrations"),
          // The tests' chatbots keep their messages in their shards, as new chatbots do; TEST_MESSAGE_STORE=d1 keeps them in D1 (ADR 040; tests/factories.ts).
          TEST_MESSAGE_STORE: process.env.TEST_MESSAGE_STORE ?? "",
          // Their conversation index is in their shards too, as new chatbots' is; TEST_CONVERSATION_STORE=d1 (or messages in D1) keeps it in D1 (ADR 044; tests/factories.ts).
          TEST_CONVERSATION_STORE: process.env.TEST_CONVERSATION_STORE ?? "",
          // TEST_KNOWLEDGE_STORE=shard keeps the tests' chatbots' knowledge in their shards (tests/factories.ts).
          TEST_KNOWLEDGE_STORE: process.env.TEST_KNOWLEDGE_STORE ?? "",
        },
        // An empty second database for tests that apply migrations to rows of an earlier shape (tests/integration/conversation-fk-migration.test.ts).
        d1Databases: ["MIGRATION_DB"],
      },
    })),
  ],
  test: {
    include: ["app/**/*.test.ts", "workers/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["./tests/setup/apply-migrations.ts"],
    // A local HTTP API for the custom-tools tests (inject("toolApiUrl")).
    globalSetup: ["./tests/setup/tool-test-api.ts"],
    testTimeout: 30_000,
    // Remix's CommonJS packages have circular requires that workerd's module loader trips over;
    // pre-bundling them with esbuild (as Vite does for the app build) resolves the cycle.
    deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "cookie", "set-cookie-parser"] } } },
  },
});
