import { z } from "zod";

// The "general" section of chatbots.settings (name lives in its own column). Client-safe: the
// settings form and the server share it. Model ids are validated against the registry on the server
// (app/.server/ai/providers.ts); here a model id is only a well-formed string.

export const LANGUAGES = [
  { code: "auto", label: "Automatic (the visitor's language)" },
  { code: "en", label: "English" },
  { code: "fr", label: "French" },
  { code: "de", label: "German" },
  { code: "es", label: "Spanish" },
  { code: "pl", label: "Polish" },
  { code: "it", label: "Italian" },
  { code: "pt", label: "Portuguese" },
  { code: "nl", label: "Dutch" },
  { code: "sv", label: "Swedish" },
  { code: "da", label: "Danish" },
  { code: "no", label: "Norwegian" },
  { code: "fi", label: "Finnish" },
  { code: "cs", label: "Czech" },
  { code: "ro", label: "Romanian" },
  { code: "tr", label: "Turkish" },
  { code: "uk", label: "Ukrainian" },
  { code: "ja", label: "Japanese" },
  { code: "zh", label: "Chinese" },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]["code"];
const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as [LanguageCode, ...LanguageCode[]];

export const ANSWER_LENGTHS = [
  { value: "short", label: "Short — one or two sentences" },
  { value: "medium", label: "Medium — a short paragraph" },
  { value: "long", label: "Long — a detailed answer" },
] as const;
export type AnswerLength = (typeof ANSWER_LENGTHS)[number]["value"];

export const INSTRUCTIONS_MAX = 4000;
export const FALLBACK_MAX = 500;
/** The built-in engine: always available, the default for every new chatbot. */
const DEFAULT_MODEL_ID = "local";
const DEFAULT_FALLBACK_MESSAGE =
  "Sorry, I don't know the answer to that from what I have been taught. Could you rephrase, or leave your contact so someone from the team can help?";

const generalSettingsSchema = z.object({
  language: z.enum(LANGUAGE_CODES, { error: "Choose a language from the list." }).default("auto"),
  instructions: z.string().trim().max(INSTRUCTIONS_MAX, `Use at most ${INSTRUCTIONS_MAX} characters.`).default(""),
  model: z
    .string({ error: "Choose a model." })
    .trim()
    .min(1, "Choose a model.")
    .max(80, "Choose a model from the list.")
    .regex(/^[a-z0-9][a-z0-9._:-]*$/i, "Choose a model from the list.")
    .default(DEFAULT_MODEL_ID),
  temperature: z.coerce
    .number({ error: "Enter a number between 0 and 1." })
    .min(0, "Use a value between 0 and 1.")
    .max(1, "Use a value between 0 and 1.")
    .default(0.3),
  answerLength: z.enum(["short", "medium", "long"], { error: "Choose an answer length." }).default("medium"),
  onlyFromKnowledge: z.boolean().default(true),
  fallbackMessage: z
    .string()
    .trim()
    .min(1, "Enter the message shown when the bot does not know.")
    .max(FALLBACK_MAX, `Use at most ${FALLBACK_MAX} characters.`)
    .default(DEFAULT_FALLBACK_MESSAGE),
});
export type GeneralSettings = z.output<typeof generalSettingsSchema>;

export const DEFAULT_GENERAL_SETTINGS: GeneralSettings = generalSettingsSchema.parse({});

/**
 * The general section of a chatbot's settings, tolerant of missing or old data: every field that is
 * absent or no longer valid falls back to its default, the rest is kept.
 */
export function readGeneralSettings(settings: unknown): GeneralSettings {
  const section = settings && typeof settings === "object" ? (settings as Record<string, unknown>).general : undefined;
  if (!section || typeof section !== "object") return { ...DEFAULT_GENERAL_SETTINGS };
  const raw = section as Record<string, unknown>;
  const out: Record<string, unknown> = { ...DEFAULT_GENERAL_SETTINGS };
  const shape = generalSettingsSchema.shape;
  for (const key of Object.keys(shape) as (keyof typeof shape)[]) {
    if (!(key in raw)) continue;
    const parsed = shape[key].safeParse(raw[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as GeneralSettings;
}

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
  .optional()
  .transform((v) => v === "on" || v === "true");

/** The settings/general "save" form: the chatbot's name plus the general section. */
export const saveGeneralSettingsSchema = z.object({
  intent: z.literal("save"),
  name: z.string({ error: "Enter a name for the chatbot." }).trim().min(1, "Enter a name for the chatbot.").max(80, "Use at most 80 characters."),
  language: generalSettingsSchema.shape.language.unwrap(),
  instructions: z.string().trim().max(INSTRUCTIONS_MAX, `Use at most ${INSTRUCTIONS_MAX} characters.`),
  model: generalSettingsSchema.shape.model.unwrap(),
  temperature: z
    .string({ error: "Enter a number between 0 and 1." })
    .trim()
    .min(1, "Enter a number between 0 and 1.")
    .transform((v) => Number(v.replace(",", ".")))
    .pipe(z.number({ error: "Enter a number between 0 and 1." }).min(0, "Use a value between 0 and 1.").max(1, "Use a value between 0 and 1.")),
  answerLength: z.enum(["short", "medium", "long"], { error: "Choose an answer length." }),
  onlyFromKnowledge: checkbox,
  fallbackMessage: generalSettingsSchema.shape.fallbackMessage.unwrap(),
});
/** The settings/general "save" inputs every save must carry ("only from knowledge" is a checkbox). */
export const GENERAL_FORM_FIELDS = ["name", "language", "instructions", "model", "temperature", "answerLength", "fallbackMessage"] as const;
export const duplicateChatbotSchema = z.object({ intent: z.literal("duplicate") });
export const deleteThisChatbotSchema = z.object({ intent: z.literal("delete") });
