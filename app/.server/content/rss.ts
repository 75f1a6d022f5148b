import type { BlogPost } from "./blog";

// RSS 2.0 feed of the blog (/blog/rss.xml). Every text value is XML-escaped; links are absolute
// from the site's origin (APP_URL or the request's).

export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

/** RFC 822 date (RSS pubDate) for a YYYY-MM-DD post date, at midnight UTC. */
export function rfc822(date: string): string {
  return new Date(`${date}T00:00:00Z`).toUTCString().replace("GMT", "+0000");
}

export function blogRss(posts: BlogPost[], origin: string, opts: { title?: string; description?: string; limit?: number } = {}): string {
  const site = origin.replace(/\/$/, "");
  const items = posts.slice(0, opts.limit ?? 50);
  const el = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">`,
    `<channel>`,
    el("title", opts.title ?? "Parley blog"),
    el("link", `${site}/blog`),
    el("description", opts.description ?? "Running support chatbots that answer from your own knowledge: writing, measuring, securing."),
    el("language", "en"),
    `<atom:link href="${escapeXml(`${site}/blog/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    ...(items[0] ? [el("lastBuildDate", rfc822(items[0].date))] : []),
    ...items.map((p) =>
      [
        `<item>`,
        el("title", p.title),
        el("link", site + p.url),
        `<guid isPermaLink="true">${escapeXml(site + p.url)}</guid>`,
        el("description", p.summary),
        el("pubDate", rfc822(p.date)),
        el("dc:creator", p.author),
        ...p.tags.map((t) => el("category", t)),
        `</item>`,
      ].join("\n"),
    ),
    `</channel>`,
    `</rss>`,
    ``,
  ];
  return lines.join("\n");
}
