import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { sitemapXml } from "~/.server/site/sitemap";

export function loader({ context }: LoaderFunctionArgs) {
  return new Response(sitemapXml(context.app.origin), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
