import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { OrgFrame } from "~/components/app/org-frame";
import { RouteErrorScreen } from "~/components/error-screen";
import { requireOrg } from "~/.server/auth/guards";
import { listChatbots } from "~/.server/chatbots/chatbots";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { org, role } = await requireOrg(context.app, request, params.orgId);
  const bots = await listChatbots(context.app, org.id);
  return { org: { id: org.id, name: org.name, plan: org.plan }, role, chatbots: bots.map((b) => ({ id: b.id, name: b.name })) };
}

export default function OrgLayout() {
  const data = useLoaderData<typeof loader>();
  return (
    <OrgFrame {...data}>
      <Outlet />
    </OrgFrame>
  );
}

// An unknown chatbot or page, or a screen the role may not open: the error inside the
// organisation's navigation. Another organisation's id (this loader's own 404) has no navigation
// to show: the error sits under the app header (routes/app.tsx).
export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>("routes/app.$orgId");
  if (!data) {
    return (
      <main id="main">
        <RouteErrorScreen embedded />
      </main>
    );
  }
  return (
    <OrgFrame {...data}>
      <RouteErrorScreen embedded />
    </OrgFrame>
  );
}
