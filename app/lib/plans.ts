// The ONE source of truth for plans: /pricing renders it, /app/plans compares against it, and every
// limit check on the server reads it (docs: content/docs/account/plans-and-limits.md). Client-safe: no server imports.

export const PLAN_IDS = ["free", "starter", "growth", "scale"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

const MB = 1024 * 1024;

export type PlanLimits = {
  chatbots: number;
  /** Bot replies (credits) per month; one reply is one credit whatever the model. */
  repliesPerMonth: number;
  members: number;
  /** Knowledge characters across all of the organisation's sources. */
  knowledgeChars: number;
  /** Most pages one website source may crawl. */
  crawlPagesPerSource: number;
  /** Largest file a knowledge-base upload may be, in bytes. */
  fileSizeBytes: number;
};

export type PlanExtras = {
  api: boolean;
  webhooks: boolean;
  removeBranding: boolean;
  woocommerce: boolean;
  voice: boolean;
  liveChat: boolean;
  phoneNumbers: boolean;
  priorityQueue: boolean;
};

export type Plan = {
  id: PlanId;
  name: string;
  /** Price per month in US dollars. */
  priceMonthly: number;
  limits: PlanLimits;
  extras: PlanExtras;
  /** The extras this plan adds over the one below, as shown in the pricing table. */
  extrasLabels: string[];
};

const NO_EXTRAS: PlanExtras = {
  api: false,
  webhooks: false,
  removeBranding: false,
  woocommerce: false,
  voice: false,
  liveChat: false,
  phoneNumbers: false,
  priorityQueue: false,
};

export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: "free",
    name: "Free",
    priceMonthly: 0,
    limits: { chatbots: 1, repliesPerMonth: 100, members: 1, knowledgeChars: 1_000_000, crawlPagesPerSource: 50, fileSizeBytes: 5 * MB },
    extras: NO_EXTRAS,
    extrasLabels: [],
  },
  starter: {
    id: "starter",
    name: "Starter",
    priceMonthly: 19,
    limits: { chatbots: 3, repliesPerMonth: 2_000, members: 3, knowledgeChars: 10_000_000, crawlPagesPerSource: 500, fileSizeBytes: 10 * MB },
    extras: { ...NO_EXTRAS, api: true, webhooks: true },
    extrasLabels: ["API", "Webhooks"],
  },
  growth: {
    id: "growth",
    name: "Growth",
    priceMonthly: 79,
    limits: { chatbots: 10, repliesPerMonth: 12_000, members: 10, knowledgeChars: 40_000_000, crawlPagesPerSource: 5_000, fileSizeBytes: 25 * MB },
    extras: { ...NO_EXTRAS, api: true, webhooks: true, removeBranding: true, woocommerce: true, voice: true, liveChat: true },
    extrasLabels: ["Remove branding", "WooCommerce", "Voice", "Live chat"],
  },
  scale: {
    id: "scale",
    name: "Scale",
    priceMonthly: 299,
    limits: { chatbots: 50, repliesPerMonth: 60_000, members: 50, knowledgeChars: 200_000_000, crawlPagesPerSource: 25_000, fileSizeBytes: 50 * MB },
    extras: {
      api: true,
      webhooks: true,
      removeBranding: true,
      woocommerce: true,
      voice: true,
      liveChat: true,
      phoneNumbers: true,
      priorityQueue: true,
    },
    extrasLabels: ["Phone numbers", "Priority queue"],
  },
};

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && (PLAN_IDS as readonly string[]).includes(value);
}

/** The plan record; an unknown value (e.g. a legacy row) is treated as Free. */
export function getPlan(plan: string | null | undefined): Plan {
  return isPlanId(plan) ? PLANS[plan] : PLANS.free;
}

export function planLimits(plan: string | null | undefined): PlanLimits {
  return getPlan(plan).limits;
}

export function planExtras(plan: string | null | undefined): PlanExtras {
  return getPlan(plan).extras;
}

/** The cheapest plan above `plan` whose limit `key` is higher, or null when none is. */
function nextPlanFor(plan: string | null | undefined, key: keyof PlanLimits): Plan | null {
  const current = getPlan(plan);
  for (const id of PLAN_IDS) {
    const p = PLANS[id];
    if (p.limits[key] > current.limits[key]) return p;
  }
  return null;
}

/** "How to raise it" sentence for a limit message. */
export function raiseLimitHint(plan: string | null | undefined, key: keyof PlanLimits): string {
  const next = nextPlanFor(plan, key);
  if (!next) return "This is the highest plan; contact us if you need more.";
  return `An owner can raise it by moving to the ${next.name} plan (${formatLimit(key, next.limits[key])}) on the Plans page.`;
}

const count = new Intl.NumberFormat("en-US");

/** 1,000,000 → "1 M", 12,000 → "12,000". */
export function formatCount(n: number): string {
  if (n >= 1_000_000 && n % 100_000 === 0) return `${count.format(n / 1_000_000)} M`;
  return count.format(n);
}

export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${Math.round((bytes / MB) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

export function formatLimit(key: keyof PlanLimits, value: number): string {
  switch (key) {
    case "fileSizeBytes":
      return formatBytes(value);
    case "knowledgeChars":
      return `${formatCount(value)} characters`;
    case "crawlPagesPerSource":
      return `${formatCount(value)} pages per source`;
    case "repliesPerMonth":
      return `${formatCount(value)} replies a month`;
    case "chatbots":
      return `${formatCount(value)} chatbots`;
    case "members":
      return `${formatCount(value)} members`;
  }
}

/** The cheapest plan that includes `extra`, or null when none does. */
export function cheapestPlanWith(extra: keyof PlanExtras): Plan | null {
  for (const id of PLAN_IDS) if (PLANS[id].extras[extra]) return PLANS[id];
  return null;
}

/** "How to get it" sentence for a plan extra, worded like raiseLimitHint: "<feature> needs the Starter plan or above…". */
export function extraPlanHint(extra: keyof PlanExtras, feature: string): string {
  const plan = cheapestPlanWith(extra);
  if (!plan) return `${feature} is not available on any plan.`;
  return `${feature} needs the ${plan.name} plan or above. An owner can move to it on the Plans page.`;
}
