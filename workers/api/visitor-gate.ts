import type { Context } from "hono";
import type { Refusal } from "../../app/.server/widget/gate";
import { apiError } from "./errors";

/** Answers a refused visitor request: 403 (origin, identity) or 429 with Retry-After. */
export function refuse(c: Context, refusal: Refusal) {
  if (refusal.retryAfterS) c.header("Retry-After", String(refusal.retryAfterS));
  return apiError(c, refusal.status, refusal.code, refusal.message);
}
