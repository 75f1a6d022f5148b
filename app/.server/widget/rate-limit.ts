import type { Db } from "../db/client";
import { hitAll, hitAllCounted, hitAllWith, type Limit } from "../auth/throttle";
import type { AccessSettings } from "~/lib/schemas/widget-settings";

// Visitor rate limits, counted in D1 (fixed windows, app/.server/auth/throttle.ts) so they hold
// across Worker instances. The per-visitor limits come from the chatbot's access settings; the
// per-IP ceiling (a multiple of them) stops one address from dodging them by inventing visitor ids
// while leaving room for an office or a school behind one address.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How many visitors' worth of messages one IP address may send. */
export const IP_CEILING_FACTOR = 5;
/** Widget actions (lead, feedback, bug report, handoff): fixed, generous for a person, not for a script. */
export const ACTION_LIMITS = {
  perVisitorPerMinute: 20,
  perIpPerMinute: 60,
} as const;

export type RateKey = [string, Limit];
type Key = RateKey;

export function chatMessageLimits(
  access: Pick<AccessSettings, "rateLimitPerMinute" | "rateLimitPerHour">,
  chatbotId: string,
  visitorId: string,
  ip: string,
): Key[] {
  return [
    [`chat:v:${chatbotId}:${visitorId}:m`, { max: access.rateLimitPerMinute, windowMs: MINUTE }],
    [`chat:v:${chatbotId}:${visitorId}:h`, { max: access.rateLimitPerHour, windowMs: HOUR }],
    [`chat:ip:${chatbotId}:${ip}:m`, { max: access.rateLimitPerMinute * IP_CEILING_FACTOR, windowMs: MINUTE }],
    [`chat:ip:${chatbotId}:${ip}:h`, { max: access.rateLimitPerHour * IP_CEILING_FACTOR, windowMs: HOUR }],
  ];
}

export function widgetActionLimits(chatbotId: string, visitorId: string, ip: string): Key[] {
  return [
    [`widget:v:${chatbotId}:${visitorId}`, { max: ACTION_LIMITS.perVisitorPerMinute, windowMs: MINUTE }],
    [`widget:ip:${chatbotId}:${ip}`, { max: ACTION_LIMITS.perIpPerMinute, windowMs: MINUTE }],
  ];
}

export async function checkLimits(
  db: Db,
  keys: Key[],
  now = Date.now(),
  what: "messages" | "actions" = "messages",
): Promise<{ ok: true } | { ok: false; retryAfterS: number; message: string }> {
  const r = await hitAll(db, keys, now);
  if (r.ok) return { ok: true };
  const retryAfterS = Math.max(1, r.retryAfterS);
  return { ok: false, retryAfterS, message: rateLimitMessage(retryAfterS, what) };
}

/** checkLimits' answer from rows of hitAllStatement run in the caller's batch; null when nothing was counted. */
export function countedLimits(
  rows: { key: string; count: number }[],
  keys: Key[],
  now: number,
): { ok: true } | { ok: false; retryAfterS: number; message: string } | null {
  const r = hitAllCounted(rows, keys, now);
  if (!r) return null;
  if (r.ok) return { ok: true };
  const retryAfterS = Math.max(1, r.retryAfterS);
  return { ok: false, retryAfterS, message: rateLimitMessage(retryAfterS, "messages") };
}

/**
 * checkLimits with the windows counted by the caller (hitAllWith): the same limits and the same
 * refusal, for a Durable Object that keeps its own counts (ADR 033).
 */
export function checkLimitsWith(
  count: (key: string, windowStart: number) => number,
  keys: Key[],
  now = Date.now(),
): { ok: true } | { ok: false; retryAfterS: number; message: string } {
  const r = hitAllWith(count, keys, now);
  if (r.ok) return { ok: true };
  const retryAfterS = Math.max(1, r.retryAfterS);
  return { ok: false, retryAfterS, message: rateLimitMessage(retryAfterS, "messages") };
}

/** "…Please wait 42 seconds and try again." / "…Please wait about 15 minutes and try again." */
export function rateLimitMessage(retryAfterS: number, what: "messages" | "actions" = "messages"): string {
  const wait = retryAfterS <= 90 ? `${retryAfterS} ${retryAfterS === 1 ? "second" : "seconds"}` : `about ${Math.ceil(retryAfterS / 60)} minutes`;
  const doing = what === "messages" ? "sending messages" : "doing that";
  return `You're ${doing} faster than this chat allows. Please wait ${wait} and try again.`;
}
