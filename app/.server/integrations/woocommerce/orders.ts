import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { rateLimits } from "../../db/schema";
import { hit, type Limit } from "../../auth/throttle";
import { WooError, wooRequest, type Fetcher } from "./client";
import { getConnectionOfChatbot, openCredentials } from "./connection";

// An order's status for a visitor who proves it is theirs: the order number AND its billing email
// must match before anything about the order is said. A wrong pair — whether the order does not
// exist or the email is not its own — gets the same answer, and counts against the visitor; past
// the limit nothing is looked up until the window ends.

export const WRONG_PAIR_LIMIT: Limit = { max: 5, windowMs: 60 * 60 * 1000 };

type RestOrder = {
  id: number;
  number: string;
  status: string;
  currency: string;
  date_created: string;
  total: string;
  billing?: { email?: string };
  line_items?: { name: string; quantity: number }[];
};

export type OrderSummary = {
  number: string;
  status: string;
  statusWords: string;
  placed: string;
  total: string;
  currency: string;
  items: { name: string; quantity: number }[];
};
export type OrderLookup = { ok: true; order: OrderSummary } | { ok: false; reason: "no_match" | "limited" | "unavailable" };

const STATUS_WORDS: Record<string, string> = {
  pending: "waiting for payment",
  processing: "paid and being prepared for shipping",
  "on-hold": "on hold (awaiting confirmation of payment)",
  completed: "completed: it has been shipped",
  cancelled: "cancelled",
  refunded: "refunded",
  failed: "not completed (the payment failed)",
  "checkout-draft": "not yet placed",
};

const limitKey = (chatbotId: string, visitorId: string) => `woo-order:${chatbotId}:${visitorId}`;

async function limited(ctx: Pick<ServiceContext, "db">, key: string, now: number) {
  const windowStart = now - (now % WRONG_PAIR_LIMIT.windowMs);
  const row = await ctx.db
    .select()
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart)))
    .get();
  return (row?.count ?? 0) >= WRONG_PAIR_LIMIT.max;
}

export const sameEmail = (a: string | undefined, b: string) => !!a && a.trim().toLowerCase() === b.trim().toLowerCase();

export async function lookUpOrder(
  ctx: Pick<ServiceContext, "db" | "env">,
  who: { chatbotId: string; visitorId: string },
  input: { orderNumber: string; email: string },
  opts: { fetcher?: Fetcher; now?: number } = {},
): Promise<OrderLookup> {
  const now = opts.now ?? Date.now();
  const key = limitKey(who.chatbotId, who.visitorId);
  if (await limited(ctx, key, now)) return { ok: false, reason: "limited" };
  const c = await getConnectionOfChatbot(ctx, who.chatbotId);
  if (!c) return { ok: false, reason: "unavailable" };
  const number = input.orderNumber.replace(/^#/, "").trim();
  let order: RestOrder | null = null;
  if (/^\d{1,12}$/.test(number)) {
    try {
      order = (await wooRequest<RestOrder>(await openCredentials(ctx, c), "GET", `orders/${number}`, { fetcher: opts.fetcher })).data;
    } catch (e) {
      if (!(e instanceof WooError && (e.kind === "not_found" || e.status === 404))) {
        console.error("[woocommerce] order lookup failed", e instanceof Error ? e.message : e);
        return { ok: false, reason: "unavailable" };
      }
    }
  }
  if (!order || !sameEmail(order.billing?.email, input.email)) {
    await hit(ctx.db, key, WRONG_PAIR_LIMIT, now);
    return { ok: false, reason: "no_match" };
  }
  return {
    ok: true,
    order: {
      number: order.number || String(order.id),
      status: order.status,
      statusWords: STATUS_WORDS[order.status] ?? order.status,
      placed: new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${order.date_created}Z`)),
      total: order.total,
      currency: order.currency,
      items: (order.line_items ?? []).map((l) => ({ name: l.name, quantity: l.quantity })),
    },
  };
}

/** The one answer to a pair that does not match: it says nothing about whether the order exists. */
export const NO_MATCH_REPLY =
  "I couldn't find an order with that number and email address together. Please check both (the email is the one you used at checkout) and try again.";
export const LIMITED_REPLY = "There have been too many order look-ups from this chat. Please try again in an hour, or contact the shop directly.";
export const UNAVAILABLE_REPLY = "I can't look up orders right now. Please try again in a moment, or contact the shop directly.";

export function orderReply(o: OrderSummary, symbol: string): string {
  const items = o.items.map((i) => `${i.quantity} × ${i.name}`).join(", ");
  return `Order ${o.number} (placed ${o.placed}) is ${o.statusWords}.${items ? ` It contains ${items}` : ""}${o.total ? `, total ${symbol}${o.total}` : ""}.`;
}
