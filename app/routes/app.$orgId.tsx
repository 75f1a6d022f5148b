import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { NavLink, Outlet, useLoaderData, useParams } from "@remix-run/react";
import { Badge } from "~/components/ui";
import { requireOrg } from "~/.server/auth/guards";
import { listChatbots } from "~/.server/chatbots/chatbots";
import { cn } from "~/lib/cn";
import { chatbotNav, orgNav } from "~/lib/navigation";
import { ROLE_LABELS } from "~/lib/permissions";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { org, role } = await requireOrg(context.app, request, params.orgId);
  const bots = await listChatbots(context.app, org.id);
  return { org: { id: org.id, name: org.name, plan: org.plan }, role, chatbots: bots.map((b) => ({ id: b.id, name: b.name })) };
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "block truncate rounded-md px-3 py-1.5 text-sm",
    isActive
      ? "bg-brand-50 font-medium text-brand-800 dark:bg-brand-900/40 dark:text-brand-100"
      : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800",
  );

export default function OrgLayout() {
  const { org, role, chatbots } = useLoaderData<typeof loader>();
  const { chatbotId } = useParams();
  const base = `/app/${org.id}`;
  const bot = chatbots.find((b) => b.id === chatbotId);
  const botNav = bot ? chatbotNav(role, `${base}/${bot.id}`) : [];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 md:flex-row md:py-8">
      <aside className="md:w-56 md:shrink-0" aria-label="Organisation navigation">
        <div className="mb-3 flex items-center justify-between gap-2 px-3">
          <p className="truncate text-sm font-semibold">{org.name}</p>
          <Badge tone="neutral">{ROLE_LABELS[role]}</Badge>
        </div>
        <nav className="space-y-0.5">
          {orgNav(role, base).map((a) => (
            <NavLink key={a.key} to={a.href} end className={linkClass}>
              {a.label}
            </NavLink>
          ))}
        </nav>
        {chatbots.length ? (
          <div className="mt-5">
            <p className="px-3 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Chatbots</p>
            <nav className="mt-1 space-y-0.5" aria-label="Chatbots">
              {chatbots.map((b) => (
                <div key={b.id} className="min-w-0">
                  <NavLink to={`${base}/${b.id}`} end={b.id !== chatbotId} className={linkClass}>
                    {b.name}
                  </NavLink>
                  {b.id === chatbotId && botNav.length > 1 ? (
                    <div className="ml-3 mt-0.5 space-y-0.5 border-l border-zinc-200 pl-2 dark:border-zinc-800">
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
      <main className="min-w-0 flex-1" id="main">
        <Outlet />
      </main>
    </div>
  );
}
