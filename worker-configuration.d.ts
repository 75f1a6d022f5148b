// Types `import { env } from "cloudflare:workers"` (tests) as the app's Env.
import type { Env as AppEnv } from "./app/.server/env";

declare global {
  namespace Cloudflare {
    interface Env extends AppEnv {
      TEST_MIGRATIONS: { name: string; queries: string[] }[];
    }
  }
}
export {};
