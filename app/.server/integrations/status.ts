import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { notificationDestinations } from "../db/schema";

// What the integrations page (…/integrations) and the tools page say about each integration. Each
// reads only what this deployment stores; where nothing can be read the state is "unknown" and the
// page offers the setup link without claiming a status.

type Ctx = Pick<ServiceContext, "db">;
type Ref = { orgId: string; chatbotId: string };

/** connected: true/false when known; null when this build has nothing to read. */
export type ConnectionStatus = { connected: boolean | null; detail: string | null };

/**
 * Whether the chatbot's WooCommerce store is connected. The WooCommerce connector
 * (app/.server/integrations/woocommerce) fills this in; until it does, the state is unknown.
 */
export async function wooCommerceStatus(_ctx: Ctx, _ref: Ref): Promise<ConnectionStatus> {
  return { connected: null, detail: null };
}

export type DestinationCounts = { active: number; unconfirmed: number; paused: number };

/** Slack and webhook destinations of the chatbot's notifications, by state. */
export async function notificationIntegrations(ctx: Ctx, ref: Ref): Promise<{ slack: DestinationCounts; webhook: DestinationCounts }> {
  const rows = await ctx.db
    .select({ kind: notificationDestinations.kind, confirmedAt: notificationDestinations.confirmedAt, pausedAt: notificationDestinations.pausedAt })
    .from(notificationDestinations)
    .where(and(eq(notificationDestinations.orgId, ref.orgId), eq(notificationDestinations.chatbotId, ref.chatbotId)))
    .all();
  const count = (kind: "slack" | "webhook"): DestinationCounts => {
    const mine = rows.filter((r) => r.kind === kind);
    return {
      paused: mine.filter((r) => r.pausedAt).length,
      unconfirmed: mine.filter((r) => !r.pausedAt && !r.confirmedAt).length,
      active: mine.filter((r) => !r.pausedAt && r.confirmedAt).length,
    };
  };
  return { slack: count("slack"), webhook: count("webhook") };
}
