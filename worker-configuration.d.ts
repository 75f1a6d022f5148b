// Types `import { env } from "cloudflare:workers"` (tests) as the app's Env.
import type { Env as AppEnv } from "./app/.server/env";

declare global {
  namespace Cloudflare {
    interface Env extends AppEnv {
      TEST_MIGRATIONS: { name: string; queries: string[] }[];
      /** "d1": the tests' chatbots keep their messages in D1 (tests/factories.ts); otherwise in their shards. */
      TEST_MESSAGE_STORE?: string;
      /** "shard": the tests' chatbots keep their conversation index in their shards (with their messages); otherwise in D1. */
      TEST_CONVERSATION_STORE?: string;
      TEST_KNOWLEDGE_STORE?: string;
      /** An empty D1 database: migration tests apply the migrations up to one, write rows of that shape, then apply the rest. */
      MIGRATION_DB: D1Database;
    }
  }
}
export {};
