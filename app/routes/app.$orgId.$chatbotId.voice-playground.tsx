import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { VoicePlaygroundScreen } from "~/components/voice/voice-playground-screen";
import { requireChatbot } from "~/.server/auth/guards";
import { listVoiceEngines } from "~/.server/voice/engines";
import { voiceOffered, VOICE_FEATURE } from "~/.server/voice/settings";
import { can } from "~/lib/permissions";
import { extraPlanHint, planExtras } from "~/lib/plans";
import { readVoiceSettings } from "~/lib/schemas/voice-settings";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Voice playground · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { org, role, chatbot } = await requireChatbot(context.app, request, params, "chatbot:view");
  const voice = readVoiceSettings(chatbot.settings);
  return {
    chatbot: { id: chatbot.id, name: chatbot.name },
    voice,
    engines: listVoiceEngines(context.app.env),
    offered: voiceOffered(org.plan, voice),
    planHint: planExtras(org.plan).voice ? null : `${extraPlanHint("voice", VOICE_FEATURE)}`,
    canEdit: can(role, "chatbot:edit"),
  };
}

// The screen: ~/components/voice/voice-playground-screen.tsx.
export default function VoicePlaygroundPage() {
  const data = useLoaderData<typeof loader>();
  return <VoicePlaygroundScreen data={data} />;
}
