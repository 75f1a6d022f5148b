import { z } from "zod";

// Calendar days in an organisation's time zone (IANA names, "Europe/Paris"). Client-safe: the
// settings form lists the zones and the analytics screen labels its days with the same rules.

export const DEFAULT_TIME_ZONE = "UTC";

/** True when the runtime knows `name` as an IANA time zone (or UTC). */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The zones a person can pick: the runtime's IANA list, UTC first. */
export function timeZoneNames(): string[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [DEFAULT_TIME_ZONE, ...all.filter((z) => z !== DEFAULT_TIME_ZONE)];
}

export const timeZoneSchema = z
  .string({ error: "Choose a time zone." })
  .trim()
  .min(1, "Choose a time zone.")
  .refine(isTimeZone, "Choose a time zone from the list, e.g. Europe/Paris or America/New_York.");

// One formatter per zone name, per isolate. Names are organisations' settings (≤ 64 characters, but
// "europe/paris" and "Europe/Paris" are both valid), and each formatter is of a fixed size, so a
// cap on entries bounds the bytes too (issue #21): a few hundred KB at most.
export const FORMATTERS_MAX = 600;
const formatters = new Map<string, Intl.DateTimeFormat>();
/** How many formatters this isolate holds (tests check the cap). */
export const formattersHeld = () => formatters.size;
function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    if (formatters.size >= FORMATTERS_MAX) formatters.clear();
    formatters.set(timeZone, f);
  }
  return f;
}

/** The calendar day (YYYY-MM-DD) of the instant `ms` in `timeZone`. */
export function dayIn(timeZone: string, ms: number): string {
  const parts = formatter(timeZone).formatToParts(ms);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isDay(s: string): boolean {
  if (!DAY_PATTERN.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** `day` plus `n` calendar days (days are zone-free labels: plain UTC date arithmetic is exact). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Number of days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Every day from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
