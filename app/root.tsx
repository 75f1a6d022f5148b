import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useMatches, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { RouteErrorScreen, useMarkHydrated } from "./components/error-screen";
import { SiteLayout } from "./components/site/site-layout";
import { useNonce } from "./lib/nonce";
import styles from "./styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Parley" }];

/** The absolute origin (APP_URL or the request's) for canonical and OpenGraph URLs (app/lib/seo.ts). */
export function loader({ context }: LoaderFunctionArgs) {
  return { origin: context.app.origin };
}

// Public pages that need no interactivity set `export const handle = { hydrate: false }`: they are
// sent as plain HTML and CSS, without React's runtime (the site's speed budget, bench/README.md).
// The deepest matched route decides.
function useHydrate(): boolean {
  const matches = useMatches();
  const leaf = matches[matches.length - 1]?.handle as { hydrate?: boolean } | undefined;
  return leaf?.hydrate !== false;
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const hydrate = useHydrate();
  useMarkHydrated();
  // Error screens (an unknown blog or docs slug, a 404 anywhere) are never indexed.
  const error = useRouteError();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <Meta />
        {error ? <meta name="robots" content="noindex" /> : null}
        <Links />
      </head>
      <body className="min-h-screen bg-white text-gray-900 antialiased dark:bg-gray-950 dark:text-gray-100">
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Paths of the public site: their error screens keep the site's header and footer. */
const PUBLIC_PREFIXES = ["/blog", "/docs", "/studio", "/pricing", "/company", "/privacy"];

// Errors under /app render inside the app's frame (the ErrorBoundary of routes/app.tsx and
// routes/app.$orgId.tsx); this one catches the rest.
export function ErrorBoundary() {
  const { pathname } = useLocation();
  const publicPage = PUBLIC_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  return publicPage ? (
    <SiteLayout>
      <RouteErrorScreen embedded />
    </SiteLayout>
  ) : (
    <RouteErrorScreen />
  );
}
