import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { docsSearchIndex, sidebarTree } from "~/.server/content/docs-site";
import { searchDocs } from "~/.server/content/search";
import { DocsLayout } from "~/components/content/docs-layout";
import { seo } from "~/lib/seo";

// /docs/search?q=…: ranked on the server (app/.server/content/search.ts), so it works without
// JavaScript; matching words are marked in each snippet.

const querySchema = z.object({ q: z.string().trim().max(200, "Search for at most 200 characters.").default("") });

export const handle = { hydrate: false };

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: args.data?.query ? `Search: ${args.data.query} · Docs` : "Search the docs",
    description: "Search Parley's documentation.",
    path: "/docs/search",
    noindex: true,
  });

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const parsed = querySchema.safeParse({ q: url.searchParams.get("q") ?? undefined });
  const tree = sidebarTree();
  if (!parsed.success) return { query: (url.searchParams.get("q") ?? "").slice(0, 200), error: parsed.error.issues[0].message, results: [], tree };
  const query = parsed.data.q;
  return { query, error: null, results: query ? searchDocs(docsSearchIndex(), query) : [], tree };
}

export default function DocsSearch() {
  const { query, error, results, tree } = useLoaderData<typeof loader>();
  return (
    <DocsLayout tree={tree} current="/docs/search" query={query}>
      <h1 className="text-3xl font-semibold tracking-tight">{query ? <>Results for “{query}”</> : "Search the docs"}</h1>
      {error ? (
        <p role="alert" className="mt-6 text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : query && results.length === 0 ? (
        <p className="mt-8 text-zinc-700 dark:text-zinc-300">
          Nothing in the docs matches “{query}”. Try fewer or different words, or browse the{" "}
          <Link to="/docs" className="font-medium text-brand-700 underline dark:text-brand-300">
            documentation home
          </Link>
          .
        </p>
      ) : query ? (
        <>
          <p className="mt-8 text-sm text-zinc-600 dark:text-zinc-400" role="status">
            {results.length === 1 ? "1 result" : `${results.length} results`}
          </p>
          <ol className="mt-4 space-y-6">
            {results.map((r) => (
              <li key={`${r.url}#${r.anchor ?? ""}`}>
                <h2 className="text-lg font-semibold">
                  <Link to={r.anchor ? `${r.url}#${r.anchor}` : r.url} className="text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
                    {r.pageTitle}
                    {r.heading ? <span className="font-normal text-zinc-700 dark:text-zinc-300"> › {r.heading}</span> : null}
                  </Link>
                </h2>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">{r.url}</p>
                <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
                  {r.snippet.map((s, i) =>
                    s.hit ? (
                      <mark key={i} className="rounded-sm bg-yellow-200 px-0.5 text-zinc-950 dark:bg-yellow-300">
                        {s.text}
                      </mark>
                    ) : (
                      <span key={i}>{s.text}</span>
                    ),
                  )}
                </p>
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p className="mt-8 text-zinc-700 dark:text-zinc-300">Type a few words: a feature, a setting, an error message.</p>
      )}
    </DocsLayout>
  );
}
