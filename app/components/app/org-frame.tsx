import { NavLink, useLocation, useParams } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Badge } from "~/components/ui";
import { cn } from "~/lib/cn";
import { chatbotNav, orgNav } from "~/lib/navigation";
import { ROLE_LABELS, type Role } from "~/lib/permissions";

export type OrgFrameData = { org: { id: string; name: string; plan: string }; role: Role; chatbots: { id: string; name: string }[] };

const NAV_ID = "app-nav";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    // Taller rows below md: they are tapped with a finger there.
    "block truncate rounded-md px-3 py-2 text-sm md:py-1.5",
    isActive
      ? "bg-brand-50 font-medium text-brand-800 dark:bg-brand-900/40 dark:text-brand-100"
      : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800",
  );

/**
 * An organisation's pages: its navigation (organisation areas, chatbots, the open chatbot's areas)
 * beside the content from md up; below md the navigation folds behind a Menu button in a bar
 * under the header, so the content starts at the top of the screen.
 */
export function OrgFrame({ org, role, chatbots, children }: OrgFrameData & { children: ReactNode }) {
  const params = useParams();
  // An unknown page under a chatbot (the catch-all route, app.$orgId.$) still opens that chatbot's menu.
  const chatbotId = params.chatbotId ?? params["*"]?.split("/")[0];
  const { pathname, search } = useLocation();
  const [open, setOpen] = useState(false);
  const barRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const base = `/app/${org.id}`;
  const areas = orgNav(role, base);
  const bot = chatbots.find((b) => b.id === chatbotId);
  const botNav = bot ? chatbotNav(role, `${base}/${bot.id}`) : [];
  const here = [...botNav, ...areas].find((a) => a.href === pathname);
  const where = bot ? `${bot.name}${here ? ` · ${here.label}` : ""}` : (here?.label ?? org.name);

  // The layout stays mounted across client-side navigation: close once the page changes.
  useEffect(() => setOpen(false), [pathname, search]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointerDown = (e: PointerEvent) => {
      if (!barRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open]);

  return (
    <div className="mx-auto max-w-7xl md:flex md:gap-6 md:px-4 md:py-8">
      <div ref={barRef} className="sticky top-14 z-10 md:static md:w-56 md:shrink-0">
        <div className="flex h-12 items-center gap-3 border-b border-zinc-200 bg-white/95 px-4 backdrop-blur md:hidden dark:border-zinc-800 dark:bg-zinc-900/95">
          <button
            ref={buttonRef}
            type="button"
            aria-expanded={open}
            aria-controls={NAV_ID}
            onClick={() => setOpen((v) => !v)}
            className="inline-flex h-9 shrink-0 items-center gap-2 rounded-lg border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-900 shadow-sm hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
              {open ? (
                <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
              ) : (
                <path d="M2 4.75A.75.75 0 0 1 2.75 4h14.5a.75.75 0 0 1 0 1.5H2.75A.75.75 0 0 1 2 4.75Zm0 5.25a.75.75 0 0 1 .75-.75h14.5a.75.75 0 0 1 0 1.5H2.75A.75.75 0 0 1 2 10Zm.75 4.5a.75.75 0 0 0 0 1.5h14.5a.75.75 0 0 0 0-1.5H2.75Z" />
              )}
            </svg>
            Menu
          </button>
          <p className="min-w-0 truncate text-sm text-zinc-600 dark:text-zinc-300">{where}</p>
        </div>
        <aside
          id={NAV_ID}
          aria-label="Organisation navigation"
          className={cn(
            "md:block",
            // Below md: a panel over the content, under the bar, scrolling on its own when long.
            "max-md:absolute max-md:inset-x-0 max-md:top-full max-md:max-h-[calc(100dvh-6.5rem)] max-md:overflow-y-auto",
            "max-md:border-b max-md:border-zinc-200 max-md:bg-white max-md:px-2 max-md:py-3 max-md:shadow-lg max-md:dark:border-zinc-800 max-md:dark:bg-zinc-900",
            open ? "" : "max-md:hidden",
          )}
        >
          <div className="mb-3 flex items-center justify-between gap-2 px-3">
            <p className="truncate text-sm font-semibold">{org.name}</p>
            <Badge tone="neutral">{ROLE_LABELS[role]}</Badge>
          </div>
          <nav className="space-y-0.5">
            {areas.map((a) => (
              <NavLink key={a.key} to={a.href} end className={linkClass}>
                {a.label}
              </NavLink>
            ))}
          </nav>
          {chatbots.length ? (
            <div className="mt-5">
              <p className="px-3 text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">Chatbots</p>
              <nav className="mt-1 space-y-0.5" aria-label="Chatbots">
                {chatbots.map((b) => (
                  <div key={b.id} className="min-w-0">
                    <NavLink to={`${base}/${b.id}`} end={b.id !== chatbotId} className={linkClass}>
                      {b.name}
                    </NavLink>
                    {b.id === chatbotId && botNav.length > 1 ? (
                      <div className="mt-0.5 ml-3 space-y-0.5 border-l border-zinc-200 pl-2 dark:border-zinc-800">
                        {botNav.map((a) => (
                          <NavLink key={a.key} to={a.href} end className={linkClass}>
                            {a.label}
                          </NavLink>
                        ))}
                      </div>
                    ) : null}
                  </div>
                ))}
              </nav>
            </div>
          ) : null}
        </aside>
      </div>
      <main className="min-w-0 flex-1 px-4 py-6 md:px-0 md:py-0" id="main">
        {children}
      </main>
    </div>
  );
}
