import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../auth/crypto";
import { createDb } from "../db/client";
import { ACTION_LIMITS, IP_CEILING_FACTOR, chatMessageLimits, checkLimits, checkLimitsWith, rateLimitMessage, widgetActionLimits } from "./rate-limit";

const db = createDb(env.DB);
const MINUTE = 60_000;
// A fixed instant at the start of an hour, so minute and hour windows are predictable.
const T0 = Date.UTC(2026, 4, 1, 10, 0, 0);

describe("chat message limits", () => {
  const access = { rateLimitPerMinute: 3, rateLimitPerHour: 5 };

  it("refuses the visitor past the per-minute limit, with the seconds left in the window", async () => {
    const bot = newId("cb_");
    const keys = chatMessageLimits(access, bot, "visitor_a", "203.0.113.1");
    for (let i = 0; i < 3; i++) expect((await checkLimits(db, keys, T0 + i * 1000)).ok).toBe(true);
    const refused = await checkLimits(db, keys, T0 + 15_000);
    expect(refused).toEqual({
      ok: false,
      retryAfterS: 45,
      message: "You're sending messages faster than this chat allows. Please wait 45 seconds and try again.",
    });
    // The next minute the visitor may write again…
    expect((await checkLimits(db, keys, T0 + MINUTE)).ok).toBe(true);
  });

  it("the hourly limit holds across minutes", async () => {
    const bot = newId("cb_");
    const keys = chatMessageLimits(access, bot, "visitor_b", "203.0.113.2");
    for (let i = 0; i < 5; i++) expect((await checkLimits(db, keys, T0 + i * MINUTE)).ok).toBe(true);
    const refused = await checkLimits(db, keys, T0 + 10 * MINUTE);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.retryAfterS).toBe(50 * 60);
      expect(refused.message).toBe("You're sending messages faster than this chat allows. Please wait about 50 minutes and try again.");
    }
  });

  it("new visitor ids from one IP stop at the IP ceiling; other IPs and other chatbots are unaffected", async () => {
    const bot = newId("cb_");
    const ip = "203.0.113.3";
    const ceiling = access.rateLimitPerMinute * IP_CEILING_FACTOR;
    for (let i = 0; i < ceiling; i++) expect((await checkLimits(db, chatMessageLimits(access, bot, `visitor_rot_${i}`, ip), T0 + i)).ok).toBe(true);
    expect((await checkLimits(db, chatMessageLimits(access, bot, "visitor_rot_new", ip), T0 + 100)).ok).toBe(false);
    expect((await checkLimits(db, chatMessageLimits(access, bot, "visitor_rot_new", "203.0.113.4"), T0 + 100)).ok).toBe(true);
    expect((await checkLimits(db, chatMessageLimits(access, newId("cb_"), "visitor_rot_new", ip), T0 + 100)).ok).toBe(true);
  });

  it("is counted in D1, so concurrent requests (any Worker instance) cannot overshoot", async () => {
    const keys = chatMessageLimits(access, newId("cb_"), "visitor_c", "203.0.113.5");
    const results = await Promise.all(Array.from({ length: 10 }, () => checkLimits(db, keys, T0)));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
  });
});

describe("checkLimitsWith (a live conversation's object counting its visitor's socket messages, ADR 033)", () => {
  it("gives the same verdicts as the D1 windows for the same limits and times", async () => {
    const counts = new Map<string, { windowStart: number; n: number }>();
    const count = (key: string, windowStart: number) => {
      const c = counts.get(key);
      const n = c && c.windowStart === windowStart ? c.n + 1 : 1;
      counts.set(key, { windowStart, n });
      return n;
    };
    const access = { rateLimitPerMinute: 3, rateLimitPerHour: 5 };
    const keys = chatMessageLimits(access, newId("cb_"), "visitor_b", "203.0.113.9");
    const times = [0, 1000, 2000, 15_000, MINUTE, MINUTE + 1000, MINUTE + 2000, 3 * MINUTE];
    for (const t of times) expect(checkLimitsWith(count, keys, T0 + t), `t=${t}`).toEqual(await checkLimits(db, keys, T0 + t));
  });
});

describe("widget action limits", () => {
  it("allow a person's pace and refuse a script's", async () => {
    const keys = widgetActionLimits(newId("cb_"), "visitor_d", "203.0.113.6");
    for (let i = 0; i < ACTION_LIMITS.perVisitorPerMinute; i++) expect((await checkLimits(db, keys, T0)).ok).toBe(true);
    expect((await checkLimits(db, keys, T0)).ok).toBe(false);
  });
});

describe("rateLimitMessage", () => {
  it("speaks in seconds, then minutes", () => {
    expect(rateLimitMessage(1)).toMatch(/Please wait 1 second and try again\.$/);
    expect(rateLimitMessage(90)).toMatch(/Please wait 90 seconds/);
    expect(rateLimitMessage(91)).toMatch(/Please wait about 2 minutes/);
    expect(rateLimitMessage(5, "actions")).toBe("You're doing that faster than this chat allows. Please wait 5 seconds and try again.");
  });
});
