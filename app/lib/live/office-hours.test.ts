import { describe, expect, it } from "vitest";
import { describeOfficeHours, readLiveSettings, saveLiveSettingsSchema, withinOfficeHours, DEFAULT_LIVE_SETTINGS } from "./office-hours";

// Office hours are read in the organisation's time zone: the same instant is inside them in one zone
// and outside in another.

const HOURS = { officeHoursOn: true, days: [1, 2, 3, 4, 5], from: "09:00", to: "17:00" };
// Monday 2026-11-23 07:30 UTC = 08:30 in Warsaw (UTC+1), 02:30 in New York (UTC-5).
const MONDAY_0730_UTC = Date.UTC(2026, 10, 23, 7, 30);

describe("office hours", () => {
  it("are open only on the chosen weekdays between from and to, in the organisation's time zone", () => {
    expect(withinOfficeHours(HOURS, MONDAY_0730_UTC, "UTC")).toBe(false);
    expect(withinOfficeHours(HOURS, MONDAY_0730_UTC + 90 * 60_000, "UTC")).toBe(true); // 09:00 UTC
    expect(withinOfficeHours(HOURS, MONDAY_0730_UTC + 30 * 60_000, "Europe/Warsaw")).toBe(true); // 09:00 Warsaw
    expect(withinOfficeHours(HOURS, MONDAY_0730_UTC + 30 * 60_000, "America/New_York")).toBe(false);
    // 17:00 is closed already; Saturday is closed all day.
    expect(withinOfficeHours(HOURS, Date.UTC(2026, 10, 23, 17, 0), "UTC")).toBe(false);
    expect(withinOfficeHours(HOURS, Date.UTC(2026, 10, 28, 12, 0), "UTC")).toBe(false);
    // Off: always open; an unknown zone reads as UTC rather than failing.
    expect(withinOfficeHours({ ...HOURS, officeHoursOn: false }, Date.UTC(2026, 10, 28, 3, 0), "UTC")).toBe(true);
    expect(withinOfficeHours(HOURS, Date.UTC(2026, 10, 23, 12, 0), "Mars/Olympus")).toBe(true);
  });

  it("are described in words, with runs of days joined", () => {
    expect(describeOfficeHours(HOURS, "Europe/Warsaw")).toBe("Monday–Friday, 09:00–17:00 (Europe/Warsaw)");
    expect(describeOfficeHours({ days: [6, 1, 3], from: "10:00", to: "12:30" }, "UTC")).toBe("Monday, Wednesday, Saturday, 10:00–12:30 (UTC)");
  });

  it("fall back to defaults for missing or broken settings", () => {
    expect(readLiveSettings(null)).toEqual(DEFAULT_LIVE_SETTINGS);
    expect(readLiveSettings({ live: { waitMinutes: 999, from: "08:00", officeHoursOn: true } })).toMatchObject({
      waitMinutes: 5,
      from: "08:00",
      officeHoursOn: true,
    });
  });

  it("validate the form: days, times in order, the wait in minutes", () => {
    const base = { intent: "save-live-settings", officeHoursOn: "on", days: "2,1", from: "09:00", to: "17:00", waitMinutes: "3" };
    expect(saveLiveSettingsSchema.parse(base)).toMatchObject({ officeHoursOn: true, days: [1, 2], waitMinutes: 3 });
    const issues = (v: object) => saveLiveSettingsSchema.safeParse({ ...base, ...v }).error?.issues.map((i) => [String(i.path[0]), i.message]);
    expect(issues({ days: "" })).toEqual([["days", "Choose at least one day."]]);
    expect(issues({ to: "08:00" })).toEqual([["to", "End after the start (hours past midnight are not supported)."]]);
    expect(issues({ from: "9" })).toEqual([["from", "Use a time like 09:00."]]);
    expect(issues({ days: "1,9" })).toEqual([["days", "Choose days from the list."]]);
    expect(issues({ waitMinutes: "0" })).toEqual([["waitMinutes", "Use 1 to 60 minutes."]]);
    // Office hours off: the days and times are kept but not checked against each other.
    expect(saveLiveSettingsSchema.safeParse({ ...base, officeHoursOn: "", days: "" }).success).toBe(true);
  });
});
