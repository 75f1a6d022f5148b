import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { UiSettingsScreen } from "~/components/settings/ui-settings-screen";
import { requireChatbot } from "~/.server/auth/guards";
import { BRANDING_FEATURE, saveUiSettings } from "~/.server/chatbots/ui-settings";
import { CHECK_FIELDS, failureReply, formReply } from "~/.server/http/form-reply";
import { extraPlanHint, planExtras } from "~/lib/plans";
import { parseUiSettingsForm } from "~/lib/schemas/widget-settings-forms";
import { readUiSettings } from "~/lib/schemas/widget-settings";
import { readForm } from "~/.server/http/read-form";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Look & feel · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { org, chatbot } = await requireChatbot(context.app, request, params, "chatbot:edit");
  return {
    chatbot: { id: chatbot.id, name: chatbot.name },
    ui: readUiSettings(chatbot.settings),
    canRemoveBranding: planExtras(org.plan).removeBranding,
    brandingHint: extraPlanHint("removeBranding", BRANDING_FEATURE),
    // The preview frame is told this page's origin as its host (the loader cannot see window.location).
    origin: new URL(request.url).origin,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const parsed = parseUiSettingsForm(await readForm(request));
  if (!parsed.ok) return formReply("save", 400, { tone: "error", message: CHECK_FIELDS, fieldErrors: parsed.fieldErrors, values: parsed.values });
  const saved = await saveUiSettings(ctx, { org, chatbotId: chatbot.id }, parsed.data);
  if (!saved.ok) return failureReply("save", saved, parsed.values);
  return formReply("save", 200, { tone: "success", message: "Look & feel saved." });
}

// The screen: ~/components/settings/ui-settings-screen.tsx.
export default function UiSettingsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <UiSettingsScreen data={data} result={result} />;
}
