import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { IntegrationsScreen } from "~/components/integrations/integrations-screen";
import { requireChatbot } from "~/.server/auth/guards";
import { notificationIntegrations, phoneStatus, wooCommerceStatus } from "~/.server/integrations/status";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Integrations · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const [woo, phone, notifications] = await Promise.all([wooCommerceStatus(ctx, ref), phoneStatus(ctx, ref), notificationIntegrations(ctx, ref)]);
  return { orgId: org.id, chatbot: { id: chatbot.id, name: chatbot.name }, woo, phone, ...notifications };
}

// The screen: ~/components/integrations/integrations-screen.tsx.
export default function IntegrationsPage() {
  const data = useLoaderData<typeof loader>();
  return <IntegrationsScreen data={data} />;
}
