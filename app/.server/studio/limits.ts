import type { AppContext } from "../context";
import { hitAll, type Limit } from "../auth/throttle";
import type { StudioToolSlug } from "~/lib/studio/tools";

// Per-visitor allowances of the Studio's free tools, counted in D1 fixed windows (the same counters
// as sign-in throttling and the widget's limits) and keyed by the visitor's IP address and the tool.
// Generous for a person trying things out, not for a script.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const STUDIO_LIMITS: Record<StudioToolSlug, { label: string; limits: Limit[] }> = {
  "system-prompt-generator": { label: "system-prompt generator", limits: [{ max: 30, windowMs: HOUR }] },
  // Reading a web page costs a fetch: the tightest allowance.
  "faq-generator": { label: "FAQ generator", limits: [{ max: 20, windowMs: HOUR }] },
  "support-roi-calculator": { label: "ROI calculator", limits: [{ max: 60, windowMs: HOUR }] },
  "widget-designer": { label: "widget designer", limits: [{ max: 60, windowMs: HOUR }] },
};

export type StudioLimitResult = { ok: true } | { ok: false; retryAfterS: number; message: string };

/** Counts one use of `tool` by this visitor; refuses once the allowance of the current window is used. */
export async function useStudioTool(ctx: Pick<AppContext, "db" | "ip">, tool: StudioToolSlug, now = Date.now()): Promise<StudioLimitResult> {
  const { label, limits } = STUDIO_LIMITS[tool];
  const r = await hitAll(
    ctx.db,
    limits.map((l, i) => [`studio:${tool}:${i}:${ctx.ip}`, l] as [string, Limit]),
    now,
  );
  if (r.ok) return { ok: true };
  const retryAfterS = Math.max(1, r.retryAfterS);
  return { ok: false, retryAfterS, message: studioLimitMessage(label, limits[0], retryAfterS) };
}

function studioLimitMessage(label: string, limit: Limit, retryAfterS: number): string {
  const per =
    limit.windowMs >= HOUR ? (limit.windowMs === HOUR ? "an hour" : `${limit.windowMs / HOUR} hours`) : `${Math.round(limit.windowMs / MINUTE)} minutes`;
  const wait = retryAfterS <= 90 ? `${retryAfterS} ${retryAfterS === 1 ? "second" : "seconds"}` : `about ${Math.ceil(retryAfterS / 60)} minutes`;
  return `You have used the free ${label} ${limit.max} times in ${per}, its allowance per visitor. Please wait ${wait} and try again — what you entered is kept below.`;
}

/** Headers of a refused request. */
export function retryHeaders(retryAfterS: number): HeadersInit {
  return { "Retry-After": String(retryAfterS) };
}
