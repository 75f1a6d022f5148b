import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { EmbedSettingsScreen, type EmbedActionData } from "~/components/settings/embed-settings-screen";
import { requireChatbot } from "~/.server/auth/guards";
import { API_FEATURE, API_KEYS_PER_CHATBOT, issueApiKey, listApiKeys, revokeApiKey } from "~/.server/api-keys/api-keys";
import { failureReply, formReply } from "~/.server/http/form-reply";
import { parseForm } from "~/lib/forms";
import { extraPlanHint, planExtras } from "~/lib/plans";
import { createApiKeySchema, revokeApiKeySchema } from "~/lib/schemas/widget-settings-forms";
import { readForm } from "~/.server/http/read-form";

type ActionData = EmbedActionData;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Embed & API · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  return {
    chatbot: { id: chatbot.id, name: chatbot.name, visibility: chatbot.visibility },
    origin: ctx.origin,
    keys: await listApiKeys(ctx, { orgId: org.id, chatbotId: chatbot.id }),
    canUseApi: planExtras(org.plan).api,
    apiHint: extraPlanHint("api", API_FEATURE),
    maxKeys: API_KEYS_PER_CHATBOT,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, user, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const reply = (status: number, d: Partial<ActionData>) => formReply<{ created?: { name: string; key: string } }>(intent, status, d);

  switch (intent) {
    case "create-key": {
      const parsed = parseForm(createApiKeySchema, form);
      if (!parsed.ok) return reply(400, { tone: "error", message: "Check the highlighted fields.", fieldErrors: parsed.fieldErrors, values: parsed.values });
      const created = await issueApiKey(ctx, { org, chatbotId: chatbot.id }, { name: parsed.data.name, userId: user.id });
      if (!created.ok) return failureReply<{ created?: { name: string; key: string } }>(intent, created, parsed.values);
      return reply(200, { tone: "success", message: `Key “${created.row.name}” created.`, created: { name: created.row.name, key: created.key } });
    }
    case "revoke-key": {
      const parsed = parseForm(revokeApiKeySchema, form);
      if (!parsed.ok) return reply(400, { tone: "error", message: "Choose a key to revoke." });
      const revoked = await revokeApiKey(ctx, ref, parsed.data.keyId);
      if (!revoked) return reply(404, { tone: "error", message: "That key does not exist or is already revoked." });
      return reply(200, { tone: "success", message: "Key revoked. Requests using it are refused from now on." });
    }
    default:
      return reply(400, { tone: "error", message: "Unknown action." });
  }
}

// The screen: ~/components/settings/embed-settings-screen.tsx.
export default function EmbedSettingsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <EmbedSettingsScreen data={data} result={result} />;
}
