import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { PrimaryLink, SecondaryLink, Section, SignUpBand } from "~/components/marketing/section";
import { SiteLayout } from "~/components/site/site-layout";
import { RIVALS, ROWS, SOURCES, SOURCES_READ, type ParleyCell, type RivalCell, type Verdict } from "~/lib/live-chat-comparison";
import { seo } from "~/lib/seo";

// /product/live-chat-alternative: Parley against LiveChat, Tidio and Crisp for people who use one of
// them today. Where they are stronger is said first and plainly; every Parley claim links to the page
// that shows it, features Parley lacks say "not yet", and competitor facts name their public source
// (app/lib/live-chat-comparison.ts). No prices: none are compared here.

export const handle = { hydrate: false };

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "An alternative to LiveChat, Tidio and Crisp — Parley",
    path: "/product/live-chat-alternative",
    description:
      "Parley compared with LiveChat, Tidio and Crisp, point by point: where they are stronger, where Parley is different, what it does not do yet, and how to move.",
  });

const readOn = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${SOURCES_READ}T12:00:00Z`));

const VERDICT: Record<Verdict, { label: string; className: string }> = {
  yes: { label: "Yes", className: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200" },
  partly: { label: "Partly", className: "bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-200" },
  "not-yet": { label: "Not yet", className: "bg-zinc-200 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100" },
};

const STRONGER: { title: string; text: ReactNode }[] = [
  {
    title: "A long track record",
    text: "They have run live chat for many businesses for years, and it shows in the polish and in the edge cases they already handle. Parley is new.",
  },
  {
    title: "Apps for agents",
    text: "Desktop and phone apps let a team answer from anywhere. Parley's inbox is in the dashboard, in a browser.",
  },
  {
    title: "More channels in one inbox",
    text: "Tidio brings in Messenger, Instagram and WhatsApp; Crisp more than ten channels, and SDKs to put its chat inside your iOS and Android apps. Parley covers your website, the REST API and phone calls on a number of your own Twilio account.",
  },
  {
    title: "Tools for a busy team",
    text: "Saved replies, apps for agents' phones and large catalogues of integrations. Parley has transfers, typing indicators and office hours, but not these (see the table).",
  },
];

const DIFFERENT: { title: string; text: ReactNode }[] = [
  {
    title: "The bot answers first, from your own knowledge",
    text: (
      <>
        Parley is built around answers from your pages, files and Q&amp;A, each with its sources, and a fallback instead of a guess when nothing is relevant
        enough — <Link to="/docs/knowledge/how-knowledge-works">how knowledge works</Link>. People step in for what the knowledge does not cover.
      </>
    ),
  },
  {
    title: "The handoff stays in the same window",
    text: (
      <>
        The visitor asks for a person in the chat they already have open, and the agent&apos;s reply arrives there; every message is stored before it is
        acknowledged — <Link to="/product/live-chat">how live chat works</Link>.
      </>
    ),
  },
  {
    title: "No AI key needed",
    text: (
      <>
        A built-in engine answers without any AI provider; connect OpenAI or an OpenAI-compatible server when you want a model —{" "}
        <Link to="/docs/answers/models">models</Link>.
      </>
    ),
  },
  {
    title: "Runs where you choose",
    text: (
      <>
        Use Parley&apos;s service, or deploy the same Worker to your own Cloudflare account —{" "}
        <Link to="/docs/self-hosting/deploy-to-cloudflare">deploy to Cloudflare</Link>. It also runs offline on a laptop while you build —{" "}
        <Link to="/docs/getting-started/quick-start">quick start</Link>.
      </>
    ),
  },
  {
    title: "Embedding you control",
    text: (
      <>
        A list of websites allowed to show the chat, enforced three times; per-visitor rate limits; visitor identity signed with HMAC-SHA256 —{" "}
        <Link to="/docs/widget/security">security</Link>.
      </>
    ),
  },
  {
    title: "Gaps become answers",
    text: (
      <>
        Analytics list the questions the bot could not answer, grouped, each with a button that adds your answer to the knowledge —{" "}
        <Link to="/product/analytics">analytics</Link>.
      </>
    ),
  },
];

function ParleyAnswer({ cell, feature }: { cell: ParleyCell; feature: string }) {
  const v = VERDICT[cell.verdict];
  return (
    <>
      <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${v.className}`}>{v.label}</span>
      {cell.text ? <span className="mt-1 block">{cell.text}</span> : null}
      {cell.proof ? (
        <Link to={cell.proof} className="mt-1 inline-block text-brand-700 underline underline-offset-2 dark:text-brand-300">
          {cell.verdict === "not-yet" ? "What exists today" : "See how"}
          <span className="sr-only"> — {feature}</span>
        </Link>
      ) : null}
    </>
  );
}

function RivalAnswer({ cell }: { cell: RivalCell }) {
  return (
    <>
      {cell.text}
      {cell.sources.map((n) => (
        <sup key={n}>
          <a href={`#source-${n}`} className="ml-0.5 text-brand-700 dark:text-brand-300" aria-label={`Source ${n}`}>
            [{n}]
          </a>
        </sup>
      ))}
    </>
  );
}

/** Small screens: one card per feature instead of a table five columns wide. */
function ComparisonCards() {
  return (
    <ul className="space-y-4 md:hidden" aria-label="Parley compared with LiveChat, Tidio and Crisp, feature by feature">
      {ROWS.map((row) => (
        <li key={row.feature} className="rounded-xl border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-950">
          <h3 className="text-base font-semibold">{row.feature}</h3>
          <dl className="mt-3 space-y-3">
            <div>
              <dt className="font-semibold text-zinc-950 dark:text-white">Parley</dt>
              <dd className="mt-1 text-zinc-800 dark:text-zinc-200">
                <ParleyAnswer cell={row.parley} feature={row.feature} />
              </dd>
            </div>
            {RIVALS.map((r) => (
              <div key={r.id}>
                <dt className="font-semibold text-zinc-950 dark:text-white">{r.name}</dt>
                <dd className="mt-1 text-zinc-700 dark:text-zinc-300">
                  <RivalAnswer cell={row.rivals[r.id]} />
                </dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}

function ComparisonTable() {
  return (
    <div
      className="hidden overflow-x-auto rounded-xl md:block border border-zinc-200 dark:border-zinc-800"
      role="region"
      aria-labelledby="comparison-caption"
      tabIndex={0}
    >
      <table className="w-full min-w-[880px] border-collapse text-left text-sm">
        <caption id="comparison-caption" className="sr-only">
          Parley compared with LiveChat, Tidio and Crisp, feature by feature
        </caption>
        <thead className="bg-zinc-50 dark:bg-zinc-900">
          <tr>
            <th scope="col" className="w-[18%] px-4 py-3 font-medium text-zinc-600 dark:text-zinc-400">
              Feature
            </th>
            <th scope="col" className="w-[28%] px-4 py-3 font-semibold text-zinc-950 dark:text-white">
              Parley
            </th>
            {RIVALS.map((r) => (
              <th key={r.id} scope="col" className="px-4 py-3 font-semibold text-zinc-950 dark:text-white">
                {r.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {ROWS.map((row) => (
            <tr key={row.feature} className="align-top">
              <th scope="row" className="px-4 py-3 font-medium text-zinc-900 dark:text-zinc-100">
                {row.feature}
              </th>
              <td className="px-4 py-3 text-zinc-800 dark:text-zinc-200" data-parley={row.parley.verdict}>
                <ParleyAnswer cell={row.parley} feature={row.feature} />
              </td>
              {RIVALS.map((r) => (
                <td key={r.id} className="px-4 py-3 text-zinc-700 dark:text-zinc-300" data-rival={r.id}>
                  <RivalAnswer cell={row.rivals[r.id]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Points({ items }: { items: { title: string; text: ReactNode }[] }) {
  return (
    <ul className="grid gap-x-10 gap-y-6 sm:grid-cols-2">
      {items.map((p) => (
        <li key={p.title}>
          <h3 className="font-semibold">{p.title}</h3>
          <p className="mt-1 text-zinc-700 dark:text-zinc-300 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 dark:[&_a]:text-brand-300">
            {p.text}
          </p>
        </li>
      ))}
    </ul>
  );
}

const linkClass = "font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300";

export default function LiveChatAlternative() {
  return (
    <SiteLayout>
      <section aria-labelledby="product-title" className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto max-w-6xl px-4 pb-14 pt-14 sm:px-6 sm:pt-20">
          <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">Compare</p>
          <h1 id="product-title" className="mt-3 max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            Switching from LiveChat, Tidio or Crisp? An honest comparison.
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-zinc-700 dark:text-zinc-300">
            LiveChat, Tidio and Crisp are mature live-chat tools. Parley starts from the other end: a chatbot that answers from your own knowledge, with
            sources, and hands the conversation to a person in the same window when it cannot help. This page says where they are stronger, where Parley is
            different, and what Parley does not do yet.
          </p>
          <p className="mt-4 max-w-2xl text-sm text-zinc-600 dark:text-zinc-400">
            What this page says about LiveChat, Tidio and Crisp was read on their public pages on {readOn} (<a href="#sources">sources</a>). Products change:
            check theirs before you decide.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <PrimaryLink to="/signup">Start free</PrimaryLink>
            <SecondaryLink to="/product/live-chat">See how live chat works</SecondaryLink>
          </div>
        </div>
      </section>

      <Section id="stronger" title="Where they are stronger" intro={<p>If these matter most to your team, one of them may be the better choice today.</p>}>
        <Points items={STRONGER} />
      </Section>

      <Section id="different" tone="muted" title="Where Parley is different">
        <Points items={DIFFERENT} />
      </Section>

      <Section
        id="compare"
        title="Point by point"
        intro={<p>Parley&apos;s column says what exists today and links to where you can see it. Numbers in brackets point to the sources below.</p>}
      >
        <ComparisonCards />
        <ComparisonTable />
      </Section>

      <Section
        id="move"
        tone="muted"
        title="Moving to Parley"
        intro={<p>Most of the work is bringing over what your team already answers; the chat window and the inbox take minutes.</p>}
      >
        <ol className="max-w-3xl list-decimal space-y-5 pl-6 text-zinc-700 marker:font-semibold marker:text-brand-700 dark:text-zinc-300 dark:marker:text-brand-300">
          <li>
            <strong className="text-zinc-950 dark:text-white">Gather what your team already answers.</strong> Your help-centre or FAQ pages, product documents,
            and the saved replies in your current tool — copy or export them from its settings.
          </li>
          <li>
            <strong className="text-zinc-950 dark:text-white">Add them as knowledge.</strong> Crawl your help centre or website as a whole site, upload files
            (PDF, DOCX, TXT, MD, HTML, CSV or JSON), and turn saved replies into question-and-answer pairs. Check what the bot would retrieve with the Knowledge
            page&apos;s search, then ask it on the test page —{" "}
            <Link to="/docs/knowledge/sources" className={linkClass}>
              knowledge sources
            </Link>
            .
          </li>
          <li>
            <strong className="text-zinc-950 dark:text-white">Set up the chat window.</strong> In <em>Settings → Look &amp; feel</em> choose colours and welcome
            messages, turn on <strong>Talk to a human</strong> and decide when to show the contact form; in <em>Settings → Origins &amp; access</em> list your
            websites —{" "}
            <Link to="/docs/widget/embed" className={linkClass}>
              the chat widget
            </Link>
            .
          </li>
          <li>
            <strong className="text-zinc-950 dark:text-white">Set up the team.</strong> Invite the people who answer visitors with the Agent role, and in the
            chatbot&apos;s notification settings send &ldquo;a visitor asks to talk to a person&rdquo; to a member&apos;s email, another address, a webhook or
            Slack —{" "}
            <Link to="/docs/account/members-and-invitations" className={linkClass}>
              members and invitations
            </Link>
            .
          </li>
          <li>
            <strong className="text-zinc-950 dark:text-white">Swap the snippet.</strong> Remove the old tool&apos;s script from your site and paste
            Parley&apos;s from <em>Settings → Embed &amp; API</em>. Whoever is on duty keeps the chatbot&apos;s home open in the dashboard: that is what makes
            them online.
          </li>
          <li>
            <strong className="text-zinc-950 dark:text-white">Keep your history.</strong> Export your old transcripts and contacts and keep them: Parley does
            not import past conversations yet. To bring existing contacts in as leads, your server can send them with <code>POST /api/v1/leads</code> on plans
            with the REST API —{" "}
            <Link to="/docs/api/rest-api" className={linkClass}>
              REST API
            </Link>
            .
          </li>
          <li>
            <strong className="text-zinc-950 dark:text-white">Close the gaps.</strong> After the first days, open Analytics: the questions the bot could not
            answer are listed, and one answer each puts them in the knowledge —{" "}
            <Link to="/product/analytics" className={linkClass}>
              analytics
            </Link>
            .
          </li>
        </ol>
      </Section>

      <Section id="sources" title="Sources" intro={<p>Read on {readOn}. LiveChat, Tidio and Crisp are trademarks of their owners.</p>}>
        <ol className="max-w-3xl space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
          {SOURCES.map((s) => (
            <li key={s.id} id={`source-${s.id}`} className="scroll-mt-4">
              <span className="font-semibold">[{s.id}]</span>{" "}
              {s.url ? (
                <a href={s.url} className={linkClass} rel="noopener">
                  {s.title}
                </a>
              ) : (
                s.title
              )}
            </li>
          ))}
        </ol>
      </Section>

      <SignUpBand
        title="Try it next to your current tool"
        text="Create a chatbot from your help centre, test it on its own page, and switch the snippet only when you are happy with the answers."
      />
    </SiteLayout>
  );
}
