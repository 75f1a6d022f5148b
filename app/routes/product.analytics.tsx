import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { PRODUCT_SCREENS } from "~/lib/product-screens";
import { Screenshot } from "~/components/marketing/screenshot";
import { PrimaryLink, SecondaryLink, Section, SignUpBand } from "~/components/marketing/section";
import { SiteLayout } from "~/components/site/site-layout";
import { seo } from "~/lib/seo";

// /product/analytics: what the analytics and leads screens measure, each figure defined the way the
// product computes it, with screenshots captured from the running product (`npm run screens`,
// tests/screens/product-screens.screens.ts) rather than drawn.

export const handle = { hydrate: false };

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Analytics and leads — Parley",
    path: "/product/analytics",
    description:
      "See what your chatbot is asked, what it could not answer and who wants to buy: conversations, resolution rate, answer times, unanswered questions you fix in one step, and leads you can follow up.",
  });

const FIGURES: { term: string; definition: string }[] = [
  { term: "Conversations", definition: "Chats that began in the range, from the widget, the test page or the REST API." },
  { term: "Messages", definition: "Visitors' messages, the bot's replies and your team's live-chat replies in those days." },
  { term: "Unique visitors", definition: "Distinct visitors who chatted in the range. A visitor who comes back on another day is counted once." },
  { term: "Leads", definition: "Contact details left in the chat's form, through the API, or when the bot offered the form." },
  { term: "Human handoffs", definition: "Conversations in which the visitor asked for a person." },
  {
    term: "Resolution rate",
    definition:
      "The share of conversations that ended without a fallback answer, a thumbs-down, a problem report or a handoff. A conversation with any of those four counts as not resolved.",
  },
  { term: "Thumbs up and down", definition: "Visitors' ratings of individual answers." },
  {
    term: "Answer time",
    definition: "From the visitor's message reaching Parley to the reply being complete — the median and the 95th percentile (19 in 20 replies are faster).",
  },
  { term: "Channels and countries", definition: "Where conversations came from, and the visitor's country as the network edge reports it." },
];

export default function ProductAnalytics() {
  const s = PRODUCT_SCREENS;
  return (
    <SiteLayout>
      <section aria-labelledby="product-title" className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto max-w-6xl px-4 pb-14 pt-14 sm:px-6 sm:pt-20">
          <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">Analytics and leads</p>
          <h1 id="product-title" className="mt-3 max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            Know what your visitors ask, and what your bot could not answer.
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-zinc-700 dark:text-zinc-300">
            Every chatbot has its own analytics: how many people it helped, how fast it answered, which questions keep coming back, and which ones it had no
            answer for — with a button that turns each of those into an answer. Visitors who want to buy leave their details, and your team works them as leads.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <PrimaryLink to="/signup">Start free</PrimaryLink>
            <SecondaryLink to="/test/cb_demo" reloadDocument>
              Try the demo bot
            </SecondaryLink>
          </div>
          <div className="mt-12">
            <Screenshot screen={s.analytics} priority />
          </div>
        </div>
      </section>

      <Section
        id="measured"
        title="What is measured, and how"
        intro={
          <p>
            Figures are counted as messages arrive and kept per day in your organisation&apos;s time zone, so a 90-day range opens as fast as a 7-day one. Pick
            7, 30 or 90 days or any range, and download the days as CSV.
          </p>
        }
      >
        <dl className="grid gap-x-10 gap-y-6 sm:grid-cols-2">
          {FIGURES.map((f) => (
            <div key={f.term}>
              <dt className="font-semibold">{f.term}</dt>
              <dd className="mt-1 text-zinc-700 dark:text-zinc-300">{f.definition}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-8 max-w-3xl text-zinc-700 dark:text-zinc-300">
          Each chart has a table view with the same numbers, for screen readers and for anyone who wants the exact figure.
        </p>
      </Section>

      <Section
        id="unanswered"
        tone="muted"
        title="Unanswered questions become answers"
        intro={
          <>
            <p>
              When the bot used its fallback or found nothing close enough in your knowledge, the question is listed — grouped with others that ask the same
              thing in different words, most frequent first.
            </p>
            <p className="mt-3">
              Write the answer once under <strong>Add an answer</strong>: Parley adds it to the chatbot&apos;s knowledge as a question-and-answer source,
              indexes it, and marks the group answered. The next visitor who asks gets it, with the source shown.
            </p>
          </>
        }
      >
        <Screenshot screen={s.unanswered} />
      </Section>

      <Section
        id="leads"
        title="Leads you can follow up"
        intro={
          <>
            <p>
              Visitors leave their details in the chat — in the contact form, when the bot offers it because they asked about a quote, a demo or being
              contacted, or when it could not answer. Leads sent through the REST API land in the same list. One email is one lead per chatbot: when someone
              comes back, their lead is updated and the new conversation is linked.
            </p>
            <p className="mt-3">
              Search by name, email, phone or notes, filter by status and date, and open a lead to see its conversations, set its status (new, contacted,
              qualified, won, lost), add notes, and see who changed what. Export to CSV for your CRM. Deleting a lead also removes its personal details from its
              transcripts.
            </p>
          </>
        }
      >
        <div className="grid gap-8 lg:grid-cols-2">
          <Screenshot screen={s.leads} />
          <Screenshot screen={s.lead} />
        </div>
      </Section>

      <Section
        id="roles"
        tone="muted"
        title="Who sees what"
        intro={
          <p>
            Every member of an organisation can read analytics. Agents and above work leads. Adding an answer to the knowledge needs the editor role. How roles
            work is in the <Link to="/docs">documentation</Link>.
          </p>
        }
      />

      <SignUpBand title="See your own numbers" text="Create a chatbot from your website or documents in minutes; analytics and leads are on every plan." />
    </SiteLayout>
  );
}
