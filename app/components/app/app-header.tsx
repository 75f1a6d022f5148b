import { Form, Link, useParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { DropdownMenu, MenuItem } from "~/components/ui";
import { USER_LINKS } from "~/lib/navigation";

export type AppFrameData = { user: { name: string; email: string }; orgs: { id: string; name: string; role: string }[] };

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "?") + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase();
}

/** The dashboard frame: top bar with the logo, the organisation switcher and the user menu. */
export function AppFrame({ user, orgs, children }: AppFrameData & { children: ReactNode }) {
  const { orgId } = useParams();
  const current = orgs.find((o) => o.id === orgId);
  return (
    <div className="min-h-screen bg-zinc-50 dark:bg-zinc-950">
      <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/90">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-4 sm:gap-3">
          {/* shrink-0: on a narrow screen the menus shrink (truncate), never the logo. */}
          <Link to="/app" className="flex shrink-0 items-center gap-2 font-semibold" aria-label="Parley">
            <img src="/favicon.svg" alt="" width={24} height={24} className="size-6 shrink-0" />
            <span className="hidden sm:inline">Parley</span>
          </Link>
          <span aria-hidden className="text-zinc-300 dark:text-zinc-700">
            /
          </span>
          <nav aria-label="Organisation switcher" className="min-w-0">
            <DropdownMenu
              label={<span className="max-w-[9rem] truncate sm:max-w-[12rem]">{current?.name ?? "Organisations"}</span>}
              align="start"
              variant="ghost"
              className="max-w-full"
              summaryClassName="max-w-full shrink"
            >
              {orgs.map((o) => (
                <MenuItem key={o.id} to={`/app/${o.id}`} aria-current={o.id === orgId ? "page" : undefined}>
                  {o.name}
                </MenuItem>
              ))}
              <MenuItem to="/app">All organisations…</MenuItem>
            </DropdownMenu>
          </nav>
          <div className="ml-auto shrink-0">
            <DropdownMenu
              label={
                <>
                  {/* Below sm the name gives way to its initials; the menu keeps the full name for screen readers. */}
                  <span
                    aria-hidden
                    className="flex size-6 items-center justify-center rounded-full bg-brand-100 text-[11px] font-semibold text-brand-800 sm:hidden dark:bg-brand-900 dark:text-brand-100"
                  >
                    {initials(user.name)}
                  </span>
                  <span className="sr-only max-w-[10rem] truncate sm:not-sr-only">{user.name}</span>
                </>
              }
              variant="ghost"
            >
              <div className="px-3 py-2 text-xs text-zinc-600 dark:text-zinc-400">
                Signed in as <span className="font-medium break-all text-zinc-900 dark:text-zinc-100">{user.email}</span>
              </div>
              {USER_LINKS.map((l) => (
                <MenuItem key={l.key} to={l.path}>
                  {l.label}
                </MenuItem>
              ))}
              <Form method="post" action="/logout">
                <MenuItem type="submit">Sign out</MenuItem>
              </Form>
            </DropdownMenu>
          </div>
        </div>
      </header>
      {children}
    </div>
  );
}
