import type { MetaDescriptor } from "@remix-run/cloudflare";

// One place builds every public page's head: title, description, canonical, OpenGraph and Twitter
// tags. The absolute origin comes from the root loader (APP_URL or the request's origin), so the
// canonical is right both on a laptop and behind a custom domain.

const SITE_NAME = "Parley";

export type PageSeo = {
  /** The page's own title; " · Parley" is appended unless `fullTitle` is set. */
  title: string;
  fullTitle?: boolean;
  description: string;
  /** Path of the canonical URL; defaults to the requested path. */
  path?: string;
  type?: "website" | "article";
  /** Extra descriptors (e.g. article:published_time, JSON-LD). */
  extra?: MetaDescriptor[];
  /** Keep the page out of search engines (e.g. a 404 rendered for an unknown slug). */
  noindex?: boolean;
};

type MetaArgsLike = {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>;
};

/** The absolute origin the root loader exposes ("http://localhost:8787" locally). */
export function siteOrigin(args: MetaArgsLike): string {
  const root = args.matches.find((m) => m?.id === "root")?.data as { origin?: string } | undefined;
  return root?.origin ?? "";
}

export function seo(args: MetaArgsLike, page: PageSeo): MetaDescriptor[] {
  const title = page.fullTitle ? page.title : `${page.title} · ${SITE_NAME}`;
  const origin = siteOrigin(args);
  const url = origin + (page.path ?? args.location.pathname);
  const image = `${origin}/og.png`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: image },
  ];
  if (page.noindex) tags.push({ name: "robots", content: "noindex" });
  return [...tags, ...(page.extra ?? [])];
}
