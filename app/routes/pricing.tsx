import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { Fragment, type ReactNode } from "react";
import { ORDERED_PLANS, PlanTable, formatPrice } from "~/components/marketing/plans";
import { Section, SignUpBand } from "~/components/marketing/section";
import { SiteLayout } from "~/components/site/site-layout";
import { cheapestPlanWith, formatBytes, formatCount, PLANS } from "~/lib/plans";
import { COMPARISONS, comparisonPath, PRICE_EXAMPLE } from "~/lib/comparisons";
import { seo } from "~/lib/seo";

// /pricing: the plans table and every figure on this page come from PLANS (app/lib/plans.ts), the
// constants the server enforces. The FAQ describes what the code does at each limit
// (app/.server/chat/usage.ts, app/.server/kb/sources.ts, app/.server/chatbots/general-settings.ts).

export const handle = { hydrate: false };

const cheapest = ORDERED_PLANS.find((p) => p.priceMonthly > 0)!;
const largest = ORDERED_PLANS[ORDERED_PLANS.length - 1];

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Pricing",
    path: "/pricing",
    description: `Parley plans from ${formatPrice(PLANS.free)} to ${formatPrice(largest)} a month: chatbots, bot replies, team members, knowledge characters, crawl pages and file size per plan, and what happens at a limit.`,
  });

const apiPlan = cheapestPlanWith("api");
const brandingPlan = cheapestPlanWith("removeBranding");

const FAQ: { q: string; a: ReactNode }[] = [
  {
    q: "What counts as a reply?",
    a: (
      <>
        <p>
          Every message the bot sends back is one reply, and one reply is one credit whatever the model — the built-in engine, OpenAI or your own
          OpenAI-compatible server. A grounded answer, a short answer to “hello” or “thanks”, and your fallback message when the knowledge has no answer all
          count. Replies on a bot&apos;s test page and through the REST API count the same way as replies in the widget.
        </p>
        <p>
          Two things do not count: a reply that failed because the model returned an error (the credit is given back), and the notice a visitor gets once the
          month&apos;s replies are used up.
        </p>
      </>
    ),
  },
  {
    q: "When does the monthly allowance reset?",
    a: (
      <p>
        Replies are counted per organisation over a monthly period that starts on the day the organisation was created and renews on the same day each month (on
        the last day of shorter months). Unused replies do not carry over.
      </p>
    ),
  },
  {
    q: "What happens when a limit is reached?",
    a: (
      <>
        <p>Nothing fails silently, and nothing is charged automatically. What happens depends on the limit:</p>
        <ul>
          <li>
            <strong>Bot replies.</strong> The widget shows visitors a polite notice that the assistant cannot answer more questions right now and suggests
            contacting you another way; the REST API answers <code>429</code> with the code <code>reply_limit_reached</code> and a message naming the limit.
            These turned-away messages are still stored, so you can see them in the conversation history. Answers resume when the next period starts or when you
            move to a larger plan.
          </li>
          <li>
            <strong>Knowledge characters.</strong> A source that would take the organisation past its total is refused with a message saying how many characters
            it has, how many are left and which plan raises the limit. If a website turns out larger than expected while it is being crawled, that source stops
            and is marked Failed with the same explanation; sources that are already Ready keep answering.
          </li>
          <li>
            <strong>Crawl pages and file size.</strong> You cannot set a website source&apos;s page cap above your plan&apos;s pages per source, and a file over
            the plan&apos;s size is refused at upload, each with a message naming the limit.
          </li>
          <li>
            <strong>Chatbots and members.</strong> Creating one more than the plan allows is refused with a message naming the limit and the plan that raises
            it. Existing bots keep working.
          </li>
        </ul>
      </>
    ),
  },
  {
    q: "How do I change plan?",
    a: (
      <p>
        An organisation&apos;s owner changes its plan on the <Link to="/app/plans">Plans page</Link> of the dashboard, which also shows the current plan and
        this period&apos;s usage of replies, chatbots, knowledge and members. Higher limits apply as soon as the plan changes. Each organisation has its own
        plan, so separate teams or clients can be on different plans.
      </p>
    ),
  },
  {
    q: "What do the paid plans add besides higher limits?",
    a: (
      <p>
        {apiPlan ? (
          <>The REST API (send messages, read conversations, list and create leads, list and add knowledge sources) needs the {apiPlan.name} plan or above. </>
        ) : null}
        {brandingPlan ? <>Removing “Powered by Parley” from the widget needs the {brandingPlan.name} plan or above. </> : null}
        Everything else on the <Link to="/">home page</Link> — knowledge sources, hybrid retrieval, answers with sources, the widget with allowed origins, rate
        limits and identity verification, roles and invitations, model choice — is on every plan, including Free.
      </p>
    ),
  },
  {
    q: "Do replies from OpenAI cost more than the built-in engine's?",
    a: (
      <p>
        No: one reply is one credit whichever model a chatbot uses. OpenAI and OpenAI-compatible models can be chosen per chatbot once the service&apos;s
        operator has connected them; on your own installation you connect them yourself with <code>OPENAI_API_KEY</code> or <code>OPENAI_BASE_URL</code>, and
        the model provider bills you for its usage separately.
      </p>
    ),
  },
  {
    q: "Can I run Parley on my own Cloudflare account instead?",
    a: (
      <p>
        Yes. Parley is a single Cloudflare Worker with D1, R2, Queues, Durable Objects and Vectorize. Follow the{" "}
        <Link to="/docs/self-hosting/deploy-to-cloudflare">deployment guide</Link>: create the resources once, set the secrets and run{" "}
        <code>npm run deploy</code>. Cloudflare bills you for the resources you use (Parley needs the Workers paid plan for password hashing). The plan limits
        on this page are enforced by the same code on your installation; as its operator you decide which plan each organisation is on.
      </p>
    ),
  },
  {
    q: "Is there a free trial of the paid plans?",
    a: (
      <p>
        The Free plan has no time limit: {formatCount(PLANS.free.limits.chatbots)} chatbot, {formatCount(PLANS.free.limits.repliesPerMonth)} replies a month,{" "}
        {formatCount(PLANS.free.limits.knowledgeChars)} knowledge characters, and files up to {formatBytes(PLANS.free.limits.fileSizeBytes)}. Every feature that
        is not an extra of a paid plan works on it, so you can build and test a complete bot before paying — then move to {cheapest.name} or above when you need
        more.
      </p>
    ),
  },
  {
    q: "How does this compare with Chatbase, HubSpot or Zendesk?",
    a: (
      <p>
        Each comparison works the same example ({formatCount(PRICE_EXAMPLE.conversationsPerMonth)} conversations a month, {PRICE_EXAMPLE.seats} seats) and says,
        with sources, what the other product does well:{" "}
        {COMPARISONS.map((c, i) => (
          <Fragment key={c.slug}>
            {i > 0 && (i === COMPARISONS.length - 1 ? " and " : ", ")}
            <Link to={comparisonPath(c)}>Parley vs {c.competitor}</Link>
          </Fragment>
        ))}
        .
      </p>
    ),
  },
];

export default function Pricing() {
  return (
    <SiteLayout>
      <section aria-labelledby="pricing-title" className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto max-w-6xl px-4 pb-10 pt-14 sm:px-6 sm:pt-20">
          <h1 id="pricing-title" className="text-4xl font-semibold tracking-tight sm:text-5xl">
            Pricing
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-zinc-700 dark:text-zinc-300">
            Prices are per organisation per month, in US dollars. Every plan includes the whole answer engine; plans differ in how much you can put through it.
            The limits below are the same numbers the product enforces.
          </p>
        </div>
      </section>

      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <PlanTable />
        <div className="mt-8 flex flex-wrap items-center gap-x-6 gap-y-3">
          <Link to="/signup" className="inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-5 font-medium text-white hover:bg-brand-800">
            Create a free account
          </Link>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Every account starts on Free. An owner can move the organisation to {cheapest.name},{" "}
            {ORDERED_PLANS.slice(2)
              .map((p) => p.name)
              .join(" or ")}{" "}
            from the Plans page.
          </p>
        </div>
      </div>

      <Section id="faq" tone="muted" title="Questions about plans and limits">
        <dl className="max-w-3xl divide-y divide-zinc-200 dark:divide-zinc-800">
          {FAQ.map((item) => (
            <div key={item.q} className="py-6 first:pt-0">
              <dt className="text-lg font-semibold text-zinc-950 dark:text-white">{item.q}</dt>
              <dd className="mt-3 space-y-3 text-zinc-700 dark:text-zinc-300 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 dark:[&_a]:text-brand-300 [&_code]:rounded [&_code]:bg-zinc-200 [&_code]:px-1 [&_code]:text-[0.9em] dark:[&_code]:bg-zinc-800 [&_li]:mt-2 [&_strong]:text-zinc-950 dark:[&_strong]:text-white [&_ul]:list-disc [&_ul]:pl-6">
                {item.a}
              </dd>
            </div>
          ))}
        </dl>
      </Section>

      <SignUpBand title="Build your first bot on the Free plan" text="No card, no time limit. Move to a larger plan when your visitors keep it busy." />
    </SiteLayout>
  );
}
