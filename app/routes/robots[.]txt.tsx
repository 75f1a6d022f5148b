import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { robotsTxt } from "~/.server/site/sitemap";

export function loader({ context }: LoaderFunctionArgs) {
  return new Response(robotsTxt(context.app.origin), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
