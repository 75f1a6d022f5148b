import { describe, expect, it } from "vitest";
import { dayIn, FORMATTERS_MAX, formattersHeld } from "./time-zone";

describe("dayIn", () => {
  it("gives the calendar day in the zone", () => {
    const ms = Date.UTC(2026, 11, 3, 23, 30);
    expect(dayIn("UTC", ms)).toBe("2026-12-03");
    expect(dayIn("Europe/Paris", ms)).toBe("2026-12-04");
    expect(dayIn("America/New_York", ms)).toBe("2026-12-03");
  });

  it("keeps at most FORMATTERS_MAX formatters however many spellings of a zone it meets (issue #21)", () => {
    const ms = Date.UTC(2026, 11, 3, 23, 30);
    const name = "europe/paris";
    for (let i = 0; i < FORMATTERS_MAX + 200; i++) {
      // A different upper/lower-case spelling each time: every one is a valid zone name.
      const spelled = [...name].map((c, k) => ((i >> k) & 1 ? c.toUpperCase() : c)).join("");
      expect(dayIn(spelled, ms)).toBe("2026-12-04");
    }
    expect(formattersHeld()).toBeLessThanOrEqual(FORMATTERS_MAX);
  });
});
