import { and, eq, isNotNull, or, isNull } from "drizzle-orm";
import type { DeliveryEventType, NotificationEventType } from "~/lib/notifications";
import { planExtras } from "~/lib/plans";
import { newId } from "../auth/crypto";
import type { ServiceContext } from "../context";
import { chatbots, memberships, notificationDeliveries, notificationDestinations, organisations } from "../db/schema";
import { enqueueDeliveries } from "./queue";

// The one way something becomes a notification: emit an event for a chatbot (or, for plan usage,
// for every chatbot of the organisation). Fan-out writes one delivery row per destination that
// subscribed to the event and queues it; delivery.ts sends it. The JSON below is the webhook body
// and is documented in content/docs/api/webhooks.md.

export type NotifyContext = Pick<ServiceContext, "db" | "env" | "origin" | "production">;

/**
 * Creation points (leads, handoff, bug reports, reply usage) take the narrow `{ db }` context so
 * their tests need nothing else; every real caller passes the full request or service context,
 * which is what notifying needs.
 */
export function canNotify(ctx: object): ctx is NotifyContext {
  return "env" in ctx && "db" in ctx && "origin" in ctx && !!(ctx as NotifyContext).env?.NOTIFY_QUEUE;
}

export type NotificationEvent = {
  id: string;
  type: DeliveryEventType;
  /** Unix seconds. */
  created: number;
  organisation: { id: string; name: string };
  chatbot: { id: string; name: string } | null;
  data: Record<string, unknown>;
};

type Scope = { orgId: string; chatbotId: string };

/** Dashboard links in payloads. */
export const dashboardUrl = (ctx: Pick<ServiceContext, "origin">, ref: Scope, path = "") => `${ctx.origin}/app/${ref.orgId}/${ref.chatbotId}${path}`;

/**
 * Emits `type` for one chatbot, or (scope `{ orgId }`) for every chatbot of the organisation; the
 * latter sends once per distinct address or URL. Returns how many deliveries were queued.
 */
export async function emit(
  ctx: NotifyContext,
  scope: Scope | { orgId: string; chatbotId?: undefined },
  type: NotificationEventType,
  data: Record<string, unknown>,
  now = Date.now(),
): Promise<number> {
  const rows = await ctx.db
    .select({ d: notificationDestinations, orgName: organisations.name, plan: organisations.plan, chatbotName: chatbots.name, member: memberships.userId })
    .from(notificationDestinations)
    .innerJoin(organisations, eq(organisations.id, notificationDestinations.orgId))
    .innerJoin(chatbots, eq(chatbots.id, notificationDestinations.chatbotId))
    // A member's destination stops with their membership.
    .leftJoin(memberships, and(eq(memberships.orgId, notificationDestinations.orgId), eq(memberships.userId, notificationDestinations.userId)))
    .where(
      and(
        eq(notificationDestinations.orgId, scope.orgId),
        scope.chatbotId ? eq(notificationDestinations.chatbotId, scope.chatbotId) : undefined,
        isNotNull(notificationDestinations.confirmedAt),
        or(isNull(notificationDestinations.userId), isNotNull(memberships.userId)),
      ),
    )
    .all();
  const seen = new Set<string>();
  const deliveries: (typeof notificationDeliveries.$inferInsert)[] = [];
  for (const r of rows) {
    if (!r.d.events.includes(type)) continue;
    // Webhooks and Slack are a plan extra: after a downgrade they stay listed but receive nothing.
    if (r.d.kind !== "email" && !planExtras(r.plan).webhooks) continue;
    const target = `${r.d.kind}:${r.d.email ?? r.d.url ?? r.d.urlSealed ?? r.d.id}`;
    if (!scope.chatbotId) {
      if (seen.has(target)) continue;
      seen.add(target);
    }
    const event: NotificationEvent = {
      id: newId("evt_"),
      type,
      created: Math.floor(now / 1000),
      organisation: { id: scope.orgId, name: r.orgName },
      chatbot: scope.chatbotId ? { id: r.d.chatbotId, name: r.chatbotName } : null,
      data,
    };
    deliveries.push(deliveryRow(r.d, event, now));
  }
  return queueDeliveries(ctx, deliveries);
}

function deliveryRow(d: typeof notificationDestinations.$inferSelect, event: NotificationEvent, now: number): typeof notificationDeliveries.$inferInsert {
  const paused = !!d.pausedAt;
  return {
    id: newId("ndl_"),
    orgId: d.orgId,
    chatbotId: d.chatbotId,
    destinationId: d.id,
    eventId: event.id,
    eventType: event.type,
    payload: JSON.stringify(event),
    // A paused destination's events are kept (re-sendable after resuming) but not sent.
    status: paused ? "skipped" : "pending",
    error: paused ? "Not sent: the destination was paused." : null,
    nextAttemptAt: paused ? null : now,
    createdAt: now,
  };
}

async function queueDeliveries(ctx: NotifyContext, deliveries: (typeof notificationDeliveries.$inferInsert)[]): Promise<number> {
  if (!deliveries.length) return 0;
  // D1 allows 100 bound parameters per statement: one row per insert, batched.
  await ctx.db.batch(deliveries.map((d) => ctx.db.insert(notificationDeliveries).values(d)) as unknown as Parameters<typeof ctx.db.batch>[0]);
  const toSend = deliveries.filter((d) => d.status === "pending");
  await enqueueDeliveries(
    ctx.env,
    toSend.map((d) => ({ deliveryId: d.id, attempt: 1 })),
  );
  return toSend.length;
}

/** "Send test event": a `test` event to one destination, whatever it subscribed to. */
export async function sendTestEvent(
  ctx: NotifyContext,
  d: typeof notificationDestinations.$inferSelect,
  names: { orgName: string; chatbotName: string },
  now = Date.now(),
): Promise<string> {
  const event: NotificationEvent = {
    id: newId("evt_"),
    type: "test",
    created: Math.floor(now / 1000),
    organisation: { id: d.orgId, name: names.orgName },
    chatbot: { id: d.chatbotId, name: names.chatbotName },
    data: { message: "This is a test event from Parley. Your destination is set up correctly if you can read this." },
  };
  const row = { ...deliveryRow({ ...d, pausedAt: null }, event, now) };
  await queueDeliveries(ctx, [row]);
  return row.id!;
}

/**
 * Emits without ever failing the caller: a visitor's lead or a reply must not be lost because a
 * notification could not be queued. Failures are logged.
 */
export async function emitSafely(
  ctx: object,
  scope: Parameters<typeof emit>[1],
  type: NotificationEventType,
  data: () => Record<string, unknown>,
): Promise<void> {
  if (!canNotify(ctx)) return;
  try {
    await emit(ctx, scope, type, data());
  } catch (e) {
    console.error(`[notifications] could not emit ${type} for ${scope.orgId}/${scope.chatbotId ?? "*"}`, e);
  }
}
