import type { Env } from "../env";
import { VOICE_ENGINES, type VoiceEngine } from "~/lib/schemas/voice-settings";

// Which speech engines this server can offer. The browser's own speech APIs need nothing from us;
// OpenAI speech-to-text and text-to-speech go through the Worker (workers/api/voice.ts), so they need
// a key or an OpenAI-compatible server configured here. Settings show the others disabled with why.

type SpeechEnv = Pick<Env, "OPENAI_API_KEY" | "OPENAI_BASE_URL">;

export type VoiceEngineInfo = { value: VoiceEngine; label: string; available: boolean; reason?: string };

const has = (v: string | undefined) => !!v && v.trim().length > 0;

export function openAiSpeechConfigured(env: SpeechEnv): boolean {
  return has(env.OPENAI_API_KEY) || has(env.OPENAI_BASE_URL);
}

export function listVoiceEngines(env: SpeechEnv): VoiceEngineInfo[] {
  const openai = openAiSpeechConfigured(env);
  return VOICE_ENGINES.map((e) =>
    e.value === "openai"
      ? { ...e, available: openai, reason: openai ? undefined : "Needs OPENAI_API_KEY (or OPENAI_BASE_URL) on the server." }
      : { ...e, available: true },
  );
}
