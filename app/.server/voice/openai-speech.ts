import type { Env } from "../env";
import { fail, type Result } from "../failure";
import { OPENAI_VOICES } from "~/lib/schemas/voice-settings";

// OpenAI speech-to-text (POST {base}/audio/transcriptions, multipart: file + model [+ language],
// answered with JSON { text }) and text-to-speech (POST {base}/audio/speech, JSON { model, input,
// voice, response_format, speed }, answered with the audio bytes, streamed). The browser never holds
// the key: audio goes through the Worker (ADR 028). An OpenAI-compatible server (OPENAI_BASE_URL) is
// used when set, with OPENAI_API_KEY sent if present; otherwise api.openai.com with the key.

type SpeechEnv = Pick<Env, "OPENAI_API_KEY" | "OPENAI_BASE_URL">;

export const TRANSCRIBE_MODEL = "gpt-4o-mini-transcribe";
export const SPEECH_MODEL = "gpt-4o-mini-tts";
/** The speech endpoint's documented input limit. */
export const SPEECH_INPUT_MAX = 4096;
/** What one recorded utterance may weigh (OpenAI accepts 25 MB; a spoken question is far less). */
export const AUDIO_MAX_BYTES = 8 * 1024 * 1024;

const AUDIO_TYPES: Record<string, string> = {
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/mp4": "mp4",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/flac": "flac",
};

/** The file extension OpenAI needs to recognise the audio, from its content type; null if not accepted. */
export function audioExtension(contentType: string | null | undefined): string | null {
  const base = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return AUDIO_TYPES[base] ?? null;
}

function endpoint(env: SpeechEnv): { base: string; headers: Record<string, string> } | null {
  const key = env.OPENAI_API_KEY?.trim();
  const baseUrl = env.OPENAI_BASE_URL?.trim();
  if (baseUrl) return { base: baseUrl.replace(/\/$/, ""), headers: key ? { Authorization: `Bearer ${key}` } : {} };
  if (key) return { base: "https://api.openai.com/v1", headers: { Authorization: `Bearer ${key}` } };
  return null;
}

const NOT_CONFIGURED = "OpenAI speech is not configured on this server (OPENAI_API_KEY or OPENAI_BASE_URL).";
const UPSTREAM_FAILED = "The speech service did not answer. Please try again.";

/** Speech to text: the words heard in one recorded utterance. */
export async function transcribe(
  env: SpeechEnv,
  input: { audio: Uint8Array<ArrayBuffer>; contentType: string; language?: string | null; signal?: AbortSignal },
): Promise<Result<{ text: string }>> {
  const at = endpoint(env);
  if (!at) return fail("invalid_input", NOT_CONFIGURED);
  const ext = audioExtension(input.contentType);
  if (!ext) return fail("invalid_input", "Send the audio as webm, ogg, mp4, mp3, wav or flac.");
  const form = new FormData();
  form.append("file", new Blob([input.audio], { type: input.contentType.split(";")[0] }), `speech.${ext}`);
  form.append("model", TRANSCRIBE_MODEL);
  form.append("response_format", "json");
  if (input.language && input.language !== "auto") form.append("language", input.language);
  let res: Response;
  try {
    res = await fetch(`${at.base}/audio/transcriptions`, { method: "POST", headers: at.headers, body: form, signal: input.signal });
  } catch {
    return fail("model_error", UPSTREAM_FAILED);
  }
  if (!res.ok) {
    await res.body?.cancel();
    return fail("model_error", UPSTREAM_FAILED);
  }
  const body = (await res.json().catch(() => null)) as { text?: unknown } | null;
  if (!body || typeof body.text !== "string") return fail("model_error", UPSTREAM_FAILED);
  return { ok: true, text: body.text.trim() };
}

/** Text to speech: the upstream response whose body is the audio (mp3), streamed as it arrives. */
export async function synthesize(
  env: SpeechEnv,
  input: { text: string; voice: string; speed: number; signal?: AbortSignal },
): Promise<Result<{ audio: ReadableStream<Uint8Array>; contentType: string }>> {
  const at = endpoint(env);
  if (!at) return fail("invalid_input", NOT_CONFIGURED);
  const voice = (OPENAI_VOICES as readonly string[]).includes(input.voice) ? input.voice : OPENAI_VOICES[0];
  let res: Response;
  try {
    res = await fetch(`${at.base}/audio/speech`, {
      method: "POST",
      headers: { ...at.headers, "Content-Type": "application/json" },
      body: JSON.stringify({ model: SPEECH_MODEL, input: input.text.slice(0, SPEECH_INPUT_MAX), voice, response_format: "mp3", speed: input.speed }),
      signal: input.signal,
    });
  } catch {
    return fail("model_error", UPSTREAM_FAILED);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    return fail("model_error", UPSTREAM_FAILED);
  }
  return { ok: true, audio: res.body, contentType: res.headers.get("Content-Type") || "audio/mpeg" };
}
