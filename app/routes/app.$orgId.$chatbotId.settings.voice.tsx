import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { VoiceSettingsScreen } from "~/components/settings/voice-settings-screen";
import { requireChatbot } from "~/.server/auth/guards";
import { CHECK_FIELDS, failureReply, formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";
import { listVoiceEngines } from "~/.server/voice/engines";
import { saveVoiceSettings, VOICE_FEATURE } from "~/.server/voice/settings";
import { parseForm } from "~/lib/forms";
import { extraPlanHint, planExtras } from "~/lib/plans";
import { readVoiceSettings } from "~/lib/schemas/voice-settings";
import { VOICE_FORM_FIELDS, voiceSettingsFormSchema } from "~/lib/schemas/voice-settings-form";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Voice settings · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { org, chatbot } = await requireChatbot(context.app, request, params, "chatbot:edit");
  return {
    chatbot: { id: chatbot.id, name: chatbot.name },
    voice: readVoiceSettings(chatbot.settings),
    canUseVoice: planExtras(org.plan).voice,
    planHint: extraPlanHint("voice", VOICE_FEATURE),
    engines: listVoiceEngines(context.app.env),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const form = await readForm(request);
  const parsed = parseForm(voiceSettingsFormSchema, form, VOICE_FORM_FIELDS);
  if (!parsed.ok) return formReply("save", 400, { tone: "error", message: CHECK_FIELDS, fieldErrors: parsed.fieldErrors, values: parsed.values });
  const saved = await saveVoiceSettings(ctx, { org, chatbotId: chatbot.id }, parsed.data);
  if (!saved.ok) return failureReply("save", saved, parsed.values);
  return formReply("save", 200, { tone: "success", message: "Voice settings saved." });
}

// The screen: ~/components/settings/voice-settings-screen.tsx.
export default function VoiceSettingsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <VoiceSettingsScreen data={data} result={result} />;
}
