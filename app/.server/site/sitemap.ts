import { COMPARISONS, comparisonPath } from "~/lib/comparisons";
import { STUDIO_TOOLS } from "~/lib/studio/tools";
import { loadBlog } from "../content/blog";
import { API_REFERENCE } from "../content/docs-site";
import { loadDocs } from "../content/docs";
import { escapeXml } from "../content/rss";

// Every public, indexable page: the marketing pages, the blog and each post, the docs (home, each
// page, the REST API reference) and the Studio. /sitemap.xml renders it; the public-site test walks it.

/** Public pages that are not generated from content. */
const STATIC_PUBLIC_PAGES = [
  "/",
  "/product/analytics",
  "/product/live-chat",
  "/product/live-chat-alternative",
  "/voice",
  "/pricing",
  "/company",
  "/privacy",
  "/blog",
  "/docs",
  "/studio",
  "/signup",
  "/login",
] as const;

export type SitemapEntry = { path: string; lastmod?: string };

function sitemapEntries(): SitemapEntry[] {
  const blog = loadBlog();
  const docs = loadDocs();
  const entries: SitemapEntry[] = STATIC_PUBLIC_PAGES.map((path) => ({ path, lastmod: path === "/blog" ? blog.posts[0]?.date : undefined }));
  for (const c of COMPARISONS) entries.push({ path: comparisonPath(c) });
  for (const post of blog.posts) entries.push({ path: post.url, lastmod: post.date });
  for (const page of docs.ordered) entries.push({ path: page.url });
  entries.push({ path: API_REFERENCE.url });
  for (const tool of STUDIO_TOOLS) entries.push({ path: `/studio/${tool.slug}` });
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.path) && seen.add(e.path));
}

export function sitemapXml(origin: string, entries = sitemapEntries()): string {
  const urls = entries.map((e) => `  <url><loc>${escapeXml(origin + e.path)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ""}</url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    // Signed-in screens, machine endpoints, the widget's frames and visitors' test pages are not for search.
    "Disallow: /app",
    "Disallow: /api/",
    "Disallow: /widget/",
    "Disallow: /test/",
    "Disallow: /invite/",
    "Disallow: /auth/",
    "Disallow: /dev/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}
