import type { Env } from "./env";
import { readSessionToken, serializeSessionCookie, validateSessionToken } from "./auth/session";
import { clientIp } from "./auth/throttle";
import { createServiceContext, type AppContext, type Auth } from "./context";

/** Builds env, db and lazy auth for one request; used by the Hono middleware for Remix and Hono alike. */
export function createAppContext(request: Request, env: Env, executionCtx: Pick<ExecutionContext, "waitUntil">): AppContext {
  const service = createServiceContext(env, (p) => executionCtx.waitUntil(p), new URL(request.url).origin);
  const { db, production } = service;
  const responseCookies: string[] = [];
  let auth: Promise<Auth> | undefined;
  return {
    ...service,
    ip: clientIp(request, production),
    responseCookies,
    getAuth() {
      auth ??= (async () => {
        const token = readSessionToken(request, production);
        if (!token) return null;
        const result = await validateSessionToken(db, token);
        if (!result) return null;
        if (result.fresh) responseCookies.push(serializeSessionCookie(token, result.session.expiresAt, production));
        return { user: result.user, session: result.session };
      })();
      return auth;
    },
  };
}
