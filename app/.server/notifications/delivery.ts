import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { newId } from "../auth/crypto";
import type { ServiceContext } from "../context";
import { openSecret } from "../crypto/secret-box";
import { notificationAttempts, notificationDeliveries, notificationDestinations } from "../db/schema";
import { isDevelopment, type Env } from "../env";
import { fail, type Failure } from "../failure";
import { sendMail } from "../mail";
import { signingSecrets } from "./destinations";
import type { NotificationEvent } from "./events";
import { emailFor, slackFor } from "./messages";
import { enqueueDeliveries } from "./queue";
import { SIGNATURE_HEADER, signatureHeader } from "./signature";
import { checkDestinationUrl } from "./url-guard";

// Sending one delivery (a queue message per attempt). A failed attempt is tried again after the
// next delay of the backoff schedule; when the schedule is used up the delivery is failed. A
// destination whose attempts have been failing for 24 hours is paused (the screen says so and can
// resume it). Every attempt is logged with its outcome, response code and duration.

type Ctx = Pick<ServiceContext, "db" | "env" | "production">;
export type Delivery = typeof notificationDeliveries.$inferSelect;
export type Fetcher = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Seconds to wait after attempt 1, 2, …: exponential from a minute, the last attempt about 24 h
 * after the first (so a destination that never answers is paused by it). 10 attempts in all.
 */
export const RETRY_SCHEDULE_SECONDS = [60, 300, 900, 1800, 3600, 7200, 14_400, 28_800, 30_600] as const;
export const PAUSE_AFTER_FAILING_MS = 24 * 60 * 60 * 1000;
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Kept for the delivery log, then removed (payloads carry visitors' contact details). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const RESPONSE_SNIPPET = 200;

/** The schedule in use: outside production NOTIFY_RETRY_SCHEDULE ("1,2") may shorten it for tests. */
export function retrySchedule(env: Pick<Env, "ENVIRONMENT" | "NOTIFY_RETRY_SCHEDULE">): number[] {
  const custom = env.NOTIFY_RETRY_SCHEDULE?.trim();
  if (custom && isDevelopment(env)) {
    const parsed = custom.split(",").map((s) => Number(s.trim()));
    if (parsed.every((n) => Number.isInteger(n) && n >= 0 && n <= 43_200)) return parsed;
    console.warn(`[notifications] NOTIFY_RETRY_SCHEDULE=${JSON.stringify(custom)} is not a list of seconds; using the default schedule`);
  }
  return [...RETRY_SCHEDULE_SECONDS];
}

type AttemptOutcome = { ok: boolean; responseCode: number | null; error: string | null };

async function attemptWebhook(
  ctx: Ctx,
  d: typeof notificationDestinations.$inferSelect,
  delivery: Delivery,
  fetcher: Fetcher,
  now: number,
): Promise<AttemptOutcome> {
  const checked = checkDestinationUrl(d.url ?? "", { kind: "webhook", production: ctx.production });
  if (!checked.ok) return { ok: false, responseCode: null, error: checked.message };
  const t = Math.floor(now / 1000);
  const signature = await signatureHeader(await signingSecrets(ctx, d, now), delivery.payload, t);
  return post(fetcher, checked.url, delivery.payload, {
    "Content-Type": "application/json",
    "User-Agent": "Parley-Webhooks/1.0",
    [SIGNATURE_HEADER]: signature,
    "Parley-Event": delivery.eventType,
    "Parley-Delivery": delivery.id,
  });
}

async function attemptSlack(ctx: Ctx, d: typeof notificationDestinations.$inferSelect, event: NotificationEvent, fetcher: Fetcher): Promise<AttemptOutcome> {
  if (!d.urlSealed) return { ok: false, responseCode: null, error: "The Slack URL is missing." };
  const checked = checkDestinationUrl(await openSecret(ctx.env, d.urlSealed), { kind: "slack", production: ctx.production });
  if (!checked.ok) return { ok: false, responseCode: null, error: checked.message };
  return post(fetcher, checked.url, JSON.stringify(slackFor(event)), { "Content-Type": "application/json", "User-Agent": "Parley-Webhooks/1.0" });
}

async function post(fetcher: Fetcher, url: string, body: string, headers: Record<string, string>): Promise<AttemptOutcome> {
  try {
    // No redirects: a public URL must not bounce the payload to an address the guard would refuse.
    const res = await fetcher(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
    const text = (await res.text().catch(() => "")).slice(0, RESPONSE_SNIPPET);
    if (res.status >= 200 && res.status < 300) return { ok: true, responseCode: res.status, error: null };
    const why = res.status >= 300 && res.status < 400 ? "Redirects are not followed; use the final URL." : text.trim() ? `Answered: ${text.trim()}` : null;
    return { ok: false, responseCode: res.status, error: why };
  } catch (e) {
    const name = (e as Error)?.name;
    return {
      ok: false,
      responseCode: null,
      error: name === "TimeoutError" ? `No answer within ${ATTEMPT_TIMEOUT_MS / 1000} s.` : `Could not connect: ${(e as Error)?.message ?? "network error"}`,
    };
  }
}

export type DeliverResult = "delivered" | "retrying" | "failed" | "stale";

/**
 * Makes attempt `attempt` of a delivery (the queue consumer's step). Returns what happened; a retry
 * is queued here with its delay.
 */
export async function deliverNotification(
  ctx: Ctx,
  message: { deliveryId: string; attempt: number },
  opts: { now?: number; fetcher?: Fetcher } = {},
): Promise<DeliverResult> {
  const now = opts.now ?? Date.now();
  const fetcher = opts.fetcher ?? ((input, init) => fetch(input, init));
  const row = await ctx.db
    .select({ delivery: notificationDeliveries, d: notificationDestinations })
    .from(notificationDeliveries)
    .innerJoin(notificationDestinations, eq(notificationDestinations.id, notificationDeliveries.destinationId))
    .where(eq(notificationDeliveries.id, message.deliveryId))
    .get();
  if (!row) return "stale";
  const { delivery, d } = row;
  if ((delivery.status !== "pending" && delivery.status !== "retrying") || delivery.attempts !== message.attempt - 1) return "stale";
  if (d.pausedAt) {
    await ctx.db
      .update(notificationDeliveries)
      .set({ status: "failed", error: "Not sent: the destination is paused.", nextAttemptAt: null })
      .where(eq(notificationDeliveries.id, delivery.id));
    return "failed";
  }

  const event = JSON.parse(delivery.payload) as NotificationEvent;
  const started = Date.now();
  let outcome: AttemptOutcome;
  if (d.kind === "webhook") outcome = await attemptWebhook(ctx, d, delivery, fetcher, now);
  else if (d.kind === "slack") outcome = await attemptSlack(ctx, d, event, fetcher);
  else {
    try {
      await sendMail(ctx, { to: d.email ?? "", ...emailFor(event) });
      outcome = { ok: true, responseCode: null, error: null };
    } catch (e) {
      outcome = { ok: false, responseCode: null, error: `The mail service refused it: ${(e as Error)?.message ?? "error"}` };
    }
  }
  const durationMs = Math.max(0, Date.now() - started);
  const attempts = delivery.attempts + 1;
  const runAttempts = delivery.runAttempts + 1;

  const logAttempt = ctx.db.insert(notificationAttempts).values({
    id: newId("nat_"),
    deliveryId: delivery.id,
    number: attempts,
    ok: outcome.ok,
    responseCode: outcome.responseCode,
    durationMs,
    error: outcome.error,
    createdAt: now,
  });
  const record = (status: Delivery["status"], nextAttemptAt: number | null, error = outcome.error) =>
    ctx.db
      .update(notificationDeliveries)
      .set({ status, attempts, runAttempts, responseCode: outcome.responseCode, durationMs, error, lastAttemptAt: now, nextAttemptAt })
      .where(eq(notificationDeliveries.id, delivery.id));

  if (outcome.ok) {
    await ctx.db.batch([
      logAttempt,
      record("delivered", null),
      ctx.db.update(notificationDestinations).set({ failingSince: null }).where(eq(notificationDestinations.id, d.id)),
    ]);
    return "delivered";
  }

  const failingSince = d.failingSince ?? now;
  if (now - failingSince >= PAUSE_AFTER_FAILING_MS) {
    await ctx.db.batch([
      logAttempt,
      record("failed", null),
      ctx.db
        .update(notificationDestinations)
        .set({ failingSince, pausedAt: now, pauseReason: outcome.error ?? (outcome.responseCode ? `Answered ${outcome.responseCode}.` : "No answer.") })
        .where(eq(notificationDestinations.id, d.id)),
    ]);
    return "failed";
  }
  const delay = retrySchedule(ctx.env)[runAttempts - 1];
  const markFailing = ctx.db
    .update(notificationDestinations)
    .set({ failingSince: sql`coalesce(${notificationDestinations.failingSince}, ${now})` })
    .where(eq(notificationDestinations.id, d.id));
  if (delay === undefined) {
    await ctx.db.batch([logAttempt, record("failed", null), markFailing]);
    return "failed";
  }
  await ctx.db.batch([logAttempt, record("retrying", now + delay * 1000), markFailing]);
  await enqueueDeliveries(ctx.env, [{ deliveryId: delivery.id, attempt: attempts + 1, delaySeconds: delay }]);
  return "retrying";
}

/** Sends a delivery again from its first retry step (the same event id, so receivers can de-duplicate). */
export async function resendDelivery(
  ctx: Ctx,
  ref: { orgId: string; chatbotId: string },
  deliveryId: string,
  now = Date.now(),
): Promise<{ ok: true } | ({ ok: false } & Failure)> {
  const row = await ctx.db
    .select({ delivery: notificationDeliveries, pausedAt: notificationDestinations.pausedAt, confirmedAt: notificationDestinations.confirmedAt })
    .from(notificationDeliveries)
    .innerJoin(notificationDestinations, eq(notificationDestinations.id, notificationDeliveries.destinationId))
    .where(and(eq(notificationDeliveries.id, deliveryId), eq(notificationDeliveries.orgId, ref.orgId), eq(notificationDeliveries.chatbotId, ref.chatbotId)))
    .get();
  if (!row) return fail("not_found", "That delivery is no longer in the log.");
  if (row.pausedAt) return fail("conflict", "The destination is paused: resume it first, then re-send.");
  if (row.delivery.status === "pending" || row.delivery.status === "retrying") return fail("conflict", "This delivery is still being tried.");
  await ctx.db
    .update(notificationDeliveries)
    .set({ status: "pending", runAttempts: 0, error: null, nextAttemptAt: now })
    .where(eq(notificationDeliveries.id, deliveryId));
  await enqueueDeliveries(ctx.env, [{ deliveryId, attempt: row.delivery.attempts + 1 }]);
  return { ok: true };
}

export type DeliveryView = Omit<Delivery, "payload" | "orgId" | "chatbotId"> & {
  attemptLog: { number: number; ok: boolean; responseCode: number | null; durationMs: number; error: string | null; at: number }[];
};

/** The newest deliveries of a chatbot with each one's attempts (the delivery log). */
export async function listDeliveries(ctx: Pick<Ctx, "db">, ref: { orgId: string; chatbotId: string }, limit = 50): Promise<DeliveryView[]> {
  const rows = await ctx.db
    .select()
    .from(notificationDeliveries)
    .where(and(eq(notificationDeliveries.orgId, ref.orgId), eq(notificationDeliveries.chatbotId, ref.chatbotId)))
    .orderBy(desc(notificationDeliveries.createdAt), desc(notificationDeliveries.id))
    .limit(limit)
    .all();
  const attempts = rows.length
    ? await ctx.db
        .select()
        .from(notificationAttempts)
        .where(
          inArray(
            notificationAttempts.deliveryId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(notificationAttempts.number)
        .all()
    : [];
  return rows.map(({ payload: _p, orgId: _o, chatbotId: _c, ...r }) => ({
    ...r,
    attemptLog: attempts
      .filter((a) => a.deliveryId === r.id)
      .map((a) => ({ number: a.number, ok: a.ok, responseCode: a.responseCode, durationMs: a.durationMs, error: a.error, at: a.createdAt })),
  }));
}

/** Removes deliveries older than DELIVERY_RETENTION_MS (cron). */
export async function pruneDeliveries(ctx: Pick<Ctx, "db">, now = Date.now()): Promise<void> {
  await ctx.db.delete(notificationDeliveries).where(lt(notificationDeliveries.createdAt, now - DELIVERY_RETENTION_MS));
}

/**
 * The delete of the deliveries that carry one lead's contact details: its `lead.created` event and
 * handoff requests that named its email (batched with the lead's deletion).
 */
export function forgetLeadDeliveries(ctx: Pick<Ctx, "db">, ref: { orgId: string; chatbotId: string }, lead: { id: string; email: string | null }) {
  const payload = notificationDeliveries.payload;
  return ctx.db
    .delete(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.chatbotId, ref.chatbotId),
        eq(notificationDeliveries.orgId, ref.orgId),
        or(
          and(eq(notificationDeliveries.eventType, "lead.created"), sql`json_extract(${payload}, '$.data.lead.id') = ${lead.id}`),
          lead.email
            ? and(
                eq(notificationDeliveries.eventType, "handoff.requested"),
                sql`lower(json_extract(${payload}, '$.data.contact.email')) = ${lead.email.toLowerCase()}`,
              )
            : undefined,
        ),
      ),
    );
}
