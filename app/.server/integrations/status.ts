import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { notificationDestinations, phoneAccounts, phoneNumbers } from "../db/schema";
import { getConnection } from "./woocommerce/connection";
import { countProducts } from "./woocommerce/products";

// What the integrations page (…/integrations) and the tools page say about each integration. Each
// reads only what this deployment stores; where nothing can be read the state is "unknown" and the
// page offers the setup link without claiming a status.

type Ctx = Pick<ServiceContext, "db">;
type Ref = { orgId: string; chatbotId: string };

/** connected: true/false when known; null when this build has nothing to read. */
export type ConnectionStatus = { connected: boolean | null; detail: string | null };

/** Whether the chatbot's WooCommerce store is connected, and which store with how many products. */
export async function wooCommerceStatus(ctx: Ctx, ref: Ref): Promise<ConnectionStatus> {
  const c = await getConnection(ctx, ref);
  if (!c) return { connected: false, detail: null };
  const n = await countProducts(ctx, ref.chatbotId);
  const host = new URL(c.storeUrl).host;
  return { connected: true, detail: `${host} · ${n === 1 ? "1 product" : `${n.toLocaleString("en")} products`}` };
}

/** Whether the organisation has a Twilio account connected, and which numbers answer with this chatbot. */
export async function phoneStatus(ctx: Ctx, ref: Ref): Promise<ConnectionStatus> {
  const [account, numbers] = await Promise.all([
    ctx.db.select({ name: phoneAccounts.accountName, hint: phoneAccounts.accountHint }).from(phoneAccounts).where(eq(phoneAccounts.orgId, ref.orgId)).get(),
    ctx.db
      .select({ number: phoneNumbers.number })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.orgId, ref.orgId), eq(phoneNumbers.chatbotId, ref.chatbotId)))
      .all(),
  ]);
  if (!account) return { connected: false, detail: null };
  const who = `Twilio ${account.name ?? account.hint}`;
  if (!numbers.length) return { connected: true, detail: `${who} · no number answers with this chatbot yet` };
  return { connected: true, detail: `${who} · ${numbers.map((n) => n.number).join(", ")}` };
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
