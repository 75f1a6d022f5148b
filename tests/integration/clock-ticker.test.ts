import { afterEach, describe, expect, it, vi } from "vitest";
import { tickOnClockMarks } from "../../scripts/lib/clock-ticker.mjs";

// npm start's stand-in for the cron trigger (scripts/start.mjs): wrangler dev fires none by itself.
describe("tickOnClockMarks", () => {
  afterEach(() => vi.useRealTimers());

  it("ticks at once, then on every 5-minute mark of the clock, until stopped", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-26T10:02:30Z"));
    const at: string[] = [];
    const stop = tickOnClockMarks(5 * 60_000, () => at.push(new Date().toISOString().slice(11, 19)));
    expect(at).toEqual(["10:02:30"]);
    vi.advanceTimersByTime(2.5 * 60_000 - 1);
    expect(at).toHaveLength(1);
    vi.advanceTimersByTime(1 + 10 * 60_000);
    expect(at).toEqual(["10:02:30", "10:05:00", "10:10:00", "10:15:00"]);
    stop();
    vi.advanceTimersByTime(60 * 60_000);
    expect(at).toHaveLength(4);
  });
});
