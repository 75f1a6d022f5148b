import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../auth/crypto";
import { createDb } from "../db/client";
import { chatbots, conversations, organisations } from "../db/schema";
import { getOrCreateConversation } from "./conversations";
import { testConversationStore, testMessageStore } from "../../../tests/factories";

const ctx = { db: createDb(env.DB) };

async function bot() {
  const orgId = newId("org_");
  await ctx.db.insert(organisations).values({ id: orgId, name: "C", slug: `c-${newId()}`, periodStart: Date.now() });
  const chatbotId = newId("cb_");
  await ctx.db.insert(chatbots).values({ id: chatbotId, orgId, name: "Bot", messageStore: testMessageStore, conversationStore: testConversationStore });
  return { orgId, chatbotId };
}

describe("getOrCreateConversation (one round trip)", () => {
  it("creates a conversation for a new visitor, then keeps returning it", async () => {
    const ref = await bot();
    const first = await getOrCreateConversation(ctx, ref, { visitorId: "v_one", channel: "widget" });
    expect(first).toMatchObject({
      isNew: true,
      orgId: ref.orgId,
      chatbotId: ref.chatbotId,
      visitorId: "v_one",
      channel: "widget",
      status: "bot",
      verified: false,
      messageCount: 0,
    });
    const again = await getOrCreateConversation(ctx, ref, { visitorId: "v_one", channel: "widget" });
    expect(again.id).toBe(first.id);
    expect(again.isNew).toBeUndefined();
    // Another channel or another visitor gets its own.
    const test = await getOrCreateConversation(ctx, ref, { visitorId: "v_one", channel: "test" });
    expect(test.id).not.toBe(first.id);
    const other = await getOrCreateConversation(ctx, ref, { visitorId: "v_two", channel: "widget" });
    expect(other.id).not.toBe(first.id);
  });

  it("concurrent first messages of one visitor share one conversation", async () => {
    const ref = await bot();
    const all = await Promise.all(Array.from({ length: 5 }, () => getOrCreateConversation(ctx, ref, { visitorId: "v_race", channel: "widget" })));
    expect(new Set(all.map((c) => c.id)).size).toBe(1);
    expect(all.filter((c) => c.isNew)).toHaveLength(1);
  });

  it("a closed conversation is not reused; `fresh` always starts a new one", async () => {
    const ref = await bot();
    const first = await getOrCreateConversation(ctx, ref, { visitorId: "v_c", channel: "widget" });
    await ctx.db.update(conversations).set({ status: "closed" }).where(eq(conversations.id, first.id));
    const next = await getOrCreateConversation(ctx, ref, { visitorId: "v_c", channel: "widget" });
    expect(next.id).not.toBe(first.id);
    expect(next.isNew).toBe(true);
    const fresh = await getOrCreateConversation(ctx, ref, { visitorId: "v_c", channel: "widget", fresh: true });
    expect(fresh.id).not.toBe(next.id);
    expect(fresh.isNew).toBe(true);
  });
});
