import { and, eq, isNull, lte, or } from "drizzle-orm";
import { hmacSha256Hex } from "../crypto/hmac";
import { isPlanId, PLANS, type PlanId } from "~/lib/plans";
import type { AppContext } from "../context";
import { organisations, stripeEvents } from "../db/schema";
import type { Env } from "../env";

// Stripe without the SDK: Checkout Sessions and subscription changes through Stripe's REST API
// (form-encoded, Bearer secret key) and webhook events verified exactly as Stripe's "verify manually"
// guide describes. The API base is STRIPE_API_BASE when set (tests point it at a local stub), and the
// fetch function is injectable.

export type StripeEnv = Pick<
  Env,
  "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_PRICE_STARTER" | "STRIPE_PRICE_GROWTH" | "STRIPE_PRICE_SCALE" | "STRIPE_API_BASE"
>;
export type PaidPlanId = Exclude<PlanId, "free">;
type Fetch = typeof fetch;

const STRIPE_DEFAULT_API_BASE = "https://api.stripe.com";
/** Stripe's default tolerance between the signed timestamp and now. */
const SIGNATURE_TOLERANCE_S = 300;

export function stripeConfigured(env: Partial<StripeEnv>): boolean {
  return Boolean(env.STRIPE_SECRET_KEY);
}

/** The Stripe Price id configured for a paid plan, or null. */
export function priceFor(env: Partial<StripeEnv>, plan: PaidPlanId): string | null {
  const price = { starter: env.STRIPE_PRICE_STARTER, growth: env.STRIPE_PRICE_GROWTH, scale: env.STRIPE_PRICE_SCALE }[plan];
  return price?.trim() || null;
}

/** The plan a Stripe Price id stands for, or null when it is none of ours. */
export function planForPrice(env: Partial<StripeEnv>, priceId: string | null | undefined): PaidPlanId | null {
  if (!priceId) return null;
  for (const plan of ["starter", "growth", "scale"] as const) if (priceFor(env, plan) === priceId) return plan;
  return null;
}

export class StripeError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Stripe's form encoding: nested keys as a[b][c]=value. */
export function formEncode(params: Record<string, string | number | undefined | null>): string {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) body.append(k, String(v));
  return body.toString();
}

async function stripeRequest<T>(
  env: Partial<StripeEnv>,
  method: "GET" | "POST" | "DELETE",
  path: string,
  params: Record<string, string | number | undefined | null> = {},
  fetchImpl: Fetch = fetch,
): Promise<T> {
  if (!env.STRIPE_SECRET_KEY) throw new StripeError("Stripe is not configured (STRIPE_SECRET_KEY is not set).", 500);
  const base = (env.STRIPE_API_BASE || STRIPE_DEFAULT_API_BASE).replace(/\/$/, "");
  const encoded = formEncode(params);
  const url = method === "GET" && encoded ? `${base}${path}?${encoded}` : `${base}${path}`;
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method,
      headers: {
        Authorization: `Bearer ${env.STRIPE_SECRET_KEY}`,
        ...(method === "POST" ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
        "Stripe-Version": "2024-06-20",
      },
      body: method === "POST" ? encoded : undefined,
    });
  } catch (err) {
    console.error("[stripe] request failed", err);
    throw new StripeError("Stripe could not be reached. Please try again in a moment.", 502);
  }
  const json = (await res.json().catch(() => null)) as (T & { error?: { message?: string } }) | null;
  if (!res.ok || !json) {
    console.error("[stripe] error", res.status, json?.error?.message);
    const detail = json?.error?.message?.trim();
    throw new StripeError(detail ? `Stripe refused the request: ${detail}${/[.!?]$/.test(detail) ? "" : "."}` : "Stripe refused the request.", res.status);
  }
  return json;
}

export type CheckoutInput = { orgId: string; plan: PaidPlanId; origin: string; customerId?: string | null; email?: string };

/** Creates a subscription-mode Checkout Session for the organisation; returns its id and URL. */
export async function createCheckoutSession(env: Partial<StripeEnv>, input: CheckoutInput, fetchImpl: Fetch = fetch): Promise<{ id: string; url: string }> {
  const price = priceFor(env, input.plan);
  if (!price) throw new StripeError(`No Stripe price is configured for the ${PLANS[input.plan].name} plan (STRIPE_PRICE_${input.plan.toUpperCase()}).`, 500);
  const back = `${input.origin}/app/plans`;
  const session = await stripeRequest<{ id: string; url: string }>(
    env,
    "POST",
    "/v1/checkout/sessions",
    {
      mode: "subscription",
      "line_items[0][price]": price,
      "line_items[0][quantity]": 1,
      client_reference_id: input.orgId,
      "metadata[orgId]": input.orgId,
      "metadata[plan]": input.plan,
      "subscription_data[metadata][orgId]": input.orgId,
      "subscription_data[metadata][plan]": input.plan,
      customer: input.customerId ?? undefined,
      customer_email: input.customerId ? undefined : input.email,
      success_url: `${back}?checkout=success&org=${encodeURIComponent(input.orgId)}`,
      cancel_url: `${back}?checkout=cancelled&org=${encodeURIComponent(input.orgId)}`,
    },
    fetchImpl,
  );
  if (!session.url || !/^https?:\/\//.test(session.url)) throw new StripeError("Stripe returned no Checkout URL.", 502);
  return { id: session.id, url: session.url };
}

type StripeSubscription = {
  id: string;
  customer: string;
  status: string;
  metadata?: Record<string, string>;
  items?: { data?: { id: string; price?: { id: string } }[] };
};

/** Moves an existing subscription to another paid plan's price (prorated by Stripe). */
export async function changeSubscriptionPlan(
  env: Partial<StripeEnv>,
  subscriptionId: string,
  plan: PaidPlanId,
  fetchImpl: Fetch = fetch,
): Promise<StripeSubscription> {
  const price = priceFor(env, plan);
  if (!price) throw new StripeError(`No Stripe price is configured for the ${PLANS[plan].name} plan (STRIPE_PRICE_${plan.toUpperCase()}).`, 500);
  const sub = await stripeRequest<StripeSubscription>(env, "GET", `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`, {}, fetchImpl);
  const item = sub.items?.data?.[0];
  if (!item) throw new StripeError("The Stripe subscription has no item to change.", 502);
  return stripeRequest<StripeSubscription>(
    env,
    "POST",
    `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`,
    { "items[0][id]": item.id, "items[0][price]": price, proration_behavior: "create_prorations", "metadata[plan]": plan, cancel_at_period_end: "false" },
    fetchImpl,
  );
}

/** Cancels a subscription at the end of the paid period (Stripe then sends customer.subscription.deleted). */
export async function cancelSubscriptionAtPeriodEnd(env: Partial<StripeEnv>, subscriptionId: string, fetchImpl: Fetch = fetch): Promise<StripeSubscription> {
  return stripeRequest<StripeSubscription>(env, "POST", `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`, { cancel_at_period_end: "true" }, fetchImpl);
}

// ——— webhook signatures ———

const encoder = new TextEncoder();

/** Compares two strings in time that depends only on their length. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ (y[i] ?? 0);
  return diff === 0;
}

/** A Stripe-Signature header value for `payload` (what Stripe sends; used by tests and the docs' example). */
export async function signStripePayload(secret: string, payload: string, timestampS = Math.floor(Date.now() / 1000)): Promise<string> {
  return `t=${timestampS},v1=${await hmacSha256Hex(secret, `${timestampS}.${payload}`)}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Stripe's manual verification: split the header on "," then each element on "=", take `t` and every
 * `v1` (other schemes are ignored), compute HMAC-SHA256 of `${t}.${rawBody}` with the endpoint secret,
 * compare it in constant time with each v1, and refuse timestamps more than `toleranceS` from now.
 */
export async function verifyStripeSignature(
  rawBody: string,
  header: string | null | undefined,
  secret: string,
  opts: { nowS?: number; toleranceS?: number } = {},
): Promise<SignatureCheck> {
  if (!header) return { ok: false, reason: "Missing Stripe-Signature header." };
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const element of header.split(",")) {
    const at = element.indexOf("=");
    if (at < 0) continue;
    const prefix = element.slice(0, at).trim();
    const value = element.slice(at + 1).trim();
    if (prefix === "t" && /^\d+$/.test(value)) timestamp = Number(value);
    else if (prefix === "v1") signatures.push(value);
  }
  if (timestamp === null) return { ok: false, reason: "The Stripe-Signature header has no timestamp." };
  if (signatures.length === 0) return { ok: false, reason: "The Stripe-Signature header has no v1 signature." };
  const expected = await hmacSha256Hex(secret, `${timestamp}.${rawBody}`);
  let match = false;
  for (const s of signatures) if (constantTimeEqual(expected, s)) match = true; // no early exit
  if (!match) return { ok: false, reason: "No signature matches the payload." };
  const now = opts.nowS ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (opts.toleranceS ?? SIGNATURE_TOLERANCE_S))
    return { ok: false, reason: "The signature's timestamp is outside the tolerance." };
  return { ok: true };
}

// ——— applying events ———

export type StripeEvent = { id: string; type: string; created: number; data: { object: Record<string, unknown> } };

export type EventOutcome = { handled: boolean; duplicate?: boolean; orgId?: string | null; plan?: PlanId; note: string };

type Ctx = Pick<AppContext, "db">;

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
const meta = (o: Record<string, unknown>): Record<string, unknown> =>
  o.metadata && typeof o.metadata === "object" ? (o.metadata as Record<string, unknown>) : {};

async function findOrg(ctx: Ctx, ids: { orgId?: string | null; subscriptionId?: string | null; customerId?: string | null }) {
  const cols = { id: organisations.id, plan: organisations.plan, stripeSubscriptionId: organisations.stripeSubscriptionId };
  if (ids.orgId) {
    const row = await ctx.db.select(cols).from(organisations).where(eq(organisations.id, ids.orgId)).get();
    if (row) return row;
  }
  if (ids.subscriptionId) {
    const row = await ctx.db.select(cols).from(organisations).where(eq(organisations.stripeSubscriptionId, ids.subscriptionId)).get();
    if (row) return row;
  }
  if (ids.customerId) {
    const row = await ctx.db.select(cols).from(organisations).where(eq(organisations.stripeCustomerId, ids.customerId)).get();
    if (row) return row;
  }
  return null;
}

/** Subscription states in which the paid plan applies (past_due keeps it while Stripe retries the payment). */
const PAID_STATUSES = new Set(["active", "trialing", "past_due"]);

/**
 * Applies one verified event to the organisation's plan. Idempotent: an event id is handled once
 * (stripe_events), and an event older than the last one applied to the organisation changes nothing.
 * Events for organisations we do not know are acknowledged and ignored.
 */
export async function applyStripeEvent(ctx: Ctx, env: Partial<StripeEnv>, event: StripeEvent): Promise<EventOutcome> {
  const obj = event.data?.object ?? {};
  let target: { orgId: string | null; subscriptionId: string | null; customerId: string | null; plan: PlanId | null } | null = null;

  if (event.type === "checkout.session.completed") {
    if (obj.mode !== "subscription") return { handled: false, note: "Not a subscription checkout." };
    if (obj.payment_status && obj.payment_status !== "paid" && obj.payment_status !== "no_payment_required")
      return { handled: false, note: "Checkout not paid yet." };
    const plan = meta(obj).plan;
    target = {
      orgId: str(obj.client_reference_id) ?? str(meta(obj).orgId),
      subscriptionId: str(obj.subscription),
      customerId: str(obj.customer),
      plan: isPlanId(plan) && plan !== "free" ? plan : null,
    };
  } else if (event.type === "customer.subscription.updated" || event.type === "customer.subscription.deleted") {
    const items = (obj.items as StripeSubscription["items"]) ?? {};
    const priceId = items.data?.[0]?.price?.id;
    const metaPlan = meta(obj).plan;
    const paidPlan = planForPrice(env, priceId) ?? (isPlanId(metaPlan) && metaPlan !== "free" ? metaPlan : null);
    const ended = event.type === "customer.subscription.deleted" || !PAID_STATUSES.has(String(obj.status));
    target = { orgId: str(meta(obj).orgId), subscriptionId: str(obj.id), customerId: str(obj.customer), plan: ended ? "free" : paidPlan };
  } else {
    return { handled: false, note: `Event type ${event.type} is not used.` };
  }

  const org = await findOrg(ctx, target);
  if (!org) return { handled: false, orgId: null, note: "No organisation matches this event." };
  if (!target.plan) return { handled: false, orgId: org.id, note: "The event names no plan of ours (check the STRIPE_PRICE_* variables)." };
  // A subscription other than the organisation's current one (e.g. an old one ending) does not move its plan.
  if (event.type !== "checkout.session.completed" && org.stripeSubscriptionId && target.subscriptionId && org.stripeSubscriptionId !== target.subscriptionId)
    return { handled: false, orgId: org.id, note: "The event is about another subscription of this organisation." };

  const claimed = await ctx.db
    .insert(stripeEvents)
    .values({ id: event.id, type: event.type, orgId: org.id })
    .onConflictDoNothing()
    .returning({ id: stripeEvents.id })
    .get();
  if (!claimed) return { handled: true, duplicate: true, orgId: org.id, note: "Event already handled." };

  const createdMs = (Number(event.created) || 0) * 1000;
  const ending = target.plan === "free";
  const updated = await ctx.db
    .update(organisations)
    .set({
      plan: target.plan,
      billingEventAt: createdMs,
      stripeCustomerId: target.customerId ?? undefined,
      stripeSubscriptionId: ending ? null : (target.subscriptionId ?? undefined),
    })
    .where(and(eq(organisations.id, org.id), or(isNull(organisations.billingEventAt), lte(organisations.billingEventAt, createdMs))))
    .returning({ plan: organisations.plan })
    .get();
  if (!updated) return { handled: true, orgId: org.id, note: "A newer event already set this organisation's plan." };
  return { handled: true, orgId: org.id, plan: updated.plan, note: `Plan set to ${PLANS[updated.plan].name}.` };
}
