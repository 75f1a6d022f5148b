import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { loadDocs, type DocTreeNode } from "~/.server/content/docs";
import { API_REFERENCE, sidebarTree } from "~/.server/content/docs-site";
import { DocsLayout } from "~/components/content/docs-layout";
import { Prose } from "~/components/content/prose";
import { seo } from "~/lib/seo";

// /docs: what the documentation covers, section by section (from the same tree as the sidebar),
// with the intro of content/docs/index.md when it exists.

export const handle = { hydrate: false };

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Documentation",
    description: "How to run Parley, build a chatbot from your own knowledge, put it on your website safely, and use the REST API.",
    path: "/docs",
  });

type SectionPage = { url: string; title: string; summary: string };

export function loader() {
  const docs = loadDocs();
  const summaries = new Map([...docs.pages.values()].map((p) => [p.url, p.summary]));
  summaries.set(API_REFERENCE.url, "Every endpoint of REST API v1, its parameters, request and response schemas, generated from the API's own validation.");
  const pagesOf = (nodes: DocTreeNode[]): SectionPage[] =>
    nodes.flatMap((n) =>
      n.kind === "page"
        ? [{ url: n.url, title: n.title, summary: summaries.get(n.url) ?? "" }]
        : [...(n.url ? [{ url: n.url, title: n.label, summary: summaries.get(n.url) ?? "" }] : []), ...pagesOf(n.children)],
    );
  const tree = sidebarTree(docs);
  const sections = tree.map((n) => ({
    id: `section-${n.kind === "folder" ? n.name : n.slug.replaceAll("/", "-")}`,
    label: n.kind === "folder" ? n.label : n.title,
    pages: pagesOf([n]),
  }));
  return {
    tree,
    intro: docs.home ? { title: docs.home.title, summary: docs.home.summary, html: docs.home.html } : null,
    sections,
  };
}

export default function DocsHome() {
  const { tree, intro, sections } = useLoaderData<typeof loader>();
  return (
    <DocsLayout tree={tree} current="/docs">
      <header className="border-b border-zinc-200 pb-6 dark:border-zinc-800">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{intro?.title ?? "Parley documentation"}</h1>
        <p className="mt-3 text-lg text-zinc-600 dark:text-zinc-300">
          {intro?.summary ??
            "Run Parley, build a chatbot that answers from your own knowledge, put it on your website safely, and connect your own systems through the REST API."}
        </p>
      </header>
      {intro?.html ? <Prose html={intro.html} className="mt-8" /> : null}
      <div className="mt-10 grid gap-8 md:grid-cols-2">
        {sections.map((s) => (
          <section key={s.id} aria-labelledby={s.id}>
            <h2 id={s.id} className="text-lg font-semibold">
              {s.label}
            </h2>
            <ul className="mt-3 space-y-3">
              {s.pages.map((p) => (
                <li key={p.url}>
                  <Link to={p.url} className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
                    {p.title}
                  </Link>
                  {p.summary ? <p className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">{p.summary}</p> : null}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </DocsLayout>
  );
}
