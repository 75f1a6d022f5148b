import { z } from "zod";

// Live chat's availability settings (ADR 027), the `live` section of chatbots.settings: the office
// hours (weekdays and a from–to time in the organisation's time zone) that decide what a visitor who
// asks for a person is promised, and how long they wait for someone to take the conversation before
// they are offered the lead form. Client-safe: the inbox's settings form and the server share it.

/** Monday first, as people read a week. Values are ISO weekday numbers (1 = Monday … 7 = Sunday). */
export const WEEKDAYS = [
  { n: 1, short: "Mon", label: "Monday" },
  { n: 2, short: "Tue", label: "Tuesday" },
  { n: 3, short: "Wed", label: "Wednesday" },
  { n: 4, short: "Thu", label: "Thursday" },
  { n: 5, short: "Fri", label: "Friday" },
  { n: 6, short: "Sat", label: "Saturday" },
  { n: 7, short: "Sun", label: "Sunday" },
] as const;

export const WAIT_MINUTES_MIN = 1;
export const WAIT_MINUTES_MAX = 60;

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use a time like 09:00.");

export const liveSettingsSchema = z.object({
  /** Off: a person may be asked for at any hour (whoever is online answers). */
  officeHoursOn: z.boolean().default(false),
  days: z.array(z.number().int().min(1).max(7)).default([1, 2, 3, 4, 5]),
  from: time.default("09:00"),
  to: time.default("17:00"),
  /** Minutes a visitor waits for someone to take the conversation before the lead form is offered. */
  waitMinutes: z.number().int().min(WAIT_MINUTES_MIN).max(WAIT_MINUTES_MAX).default(5),
});
export type LiveSettings = z.output<typeof liveSettingsSchema>;
export const DEFAULT_LIVE_SETTINGS: LiveSettings = liveSettingsSchema.parse({});

/** The live section of a chatbot's settings; anything missing or no longer valid falls back to its default. */
export function readLiveSettings(settings: unknown): LiveSettings {
  const section = settings && typeof settings === "object" ? (settings as Record<string, unknown>).live : undefined;
  if (!section || typeof section !== "object") return { ...DEFAULT_LIVE_SETTINGS };
  const raw = section as Record<string, unknown>;
  const out: Record<string, unknown> = { ...DEFAULT_LIVE_SETTINGS };
  const shape = liveSettingsSchema.shape;
  for (const key of Object.keys(shape) as (keyof typeof shape)[]) {
    if (!(key in raw)) continue;
    const parsed = shape[key].safeParse(raw[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as LiveSettings;
}

/** The inbox's "Office hours" form: a checkbox per weekday named `day` (the action joins them into `days`, "1,2,5"), times, wait. */
export const saveLiveSettingsSchema = z
  .object({
    intent: z.literal("save-live-settings"),
    officeHoursOn: z
      .union([z.literal("on"), z.literal("")])
      .optional()
      .transform((v) => v === "on"),
    days: z
      .string()
      .default("")
      .transform((v) => [...new Set(v.split(",").filter(Boolean).map(Number))].sort((a, b) => a - b))
      .pipe(z.array(z.number().int("Choose days from the list.").min(1, "Choose days from the list.").max(7, "Choose days from the list."))),
    from: time,
    to: time,
    waitMinutes: z
      .string()
      .trim()
      .min(1, "Enter the minutes a visitor waits.")
      .transform(Number)
      .pipe(
        z
          .number({ error: "Enter a whole number of minutes." })
          .int("Enter a whole number of minutes.")
          .min(WAIT_MINUTES_MIN, `Use ${WAIT_MINUTES_MIN} to ${WAIT_MINUTES_MAX} minutes.`)
          .max(WAIT_MINUTES_MAX, `Use ${WAIT_MINUTES_MIN} to ${WAIT_MINUTES_MAX} minutes.`),
      ),
  })
  .superRefine((v, ctx) => {
    if (!v.officeHoursOn) return;
    if (!v.days.length) ctx.addIssue({ code: "custom", path: ["days"], message: "Choose at least one day." });
    const valid = (t: string) => /^\d\d:\d\d$/.test(t);
    if (valid(v.from) && valid(v.to) && v.from >= v.to)
      ctx.addIssue({ code: "custom", path: ["to"], message: "End after the start (hours past midnight are not supported)." });
  });
/** Inputs every save carries (the checkboxes are absent when unticked). */
export const LIVE_SETTINGS_FIELDS = ["from", "to", "waitMinutes"] as const;

/** The weekday (1–7) and minutes past midnight of `at` in `timeZone`. */
function localTime(at: number, timeZone: string): { day: number; minutes: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-GB", { timeZone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  } catch {
    // An unknown zone (an old row): read the hours in UTC rather than failing the visitor.
    parts = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  }
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  const day = WEEKDAYS.find((d) => d.short === get("weekday"))?.n ?? 1;
  return { day, minutes: Number(get("hour")) * 60 + Number(get("minute")) };
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether `at` falls within the office hours (always true when office hours are off). */
export function withinOfficeHours(s: Pick<LiveSettings, "officeHoursOn" | "days" | "from" | "to">, at: number, timeZone: string): boolean {
  if (!s.officeHoursOn) return true;
  const { day, minutes } = localTime(at, timeZone);
  return s.days.includes(day) && minutes >= toMinutes(s.from) && minutes < toMinutes(s.to);
}

/** "Monday–Friday, 09:00–17:00 (Europe/Warsaw)"; runs of days are joined with a dash. */
export function describeOfficeHours(s: Pick<LiveSettings, "days" | "from" | "to">, timeZone: string): string {
  const days = [...new Set(s.days)].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const d of days) {
    const last = runs.at(-1);
    if (last && last.at(-1) === d - 1) last.push(d);
    else runs.push([d]);
  }
  const name = (n: number) => WEEKDAYS[n - 1].label;
  const text = runs.map((r) => (r.length >= 3 ? `${name(r[0])}–${name(r.at(-1)!)}` : r.map(name).join(", "))).join(", ");
  return `${text}, ${s.from}–${s.to} (${timeZone})`;
}
