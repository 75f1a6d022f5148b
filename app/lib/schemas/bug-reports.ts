import { z } from "zod";
import { encodeKeysetCursor, type KeysetCursor, parseKeysetCursor, readDayFilter, utcDayRange } from "./list-query";

// Bug reports (…/settings/bug): the list's state in the URL query, so a filtered list is a link and
// the filter form is a plain GET form:
//   ?status=open&source=visitor&from=2026-01-01&to=2026-01-31&older=1700000000000.bug_x   (&report=bug_y opens one)
// and the forms of the screen and of the transcript's "Report" action. Shared by routes, the domain
// (app/.server/bug-reports) and the screens.

export const BUG_REPORT_STATUSES = ["open", "fixed", "dismissed"] as const;
export type BugReportStatus = (typeof BUG_REPORT_STATUSES)[number];
export const BUG_REPORT_STATUS_LABELS: Record<BugReportStatus, string> = { open: "Open", fixed: "Fixed", dismissed: "Dismissed" };

/** Who reported: a visitor from the widget (or the test page), or a member from a transcript. */
export const BUG_REPORT_SOURCES = ["visitor", "member"] as const;
export type BugReportSource = (typeof BUG_REPORT_SOURCES)[number];
export const BUG_REPORT_SOURCE_LABELS: Record<BugReportSource, string> = { visitor: "Visitors (widget)", member: "Team (transcripts)" };

export const BUG_REPORT_PAGE_SIZE = 25;
export const BUG_COMMENT_MAX = 1000;
/** The same bounds as a Q&A pair on the knowledge screen (app/lib/schemas/kb.ts). */
export const BUG_QUESTION_MAX = 1000;
export const BUG_ANSWER_MAX = 20_000;

export type BugReportCursor = KeysetCursor;

export type BugReportListParams = {
  /** null: every status. */
  status: BugReportStatus | null;
  source: BugReportSource | null;
  /** Inclusive UTC days (YYYY-MM-DD). */
  from: string | null;
  to: string | null;
  older: BugReportCursor | null;
};

export type BugReportListQuery = { params: BugReportListParams; errors: Partial<Record<"from" | "to", string>> };

/**
 * The list's state from a URL query. No status means the open reports (the work left to do);
 * `status=all` shows every one. An unknown value or malformed page position is dropped; a bad date
 * is not applied and says why at its field.
 */
export function parseBugReportListQuery(search: URLSearchParams): BugReportListQuery {
  const errors: BugReportListQuery["errors"] = {};
  const { from, to } = readDayFilter(search, errors);
  const rawStatus = search.get("status");
  const status = rawStatus === "all" ? null : (z.enum(BUG_REPORT_STATUSES).safeParse(rawStatus ?? "open").data ?? "open");
  const source = z.enum(BUG_REPORT_SOURCES).safeParse(search.get("source")).data ?? null;
  return {
    params: { status, source, from, to, older: parseKeysetCursor(search.get("older")) },
    errors,
  };
}

/** Milliseconds range [start, end) of the UTC days a filter covers. */
export const bugDayRange = utcDayRange;

/** The query string of a list state (and an open report), without empty parts. */
export function bugReportListSearch(params: Partial<BugReportListParams>, reportId?: string | null): string {
  const s = new URLSearchParams();
  if (params.status === null) s.set("status", "all");
  else if (params.status && params.status !== "open") s.set("status", params.status);
  if (params.source) s.set("source", params.source);
  if (params.from) s.set("from", params.from);
  if (params.to) s.set("to", params.to);
  if (params.older) s.set("older", encodeKeysetCursor(params.older));
  if (reportId) s.set("report", reportId);
  const text = s.toString();
  return text ? `?${text}` : "";
}

const idSchema = z.string().trim().min(1).max(64);
const comment = z
  .string({ error: "Say what was wrong with this answer." })
  .trim()
  .min(1, "Say what was wrong with this answer.")
  .max(BUG_COMMENT_MAX, `Use at most ${BUG_COMMENT_MAX.toLocaleString("en")} characters.`);
const expectedAnswer = z
  .string()
  .trim()
  .max(BUG_ANSWER_MAX, `Use at most ${BUG_ANSWER_MAX.toLocaleString("en")} characters.`)
  .optional()
  .transform((s) => s || null);

/** A member's report on one bot answer of a transcript (the conversation screen's "Report"). */
export const memberReportSchema = z.object({
  intent: z.literal("report-message"),
  messageId: idSchema,
  comment,
  expectedAnswer,
});
export const MEMBER_REPORT_FIELDS = ["messageId", "comment", "expectedAnswer"] as const;

export const bugStatusSchema = z.object({
  intent: z.literal("set-status"),
  reportId: idSchema,
  status: z.enum(BUG_REPORT_STATUSES, { message: "Choose a status." }),
});

/** "Fix": the corrected answer to the question, stored as a Q&A pair in the knowledge. */
export const bugFixSchema = z.object({
  intent: z.literal("fix"),
  reportId: idSchema,
  question: z
    .string({ error: "Enter the question the answer is for." })
    .trim()
    .min(1, "Enter the question the answer is for.")
    .max(BUG_QUESTION_MAX, `A question can be at most ${BUG_QUESTION_MAX.toLocaleString("en")} characters.`),
  answer: z
    .string({ error: "Enter the correct answer." })
    .trim()
    .min(1, "Enter the correct answer.")
    .max(BUG_ANSWER_MAX, `An answer can be at most ${BUG_ANSWER_MAX.toLocaleString("en")} characters.`),
});
export const BUG_FIX_FIELDS = ["reportId", "question", "answer"] as const;

/** One report as the settings screen lists it (loaded by app/.server/bug-reports). */
export type BugReportRow = {
  id: string;
  status: BugReportStatus;
  source: BugReportSource;
  reporterName: string | null;
  comment: string;
  expectedAnswer: string | null;
  createdAt: number;
  conversationId: string | null;
  messageId: string | null;
  /** The visitor's question the reported answer replied to (the last visitor message before it). */
  question: string | null;
  /** The reported answer as the bot gave it. */
  answer: string | null;
  /** The visitor's thumbs on that answer. */
  feedback: number | null;
  fixSourceId: string | null;
  fixSourceTitle: string | null;
  fixSourceStatus: string | null;
  resolvedAt: number | null;
  resolverName: string | null;
};
