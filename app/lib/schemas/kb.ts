import { z } from "zod";

// Forms of …/{chatbotId}/kb. Each posts a hidden `intent`; the route combines them with
// z.discriminatedUnion("intent", […]). The file upload's File part is validated by the action
// (type and size depend on the plan), the rest here.

const sourceId = z.string({ error: "Choose a source." }).trim().min(1, "Choose a source.").max(64, "That source is not valid.");

const lines = (max: number, what: string) =>
  z
    .string()
    .optional()
    .default("")
    .transform((s) =>
      s
        .split(/[\n,]+/)
        .map((l) => l.trim())
        .filter(Boolean),
    )
    .refine((l) => l.length <= max, `Use at most ${max} ${what}.`)
    .refine((l) => l.every((p) => p.length <= 200), "Each pattern can be at most 200 characters.");

/** The most characters one text source may hold (the KB form and the REST API). */
export const TEXT_SOURCE_MAX = 2_000_000;
const TEXT_SOURCE_MAX_SHOWN = TEXT_SOURCE_MAX.toLocaleString("en-US");

const addTextSchema = z.object({
  intent: z.literal("add-text"),
  title: z.string().trim().max(200, "Use at most 200 characters.").optional().default(""),
  text: z
    .string({ error: "Enter the text the bot should learn." })
    .trim()
    .min(1, "Enter the text the bot should learn.")
    .max(TEXT_SOURCE_MAX, `Use at most ${TEXT_SOURCE_MAX_SHOWN} characters in one text source; split it into several.`),
});

/** Q&A pairs arrive as a JSON array in `pairs` (the form keeps it in step with its rows). */
export const qaPairsSchema = z
  .array(
    z.object({
      question: z.string().trim().max(1000, "A question can be at most 1,000 characters."),
      answer: z.string().trim().max(20_000, "An answer can be at most 20,000 characters."),
    }),
  )
  .max(500, "Add at most 500 pairs at once.");

const addQaSchema = z.object({
  intent: z.literal("add-qa"),
  title: z.string().trim().max(200, "Use at most 200 characters.").optional().default(""),
  pairs: z
    .string({ error: "Add at least one question with its answer." })
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "Add at least one question with its answer." });
        return z.NEVER;
      }
    })
    .pipe(qaPairsSchema)
    .refine((p) => p.some((x) => x.question || x.answer), "Add at least one question with its answer.")
    .refine((p) => p.every((x) => (!x.question && !x.answer) || (x.question && x.answer)), "Every pair needs both a question and an answer."),
});

const addFileSchema = z.object({ intent: z.literal("add-file") });

const url = z.string({ error: "Enter a web address." }).trim().min(1, "Enter a web address.").max(2000, "That address is too long.");

const addUrlSchema = z.object({ intent: z.literal("add-url"), url });

const addSiteSchema = z.object({
  intent: z.literal("add-site"),
  url,
  pageCap: z.coerce.number({ error: "Enter how many pages to crawl." }).int("Enter a whole number of pages.").min(1, "Crawl at least 1 page."),
  include: lines(50, "include patterns"),
  exclude: lines(50, "exclude patterns"),
});

const retrySourceSchema = z.object({ intent: z.literal("retry"), sourceId });
const resyncSourceSchema = z.object({ intent: z.literal("resync"), sourceId });
const scheduleSourceSchema = z.object({
  intent: z.literal("schedule"),
  sourceId,
  schedule: z.enum(["off", "daily", "weekly"], { error: "Choose how often to re-sync." }),
});
const deleteSourceSchema = z.object({ intent: z.literal("delete-source"), sourceId });

export const kbActionSchema = z.discriminatedUnion("intent", [
  addTextSchema,
  addQaSchema,
  addFileSchema,
  addUrlSchema,
  addSiteSchema,
  retrySourceSchema,
  resyncSourceSchema,
  scheduleSourceSchema,
  deleteSourceSchema,
]);
