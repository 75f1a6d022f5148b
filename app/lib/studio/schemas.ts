import { z } from "zod";
import { LANGUAGES, type LanguageCode } from "~/lib/schemas/chatbot-settings";

// The Studio's forms. Client-safe: the routes validate with them on the server and the pages read
// their limits (maxLength) from the same constants.

export const TONES = [
  { value: "friendly", label: "Friendly and warm" },
  { value: "professional", label: "Professional and precise" },
  { value: "concise", label: "Short and to the point" },
  { value: "casual", label: "Casual and relaxed" },
  { value: "formal", label: "Formal" },
] as const;
export type Tone = (typeof TONES)[number]["value"];

export const PROMPT_LIMITS = { orgName: 80, offering: 500, audience: 300, mustNot: 1000, handoff: 500 } as const;

const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as [LanguageCode, ...LanguageCode[]];
const optionalText = (max: number) => z.string().trim().max(max, `Use at most ${max} characters.`).optional().default("");

export const systemPromptSchema = z.object({
  orgName: z
    .string({ error: "Enter your organisation's name." })
    .trim()
    .min(1, "Enter your organisation's name.")
    .max(PROMPT_LIMITS.orgName, `Use at most ${PROMPT_LIMITS.orgName} characters.`),
  offering: z
    .string({ error: "Describe what your organisation offers." })
    .trim()
    .min(10, "Describe what your organisation offers in a sentence (at least 10 characters).")
    .max(PROMPT_LIMITS.offering, `Use at most ${PROMPT_LIMITS.offering} characters.`),
  audience: optionalText(PROMPT_LIMITS.audience),
  tone: z.enum(TONES.map((t) => t.value) as [Tone, ...Tone[]], { error: "Choose a tone from the list." }),
  mustNot: optionalText(PROMPT_LIMITS.mustNot),
  handoff: optionalText(PROMPT_LIMITS.handoff),
  language: z.enum(LANGUAGE_CODES, { error: "Choose a language from the list." }),
});
export type SystemPromptInput = z.output<typeof systemPromptSchema>;

// ——— FAQ generator ———

export const FAQ_TEXT_MAX = 50_000;
export const FAQ_MAX_PAIRS = 40;

export const faqGenerateSchema = z
  .object({
    intent: z.literal("generate"),
    text: z
      .string()
      .trim()
      .max(FAQ_TEXT_MAX, `Paste at most ${FAQ_TEXT_MAX.toLocaleString("en-US")} characters; split longer text.`)
      .optional()
      .default(""),
    url: z.string().trim().max(2000, "That address is too long.").optional().default(""),
  })
  .superRefine((v, ctx) => {
    if (!v.text && !v.url) ctx.addIssue({ code: "custom", path: ["text"], message: "Paste some text, or enter a web address below." });
    if (v.text && v.url) ctx.addIssue({ code: "custom", path: ["url"], message: "Use either pasted text or a web address, not both." });
    if (v.text && v.text.length < 40) ctx.addIssue({ code: "custom", path: ["text"], message: "Paste at least a paragraph (40 characters or more)." });
  });

// ——— ROI calculator ———

const num = (label: string, min: number, max: number, opts: { int?: boolean } = {}) =>
  z
    .string({ error: `Enter ${label}.` })
    .trim()
    .min(1, `Enter ${label}.`)
    .transform((s) => Number(s.replace(/[\s,](?=\d{3}\b)/g, "").replace(",", ".")))
    .pipe(
      z
        .number({ error: `Enter ${label} as a number.` })
        .refine((n) => Number.isFinite(n), `Enter ${label} as a number.`)
        .refine((n) => !opts.int || Number.isInteger(n), `Enter ${label} as a whole number.`)
        .refine((n) => n >= min && n <= max, `Enter ${label} between ${min.toLocaleString("en-US")} and ${max.toLocaleString("en-US")}.`),
    );

export const roiSchema = z.object({
  conversations: num("the conversations a month", 1, 10_000_000, { int: true }),
  share: num("the share the bot can answer (percent)", 0, 100),
  replies: num("the bot replies per conversation", 1, 50),
  minutes: num("the minutes per conversation", 0.5, 240),
  hourlyCost: num("the hourly cost", 1, 1000),
});
export type RoiInput = z.output<typeof roiSchema>;
