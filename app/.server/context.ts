import { createDb, type Db } from "./db/client";
import type { Env } from "./env";
import type { SessionRecord, SessionUser } from "./auth/session";

export type Auth = { user: SessionUser; session: SessionRecord } | null;

/**
 * What domain code needs with or without a request: the queue consumer, cron and Durable Objects
 * build one with createServiceContext; every request's AppContext is one too.
 */
export interface ServiceContext {
  env: Env;
  db: Db;
  production: boolean;
  /** Origin used for links in emails: APP_URL, or (in a request) the request's origin. */
  origin: string;
  /** Keeps work alive after the response (or the queue/cron handler) returns. */
  waitUntil: (p: Promise<unknown>) => void;
}

/** Per-request context shared by Remix loaders/actions and Hono handlers (built in request-context.ts). */
export interface AppContext extends ServiceContext {
  ip: string;
  /** Resolves the session once per request (cached). */
  getAuth: () => Promise<Auth>;
  /** Set-Cookie values the Worker appends to the outgoing response (e.g. sliding session renewal). */
  responseCookies: string[];
}

/** The context of work that has no request. `origin` falls back to APP_URL, then to `fallbackOrigin`. */
export function createServiceContext(
  env: Env,
  waitUntil: (p: Promise<unknown>) => void = () => undefined,
  fallbackOrigin = "http://localhost:8787",
): ServiceContext {
  return {
    env,
    db: createDb(env.DB),
    production: env.ENVIRONMENT === "production",
    origin: env.APP_URL?.replace(/\/$/, "") || fallbackOrigin,
    waitUntil,
  };
}
