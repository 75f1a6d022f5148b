import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { AppFrame } from "~/components/app/app-header";
import { RouteErrorScreen } from "~/components/error-screen";
import { requireUser } from "~/.server/auth/guards";
import { listMyOrganisations } from "~/.server/orgs/organisations";

// The dashboard frame: top bar with organisation switcher and user menu. Every child route
// authorises itself (loaders run in parallel, so this check protects only this loader).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context.app, request);
  const orgs = await listMyOrganisations(context.app, user.id);
  return { user: { name: user.name, email: user.email }, orgs: orgs.map((o) => ({ id: o.id, name: o.name, role: o.role })) };
}

export default function AppLayout() {
  const data = useLoaderData<typeof loader>();
  return (
    <AppFrame {...data}>
      <Outlet />
    </AppFrame>
  );
}

// A page under /app that fails (404, 403, 500…) keeps the header; without this layout's own data
// (its loader failed) the root boundary's plain screen is shown instead.
export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>("routes/app");
  if (!data) return <RouteErrorScreen />;
  return (
    <AppFrame {...data}>
      <main id="main">
        <RouteErrorScreen embedded />
      </main>
    </AppFrame>
  );
}
