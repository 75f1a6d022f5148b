import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { REMEMBERED_CHATBOTS_BYTES, chatbotForVisitor, rememberedChatbotsBytes } from "~/.server/chatbots/find-chatbot";
import { currentPeriod } from "~/.server/chat/usage";
import { chatbots, organisations, usageCounters } from "~/.server/db/schema";
import { db, makeChatbot, makeOrg, makeUser } from "../factories";
import { BASE } from "./helpers";

// A chat message to a chatbot this isolate has looked up before runs its checks on the remembered
// row and sends the rate limits with a fresh look-up in one D1 round trip (widget/gate.ts
// admitKnownChatbotMessage). What the owner changes must hold from the very next message, and a
// request refused by the changed settings must not be counted against the rate limit.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;
type Reply = { error?: { code: string }; message?: { kind?: string; content: string } };

function send(botId: string, visitorId: string, opts: { origin?: string; ip?: string } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/json", "CF-Connecting-IP": opts.ip ?? "10.77.0.1" };
  if (opts.origin) headers.Origin = opts.origin;
  return worker.fetch(
    new Request(`${BASE}/api/chat/${botId}`, {
      method: "POST",
      headers,
      body: JSON.stringify({ visitorId, message: "Hello!", stream: false, clientMessageId: newId("cm_") }),
    }),
  );
}

async function freshBot() {
  const owner = await makeUser({ name: "Owner" });
  return makeOrg(owner.id, "Known");
}

const setSettings = (botId: string, settings: Record<string, unknown>) => db.update(chatbots).set({ settings }).where(eq(chatbots.id, botId));

describe("a chatbot this isolate already knows", () => {
  it("settings changed by the owner hold from the next message; a request they refuse is not counted", async () => {
    const { bot } = await freshBot();
    const v = `v_${newId().slice(0, 12)}`;
    expect((await send(bot.id, v)).status).toBe(200); // remembered now
    await setSettings(bot.id, { access: { allowedOrigins: ["https://shop.example.com"], rateLimitPerMinute: 2 } });
    // The remembered row allows any site; the fresh one does not.
    const refused = await send(bot.id, v, { origin: "https://evil.test" });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Reply).error?.code).toBe("origin_not_allowed");
    // The refusal was not counted: this minute's new limit of 2 still allows two more (the first
    // message above was counted in the same window, so the visitor is at 1 of 2 → one more).
    expect((await send(bot.id, v, { origin: "https://shop.example.com" })).status).toBe(200);
    const limited = await send(bot.id, v, { origin: "https://shop.example.com" });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as Reply).error?.code).toBe("rate_limited");
    // Back to no limits on sites: the next message is let in again from anywhere (another visitor, the limit counts per visitor).
    await setSettings(bot.id, {});
    expect((await send(bot.id, `v_${newId().slice(0, 12)}`, { origin: "https://evil.test", ip: "10.77.0.2" })).status).toBe(200);
  });

  it("a plan change holds from the next message", async () => {
    const { org, bot } = await freshBot();
    expect((await send(bot.id, "v_plan_1")).status).toBe(200); // remembered now, on the free plan
    // The free plan's replies are used up this period: the next reply is the limit notice.
    await db
      .insert(usageCounters)
      .values({ orgId: org.id, period: currentPeriod(org.periodStart).start, replies: 100 })
      .onConflictDoUpdate({ target: [usageCounters.orgId, usageCounters.period], set: { replies: 100 } });
    const limited = await send(bot.id, "v_plan_1");
    expect(((await limited.json()) as Reply).error?.code).toBe("reply_limit_reached");
    await db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, org.id));
    const answered = await send(bot.id, "v_plan_1");
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as Reply).message?.kind).not.toBe("limit");
  });

  it("a chatbot made private, or deleted, is refused from the next message", async () => {
    const { bot } = await freshBot();
    expect((await send(bot.id, "v_gone_1")).status).toBe(200);
    await db.update(chatbots).set({ visibility: "private" }).where(eq(chatbots.id, bot.id));
    expect((await send(bot.id, "v_gone_1")).status).toBe(404);
    await db.update(chatbots).set({ visibility: "public" }).where(eq(chatbots.id, bot.id));
    expect((await send(bot.id, "v_gone_1")).status).toBe(200);
    await db.delete(chatbots).where(eq(chatbots.id, bot.id));
    expect((await send(bot.id, "v_gone_1")).status).toBe(404);
  });

  it("the remembered chatbots stay within their byte budget", async () => {
    const { org } = await freshBot();
    const ctx = { db, getAuth: async () => null };
    // ~12 KB of settings each (~50 KB counted: the text and the object): twelve are more than the budget holds.
    for (let i = 0; i < 12; i++) {
      const bot = await makeChatbot(org.id, `Big ${i}`);
      await setSettings(bot.id, { general: { note: "x".repeat(12_000) } });
      expect(await chatbotForVisitor(ctx, bot.id)).not.toBeNull();
      expect(rememberedChatbotsBytes().bytes).toBeLessThanOrEqual(REMEMBERED_CHATBOTS_BYTES);
    }
    expect(rememberedChatbotsBytes().entries).toBeLessThan(12);
  });
});
