import type { MiddlewareHandler } from "hono";
import { hit } from "../../../app/.server/auth/throttle";
import { chatbotForApiKey, type Chatbot, type Organisation } from "../../../app/.server/chatbots/find-chatbot";
import { failureStatus } from "../../../app/.server/failure";
import { RATE_PER_MINUTE } from "../../../app/lib/api/v1/schemas";
import type { HonoEnv } from "../../hono-env";
import { apiError } from "../errors";

// Every /api/v1 request: `Authorization: Bearer pk_…` (a key of one chatbot, settings/embed), the
// organisation's plan must include the API, and each key may make RATE_PER_MINUTE requests a
// minute, counted in D1 so the limit holds across Worker instances. Keys are secrets for servers:
// no CORS headers are sent, so browsers cannot call the API from other sites.

export type V1Env = HonoEnv & {
  Variables: HonoEnv["Variables"] & { v1: { keyId: string; orgId: string; chatbotId: string; chatbot: Chatbot; org: Organisation } };
};

export const requireApiKey: MiddlewareHandler<V1Env> = async (c, next) => {
  const ctx = c.get("app");
  const header = c.req.header("Authorization") ?? "";
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  c.header("WWW-Authenticate", 'Bearer realm="parley"');
  if (!token) return apiError(c, 401, "unauthorized", "Send your API key as `Authorization: Bearer pk_…` (Settings → Embed & API).");
  const found = await chatbotForApiKey(ctx, token);
  if (!found.ok && found.code === "unauthorized") return apiError(c, 401, found.code, found.message);
  // The challenge belongs to 401 only: a valid key on the wrong plan is not asked to authenticate again.
  c.res.headers.delete("WWW-Authenticate");
  if (!found.ok) return apiError(c, failureStatus(found.code), found.code, found.message);
  const key = found.key;
  const limit = await hit(ctx.db, `api:${key.keyId}`, { max: RATE_PER_MINUTE, windowMs: 60_000 });
  c.header("X-RateLimit-Limit", String(RATE_PER_MINUTE));
  c.header("X-RateLimit-Remaining", String(Math.max(0, RATE_PER_MINUTE - limit.count)));
  if (!limit.ok) {
    c.header("Retry-After", String(limit.retryAfterS));
    return apiError(c, 429, "rate_limited", `This key may make ${RATE_PER_MINUTE} requests a minute. Try again in ${limit.retryAfterS} seconds.`);
  }
  c.set("v1", { ...key, chatbot: found.chatbot, org: found.org });
  await next();
};
