import { formatBytes, formatCount, PLAN_IDS, PLANS, type Plan, type PlanExtras, type PlanLimits } from "~/lib/plans";

// Everything the site says about plans is computed from PLANS (app/lib/plans.ts), the same
// constants the server enforces limits with: change a number there and /, /pricing follow.

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

export const ORDERED_PLANS: Plan[] = PLAN_IDS.map((id) => PLANS[id]);

/** "$0", "$19"… */
export function formatPrice(plan: Plan): string {
  return usd.format(plan.priceMonthly);
}

/** The limit rows of the pricing table, in the order a buyer compares them. */
export const LIMIT_ROWS: { key: keyof PlanLimits; label: string; hint: string; format: (n: number) => string }[] = [
  { key: "chatbots", label: "Chatbots", hint: "Separate bots, each with its own knowledge and settings.", format: formatCount },
  { key: "repliesPerMonth", label: "Bot replies / month", hint: "One reply is one credit, whatever the model.", format: formatCount },
  { key: "members", label: "Team members", hint: "People in the organisation, any role.", format: formatCount },
  { key: "knowledgeChars", label: "Knowledge characters", hint: "Across all the organisation's sources.", format: formatCount },
  { key: "crawlPagesPerSource", label: "Crawl pages per source", hint: "Most pages one website source reads.", format: formatCount },
  { key: "fileSizeBytes", label: "File size", hint: "Largest upload: PDF, DOCX, TXT, MD, HTML, CSV, JSON.", format: formatBytes },
];

// Extras the product has today, worded for buyers. A plan extra that is not built yet (see PlanExtras)
// is not listed: the site only sells what exists.
const SHIPPED_EXTRAS: { key: keyof PlanExtras; label: string }[] = [
  { key: "api", label: "REST API" },
  { key: "removeBranding", label: "Remove “Powered by Parley”" },
];

/** The shipped extras a plan includes (cumulative), for the pricing table and the teaser. */
function shippedExtras(plan: Plan): string[] {
  return SHIPPED_EXTRAS.filter((e) => plan.extras[e.key]).map((e) => e.label);
}

export { SHIPPED_EXTRAS };

function Check({ on }: { on: boolean }) {
  return on ? (
    <>
      <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" className="inline text-emerald-700 dark:text-emerald-400">
        <path d="M4 10.5l4 4 8-9" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="sr-only">Included</span>
    </>
  ) : (
    <>
      <span aria-hidden="true" className="text-zinc-500 dark:text-zinc-400">
        —
      </span>
      <span className="sr-only">Not included</span>
    </>
  );
}

/** The full comparison table for /pricing: one column per plan. */
export function PlanTable() {
  return (
    <div
      className="relative overflow-x-auto rounded-xl border border-zinc-200 dark:border-zinc-800"
      role="region"
      aria-labelledby="plan-table-caption"
      tabIndex={0}
    >
      <table className="w-full min-w-[640px] border-collapse text-left text-sm">
        <caption id="plan-table-caption" className="sr-only">
          Plans compared: price and limits per month
        </caption>
        <thead className="bg-zinc-50 dark:bg-zinc-900">
          <tr>
            <th scope="col" className="w-1/4 px-4 py-3 font-medium text-zinc-600 dark:text-zinc-400">
              Plan
            </th>
            {ORDERED_PLANS.map((p) => (
              <th key={p.id} scope="col" className="px-4 py-3 align-bottom">
                <span className="block text-base font-semibold text-zinc-950 dark:text-white">{p.name}</span>
                <span className="mt-1 block">
                  <span className="text-2xl font-semibold text-zinc-950 dark:text-white">{formatPrice(p)}</span>
                  <span className="text-zinc-600 dark:text-zinc-400"> / month</span>
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {LIMIT_ROWS.map((row) => (
            <tr key={row.key}>
              <th scope="row" className="px-4 py-3 font-normal">
                <span className="block font-medium text-zinc-900 dark:text-zinc-100">{row.label}</span>
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">{row.hint}</span>
              </th>
              {ORDERED_PLANS.map((p) => (
                <td key={p.id} className="px-4 py-3 tabular-nums text-zinc-900 dark:text-zinc-100" data-plan={p.id} data-limit={row.key}>
                  {row.format(p.limits[row.key])}
                </td>
              ))}
            </tr>
          ))}
          {SHIPPED_EXTRAS.map((e) => (
            <tr key={e.key}>
              <th scope="row" className="px-4 py-3 font-medium text-zinc-900 dark:text-zinc-100">
                {e.label}
              </th>
              {ORDERED_PLANS.map((p) => (
                <td key={p.id} className="px-4 py-3" data-plan={p.id} data-extra={e.key}>
                  <Check on={p.extras[e.key]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Compact cards for the home page's pricing teaser. */
export function PlanCards() {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {ORDERED_PLANS.map((p) => {
        const extras = shippedExtras(p);
        return (
          <li key={p.id} className="flex flex-col rounded-xl border border-zinc-200 bg-white p-5 dark:border-zinc-800 dark:bg-zinc-900">
            <h3 className="font-semibold">{p.name}</h3>
            <p className="mt-2">
              <span className="text-3xl font-semibold tracking-tight">{formatPrice(p)}</span>
              <span className="text-sm text-zinc-600 dark:text-zinc-400"> / month</span>
            </p>
            <ul className="mt-4 space-y-1.5 text-sm text-zinc-700 dark:text-zinc-300">
              <li>
                {formatCount(p.limits.chatbots)} {p.limits.chatbots === 1 ? "chatbot" : "chatbots"}
              </li>
              <li>{formatCount(p.limits.repliesPerMonth)} bot replies a month</li>
              <li>
                {formatCount(p.limits.members)} {p.limits.members === 1 ? "member" : "members"}
              </li>
              <li>{formatCount(p.limits.knowledgeChars)} knowledge characters</li>
              {extras.length > 0 && <li>{extras.join(", ")}</li>}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}
