import type { Db } from "./db/client";
import type { Env } from "./env";
import type { SessionRecord, SessionUser } from "./auth/session";

export type Auth = { user: SessionUser; session: SessionRecord } | null;

/** Per-request context shared by Remix loaders/actions and Hono handlers (built in workers/load-context.ts). */
export interface AppContext {
  env: Env;
  db: Db;
  production: boolean;
  /** Origin used for links in emails. */
  origin: string;
  ip: string;
  waitUntil: (p: Promise<unknown>) => void;
  /** Resolves the session once per request (cached). */
  getAuth: () => Promise<Auth>;
  /** Set-Cookie values the Worker appends to the outgoing response (e.g. sliding session renewal). */
  responseCookies: string[];
}
