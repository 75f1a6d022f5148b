import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alert, Card, CardBody, CardHeader, CheckboxField, Field, IntentSubmit, PageHeader, Select, Textarea } from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import { LANGUAGES } from "~/lib/schemas/chatbot-settings";
import { MAX_CALL_MINUTES, OPENAI_VOICES, PHONE_VOICE_NOTE, VOICE_TEXT_MAX, type VoiceEngine, type VoiceSettings } from "~/lib/schemas/voice-settings";

/** The voice settings screen (route: app.$orgId.$chatbotId.settings.voice). */

export type VoiceSettingsScreenData = {
  chatbot: { id: string; name: string };
  voice: VoiceSettings;
  /** The plan includes voice; otherwise the switch is disabled with `planHint`. */
  canUseVoice: boolean;
  planHint: string;
  engines: { value: VoiceEngine; label: string; available: boolean; reason?: string }[];
};

/** The browser's own voices (loaded asynchronously by most browsers: "voiceschanged"). */
function useBrowserVoices(): string[] {
  const [voices, setVoices] = useState<string[]>([]);
  useEffect(() => {
    const synth = typeof window !== "undefined" ? window.speechSynthesis : undefined;
    if (!synth) return;
    const read = () => setVoices([...new Set(synth.getVoices().map((v) => v.name))]);
    read();
    synth.addEventListener?.("voiceschanged", read);
    return () => synth.removeEventListener?.("voiceschanged", read);
  }, []);
  return voices;
}

export function VoiceSettingsScreen({ data, result }: { data: VoiceSettingsScreenData; result: FormReply | undefined }) {
  const { chatbot, voice, canUseVoice, planHint, engines } = data;
  const failed = result?.tone === "error" && Object.keys(result.fieldErrors).length > 0;
  const values = failed ? result.values : null;
  const v = (key: string, saved: string) => (values ? (values[key] ?? "") : saved);
  const err = (key: string) => (failed ? result.fieldErrors[key] : undefined);
  const formKey = result?.tone === "success" ? `saved-${JSON.stringify(voice)}` : failed ? `failed-${JSON.stringify(values)}` : "form";
  const [engine, setEngine] = useState<string>(v("engine", voice.engine));
  const browserVoices = useBrowserVoices();
  const savedVoice = v("voice", voice.voice);
  const voiceNames = engine === "openai" ? [...OPENAI_VOICES] : browserVoices;
  const voiceOptions = [
    ...(engine === "openai" ? [] : [{ value: "", label: "The browser's default voice" }]),
    ...voiceNames.map((n) => ({ value: n, label: n })),
    // A stored voice this browser does not offer stays selectable, so saving does not change it.
    ...(savedVoice && !voiceNames.includes(savedVoice) && (engine !== "openai" || (OPENAI_VOICES as readonly string[]).includes(savedVoice))
      ? [{ value: savedVoice, label: `${savedVoice} (not offered by this browser)` }]
      : []),
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        title="Voice"
        description={`Let visitors talk to ${chatbot.name}: a microphone in the chat widget, the voice playground and, with a phone number, calls.`}
        actions={
          <Link to="../../voice-playground" relative="path" className="text-sm font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
            Try it in the voice playground
          </Link>
        }
      />
      {result?.message ? (
        <Alert tone={result.tone === "success" ? "success" : "error"} role={result.tone === "error" ? "alert" : "status"} dismissible={result}>
          {result.message}
        </Alert>
      ) : null}
      <Form key={formKey} method="post" className="space-y-6" noValidate>
        <input type="hidden" name="intent" value="save" />
        <Card>
          <CardHeader title="Speech" description="How the bot hears and speaks. The same answers as in the chat, with their sources." />
          <CardBody className="space-y-5">
            <CheckboxField
              name="enabled"
              label="Voice in the chat widget"
              hint={canUseVoice ? "Shows a microphone button in the widget. Voice conversations appear in the inbox with the channel “voice”." : planHint}
              defaultChecked={canUseVoice && (values ? values.enabled === "on" : voice.enabled)}
              disabled={!canUseVoice}
              error={err("enabled")}
            />
            <Field
              label="Speech engine"
              name="engine"
              error={err("engine")}
              hint="The browser engine uses the visitor's own browser (no key, not every browser can listen). OpenAI sends the audio through Parley to OpenAI."
            >
              <Select
                value={engine}
                onChange={(e) => setEngine(e.currentTarget.value)}
                options={engines.map((e) => ({
                  value: e.value,
                  label: e.available ? e.label : `${e.label} — unavailable: ${e.reason ?? "not configured"}`,
                  disabled: !e.available && e.value !== voice.engine,
                }))}
              />
            </Field>
            <div className="grid gap-5 sm:grid-cols-2">
              <Field
                label="Voice"
                name="voice"
                error={err("voice")}
                hint={`${engine === "openai" ? "OpenAI's voices." : "The voices of this browser; a visitor's browser without it uses its default."} Not used on phone calls.`}
              >
                <Select
                  key={engine}
                  defaultValue={voiceOptions.some((o) => o.value === savedVoice) ? savedVoice : voiceOptions[0]?.value}
                  options={voiceOptions}
                />
              </Field>
              <Field
                label="Speed"
                name="speed"
                type="number"
                inputMode="decimal"
                min={0.5}
                max={2}
                step={0.1}
                defaultValue={v("speed", String(voice.speed))}
                error={err("speed")}
                hint="1 is normal; from 0.5 to 2. Not used on phone calls."
              />
            </div>
            <Field
              label="Language"
              name="language"
              error={err("language")}
              hint="What the bot listens for and speaks. Automatic uses the browser's language (English on a phone call)."
            >
              <Select defaultValue={v("language", voice.language)} options={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))} />
            </Field>
            <Field
              label="Greeting"
              name="greeting"
              error={err("greeting")}
              hint={`Spoken when a phone call starts, and in the voice playground at the first press to talk or switch to hands-free (up to ${VOICE_TEXT_MAX} characters).`}
            >
              <Textarea rows={2} maxLength={VOICE_TEXT_MAX} defaultValue={v("greeting", voice.greeting)} />
            </Field>
            <Field
              label="When the bot cannot help"
              name="cannotHelpMessage"
              error={err("cannotHelpMessage")}
              hint={`Said on a phone call when the bot cannot help (up to ${VOICE_TEXT_MAX} characters). In the widget, spoken answers use the fallback message of General settings.`}
              required
            >
              <Textarea rows={2} maxLength={VOICE_TEXT_MAX} defaultValue={v("cannotHelpMessage", voice.cannotHelpMessage)} />
            </Field>
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title="Phone calls"
            description={
              <>
                Used when a phone number is attached to this chatbot on the{" "}
                <Link to="/app/phone" className="font-medium underline">
                  Phone
                </Link>{" "}
                page. {PHONE_VOICE_NOTE}
              </>
            }
          />
          <CardBody className="space-y-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <Field
                label="Fallback number"
                name="phoneFallbackNumber"
                type="tel"
                autoComplete="off"
                placeholder="+353151234567"
                defaultValue={v("phoneFallbackNumber", voice.phoneFallbackNumber)}
                error={err("phoneFallbackNumber")}
                hint="Callers who ask for a person are transferred here (international form). Empty: no transfer."
              />
              <Field
                label="Maximum call length (minutes)"
                name="maxCallMinutes"
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_CALL_MINUTES}
                step={1}
                defaultValue={v("maxCallMinutes", String(voice.maxCallMinutes))}
                error={err("maxCallMinutes")}
                hint={`The call ends politely after this long; a call put through to the fallback number is cut off then too (1 to ${MAX_CALL_MINUTES}).`}
              />
            </div>
          </CardBody>
        </Card>
        <div className="flex justify-end">
          <IntentSubmit intent="save" busyLabel="Saving…">
            Save voice settings
          </IntentSubmit>
        </div>
      </Form>
    </div>
  );
}
