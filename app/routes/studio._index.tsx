import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { SiteLayout } from "~/components/site/site-layout";
import { STUDIO_TOOLS } from "~/lib/studio/tools";
import { seo } from "~/lib/seo";

export const handle = { hydrate: false };

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Studio: free tools for support chatbots",
    description:
      "Free tools that run on Parley's own engine: a system-prompt generator, an FAQ generator from text or a web page, a support ROI calculator and a chat widget designer.",
  });

export default function StudioIndex() {
  return (
    <SiteLayout>
      <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Studio</h1>
        <p className="mt-4 max-w-3xl text-lg text-zinc-700 dark:text-zinc-300">
          Free tools for planning and building a support chatbot. They run on the same code as Parley itself — the knowledge-base reader, the widget, the plans
          — and need no account. Each tool has a fair-use allowance per visitor.
        </p>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2">
          {STUDIO_TOOLS.map((t) => (
            <li
              key={t.slug}
              className="relative rounded-lg border border-zinc-200 bg-white p-6 shadow-sm hover:border-brand-400 dark:border-zinc-800 dark:bg-zinc-900"
            >
              <h2 className="text-lg font-semibold">
                <Link to={`/studio/${t.slug}`} className="after:absolute after:inset-0 focus-visible:underline">
                  {t.name}
                </Link>
              </h2>
              <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">{t.summary}</p>
              <p aria-hidden="true" className="mt-4 text-sm font-medium text-brand-700 dark:text-brand-300">
                Open the tool →
              </p>
            </li>
          ))}
        </ul>
        <p className="mt-10 text-sm text-zinc-600 dark:text-zinc-400">
          Ready for the real thing?{" "}
          <Link to="/signup" className="font-medium text-brand-700 underline dark:text-brand-300">
            Create a free account
          </Link>{" "}
          and build a chatbot that answers from your own knowledge, with sources.
        </p>
      </div>
    </SiteLayout>
  );
}
