import { tool } from "ai";
import { z } from "zod";
import type { Fetcher } from "../../integrations/woocommerce/client";
import { ORDER_STATUS_TOOL } from "~/lib/schemas/custom-tools";
import { currencyOf, shopToolOfTurn } from "../../integrations/woocommerce/connection";
import { LIMITED_REPLY, lookUpOrder, NO_MATCH_REPLY, orderReply, UNAVAILABLE_REPLY } from "../../integrations/woocommerce/orders";
import type { BotTool, LocalToolReply, ToolTurn } from "./registry";

// Order status from the connected WooCommerce store. Nothing about an order is said until the
// visitor gave its number AND its billing email and they match (integrations/woocommerce/orders.ts);
// a wrong pair gets one answer whatever the reason and is rate-limited per visitor.
// The built-in engine recognises "where is my order 1234" and asks for what is missing (the number,
// the email) across turns, reading the conversation so far; a configured model calls `order_status`.

export { ORDER_STATUS_TOOL };

const ORDER_INTENT =
  /\b(where('?s| is) my (order|package|parcel|delivery)|order status|status of (my )?order|track(ing)? (my )?(order|package|parcel)|has my order|my order|order (number|no\.?|#)?\s*#?\d{2,})\b/i;
const ORDER_NUMBER = /\border\s*(?:number|no\.?|nr\.?)?\s*(?:is\s*)?#?\s*(\d{2,12})\b|#(\d{2,12})\b/i;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;

/** What the bot asks with, so a later turn knows it is answering it. */
export const ASK_NUMBER = "What is your order number? You'll find it in your order confirmation email.";
export const askEmail = (n: string) => `To check order ${n}, what email address did you use for it at checkout?`;

type Ask = { orderNumber: string | null; email: string | null };

/** The order number and email this turn gives, with what earlier visitor messages gave; null when the turn is not about an order. */
export function orderRequest(turn: Pick<ToolTurn, "text" | "history">): Ask | null {
  const lastBot = [...turn.history].reverse().find((m) => m.role === "bot")?.content ?? "";
  const continuing = lastBot === ASK_NUMBER || /^To check order \d+, what email address/.test(lastBot);
  if (!ORDER_INTENT.test(turn.text) && !continuing) return null;
  const numberIn = (t: string, bare: boolean) => {
    const m = t.match(ORDER_NUMBER);
    if (m) return m[1] ?? m[2];
    return bare ? (t.match(/^\s*#?(\d{2,12})\s*\.?\s*$/)?.[1] ?? null) : null;
  };
  let orderNumber = numberIn(turn.text, lastBot === ASK_NUMBER);
  const email = turn.text.match(EMAIL)?.[0] ?? null;
  // The number may have come earlier (the bot's own ask repeats it; else the visitor's messages, newest
  // first). An email is only ever taken from this turn: a wrong pair is never retried on its own.
  if (!orderNumber && continuing) orderNumber = lastBot.match(/^To check order (\d+)/)?.[1] ?? null;
  for (const m of turn.history.filter((m) => m.role === "visitor").reverse()) orderNumber ??= numberIn(m.content, false);
  return { orderNumber, email };
}

export function orderStatusTool(deps: { fetcher?: Fetcher } = {}): BotTool {
  const check = async (turn: ToolTurn, orderNumber: string, email: string) => {
    const c = await shopToolOfTurn(turn, ORDER_STATUS_TOOL);
    if (!c) return { text: UNAVAILABLE_REPLY, found: false };
    // Without a visitor id (no channel identity) the conversation stands in for the visitor.
    const visitorId = turn.visitorId ?? `conversation:${turn.conversation.id}`;
    const out = await lookUpOrder(turn.ctx, { chatbotId: turn.chatbot.id, visitorId }, { orderNumber, email }, { fetcher: deps.fetcher });
    if (out.ok) return { text: orderReply(out.order, currencyOf(c).symbol), found: true };
    return { text: out.reason === "limited" ? LIMITED_REPLY : out.reason === "unavailable" ? UNAVAILABLE_REPLY : NO_MATCH_REPLY, found: false };
  };
  return {
    name: ORDER_STATUS_TOOL,
    enabled: async (turn) => !!(await shopToolOfTurn(turn, ORDER_STATUS_TOOL)),
    async local(turn): Promise<LocalToolReply | null> {
      const ask = orderRequest(turn);
      if (!ask) return null;
      if (!ask.orderNumber) return { text: ASK_NUMBER, answered: false };
      if (!ask.email) return { text: askEmail(ask.orderNumber), answered: false };
      const out = await check(turn, ask.orderNumber, ask.email);
      return { text: out.text, answered: out.found };
    },
    model(turn) {
      return tool({
        description:
          "Look up the status of the visitor's order in the shop. It needs both the order number and the email address used at checkout: " +
          "ask the visitor for whichever is missing before calling it. Never guess either. If it says no match, ask them to check both.",
        inputSchema: z.object({
          orderNumber: z.string().min(1).max(20).describe("The order number, e.g. 1234."),
          email: z.string().email().max(254).describe("The billing email address the visitor gave."),
        }),
        execute: async ({ orderNumber, email }) => ({ answer: (await check(turn, orderNumber, email)).text }),
      });
    },
  };
}
