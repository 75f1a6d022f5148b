import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { loadDocs, neighbours } from "~/.server/content/docs";
import { editUrl, sidebarTree } from "~/.server/content/docs-site";
import { DocFooter } from "~/components/content/doc-footer";
import { DocsLayout } from "~/components/content/docs-layout";
import { Prose } from "~/components/content/prose";
import { TableOfContents } from "~/components/content/toc";
import { seo } from "~/lib/seo";

// /docs/{slug*}: one page of content/docs/**, nested any depth (app/.server/content/docs.ts).

export const handle = { hydrate: false };

export const meta: MetaFunction<typeof loader> = (args) => {
  if (!args.data) return seo(args, { title: "Page not found", description: "There is no documentation page at this address.", noindex: true });
  const { page } = args.data;
  return seo(args, { title: `${page.title} · Docs`, description: page.summary, path: page.url });
};

export function loader({ params, context }: LoaderFunctionArgs) {
  const slug = (params["*"] ?? "").replace(/\/+$/, "");
  const docs = loadDocs();
  const page = docs.pages.get(slug);
  if (!page || !slug) throw new Response(null, { status: 404 });
  const { previous, next } = neighbours(docs, slug);
  const link = (p: typeof previous) => (p ? { url: p.url, title: p.title } : null);
  return {
    page: { url: page.url, title: page.title, summary: page.summary, html: page.html, headings: page.headings, readingMinutes: page.readingMinutes },
    tree: sidebarTree(docs),
    previous: link(previous),
    next: link(next),
    editUrl: editUrl(context.app.env.DOCS_EDIT_URL, page.file),
  };
}

export default function DocPage() {
  const { page, tree, previous, next, editUrl } = useLoaderData<typeof loader>();
  return (
    <DocsLayout tree={tree} current={page.url} aside={<TableOfContents headings={page.headings} />}>
      <article>
        <header className="border-b border-zinc-200 pb-6 dark:border-zinc-800">
          <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{page.title}</h1>
          <p className="mt-3 text-lg text-zinc-600 dark:text-zinc-300">{page.summary}</p>
        </header>
        <TableOfContents headings={page.headings} className="mt-6 rounded-md border border-zinc-200 p-4 xl:hidden dark:border-zinc-800" />
        <Prose html={page.html} className="mt-8" />
      </article>
      <DocFooter previous={previous} next={next} editUrl={editUrl} />
    </DocsLayout>
  );
}
