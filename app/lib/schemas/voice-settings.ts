import { z } from "zod";
import { LANGUAGES, type LanguageCode } from "./chatbot-settings";

// The "voice" section of chatbots.settings: read by the voice playground, the widget's microphone,
// the phone webhook and the settings/voice screen. Client-safe. Stored with json_set('$.voice') like
// the other sections, so saving it never overwrites another section.

/** Where speech is recognised and spoken. "browser" needs no key; "openai" needs OPENAI_API_KEY. */
export const VOICE_ENGINES = [
  { value: "browser", label: "The visitor's browser (no key needed)" },
  { value: "openai", label: "OpenAI speech-to-text and text-to-speech" },
] as const;
export type VoiceEngine = (typeof VOICE_ENGINES)[number]["value"];

/** OpenAI's documented text-to-speech voices; the browser engine uses the browser's own voice list. */
export const OPENAI_VOICES = ["alloy", "ash", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer"] as const;

/**
 * Twilio's <Say> offers its own voices (man, woman, Amazon Polly and Google voices) and no speed for
 * them; the browser's and OpenAI's voice names do not map to those, so a call keeps Twilio's voice for
 * the chosen language (ADR 029). The settings screen and the docs say so.
 */
export const PHONE_VOICE_NOTE =
  "On a call, answers are spoken by Twilio's voice for the chosen language at its normal speed: Voice and Speed apply in the browser only (the widget and the voice playground).";

export const VOICE_TEXT_MAX = 300;
export const MAX_CALL_MINUTES = 60;
/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as [LanguageCode, ...LanguageCode[]];

const voiceSettingsSchema = z.object({
  enabled: z.boolean().default(false),
  engine: z.enum(["browser", "openai"], { error: "Choose a speech engine." }).default("browser"),
  /** A voice name: one of OPENAI_VOICES for "openai"; for "browser" a name the browser offers, or "" for its default. */
  voice: z.string().trim().max(120, "Choose a voice from the list.").default(""),
  speed: z.coerce
    .number({ error: "Enter a speed between 0.5 and 2." })
    .min(0.5, "Use a speed between 0.5 and 2.")
    .max(2, "Use a speed between 0.5 and 2.")
    .default(1),
  language: z.enum(LANGUAGE_CODES, { error: "Choose a language from the list." }).default("auto"),
  greeting: z.string().trim().max(VOICE_TEXT_MAX, `Use at most ${VOICE_TEXT_MAX} characters.`).default("Hello! Ask me anything about us."),
  /** Where a phone call is transferred when the caller asks for a person; "" = no transfer. */
  phoneFallbackNumber: z
    .string()
    .trim()
    .transform((v) => v.replace(/[\s().-]/g, ""))
    .refine((v) => v === "" || E164.test(v), "Enter the number in international form, e.g. +353151234567.")
    .default(""),
  maxCallMinutes: z.coerce
    .number({ error: `Enter a whole number of minutes from 1 to ${MAX_CALL_MINUTES}.` })
    .int(`Enter a whole number of minutes from 1 to ${MAX_CALL_MINUTES}.`)
    .min(1, `Enter a whole number of minutes from 1 to ${MAX_CALL_MINUTES}.`)
    .max(MAX_CALL_MINUTES, `Enter a whole number of minutes from 1 to ${MAX_CALL_MINUTES}.`)
    .default(10),
  cannotHelpMessage: z
    .string()
    .trim()
    .min(1, "Enter what the bot says when it cannot help.")
    .max(VOICE_TEXT_MAX, `Use at most ${VOICE_TEXT_MAX} characters.`)
    .default("Sorry, I can't help with that. Please leave your details on our website and someone will get back to you."),
});
export type VoiceSettings = z.output<typeof voiceSettingsSchema>;
export const voiceSettingsFields = voiceSettingsSchema.shape;

export const DEFAULT_VOICE_SETTINGS: VoiceSettings = voiceSettingsSchema.parse({});

/** The voice section of a chatbot's settings; absent or no-longer-valid fields fall back to defaults. */
export function readVoiceSettings(settings: unknown): VoiceSettings {
  const section = settings && typeof settings === "object" ? (settings as Record<string, unknown>).voice : undefined;
  if (!section || typeof section !== "object") return { ...DEFAULT_VOICE_SETTINGS };
  const raw = section as Record<string, unknown>;
  const out: Record<string, unknown> = { ...DEFAULT_VOICE_SETTINGS };
  for (const key of Object.keys(voiceSettingsFields) as (keyof typeof voiceSettingsFields)[]) {
    if (!(key in raw)) continue;
    const parsed = voiceSettingsFields[key].safeParse(raw[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as VoiceSettings;
}
