import { eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { authenticateApiKey } from "../../../app/.server/api-keys/api-keys";
import { hit } from "../../../app/.server/auth/throttle";
import { chatbots, organisations } from "../../../app/.server/db/schema";
import { PLANS, PLAN_IDS, planExtras } from "../../../app/lib/plans";
import type { HonoEnv } from "../../hono-env";
import { apiError } from "../errors";

// Every /api/v1 request: `Authorization: Bearer pk_…` (a key of one chatbot, settings/embed), the
// organisation's plan must include the API, and each key may make RATE_PER_MINUTE requests a
// minute, counted in D1 so the limit holds across Worker instances. Keys are secrets for servers:
// no CORS headers are sent, so browsers cannot call the API from other sites.

export const RATE_PER_MINUTE = 60;

export type V1Env = HonoEnv & { Variables: HonoEnv["Variables"] & { v1: { keyId: string; orgId: string; chatbotId: string; chatbot: typeof chatbots.$inferSelect; org: typeof organisations.$inferSelect } } };

const cheapestWithApi = PLAN_IDS.map((id) => PLANS[id]).find((p) => p.extras.api)!;

export const requireApiKey: MiddlewareHandler<V1Env> = async (c, next) => {
  const ctx = c.get("app");
  const header = c.req.header("Authorization") ?? "";
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  c.header("WWW-Authenticate", 'Bearer realm="parley"');
  if (!token) return apiError(c, 401, "unauthorized", "Send your API key as `Authorization: Bearer pk_…` (Settings → Embed & API).");
  const key = await authenticateApiKey(ctx, token);
  if (!key) return apiError(c, 401, "unauthorized", "This API key is not valid or has been revoked.");
  c.res.headers.delete("WWW-Authenticate");
  const row = await ctx.db
    .select({ chatbot: chatbots, org: organisations })
    .from(chatbots)
    .innerJoin(organisations, eq(organisations.id, chatbots.orgId))
    .where(eq(chatbots.id, key.chatbotId))
    .get();
  if (!row || row.org.id !== key.orgId) return apiError(c, 401, "unauthorized", "This API key is not valid or has been revoked.");
  if (!planExtras(row.org.plan).api) {
    return apiError(c, 403, "plan_required", `The REST API is included from the ${cheapestWithApi.name} plan ($${cheapestWithApi.priceMonthly}/month). The owner can change plan in Parley.`);
  }
  const limit = await hit(ctx.db, `api:${key.keyId}`, { max: RATE_PER_MINUTE, windowMs: 60_000 });
  c.header("X-RateLimit-Limit", String(RATE_PER_MINUTE));
  if (!limit.ok) {
    c.header("Retry-After", String(limit.retryAfterS));
    return apiError(c, 429, "rate_limited", `This key may make ${RATE_PER_MINUTE} requests a minute. Try again in ${limit.retryAfterS} seconds.`);
  }
  c.set("v1", { ...key, chatbot: row.chatbot, org: row.org });
  await next();
};
