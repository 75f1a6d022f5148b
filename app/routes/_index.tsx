import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useRouteLoaderData } from "@remix-run/react";
import { PlanCards } from "~/components/marketing/plans";
import { PrimaryLink, SecondaryLink, Section, SignUpBand } from "~/components/marketing/section";
import { SiteLayout } from "~/components/site/site-layout";
import { cheapestPlanWith, formatCount, PLANS } from "~/lib/plans";
import { seo } from "~/lib/seo";

// The home page: what Parley does, the live demo (the real chat UI of the demo bot, framed), the
// features that exist today, measured retrieval quality, a pricing teaser from PLANS and sign-up.
// No client JavaScript: the demo frame brings its own small bundle and loads only when scrolled to.

export const handle = { hydrate: false };

/** The demo bot `npm start` and the e2e setup seed (scripts/lib/demo.mjs); it answers from content/docs. */
const DEMO_CHATBOT_ID = "cb_demo";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Parley — AI chatbots that answer from your own knowledge, with sources",
    fullTitle: true,
    path: "/",
    description:
      "Turn your docs, files and website into a chatbot that cites its sources and says when it does not know. Tiny secure widget, REST API, runs offline or on Cloudflare. Free plan.",
  });

const free = PLANS.free;
const apiPlan = cheapestPlanWith("api");

const FEATURES: { title: string; body: string; link?: { to: string; label: string } }[] = [
  {
    title: "Answers with their sources",
    body: "Every answer is built from passages of your knowledge and cites them — the visitor sees which page or document each statement came from. When nothing relevant enough is found, the bot gives your fallback message instead of guessing.",
    link: { to: "/docs/answers/models", label: "How answers are made" },
  },
  {
    title: "Knowledge from what you already have",
    body: "Paste text, add Q&A pairs, upload PDF, DOCX, TXT, Markdown, HTML, CSV or JSON files, add a page, or crawl a whole site (same host, page cap, include and exclude patterns, sitemap.xml, robots.txt). Web sources re-sync daily or weekly.",
    link: { to: "/docs/knowledge/sources", label: "Knowledge sources" },
  },
  {
    title: "Honest ingestion status",
    body: "Each source shows Queued, Processing, Ready or Failed with progress and its size in characters. A failure says why in plain words — a scanned PDF without text, a blocked page — and Retry starts it again. A search box shows exactly which passages the bot would answer from.",
  },
  {
    title: "Hybrid retrieval",
    body: "Full-text BM25 search (SQLite FTS5 in D1) finds candidates; field weights, phrase matches and character n-gram similarity re-rank them; vector similarity joins in when an embedding model is configured.",
    link: { to: "/docs/knowledge/how-knowledge-works", label: "How knowledge works" },
  },
  {
    title: "A small, locked-down widget",
    body: "One script tag adds a launcher and an iframe chat: a loader of about 2 KB compressed, and the chat itself stays under 50 KB of compressed JavaScript. Restrict it to your own origins, rate-limit each visitor, verify signed-in users with an HMAC-SHA256 identity hash, or keep a bot private to your team.",
  },
  {
    title: "Your choice of model",
    body: "The built-in engine needs no API key and no network: it composes answers from the retrieved sentences and never invents facts. Or connect OpenAI, or any OpenAI-compatible server — Ollama, vLLM, LM Studio, Workers AI — and pick the model per chatbot.",
  },
  {
    title: "REST API",
    body: `Send messages and get answers with sources, read conversations, list and create leads, list and add knowledge sources — with per-chatbot API keys that are shown once and stored hashed.${apiPlan ? ` From the ${apiPlan.name} plan.` : ""}`,
    link: { to: "/docs/api", label: "API reference" },
  },
  {
    title: "Built for a team",
    body: "Organisations with owner, admin, editor and agent roles; invitations by email; a lead form inside the chat; thumbs up and down and “report a wrong answer” for visitors; a shareable test page for every bot.",
    link: { to: "/docs/account/organisations-and-roles", label: "Organisations and roles" },
  },
];

const BENCH: { pipeline: string; precision: string; recall: string; mrr: string; ours?: boolean }[] = [
  { pipeline: "Parley (default retrieval, built-in engine, no API key)", precision: "0.503", recall: "0.801", mrr: "0.932", ours: true },
  { pipeline: "Summary indexing + re-ranking by Claude (published)", precision: "0.437", recall: "0.693", mrr: "0.865" },
  { pipeline: "Basic RAG with Voyage embeddings (published)", precision: "0.428", recall: "0.659", mrr: "0.737" },
  { pipeline: "Plain BM25 baseline, heading + text", precision: "0.403", recall: "0.648", mrr: "0.797" },
];

function HowItWorks({ origin }: { origin: string }) {
  const steps = [
    { title: "Add your knowledge", body: "Paste text, upload files or point it at your help centre. Watch each source become Ready." },
    { title: "Check the answers", body: "Ask questions on the bot's test page and see which passages each answer cites." },
    { title: "Paste one tag", body: "Add the script to your site and, if you like, allow only your own domains to show it." },
  ];
  return (
    <div className="min-w-0 rounded-2xl border border-zinc-200 bg-zinc-50 p-6 dark:border-zinc-800 dark:bg-zinc-900">
      <h2 className="text-sm font-semibold text-zinc-950 dark:text-white">How it works</h2>
      <ol className="mt-4 space-y-4">
        {steps.map((step, i) => (
          <li key={step.title} className="flex gap-3">
            <span aria-hidden="true" className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold text-white">
              {i + 1}
            </span>
            <div>
              <h3 className="font-medium text-zinc-950 dark:text-white">{step.title}</h3>
              <p className="text-sm text-zinc-700 dark:text-zinc-300">{step.body}</p>
            </div>
          </li>
        ))}
      </ol>
      <pre className="mt-5 overflow-x-auto rounded-lg bg-zinc-950 p-3 text-xs leading-5 text-zinc-100 dark:bg-black" tabIndex={0} aria-label="Embed snippet">
        <code>{`<script src="${origin}/widget.js"\n  data-chatbot-id="cb_…" async></script>`}</code>
      </pre>
    </div>
  );
}

export default function Index() {
  const origin = useRouteLoaderData<{ origin: string }>("root")?.origin ?? "";
  return (
    <SiteLayout>
      {/* Hero */}
      <section aria-labelledby="hero-title" className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto grid max-w-6xl gap-12 px-4 pb-16 pt-14 sm:px-6 sm:pt-20 lg:grid-cols-[1.35fr_1fr] lg:items-center">
          <div className="min-w-0">
            <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">AI chatbot for your website and your API</p>
            <h1 id="hero-title" className="mt-3 max-w-4xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
              Answers from your own knowledge, with the sources to prove it.
            </h1>
            <p className="mt-6 max-w-2xl text-lg text-zinc-700 dark:text-zinc-300">
              Parley turns your help pages, documents and FAQs into a chatbot for your website. Every answer cites the passages it came from, and when your
              knowledge has no answer, it says so instead of making one up.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <PrimaryLink to="/signup">Start free</PrimaryLink>
              <SecondaryLink to="#demo">Try the live demo</SecondaryLink>
            </div>
            <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">
              Free plan: {formatCount(free.limits.chatbots)} {free.limits.chatbots === 1 ? "chatbot" : "chatbots"}, {formatCount(free.limits.repliesPerMonth)}{" "}
              replies a month, {formatCount(free.limits.knowledgeChars)} characters of knowledge. No card needed.
            </p>
          </div>
          <HowItWorks origin={origin} />
        </div>
      </section>

      {/* Live demo */}
      <Section
        id="demo"
        eyebrow="Live demo"
        title="Ask the demo bot about Parley"
        intro={
          <>
            <p>
              This is the real chat, not a recording. The demo bot answers from Parley&apos;s own documentation with the built-in engine — no API key involved.
              Ask it about roles, invitations, knowledge sources, the widget or the REST API.
            </p>
            <p className="mt-3">
              The built-in engine answers by quoting the most relevant sentences of the docs, so its replies read like extracts. Connect an OpenAI or
              OpenAI-compatible model and the same retrieved passages are written up as fluent answers.
            </p>
          </>
        }
        tone="muted"
      >
        <div className="grid gap-8 lg:grid-cols-[1fr_1.4fr] lg:items-start">
          <div className="space-y-4 text-zinc-700 dark:text-zinc-300">
            <h3 className="font-semibold text-zinc-950 dark:text-white">Questions to try</h3>
            <ul className="list-disc space-y-2 pl-5">
              <li>Which roles can manage members?</li>
              <li>What happens when a knowledge source fails?</li>
              <li>How long is an invitation valid?</li>
              <li>What is the capital of France? — watch it decline: that is not in its knowledge.</li>
            </ul>
            <p className="text-sm">
              Messages you send here are stored like any chat on Parley; see the{" "}
              <Link to="/privacy" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                privacy policy
              </Link>
              . Prefer a full page?{" "}
              <Link to={`/test/${DEMO_CHATBOT_ID}`} reloadDocument className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                Open the demo on its own
              </Link>
              .
            </p>
          </div>
          <div className="overflow-hidden rounded-xl border border-zinc-300 bg-white shadow-sm dark:border-zinc-700 dark:bg-zinc-950">
            <iframe
              src={`/test/${DEMO_CHATBOT_ID}`}
              title="Live demo: chat with Parley's demo bot"
              loading="lazy"
              width="640"
              height="560"
              className="block h-[560px] w-full"
            />
          </div>
        </div>
      </Section>

      {/* Features */}
      <Section
        id="features"
        eyebrow="What you get today"
        title="Everything here is in the product now"
        intro={<p>No roadmap items dressed up as features. If it is on this page, you can use it after signing up.</p>}
      >
        <ul className="grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((f) => (
            <li key={f.title}>
              <h3 className="font-semibold text-zinc-950 dark:text-white">{f.title}</h3>
              <p className="mt-2 text-sm leading-6 text-zinc-700 dark:text-zinc-300">{f.body}</p>
              {f.link && (
                <p className="mt-2 text-sm">
                  <Link to={f.link.to} className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">
                    {f.link.label} <span aria-hidden="true">→</span>
                  </Link>
                </p>
              )}
            </li>
          ))}
        </ul>
      </Section>

      {/* Measured retrieval quality */}
      <Section
        id="proof"
        tone="muted"
        eyebrow="Measured, not claimed"
        title="Retrieval that finds the right page first"
        intro={
          <p>
            An answer can only be as good as the passages it is built from. We measure Parley&apos;s retrieval on a public benchmark — 100 questions over 232
            sections of Anthropic&apos;s documentation, three documents retrieved per question — against the figures published with it.
          </p>
        }
      >
        <div
          className="relative overflow-x-auto rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-950"
          role="region"
          aria-labelledby="bench-caption"
          tabIndex={0}
        >
          <table className="w-full min-w-[560px] text-left text-sm">
            <caption id="bench-caption" className="px-4 pt-4 text-left font-medium text-zinc-900 dark:text-zinc-100">
              Retrieval quality at k = 3 (higher is better)
            </caption>
            <thead>
              <tr className="border-b border-zinc-200 dark:border-zinc-800">
                <th scope="col" className="px-4 py-3 font-medium">
                  Pipeline
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Recall@3
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  MRR@3
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Precision@3
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {BENCH.map((b) => (
                <tr key={b.pipeline} className={b.ours ? "bg-brand-50 font-semibold dark:bg-brand-900/40" : undefined}>
                  <th scope="row" className={`px-4 py-3 ${b.ours ? "font-semibold" : "font-normal"}`}>
                    {b.pipeline}
                  </th>
                  <td className="px-4 py-3 tabular-nums">{b.recall}</td>
                  <td className="px-4 py-3 tabular-nums">{b.mrr}</td>
                  <td className="px-4 py-3 tabular-nums">{b.precision}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="mt-6 max-w-3xl space-y-3 text-sm text-zinc-700 dark:text-zinc-300">
          <p>
            Recall@3: share of the right documents among the three retrieved. MRR@3: how high the first right document ranks (1.0 = always first). The data set
            and the published figures come from the retrieval guide in Anthropic&apos;s public cookbook (MIT licence); Parley&apos;s figures were measured on 22
            November 2026 with no API key and no network.
          </p>
          <p>
            Read them with care: we tuned retrieval on these same 100 questions (there is no separate held-out set), so our numbers are optimistic, and
            documentation sites suit our ranking better than some other knowledge bases will. The benchmark script is part of Parley&apos;s code (
            <code className="rounded bg-zinc-200 px-1 py-0.5 dark:bg-zinc-800">npm run bench:retrieval</code>), so anyone running Parley can reproduce the
            figures.
          </p>
        </div>
      </Section>

      {/* Runs anywhere */}
      <Section
        id="deploy"
        eyebrow="Runs where you want it"
        title="Offline on a laptop, or on your own Cloudflare account"
        intro={
          <p>
            Parley is one Cloudflare Worker: D1 for data and full-text search, R2 for uploaded files, Queues for background ingestion, Durable Objects for chat
            sessions and Vectorize for embeddings in production. The same code runs locally under{" "}
            <code className="rounded bg-zinc-100 px-1 py-0.5 dark:bg-zinc-800">wrangler dev</code> with no network at all.
          </p>
        }
      >
        <div className="grid gap-6 md:grid-cols-3">
          <div className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
            <h3 className="font-semibold text-zinc-950 dark:text-white">Try it offline</h3>
            <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              <code className="rounded bg-zinc-100 px-1 py-0.5 dark:bg-zinc-800">npm start</code> builds the app, applies the database migrations, seeds a demo
              organisation with this demo bot and serves everything on localhost.
            </p>
          </div>
          <div className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
            <h3 className="font-semibold text-zinc-950 dark:text-white">Deploy to your account</h3>
            <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              Create the D1 database, R2 bucket, queue and Vectorize index once, set the secrets, run{" "}
              <code className="rounded bg-zinc-100 px-1 py-0.5 dark:bg-zinc-800">npm run deploy</code>. Needs a Workers paid plan; your data stays in your
              account.
            </p>
            <p className="mt-2 text-sm">
              <Link to="/docs/self-hosting/deploy-to-cloudflare" className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">
                Deployment guide <span aria-hidden="true">→</span>
              </Link>
            </p>
          </div>
          <div className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
            <h3 className="font-semibold text-zinc-950 dark:text-white">Or let us host it</h3>
            <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              Sign up and build your first bot in a few minutes. The free plan needs no card, and you can move to a larger plan at any time.
            </p>
          </div>
        </div>
      </Section>

      {/* Pricing teaser */}
      <Section
        id="pricing"
        tone="muted"
        eyebrow="Pricing"
        title="Start free, pay as your bots get busy"
        intro={<p>Plans differ by how many chatbots, replies, members and knowledge you need. One reply is one credit, whatever the model.</p>}
      >
        <PlanCards />
        <p className="mt-6">
          <Link to="/pricing" className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">
            Compare every limit and read the pricing FAQ <span aria-hidden="true">→</span>
          </Link>
        </p>
      </Section>

      <SignUpBand
        title="Put your knowledge to work in an afternoon"
        text="Create an account, add a few sources, watch them become ready, and paste one script tag into your site."
      />
    </SiteLayout>
  );
}
