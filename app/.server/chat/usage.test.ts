import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { organisations } from "../db/schema";
import { newId } from "../auth/crypto";
import { currentPeriod, getReplyUsage, tryConsumeReply } from "./usage";

const ctx = { db: createDb(env.DB) };
const day = 86_400_000;

async function org(plan: "free" | "starter" = "free", periodStart = Date.UTC(2026, 0, 31)) {
  const row = { id: newId("org_"), name: "U", slug: `u-${newId()}`, plan, periodStart };
  await ctx.db.insert(organisations).values(row);
  return row;
}

describe("reply usage", () => {
  it("periods renew monthly from periodStart, clamped to short months", () => {
    const start = Date.UTC(2026, 0, 31);
    expect(currentPeriod(start, start + day)).toEqual({ start, end: Date.UTC(2026, 1, 28) });
    expect(currentPeriod(start, Date.UTC(2026, 2, 1)).start).toBe(Date.UTC(2026, 1, 28));
    expect(currentPeriod(start, Date.UTC(2026, 2, 31, 12)).start).toBe(Date.UTC(2026, 2, 31));
  });

  it("counts replies and refuses past the plan's limit, atomically under concurrency", async () => {
    const o = await org("free");
    const now = o.periodStart + 5 * day;
    const results = await Promise.all(Array.from({ length: 110 }, () => tryConsumeReply(ctx, o, now)));
    expect(results.filter((r) => r.ok)).toHaveLength(100);
    const refused = results.find((r) => !r.ok);
    expect(refused && !refused.ok && refused.message).toMatch(/100 bot replies.*Starter/);
    expect((await getReplyUsage(ctx, o, now)).replies).toBe(100);
    // The next period starts from zero.
    expect((await tryConsumeReply(ctx, o, o.periodStart + 40 * day)).ok).toBe(true);
  });
});
