import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, Outlet, useLoaderData, useParams } from "@remix-run/react";
import { DropdownMenu, MenuItem } from "~/components/ui";
import { requireUser } from "~/.server/auth/guards";
import { listMyOrganisations } from "~/.server/orgs/organisations";
import { USER_LINKS } from "~/lib/navigation";

// The dashboard frame: top bar with organisation switcher and user menu. Every child route
// authorises itself (loaders run in parallel, so this check protects only this loader).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context.app, request);
  const orgs = await listMyOrganisations(context.app, user.id);
  return { user: { name: user.name, email: user.email }, orgs: orgs.map((o) => ({ id: o.id, name: o.name, role: o.role })) };
}

export default function AppFrame() {
  const { user, orgs } = useLoaderData<typeof loader>();
  const { orgId } = useParams();
  const current = orgs.find((o) => o.id === orgId);
  return (
    <div className="min-h-screen bg-zinc-50 dark:bg-zinc-950">
      <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/90">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4">
          <Link to="/app" className="flex items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" width={24} height={24} />
            <span className="hidden sm:inline">Parley</span>
          </Link>
          <span aria-hidden className="text-zinc-300 dark:text-zinc-700">
            /
          </span>
          <nav aria-label="Organisation switcher">
            <DropdownMenu label={<span className="max-w-[12rem] truncate">{current?.name ?? "Organisations"}</span>} align="start" variant="ghost">
              {orgs.map((o) => (
                <MenuItem key={o.id} to={`/app/${o.id}`} aria-current={o.id === orgId ? "page" : undefined}>
                  {o.name}
                </MenuItem>
              ))}
              <MenuItem to="/app">All organisations…</MenuItem>
            </DropdownMenu>
          </nav>
          <div className="ml-auto">
            <DropdownMenu label={<span className="max-w-[10rem] truncate">{user.name}</span>} variant="ghost">
              <div className="px-3 py-2 text-xs text-zinc-600 dark:text-zinc-400">
                Signed in as <span className="font-medium text-zinc-900 dark:text-zinc-100">{user.email}</span>
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
      <Outlet />
    </div>
  );
}
