import type { Context } from "hono";
import type { Refusal } from "../../app/.server/widget/gate";
import { recordSiteEvent, siteOfRequest } from "../../app/.server/widget/site-activity";
import type { HonoEnv } from "../hono-env";
import { apiError } from "./errors";

/** The customer site a visitor request comes from (Origin, or the widget iframe's host), or null. */
export function visitorSite(c: Context<HonoEnv>): string | null {
  return siteOfRequest([c.get("app").origin, new URL(c.req.url).origin], { origin: c.req.header("Origin"), referer: c.req.header("Referer") });
}

/** For chatbotForVisitor: counts a refusal because the chatbot is private against the request's site. */
export function countPrivateRefusal(c: Context<HonoEnv>, site: string | null) {
  return (chatbotId: string) => recordSiteEvent(c.get("app"), chatbotId, site, "private");
}

/** Answers a refused visitor request: 403 (origin, identity) or 429 with Retry-After. */
export function refuse(c: Context, refusal: Refusal) {
  if (refusal.retryAfterS) c.header("Retry-After", String(refusal.retryAfterS));
  return apiError(c, refusal.status, refusal.code, refusal.message);
}
