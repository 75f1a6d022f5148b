import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { loadBlog } from "~/.server/content/blog";
import { tagLabel } from "~/components/content/format";
import { PostByline, TagLinks } from "~/components/content/post-meta";
import { SiteLayout } from "~/components/site/site-layout";
import { seo } from "~/lib/seo";

// /blog (and /blog?tag=…): posts from content/blog/*.md, newest first; tags filter with plain links.

const querySchema = z.object({
  tag: z
    .string()
    .regex(/^[a-z0-9-]{1,60}$/)
    .optional(),
});

export const handle = { hydrate: false };

export const meta: MetaFunction<typeof loader> = (args) => {
  const tag = args.data?.tag;
  return seo(args, {
    title: tag ? `Posts tagged “${tagLabel(tag)}” · Blog` : "Blog",
    description: tag
      ? `Parley blog posts about ${tagLabel(tag)}.`
      : "Practical writing for teams running support chatbots: knowledge bases that answer well, honest measurement, secure widgets, answers with sources.",
    path: tag ? `/blog?tag=${encodeURIComponent(tag)}` : "/blog",
    noindex: !args.data,
    extra: [{ tagName: "link", rel: "alternate", type: "application/rss+xml", title: "Parley blog", href: "/blog/rss.xml" }],
  });
};

export function loader({ request }: LoaderFunctionArgs) {
  const blog = loadBlog();
  const parsed = querySchema.safeParse({ tag: new URL(request.url).searchParams.get("tag") ?? undefined });
  // A tag no post carries (or a malformed one) has no page.
  if (!parsed.success || (parsed.data.tag && !blog.tags.some((t) => t.tag === parsed.data.tag))) throw new Response(null, { status: 404 });
  const tag = parsed.data.tag ?? null;
  const posts = blog.posts
    .filter((p) => !tag || p.tags.includes(tag))
    .map(({ slug, url, title, date, author, summary, tags, readingMinutes }) => ({ slug, url, title, date, author, summary, tags, readingMinutes }));
  return { tag, posts, tags: blog.tags };
}

export default function BlogIndex() {
  const { tag, posts, tags } = useLoaderData<typeof loader>();
  return (
    <SiteLayout>
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <header>
          <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{tag ? <>Posts tagged “{tagLabel(tag)}”</> : "Blog"}</h1>
          <p className="mt-3 text-lg text-zinc-600 dark:text-zinc-300">
            For people who run support chatbots: writing knowledge that answers well, measuring honestly, keeping the widget safe.
          </p>
          <p className="mt-3 text-sm">
            <a href="/blog/rss.xml" className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
              Subscribe with RSS
            </a>
          </p>
        </header>
        {tags.length ? (
          <nav aria-label="Filter by tag" className="mt-8">
            <ul className="flex flex-wrap gap-2">
              <li>
                <Link
                  to="/blog"
                  aria-current={tag ? undefined : "page"}
                  className={`inline-block rounded-full border px-2.5 py-1 text-xs font-medium ${tag ? "border-zinc-300 text-zinc-700 hover:border-zinc-500 dark:border-zinc-700 dark:text-zinc-300" : "border-brand-700 bg-brand-700 text-white"}`}
                >
                  All posts
                </Link>
              </li>
              {tags.map((t) => (
                <li key={t.tag}>
                  <Link
                    to={`/blog?tag=${encodeURIComponent(t.tag)}`}
                    aria-current={t.tag === tag ? "page" : undefined}
                    className={`inline-block rounded-full border px-2.5 py-1 text-xs font-medium ${t.tag === tag ? "border-brand-700 bg-brand-700 text-white" : "border-zinc-300 text-zinc-700 hover:border-zinc-500 dark:border-zinc-700 dark:text-zinc-300"}`}
                  >
                    {tagLabel(t.tag)}{" "}
                    <span className="sr-only">
                      ({t.count} {t.count === 1 ? "post" : "posts"})
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {posts.length === 0 ? (
          <p className="mt-10 text-zinc-700 dark:text-zinc-300">No posts have been published yet.</p>
        ) : (
          <ol className="mt-10 space-y-10">
            {posts.map((p) => (
              <li key={p.slug}>
                <article>
                  <h2 className="text-xl font-semibold">
                    <Link to={p.url} className="hover:text-brand-700 dark:hover:text-brand-300">
                      {p.title}
                    </Link>
                  </h2>
                  <div className="mt-1">
                    <PostByline date={p.date} author={p.author} readingMinutes={p.readingMinutes} />
                  </div>
                  <p className="mt-3 text-zinc-700 dark:text-zinc-300">{p.summary}</p>
                  <div className="mt-3">
                    <TagLinks tags={p.tags} active={tag} />
                  </div>
                </article>
              </li>
            ))}
          </ol>
        )}
      </div>
    </SiteLayout>
  );
}
