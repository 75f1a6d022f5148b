import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { contactEmail } from "~/.server/site/contact";
import { Section, SignUpBand } from "~/components/marketing/section";
import { SiteLayout } from "~/components/site/site-layout";
import { seo } from "~/lib/seo";

// /company: what Parley builds and why, the principles the product is held to, and how to reach us
// through routes that exist (no invented people or addresses).

export const handle = { hydrate: false };

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "About Parley",
    path: "/company",
    description:
      "Why we build Parley: support chatbots that answer only from what you know, show their sources, report their status honestly, protect visitors' data and run on your own Cloudflare account.",
  });

export function loader({ context }: LoaderFunctionArgs) {
  return { contact: contactEmail(context.app.env) };
}

const PRINCIPLES: { title: string; body: string; proof: string }[] = [
  {
    title: "Answers come with sources — or not at all",
    body: "A support answer is only useful if you can check it. Parley answers from passages of your own knowledge and cites them. When nothing relevant enough is found, the bot says it does not know and gives your fallback message.",
    proof:
      "The built-in engine composes answers only from retrieved sentences; connected models are instructed to cite passage ids and to decline when the passages do not answer.",
  },
  {
    title: "Status you can trust",
    body: "A knowledge base that silently half-imports is worse than none. Every source shows where it is — queued, processing, ready or failed — with progress and, when it fails, the reason in plain words.",
    proof: "Interrupted work resumes by itself; a source that keeps failing is marked Failed with its error, and Retry starts it again.",
  },
  {
    title: "Limits you can see",
    body: "The numbers on our pricing page are the numbers the product enforces, read from the same constants. When you hit one, you are told which one and how to raise it — never a silent failure.",
    proof: "Visitors get a polite notice; the dashboard and API name the limit and the plan that raises it.",
  },
  {
    title: "Visitors' data is not our product",
    body: "We store what is needed to run the chat and nothing for advertising. The public site and the chat widget set no cookies; signing in sets one session cookie. Passwords, sessions and API keys are stored hashed.",
    proof: "Details, including what deleting a source or a chatbot removes, are in the privacy policy.",
  },
  {
    title: "Yours to run",
    body: "Parley is one Cloudflare Worker. It runs offline on a laptop with the built-in engine, and deploys unchanged to your own Cloudflare account when you want the data and the bill in your hands.",
    proof: "No API key is needed for any feature; OpenAI or an OpenAI-compatible server is an option, not a requirement.",
  },
  {
    title: "Measured, not claimed",
    body: "We publish how well retrieval works on a public benchmark, with the caveats, and keep the benchmark in the code so the figures can be reproduced.",
    proof: "Recall@3 0.801 and MRR@3 0.932 on 100 questions over Anthropic's documentation — tuned on that same set, so optimistic.",
  },
];

export default function Company() {
  const { contact } = useLoaderData<typeof loader>();
  return (
    <SiteLayout>
      <section aria-labelledby="company-title" className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto max-w-6xl px-4 pb-14 pt-14 sm:px-6 sm:pt-20">
          <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">About Parley</p>
          <h1 id="company-title" className="mt-3 max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            We build support chatbots you can check.
          </h1>
          <div className="mt-6 max-w-2xl space-y-4 text-lg text-zinc-700 dark:text-zinc-300">
            <p>
              Most questions a support team gets are already answered somewhere — in the help centre, a PDF, a pricing page, last year&apos;s FAQ. Visitors just
              cannot find it, and people on the team spend their day pasting the same links.
            </p>
            <p>
              Parley lets an organisation turn that knowledge into a chatbot for its website in an afternoon. The bot answers from your material only, shows
              where each answer came from, and says so when it does not know — so the visitor gets a straight answer and your team gets the questions that
              actually need a person.
            </p>
          </div>
        </div>
      </section>

      <Section id="principles" title="What we hold the product to" intro={<p>Each principle is something the product does today, not a promise.</p>}>
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {PRINCIPLES.map((p) => (
            <li key={p.title} className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
              <h3 className="font-semibold text-zinc-950 dark:text-white">{p.title}</h3>
              <p className="mt-2 text-sm leading-6 text-zinc-700 dark:text-zinc-300">{p.body}</p>
              <p className="mt-3 border-t border-zinc-200 pt-3 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">{p.proof}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="what-we-build"
        tone="muted"
        title="What Parley is, in one paragraph"
        intro={
          <p>
            A web platform where an organisation creates chatbots, feeds them knowledge — text, Q&amp;A pairs, files, web pages, whole sites — and embeds them
            on its website with one script tag, an iframe or a share link. Answers stream with citations, from a built-in engine that needs no API key or from
            OpenAI and compatible servers. Teams work in organisations with owner, admin, editor and agent roles; developers use the REST API. It runs on
            Cloudflare Workers with D1, R2, Queues, Durable Objects and Vectorize.
          </p>
        }
      >
        <p className="text-zinc-700 dark:text-zinc-300">
          Want the details?{" "}
          <Link to="/docs" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
            The documentation
          </Link>{" "}
          describes the product as it is, and the{" "}
          <Link to="/blog" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
            blog
          </Link>{" "}
          covers running a support chatbot well.
        </p>
      </Section>

      <Section
        id="contact"
        title="Talk to us"
        intro={
          contact ? (
            <p>
              Write to{" "}
              <a href={`mailto:${contact}`} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                {contact}
              </a>
              , or pick the quickest route for what you need.
            </p>
          ) : (
            <p>The quickest route depends on what you need.</p>
          )
        }
      >
        <dl className="grid gap-6 md:grid-cols-3">
          <div className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
            <dt className="font-semibold text-zinc-950 dark:text-white">See it answer</dt>
            <dd className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              Ask the{" "}
              <Link to="/#demo" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                live demo bot
              </Link>{" "}
              on the home page — it answers questions about Parley from our documentation.
            </dd>
          </div>
          <div className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
            <dt className="font-semibold text-zinc-950 dark:text-white">Try it with your content</dt>
            <dd className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              <Link to="/signup" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                Create a free account
              </Link>
              , add a few of your pages and ask your own questions on the bot&apos;s test page.
            </dd>
          </div>
          <div className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
            <dt className="font-semibold text-zinc-950 dark:text-white">Privacy and your data</dt>
            <dd className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              How we handle data, and how to ask for a copy or deletion, is in the{" "}
              <Link to="/privacy" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                privacy policy
              </Link>
              .
            </dd>
          </div>
        </dl>
      </Section>

      <SignUpBand
        title="See whether Parley answers your visitors' questions"
        text="Add your own pages on the Free plan and ask the questions your team hears every day."
      />
    </SiteLayout>
  );
}
