import { and, count, eq, isNull, sql } from "drizzle-orm";
import { formatCount, getPlan, planLimits, raiseLimitHint, type PlanId } from "~/lib/plans";
import type { AppContext } from "../context";
import { chatbots, invitations, memberships, organisations } from "../db/schema";
import { getReplyUsage } from "../chat/usage";
import { knowledgeUsage } from "../kb/sources";

// The organisation-wide limits of app/lib/plans.ts that the dashboard can reach: chatbots and members
// (checked here), knowledge characters (app/.server/kb/sources.ts) and replies (app/.server/chat/usage.ts).
// Every refusal names the limit and how to raise it (raiseLimitHint).

type Ctx = Pick<AppContext, "db">;
type OrgRef = Pick<typeof organisations.$inferSelect, "id" | "plan">;

export type LimitRefusal = { ok: false; message: string };

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

async function countChatbots(ctx: Ctx, orgId: string): Promise<number> {
  return (await ctx.db.select({ n: count() }).from(chatbots).where(eq(chatbots.orgId, orgId)).get())?.n ?? 0;
}

async function countMembers(ctx: Ctx, orgId: string): Promise<number> {
  return (await ctx.db.select({ n: count() }).from(memberships).where(eq(memberships.orgId, orgId)).get())?.n ?? 0;
}

/** Invitations not accepted yet (expired ones too: they stay listed and can be resent until revoked). */
async function countPendingInvitations(ctx: Ctx, orgId: string, exceptEmail?: string): Promise<number> {
  const conditions = [eq(invitations.orgId, orgId), isNull(invitations.acceptedAt)];
  if (exceptEmail) conditions.push(sql`lower(${invitations.email}) != ${exceptEmail.toLowerCase()}`);
  return (
    (
      await ctx.db
        .select({ n: count() })
        .from(invitations)
        .where(and(...conditions))
        .get()
    )?.n ?? 0
  );
}

function chatbotLimitMessage(plan: string, existing: number): string {
  const limit = planLimits(plan).chatbots;
  return `The ${getPlan(plan).name} plan allows ${plural(limit, "chatbot")} and this organisation has ${formatCount(existing)}. ${raiseLimitHint(plan, "chatbots")}`;
}

/** SQL condition for an INSERT … SELECT: true while the organisation is below its chatbot limit. */
export function belowChatbotLimit(org: OrgRef) {
  return sql`(SELECT count(*) FROM ${chatbots} c WHERE c.org_id = ${org.id}) < ${planLimits(org.plan).chatbots}`;
}

/** A refusal when one more chatbot would pass the plan's limit; null when there is room. */
export async function checkChatbotLimit(ctx: Ctx, org: OrgRef): Promise<LimitRefusal | null> {
  const existing = await countChatbots(ctx, org.id);
  if (existing < planLimits(org.plan).chatbots) return null;
  return { ok: false, message: chatbotLimitMessage(org.plan, existing) };
}

/**
 * A refusal when inviting one more person would pass the plan's member limit. Members and pending
 * invitations both count (each invitation may become a member); `replacingEmail` is an address whose
 * pending invitation the new one replaces, so it is not counted twice.
 */
export async function checkInviteLimit(ctx: Ctx, org: OrgRef, replacingEmail?: string): Promise<LimitRefusal | null> {
  const limit = planLimits(org.plan).members;
  const [members, pending] = await Promise.all([countMembers(ctx, org.id), countPendingInvitations(ctx, org.id, replacingEmail)]);
  if (members + pending < limit) return null;
  const pendingPart = pending > 0 ? ` and ${plural(pending, "pending invitation")} (they count until accepted or revoked)` : "";
  return {
    ok: false,
    message: `The ${getPlan(org.plan).name} plan allows ${plural(limit, "member")}; this organisation has ${plural(members, "member")}${pendingPart}. ${raiseLimitHint(org.plan, "members")}`,
  };
}

/** A refusal when accepting an invitation would pass the plan's member limit (re-checked at acceptance). */
export async function checkJoinLimit(ctx: Ctx, org: OrgRef): Promise<LimitRefusal | null> {
  const limit = planLimits(org.plan).members;
  const members = await countMembers(ctx, org.id);
  if (members < limit) return null;
  return {
    ok: false,
    message: `This organisation is full: the ${getPlan(org.plan).name} plan allows ${plural(limit, "member")} and it has ${formatCount(members)}, so the invitation cannot be accepted now. Ask the person who invited you to move to a larger plan or free a seat, then open the link again.`,
  };
}

export type UsageItem = { key: "repliesPerMonth" | "chatbots" | "knowledgeChars" | "members"; label: string; used: number; limit: number };

export type OrgUsage = {
  items: UsageItem[];
  pendingInvitations: number;
  period: { start: number; end: number };
};

/** Everything the Plans page shows for one organisation, counted from the data. */
export async function getOrgUsage(
  ctx: Pick<AppContext, "db" | "env">,
  org: Pick<typeof organisations.$inferSelect, "id" | "plan" | "periodStart">,
): Promise<OrgUsage> {
  const limits = planLimits(org.plan);
  const [replies, bots, members, pending, knowledge] = await Promise.all([
    getReplyUsage(ctx, org),
    countChatbots(ctx, org.id),
    countMembers(ctx, org.id),
    countPendingInvitations(ctx, org.id),
    knowledgeUsage(ctx as Parameters<typeof knowledgeUsage>[0], org.id),
  ]);
  return {
    items: [
      { key: "repliesPerMonth", label: "Bot replies this period", used: replies.replies, limit: limits.repliesPerMonth },
      { key: "chatbots", label: "Chatbots", used: bots, limit: limits.chatbots },
      { key: "knowledgeChars", label: "Knowledge characters", used: knowledge.used, limit: limits.knowledgeChars },
      { key: "members", label: "Members", used: members, limit: limits.members },
    ],
    pendingInvitations: pending,
    period: { start: replies.period, end: replies.periodEnd },
  };
}

/** What would be over the limits of `plan` with today's usage: one sentence each (nothing is deleted). */
export function overLimits(usage: OrgUsage, plan: PlanId): string[] {
  const limits = planLimits(plan);
  const name = getPlan(plan).name;
  const out: string[] = [];
  for (const item of usage.items) {
    const limit = limits[item.key];
    const used = item.used;
    if (item.key === "repliesPerMonth") {
      if (used >= limit)
        out.push(
          `${formatCount(used)} bot replies were used this period; the ${name} plan includes ${formatCount(limit)}, so the widget answers with its polite fallback until the next period.`,
        );
    } else if (item.key === "chatbots") {
      if (used > limit)
        out.push(
          `${plural(used, "chatbot")}; the ${name} plan allows ${formatCount(limit)}. They all keep working, but new chatbots are refused until you are under the limit.`,
        );
    } else if (item.key === "members") {
      if (used > limit)
        out.push(
          `${plural(used, "member")}; the ${name} plan allows ${formatCount(limit)}. Nobody is removed, but new invitations are refused until you are under the limit.`,
        );
      else if (used + usage.pendingInvitations > limit)
        out.push(
          `${plural(usage.pendingInvitations, "pending invitation")} with ${plural(used, "member")}; the ${name} plan allows ${formatCount(limit)} members, so invitations beyond that cannot be accepted.`,
        );
    } else if (used > limit) {
      out.push(
        `${formatCount(used)} knowledge characters; the ${name} plan allows ${formatCount(limit)}. Existing sources keep answering, but new sources are refused until you are under the limit.`,
      );
    }
  }
  return out;
}
