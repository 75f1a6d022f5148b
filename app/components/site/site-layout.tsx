import { Link, NavLink, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";

// The public site's frame: header with navigation to every public section, footer, skip link.
// Pages render without client JavaScript unless they opt in (see `handle.hydrate` in root.tsx), so
// everything here works as plain links: the small-screen menu is a <details> element, which opens
// and closes without any script.

const SITE_NAV = [
  { to: "/product/live-chat", label: "Live chat" },
  { to: "/product/analytics", label: "Analytics" },
  { to: "/pricing", label: "Pricing" },
  { to: "/docs", label: "Docs" },
  { to: "/blog", label: "Blog" },
  { to: "/studio", label: "Studio" },
  { to: "/company", label: "Company" },
] as const;

const FOOTER = [
  {
    title: "Product",
    links: [
      { to: "/", label: "Overview" },
      { to: "/product/live-chat", label: "Live chat" },
      { to: "/product/analytics", label: "Analytics and leads" },
      { to: "/product/live-chat-alternative", label: "Compare with LiveChat, Tidio, Crisp" },
      { to: "/voice", label: "Voice and phone" },
      { to: "/pricing", label: "Pricing" },
      { to: "/test/cb_demo", label: "Try the demo bot", reloadDocument: true },
      { to: "/signup", label: "Create an account" },
    ],
  },
  {
    title: "Compare",
    links: [
      { to: "/product/chatbase-alternative", label: "Parley vs Chatbase" },
      { to: "/product/hubspot-alternative", label: "Parley vs HubSpot" },
      { to: "/product/zendesk-alternative", label: "Parley vs Zendesk" },
    ],
  },
  {
    title: "Learn",
    links: [
      { to: "/docs", label: "Documentation" },
      { to: "/docs/api", label: "REST API" },
      { to: "/blog", label: "Blog" },
      { to: "/studio", label: "Free tools" },
    ],
  },
  {
    title: "Company",
    links: [
      { to: "/company", label: "About" },
      { to: "/privacy", label: "Privacy" },
      { to: "/blog/rss.xml", label: "RSS feed", reloadDocument: true },
    ],
  },
] as const;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `inline-flex min-h-10 items-center rounded-md px-2.5 text-sm ${
    isActive
      ? "font-semibold text-brand-700 dark:text-brand-300"
      : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-950 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white"
  }`;

export function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-zinc-900 focus:shadow dark:focus:bg-zinc-900 dark:focus:text-zinc-100"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

function Logo({ size = 26 }: { size?: number }) {
  return <img src="/favicon.svg" alt="" width={size} height={size} className="shrink-0" />;
}

/** Navigation entries as list items (desktop bar and small-screen menu). */
function NavItems({ items }: { items: readonly { to: string; label: string; end?: boolean }[] }) {
  return (
    <>
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.end} className={navLinkClass}>
            {item.label}
          </NavLink>
        </li>
      ))}
    </>
  );
}

function SiteHeader() {
  // Remount the small-screen menu on every navigation so it closes when a hydrated page moves on.
  const { pathname } = useLocation();
  return (
    <header className="relative border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-950">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 rounded-md text-lg font-semibold" aria-label="Parley home">
          <Logo />
          <span aria-hidden="true">Parley</span>
        </Link>

        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            <NavItems items={SITE_NAV} />
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-2 text-sm">
          <Link
            to="/login"
            className="hidden min-h-10 items-center rounded-md px-3 font-medium text-zinc-700 hover:bg-zinc-100 sm:inline-flex dark:text-zinc-200 dark:hover:bg-zinc-800"
          >
            Sign in
          </Link>
          <Link to="/signup" className="inline-flex min-h-10 items-center rounded-md bg-brand-700 px-3 font-medium text-white hover:bg-brand-800">
            Start free
          </Link>
        </div>

        <details key={pathname} className="group md:hidden">
          <summary className="flex min-h-10 list-none items-center gap-2 rounded-md border border-zinc-300 px-3 text-sm font-medium text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-100 dark:hover:bg-zinc-800 [&::-webkit-details-marker]:hidden">
            <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" className="group-open:hidden">
              <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
            <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" className="hidden group-open:block">
              <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
            Menu
          </summary>
          <nav
            aria-label="Main (small screens)"
            className="absolute inset-x-0 top-full z-40 border-b border-zinc-200 bg-white px-4 pb-4 pt-2 shadow-lg dark:border-zinc-800 dark:bg-zinc-950"
          >
            <ul className="grid gap-1">
              <NavItems items={[{ to: "/", label: "Overview", end: true }, ...SITE_NAV, { to: "/privacy", label: "Privacy" }]} />
              <li className="mt-2 border-t border-zinc-200 pt-2 dark:border-zinc-800">
                <NavLink to="/login" className={navLinkClass}>
                  Sign in
                </NavLink>
              </li>
            </ul>
          </nav>
        </details>
      </div>
    </header>
  );
}

function SiteFooter() {
  return (
    <footer className="border-t border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 sm:px-6 lg:grid-cols-5">
        <div>
          <p className="flex items-center gap-2 font-semibold">
            <Logo size={22} />
            Parley
          </p>
          <p className="mt-2 max-w-xs text-sm text-zinc-600 dark:text-zinc-400">
            Chatbots that answer from your own knowledge, with sources. Runs on Cloudflare Workers — ours or your own account.
          </p>
        </div>
        {FOOTER.map((col) => (
          <nav key={col.title} aria-label={col.title}>
            <h2 className="text-sm font-semibold">{col.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {col.links.map((l) => (
                <li key={l.to}>
                  <Link
                    to={l.to}
                    reloadDocument={"reloadDocument" in l ? l.reloadDocument : undefined}
                    className="text-zinc-600 underline-offset-4 hover:text-zinc-950 hover:underline dark:text-zinc-400 dark:hover:text-white"
                  >
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
    </footer>
  );
}
