import { z } from "zod";
import { encodeKeysetCursor, type KeysetCursor, parseKeysetCursor, readDayFilter, utcDayRange } from "./list-query";

// The leads screen's state, carried in the URL query so a filtered list is a link and the filter
// form is a plain GET form that works without JavaScript:
//   ?q=ada&status=new&from=2026-01-01&to=2026-01-31&older=1700000000000.lead_x   (&lead=lead_y opens one)
// Shared by the route (parsing), the domain (LeadListParams) and the screen (building links).

export const LEAD_STATUSES = ["new", "contacted", "qualified", "won", "lost"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: "New",
  contacted: "Contacted",
  qualified: "Qualified",
  won: "Won",
  lost: "Lost",
};

export const LEAD_SEARCH_MAX = 200;
export const LEAD_NOTES_MAX = 5000;
export const LEAD_PAGE_SIZE = 50;

/** A keyset position: the created_at and id of the row a page starts after. */
export type LeadCursor = KeysetCursor;

export const encodeLeadCursor = encodeKeysetCursor;

export type LeadListParams = {
  q: string;
  status: LeadStatus | null;
  /** Inclusive UTC days (YYYY-MM-DD). */
  from: string | null;
  to: string | null;
  older: LeadCursor | null;
};

/** Milliseconds range [start, end) of the UTC days a filter covers. */
export const dayRange = utcDayRange;

export type LeadListQuery = { params: LeadListParams; errors: Partial<Record<"q" | "from" | "to", string>> };

/**
 * The list's state from a URL query. An unknown status or malformed page position is dropped (an
 * edited link still shows a list); a bad search or date is not applied and says why at its field.
 */
export function parseLeadListQuery(search: URLSearchParams): LeadListQuery {
  const errors: LeadListQuery["errors"] = {};
  const q = z
    .string()
    .trim()
    .max(LEAD_SEARCH_MAX, `Search for at most ${LEAD_SEARCH_MAX} characters.`)
    .safeParse(search.get("q") ?? "");
  if (!q.success) errors.q = q.error.issues[0]?.message;
  const { from, to } = readDayFilter(search, errors);
  const status = z.enum(LEAD_STATUSES).safeParse(search.get("status"));

  return {
    params: {
      q: q.success ? q.data : "",
      status: status.success ? status.data : null,
      from,
      to,
      older: parseKeysetCursor(search.get("older")),
    },
    errors,
  };
}

/** The query string of a list state (and an open lead), without empty parts. */
export function leadListSearch(params: Partial<LeadListParams>, leadId?: string | null): string {
  const s = new URLSearchParams();
  if (params.q) s.set("q", params.q);
  if (params.status) s.set("status", params.status);
  if (params.from) s.set("from", params.from);
  if (params.to) s.set("to", params.to);
  if (params.older) s.set("older", encodeLeadCursor(params.older));
  if (leadId) s.set("lead", leadId);
  const text = s.toString();
  return text ? `?${text}` : "";
}

/** The detail's form: status and notes, saved together. */
export const leadUpdateSchema = z.object({
  leadId: z.string().min(1).max(64),
  status: z.enum(LEAD_STATUSES, { message: "Choose a status." }),
  notes: z.string().max(LEAD_NOTES_MAX, `Notes hold at most ${LEAD_NOTES_MAX} characters.`).default(""),
});
export const LEAD_UPDATE_FIELDS = ["leadId", "status", "notes"] as const;

export const leadDeleteSchema = z.object({ leadId: z.string().min(1).max(64) });
