import { asc, eq, sql } from "drizzle-orm";
import { getPlan, PLANS, type PlanId } from "~/lib/plans";
import type { Role } from "~/lib/permissions";
import type { AppContext } from "../context";
import { memberships, organisations } from "../db/schema";
import { isDevelopment, type Env } from "../env";
import { getOrgUsage, overLimits, type OrgUsage } from "./limits";
import {
  cancelSubscriptionAtPeriodEnd,
  changeSubscriptionPlan,
  createCheckoutSession,
  priceFor,
  StripeError,
  stripeConfigured,
  type PaidPlanId,
} from "./stripe";

// Changing an organisation's plan: through Stripe when STRIPE_SECRET_KEY is set, directly in
// development without it, and not at all in production without it. Nothing is ever deleted on a
// downgrade: what is over the new limits is explained and new additions are refused until it is not.

type Org = typeof organisations.$inferSelect;

/** stripe: Checkout / subscription changes; direct: development without Stripe; unavailable: production without Stripe. */
export type BillingMode = "stripe" | "direct" | "unavailable";

export function billingMode(env: Pick<Env, "ENVIRONMENT" | "STRIPE_SECRET_KEY">): BillingMode {
  if (stripeConfigured(env)) return "stripe";
  return isDevelopment(env) ? "direct" : "unavailable";
}

export const BILLING_UNAVAILABLE =
  "Plans cannot be changed on this server because billing is not configured: the operator needs to set STRIPE_SECRET_KEY and the STRIPE_PRICE_* variables (see Docs → Plans and limits).";

export type PlanOverviewOrg = {
  id: string;
  name: string;
  plan: PlanId;
  role: Role;
  usage: OrgUsage;
  /** Paid through Stripe (a subscription is on file). */
  subscribed: boolean;
};

/** The signed-in user's organisations with plan and usage this period, by name. */
export async function listPlansOverview(ctx: Pick<AppContext, "db" | "env">, userId: string): Promise<PlanOverviewOrg[]> {
  const rows = await ctx.db
    .select({ org: organisations, role: memberships.role })
    .from(memberships)
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(sql`lower(${organisations.name})`), asc(organisations.createdAt))
    .all();
  return Promise.all(
    rows.map(async ({ org, role }) => ({
      id: org.id,
      name: org.name,
      plan: getPlan(org.plan).id,
      role,
      usage: await getOrgUsage(ctx, org),
      subscribed: Boolean(org.stripeSubscriptionId),
    })),
  );
}

export type ChangePlanResult =
  | { ok: true; kind: "changed"; plan: PlanId; message: string; over: string[] }
  | { ok: true; kind: "pending"; message: string; over: string[] }
  | { ok: true; kind: "redirect"; url: string }
  | { ok: false; status: number; message: string };

async function setPlan(ctx: Pick<AppContext, "db">, orgId: string, plan: PlanId) {
  await ctx.db.update(organisations).set({ plan }).where(eq(organisations.id, orgId));
}

async function explainOver(ctx: Pick<AppContext, "db" | "env">, org: Org, plan: PlanId) {
  return overLimits(await getOrgUsage(ctx, org), plan);
}

/**
 * The owner asks to move `org` to `plan`. The caller has checked that the user may manage billing.
 * `fetchImpl` reaches Stripe (injectable for tests).
 */
export async function changePlan(
  ctx: Pick<AppContext, "db" | "env" | "origin">,
  input: { org: Org; plan: PlanId; email: string },
  fetchImpl: typeof fetch = fetch,
): Promise<ChangePlanResult> {
  const { org, plan } = input;
  const target = PLANS[plan];
  if (org.plan === plan) return { ok: false, status: 400, message: `${org.name} is already on the ${target.name} plan.` };
  const mode = billingMode(ctx.env);
  if (mode === "unavailable") return { ok: false, status: 503, message: BILLING_UNAVAILABLE };

  if (mode === "direct") {
    await setPlan(ctx, org.id, plan);
    return {
      ok: true,
      kind: "changed",
      plan,
      message: `${org.name} is now on the ${target.name} plan. Billing is not configured, so the change took effect immediately and nothing was charged.`,
      over: await explainOver(ctx, org, plan),
    };
  }

  try {
    if (plan === "free") {
      if (!org.stripeSubscriptionId) {
        await setPlan(ctx, org.id, "free");
        return { ok: true, kind: "changed", plan, message: `${org.name} is now on the Free plan.`, over: await explainOver(ctx, org, plan) };
      }
      await cancelSubscriptionAtPeriodEnd(ctx.env, org.stripeSubscriptionId, fetchImpl);
      return {
        ok: true,
        kind: "pending",
        message: `The ${getPlan(org.plan).name} subscription of ${org.name} is cancelled at the end of the paid period; the organisation then moves to the Free plan.`,
        over: await explainOver(ctx, org, plan),
      };
    }
    const paid = plan as PaidPlanId;
    if (!priceFor(ctx.env, paid))
      return { ok: false, status: 503, message: `The ${target.name} plan has no Stripe price configured on this server (STRIPE_PRICE_${paid.toUpperCase()}).` };
    if (org.stripeSubscriptionId) {
      const sub = await changeSubscriptionPlan(ctx.env, org.stripeSubscriptionId, paid, fetchImpl);
      if (sub.status === "active" || sub.status === "trialing") {
        await setPlan(ctx, org.id, paid);
        return {
          ok: true,
          kind: "changed",
          plan,
          message: `${org.name} is now on the ${target.name} plan. Stripe prorates the difference on the next invoice.`,
          over: await explainOver(ctx, org, plan),
        };
      }
      return {
        ok: true,
        kind: "pending",
        message: `Stripe is processing the change to the ${target.name} plan; this page shows it once Stripe confirms.`,
        over: [],
      };
    }
    const session = await createCheckoutSession(
      ctx.env,
      { orgId: org.id, plan: paid, origin: ctx.origin, customerId: org.stripeCustomerId, email: input.email },
      fetchImpl,
    );
    return { ok: true, kind: "redirect", url: session.url };
  } catch (err) {
    if (err instanceof StripeError) return { ok: false, status: 502, message: `${err.message} The plan was not changed.` };
    throw err;
  }
}
