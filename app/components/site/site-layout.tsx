import { Link, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";

// The public site's frame: header with navigation to every public section, footer, skip link.
// Pages render without client JavaScript unless they opt in (see `handle.hydrate` in root.tsx), so
// everything here works as plain links and forms.

export const SITE_NAV = [
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
      { to: "/pricing", label: "Pricing" },
      { to: "/test/cb_demo", label: "Try the demo bot" },
      { to: "/signup", label: "Create an account" },
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

export function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow dark:focus:bg-zinc-900"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

export function SiteHeader() {
  return (
    <header className="border-b border-zinc-200 dark:border-zinc-800">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <Link to="/" className="flex items-center gap-2 text-lg font-semibold" aria-label="Parley home">
          <img src="/favicon.svg" alt="" width={26} height={26} />
          Parley
        </Link>
        <nav aria-label="Main" className="order-last w-full sm:order-none sm:w-auto">
          <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
            {SITE_NAV.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={({ isActive }) =>
                    `inline-block py-1.5 ${isActive ? "font-semibold text-brand-700 dark:text-brand-300" : "text-zinc-700 hover:text-zinc-950 dark:text-zinc-300 dark:hover:text-white"}`
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-2 text-sm">
          <Link to="/login" className="rounded-md px-3 py-2 font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800">
            Sign in
          </Link>
          <Link to="/signup" className="rounded-md bg-brand-700 px-3 py-2 font-medium text-white hover:bg-brand-800">
            Start free
          </Link>
        </div>
      </div>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="border-t border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900/40">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-4 sm:px-6">
        <div>
          <p className="flex items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" width={22} height={22} />
            Parley
          </p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">Chatbots that answer from your own knowledge, with sources.</p>
        </div>
        {FOOTER.map((col) => (
          <nav key={col.title} aria-label={col.title}>
            <h2 className="text-sm font-semibold">{col.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {col.links.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} reloadDocument={"reloadDocument" in l ? l.reloadDocument : undefined} className="text-zinc-600 hover:text-zinc-950 dark:text-zinc-400 dark:hover:text-white">
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
