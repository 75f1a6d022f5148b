import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadBlog } from "~/.server/content/blog";
import { blogRss } from "~/.server/content/rss";

// /blog/rss.xml: RSS 2.0 of the blog, absolute links from APP_URL or the request's origin.

export function loader({ context }: LoaderFunctionArgs) {
  return new Response(blogRss(loadBlog().posts, context.app.origin), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=600" },
  });
}
