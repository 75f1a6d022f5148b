import { Hono } from "hono";
import { applyStripeEvent, verifyStripeSignature, type StripeEvent } from "../../app/.server/billing/stripe";
import type { HonoEnv } from "../hono-env";
import { apiError } from "./errors";

export const stripe = new Hono<HonoEnv>();

// POST /api/stripe/webhook: Stripe's signed events (checkout.session.completed,
// customer.subscription.updated, customer.subscription.deleted) set the organisation's plan.
// The raw body is read once and verified before it is parsed; its size limit is the API's
// (workers/api/body-limit.ts).
stripe.post("/webhook", async (c) => {
  const secret = c.env.STRIPE_WEBHOOK_SECRET;
  if (!secret) return apiError(c, 503, "webhook_not_configured", "STRIPE_WEBHOOK_SECRET is not set on this server.");
  const raw = await c.req.text();
  const check = await verifyStripeSignature(raw, c.req.header("Stripe-Signature"), secret);
  if (!check.ok) return apiError(c, 400, "invalid_signature", check.reason);
  let event: StripeEvent;
  try {
    event = JSON.parse(raw) as StripeEvent;
  } catch {
    return apiError(c, 400, "invalid_payload", "The event is not valid JSON.");
  }
  if (!event || typeof event.id !== "string" || typeof event.type !== "string" || typeof event.data?.object !== "object")
    return apiError(c, 400, "invalid_payload", "The event has no id, type or data.object.");
  const outcome = await applyStripeEvent(c.get("app"), c.env, event);
  // 200 whatever the outcome: Stripe retries anything else, and an event we do not use never changes.
  return c.json({ received: true, ...outcome });
});
