import { getPlan } from "~/lib/plans";
import { notificationMarks } from "../db/schema";
import { canNotify, emit, type NotifyContext } from "./events";

// "Plan usage at 80 % and 100 %": checked where a reply is counted (chat/usage.ts tryConsumeReply).
// The counter only grows by one per reply, so the reply that reaches a threshold is the one that
// sends it; a mark per (organisation, period, threshold) makes it once per period even when a
// refunded reply reaches the same number again.

export const USAGE_THRESHOLDS = [80, 100] as const;

/** The threshold (percent) that `replies` has just reached, or null. */
export function reachedThreshold(replies: number, limit: number): 80 | 100 | null {
  if (limit <= 0) return null;
  if (replies === limit) return 100;
  if (replies === Math.ceil(limit * 0.8)) return 80;
  return null;
}

export async function notifyReplyUsage(
  ctx: object,
  org: { id: string; plan: string },
  usage: { period: number; periodEnd?: number; replies: number; limit: number },
): Promise<void> {
  const threshold = reachedThreshold(usage.replies, usage.limit);
  if (threshold === null || !canNotify(ctx)) return;
  try {
    await sendUsageAlert(ctx, org, usage, threshold);
  } catch (e) {
    console.error(`[notifications] usage alert for ${org.id} failed`, e);
  }
}

async function sendUsageAlert(
  ctx: NotifyContext,
  org: { id: string; plan: string },
  usage: { period: number; replies: number; limit: number },
  threshold: 80 | 100,
) {
  const marked = await ctx.db
    .insert(notificationMarks)
    .values({ key: `usage:${org.id}:${usage.period}:${threshold}` })
    .onConflictDoNothing()
    .returning({ key: notificationMarks.key });
  if (!marked.length) return;
  await emit(ctx, { orgId: org.id }, "usage.threshold", {
    threshold,
    used: usage.replies,
    limit: usage.limit,
    plan: getPlan(org.plan).id,
    planName: getPlan(org.plan).name,
    periodStart: new Date(usage.period).toISOString(),
    url: `${ctx.origin}/app/plans#org-${org.id}`,
  });
}
