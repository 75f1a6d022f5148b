import { z } from "zod";
import { addDays, daysBetween, isDay } from "../time-zone";

// The analytics screen's range (its URL query) and its "add an answer" form.

export const RANGE_PRESETS = [7, 30, 90] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
/** The longest custom range, in days. */
export const RANGE_MAX_DAYS = 366;

export type AnalyticsRange = { from: string; to: string; preset: RangePreset | null };

const day = (label: string) =>
  z
    .string({ error: `Enter the ${label} date.` })
    .trim()
    .min(1, `Enter the ${label} date.`)
    .refine(isDay, `Enter the ${label} date as a real date (YYYY-MM-DD).`);

/** A custom range: both days valid, in order, not after today, at most RANGE_MAX_DAYS long. */
export function customRangeSchema(today: string) {
  return z
    .object({ from: day("start"), to: day("end") })
    .refine((r) => r.from <= r.to, { message: "The start date must be on or before the end date.", path: ["from"] })
    .refine((r) => r.to <= today, { message: `The end date cannot be after today (${today}).`, path: ["to"] })
    .refine((r) => r.from > r.to || daysBetween(r.from, r.to) <= RANGE_MAX_DAYS, {
      message: `Choose a range of at most ${RANGE_MAX_DAYS} days.`,
      path: ["from"],
    });
}

export type RangeQuery = {
  range: AnalyticsRange;
  /** Field messages for a custom range that was refused (the screen then shows the last 30 days). */
  errors: Partial<Record<"from" | "to", string>>;
  typed: { from: string; to: string };
};

/**
 * `?days=7|30|90` (default 30) or `?from=YYYY-MM-DD&to=YYYY-MM-DD`, with `today` the organisation's
 * current day. A bad custom range says why and falls back to the default preset.
 */
export function parseRangeQuery(search: URLSearchParams, today: string): RangeQuery {
  const typed = { from: search.get("from") ?? "", to: search.get("to") ?? "" };
  const preset = (days: RangePreset): AnalyticsRange => ({ from: addDays(today, 1 - days), to: today, preset: days });
  if (typed.from || typed.to) {
    const parsed = customRangeSchema(today).safeParse(typed);
    if (parsed.success) {
      const known = RANGE_PRESETS.find((d) => parsed.data.to === today && parsed.data.from === addDays(today, 1 - d));
      return { range: { ...parsed.data, preset: known ?? null }, errors: {}, typed };
    }
    const errors: RangeQuery["errors"] = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as "from" | "to";
      errors[field] ??= issue.message;
    }
    return { range: preset(30), errors, typed };
  }
  const days = Number(search.get("days"));
  return { range: preset(RANGE_PRESETS.find((d) => d === days) ?? 30), errors: {}, typed };
}

export const ANSWER_MAX = 4000;
export const QUESTION_MAX = 500;

const GROUP_INVALID = "This question group is not valid. Reload the page and try again.";

export const addAnswerSchema = z.object({
  intent: z.literal("add-answer"),
  question: z.string({ error: "Enter the question." }).trim().min(1, "Enter the question.").max(QUESTION_MAX, `Use at most ${QUESTION_MAX} characters.`),
  answer: z
    .string({ error: "Write the answer the bot should give." })
    .trim()
    .min(1, "Write the answer the bot should give.")
    .max(ANSWER_MAX, `Use at most ${ANSWER_MAX} characters.`),
  /** The group's question keys (analytics/questions.ts), one per line, all marked answered. */
  keys: z
    .string({ error: GROUP_INVALID })
    .transform((v) => [
      ...new Set(
        v
          .split("\n")
          .map((k) => k.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.string().max(200, GROUP_INVALID)).min(1, GROUP_INVALID).max(200, GROUP_INVALID)),
});
export type AddAnswerInput = z.infer<typeof addAnswerSchema>;
