import { Link } from "@remix-run/react";
import { useState } from "react";
import { Alert, Card, CardBody, Field, PageHeader, Select } from "~/components/ui";
import type { VoiceEngine, VoiceSettings } from "~/lib/schemas/voice-settings";
import { VoiceConsole } from "./voice-console";

/** The voice playground (route: app.$orgId.$chatbotId.voice-playground). */

export type VoicePlaygroundData = {
  chatbot: { id: string; name: string };
  voice: VoiceSettings;
  engines: { value: VoiceEngine; label: string; available: boolean; reason?: string }[];
  /** Voice is switched on and the plan includes it: visitors can talk in the widget. */
  offered: boolean;
  planHint: string | null;
  canEdit: boolean;
};

export function VoicePlaygroundScreen({ data }: { data: VoicePlaygroundData }) {
  const { chatbot, voice, engines, offered, planHint, canEdit } = data;
  const startEngine = engines.find((e) => e.value === voice.engine && e.available)?.value ?? "browser";
  const [engine, setEngine] = useState<VoiceEngine>(startEngine);
  const openAi = engines.find((e) => e.value === "openai");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Voice playground"
        description={`Talk to ${chatbot.name}: what you say is recognised, answered from its knowledge like a chat message, and spoken back. Conversations here appear in the inbox with the channel “voice”.`}
        actions={
          canEdit ? (
            <Link to="../settings/voice" relative="path" className="text-sm font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
              Voice settings
            </Link>
          ) : null
        }
      />
      <Alert tone={offered ? "success" : "info"} role="status">
        {offered
          ? "Voice is on: visitors see a microphone in the chat widget."
          : (planHint ?? "Voice is off for visitors: the widget shows no microphone until it is switched on in Voice settings.") +
            " You can still try it here."}
      </Alert>
      <Card>
        <CardBody className="space-y-5">
          <div className="max-w-md">
            <Field label="Speech engine" name="engine" hint="Starts from the engine chosen in Voice settings.">
              <Select
                value={engine}
                onChange={(e) => setEngine(e.currentTarget.value as VoiceEngine)}
                options={engines.map((e) => ({
                  value: e.value,
                  label: e.available ? e.label : `${e.label} — unavailable: ${e.reason ?? "not configured"}`,
                  disabled: !e.available,
                }))}
              />
            </Field>
          </div>
          <VoiceConsole
            chatbotId={chatbot.id}
            channel="voice"
            options={{ engine, voice: engine === voice.engine ? voice.voice : "", speed: voice.speed, language: voice.language }}
            greeting={voice.greeting}
            openAiAvailable={openAi?.available ?? false}
          />
        </CardBody>
      </Card>
    </div>
  );
}
