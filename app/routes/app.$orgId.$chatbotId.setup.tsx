import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { notFound, requireChatbot } from "~/.server/auth/guards";
import { dismissSetupChecklist } from "~/.server/chatbots/setup-progress";
import { readForm } from "~/.server/http/read-form";

// POST /app/{orgId}/{chatbotId}/setup — "Hide checklist" on the chatbot home (the checklist itself:
// ~/components/chatbot/setup-checklist.tsx). Editors and above; back to the chatbot home after.

// A link or prefetch lands on the chatbot home.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { org, chatbot } = await requireChatbot(context.app, request, params, "chatbot:view");
  return redirect(`/app/${org.id}/${chatbot.id}`);
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const form = await readForm(request);
  if (form.get("intent") !== "dismiss-setup") throw new Response("Unknown action.", { status: 400 });
  if (!(await dismissSetupChecklist(ctx, { orgId: org.id, chatbotId: chatbot.id }))) notFound();
  return redirect(`/app/${org.id}/${chatbot.id}`);
}
