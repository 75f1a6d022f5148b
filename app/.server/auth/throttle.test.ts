import { env } from "cloudflare:workers";
import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "./crypto";
import { createDb } from "../db/client";
import { rateLimits } from "../db/schema";
import { clientIp, hit, hitAll } from "./throttle";

const req = (headers: Record<string, string>) => new Request("https://parley.example/login", { headers });

describe("clientIp: which address a throttle counts", () => {
  it("production: only Cloudflare's CF-Connecting-IP; X-Forwarded-For is the client's to forge and is ignored", () => {
    expect(clientIp(req({ "CF-Connecting-IP": "203.0.113.7", "X-Forwarded-For": "198.51.100.1" }), true)).toBe("203.0.113.7");
    expect(clientIp(req({ "X-Forwarded-For": "198.51.100.1" }), true)).toBe("unknown");
    expect(clientIp(req({}), true)).toBe("unknown");
  });

  it("local runs (no edge): CF-Connecting-IP, then the first X-Forwarded-For address, then 'local'", () => {
    expect(clientIp(req({ "CF-Connecting-IP": "203.0.113.7" }), false)).toBe("203.0.113.7");
    expect(clientIp(req({ "X-Forwarded-For": "198.51.100.1, 10.0.0.1" }), false)).toBe("198.51.100.1");
    expect(clientIp(req({}), false)).toBe("local");
  });
});

describe("hitAll: several limits in one statement", () => {
  const db = createDb(env.DB);
  const T0 = Date.UTC(2026, 4, 1, 10, 0, 0);
  const limits = { minute: { max: 2, windowMs: 60_000 }, hour: { max: 3, windowMs: 3_600_000 } };
  const rows = async (keys: string[]) =>
    Object.fromEntries(
      (await db.select().from(rateLimits).where(inArray(rateLimits.key, keys))).map((r) => [r.key.slice(r.key.indexOf(":") + 1), [r.windowStart, r.count]]),
    );

  it("stores the same rows and gives the same verdicts as one hit() per key", async () => {
    const a = newId("a_");
    const b = newId("b_");
    const keys = (p: string) => [`${p}:m`, `${p}:h`];
    const times = [T0, T0 + 1_000, T0 + 2_000, T0 + 61_000, T0 + 62_000, T0 + 3_600_000];
    for (const t of times) {
      const together = await hitAll(
        db,
        [
          [`${a}:m`, limits.minute],
          [`${a}:h`, limits.hour],
        ],
        t,
      );
      const one = await hit(db, `${b}:m`, limits.minute, t);
      const other = await hit(db, `${b}:h`, limits.hour, t);
      expect(together).toEqual({ ok: one.ok && other.ok, retryAfterS: Math.max(one.ok ? 0 : one.retryAfterS, other.ok ? 0 : other.retryAfterS) });
      expect(await rows(keys(a))).toEqual(await rows(keys(b)));
    }
    // The minute window restarted at T0 + 60 s and again at the hour; the hour window counted to 5, then restarted.
    expect(await rows(keys(a))).toEqual({ m: [T0 + 3_600_000, 1], h: [T0 + 3_600_000, 1] });
  });

  it("refuses when any one limit is past, with the longest wait", async () => {
    const p = newId("c_");
    const checks: [string, typeof limits.minute][] = [
      [`${p}:m`, limits.minute],
      [`${p}:h`, limits.hour],
    ];
    expect((await hitAll(db, checks, T0)).ok).toBe(true);
    expect((await hitAll(db, checks, T0 + 1_000)).ok).toBe(true);
    expect(await hitAll(db, checks, T0 + 30_000)).toEqual({ ok: false, retryAfterS: 30 });
    expect(await hitAll(db, checks, T0 + 70_000)).toEqual({ ok: false, retryAfterS: 3_530 });
    expect(await hitAll(db, [], T0)).toEqual({ ok: true, retryAfterS: 0 });
  });
});
