import { z } from "zod";

// URL state shared by the dashboard's keyset-paged lists (leads, bug reports): the page position
// (`older=<created_at>.<id>`) and an inclusive from/to filter of UTC days.

/** A keyset position: the created_at and id of the row a page starts after. */
export type KeysetCursor = { at: number; id: string };

const CURSOR = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/;

/** The position in `raw`, or null when it is missing or malformed (an edited link still shows a list). */
export function parseKeysetCursor(raw: string | null): KeysetCursor | null {
  const m = CURSOR.exec(raw ?? "");
  return m ? { at: Number(m[1]), id: m[2] } : null;
}

export const encodeKeysetCursor = (c: KeysetCursor) => `${c.at}.${c.id}`;

const daySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date like 2026-01-31.")
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "Use a real date.");

/**
 * `from` and `to` (YYYY-MM-DD) from the query. A bad date is not applied and its message goes into
 * `errors` at its field; an end before the start drops the end.
 */
export function readDayFilter(search: URLSearchParams, errors: Partial<Record<"from" | "to", string>>): { from: string | null; to: string | null } {
  const day = (key: "from" | "to") => {
    const raw = (search.get(key) ?? "").trim();
    if (!raw) return null;
    const parsed = daySchema.safeParse(raw);
    if (!parsed.success) errors[key] = parsed.error.issues[0]?.message;
    return parsed.success ? parsed.data : null;
  };
  const from = day("from");
  const to = day("to");
  if (from && to && from > to) errors.to = "The end date is before the start date.";
  return { from, to: errors.to ? null : to };
}

/** Milliseconds range [start, end) of the UTC days a filter covers. */
export function utcDayRange(params: { from: string | null; to: string | null }): { start: number | null; end: number | null } {
  return {
    start: params.from ? Date.parse(`${params.from}T00:00:00Z`) : null,
    end: params.to ? Date.parse(`${params.to}T00:00:00Z`) + 86_400_000 : null,
  };
}
