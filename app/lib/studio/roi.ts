import { PLAN_IDS, PLANS, type Plan } from "~/lib/plans";
import type { RoiInput } from "./schemas";

// The support ROI calculator's arithmetic: only the visitor's own numbers and Parley's plan table
// (app/lib/plans.ts), no industry averages. Pure and client-safe.

export type RoiResult = {
  botConversations: number;
  botReplies: number;
  hoursSaved: number;
  moneySaved: number;
  /** The cheapest plan whose monthly reply limit covers botReplies, or null when none does. */
  plan: Plan | null;
  net: number | null;
  /** Each step as "what = how = result". */
  steps: { label: string; formula: string; result: string }[];
};

const n = (v: number, digits = 0) => v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
export const usd = (v: number) => `${v < 0 ? "−" : ""}$${Math.abs(v).toLocaleString("en-US", { maximumFractionDigits: 0 })}`;

export function cheapestPlanForReplies(replies: number): Plan | null {
  for (const id of PLAN_IDS) if (PLANS[id].limits.repliesPerMonth >= replies) return PLANS[id];
  return null;
}

export function computeRoi(input: RoiInput): RoiResult {
  // Every conversation gets bot replies (the bot answers first, then hands over when it cannot);
  // only the ones it can answer from knowledge save an agent's time.
  const botConversations = Math.round((input.conversations * input.share) / 100);
  const botReplies = Math.ceil(input.conversations * input.replies);
  const hoursSaved = (botConversations * input.minutes) / 60;
  const moneySaved = hoursSaved * input.hourlyCost;
  const plan = cheapestPlanForReplies(botReplies);
  const net = plan ? moneySaved - plan.priceMonthly : null;
  const steps: RoiResult["steps"] = [
    { label: "Conversations the bot answers", formula: `${n(input.conversations)} × ${n(input.share, 2)} %`, result: n(botConversations) },
    { label: "Agent hours saved a month", formula: `${n(botConversations)} × ${n(input.minutes, 2)} min ÷ 60`, result: `${n(hoursSaved, 1)} h` },
    { label: "Agent cost saved a month", formula: `${n(hoursSaved, 1)} h × ${usd(input.hourlyCost)}`, result: usd(moneySaved) },
    { label: "Bot replies a month", formula: `${n(input.conversations)} × ${n(input.replies, 2)}`, result: n(botReplies) },
  ];
  if (plan) {
    steps.push({
      label: `Parley ${plan.name} plan (up to ${n(plan.limits.repliesPerMonth)} replies)`,
      formula: "per month",
      result: usd(plan.priceMonthly),
    });
    steps.push({ label: "Net saving a month", formula: `${usd(moneySaved)} − ${usd(plan.priceMonthly)}`, result: usd(moneySaved - plan.priceMonthly) });
  }
  return { botConversations, botReplies, hoursSaved, moneySaved, plan, net, steps };
}
