import type { AppContext } from "../app/.server/context";
import type { Env } from "../app/.server/env";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext };
    app: AppContext;
    /** Per-response CSP nonce for the inline scripts Remix renders. */
    nonce: string;
  }
}

// The per-request context is built in app/.server/request-context.ts (domain tests build it too,
// and app/.server never imports workers/); this file only tells Remix its shape.
export { createAppContext } from "../app/.server/request-context";
