import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { adjacentPosts, loadBlog } from "~/.server/content/blog";
import { PostByline, TagLinks } from "~/components/content/post-meta";
import { Prose } from "~/components/content/prose";
import { SiteLayout } from "~/components/site/site-layout";
import { seo, siteOrigin } from "~/lib/seo";

// /blog/{slug}: one post of content/blog/*.md, with BlogPosting structured data.

export const handle = { hydrate: false };

export const meta: MetaFunction<typeof loader> = (args) => {
  if (!args.data) return seo(args, { title: "Post not found", description: "There is no blog post at this address.", noindex: true });
  const { post } = args.data;
  const origin = siteOrigin(args);
  return seo(args, {
    title: post.title,
    description: post.summary,
    path: post.url,
    type: "article",
    extra: [
      { property: "article:published_time", content: post.date },
      { property: "article:author", content: post.author },
      ...post.tags.map((t) => ({ property: "article:tag", content: t })),
      { tagName: "link", rel: "alternate", type: "application/rss+xml", title: "Parley blog", href: "/blog/rss.xml" },
      {
        "script:ld+json": {
          "@context": "https://schema.org",
          "@type": "BlogPosting",
          headline: post.title,
          description: post.summary,
          datePublished: post.date,
          author: { "@type": "Person", name: post.author },
          publisher: { "@type": "Organization", name: "Parley", logo: { "@type": "ImageObject", url: `${origin}/favicon.svg` } },
          mainEntityOfPage: { "@type": "WebPage", "@id": origin + post.url },
          url: origin + post.url,
          image: `${origin}/og.png`,
          keywords: post.tags.join(", "),
          timeRequired: `PT${post.readingMinutes}M`,
        },
      },
    ],
  });
};

export function loader({ params }: LoaderFunctionArgs) {
  const blog = loadBlog();
  const post = blog.bySlug.get(params.slug ?? "");
  if (!post) throw new Response(null, { status: 404 });
  const { newer, older } = adjacentPosts(blog, post.slug);
  const link = (p: typeof newer) => (p ? { url: p.url, title: p.title } : null);
  const more = blog.posts
    .filter((p) => p.slug !== post.slug && p.slug !== newer?.slug && p.slug !== older?.slug)
    .map((p) => ({ p, shared: p.tags.filter((t) => post.tags.includes(t)).length }))
    .sort((a, b) => b.shared - a.shared)
    .slice(0, 3)
    .map(({ p }) => ({ url: p.url, title: p.title, summary: p.summary }));
  return {
    post: {
      url: post.url,
      title: post.title,
      date: post.date,
      author: post.author,
      summary: post.summary,
      tags: post.tags,
      html: post.html,
      readingMinutes: post.readingMinutes,
    },
    newer: link(newer),
    older: link(older),
    more,
  };
}

export default function BlogPost() {
  const { post, newer, older, more } = useLoaderData<typeof loader>();
  return (
    <SiteLayout>
      <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <p className="text-sm">
          <Link to="/blog" className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
            ← All posts
          </Link>
        </p>
        <header className="mt-6 border-b border-zinc-200 pb-6 dark:border-zinc-800">
          <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{post.title}</h1>
          <p className="mt-3 text-lg text-zinc-600 dark:text-zinc-300">{post.summary}</p>
          <div className="mt-4">
            <PostByline date={post.date} author={post.author} readingMinutes={post.readingMinutes} />
          </div>
          <div className="mt-3">
            <TagLinks tags={post.tags} />
          </div>
        </header>
        <Prose html={post.html} className="mt-8" />
      </article>
      <div className="mx-auto max-w-3xl px-4 pb-16 sm:px-6">
        {newer || older ? (
          <nav aria-label="Newer and older posts" className="grid gap-4 border-t border-zinc-200 pt-6 sm:grid-cols-2 dark:border-zinc-800">
            {older ? (
              <Link to={older.url} className="rounded-lg border border-zinc-200 p-4 hover:border-brand-500 dark:border-zinc-800">
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">Older post</span>
                <span className="mt-1 block font-medium">{older.title}</span>
              </Link>
            ) : (
              <span />
            )}
            {newer ? (
              <Link to={newer.url} className="rounded-lg border border-zinc-200 p-4 text-right hover:border-brand-500 dark:border-zinc-800">
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">Newer post</span>
                <span className="mt-1 block font-medium">{newer.title}</span>
              </Link>
            ) : null}
          </nav>
        ) : null}
        {more.length ? (
          <section aria-labelledby="more-posts" className="mt-10">
            <h2 id="more-posts" className="text-lg font-semibold">
              More posts
            </h2>
            <ul className="mt-4 space-y-4">
              {more.map((p) => (
                <li key={p.url}>
                  <Link to={p.url} className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
                    {p.title}
                  </Link>
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">{p.summary}</p>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </SiteLayout>
  );
}
