import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../auth/crypto";
import { createDb } from "../db/client";
import { chatbots, organisations } from "../db/schema";
import { getOrCreateConversation, recordExchange } from "./conversations";
import { testConversationStore, testMessageStore } from "../../../tests/factories";
import { conversationRow, setConversationStatus } from "../../../tests/integration/conversation-rows";
import { storedMessages } from "../../../tests/integration/stored-messages";

// With the bindings: a chatbot of the default test mode (index in its shard; TEST_CONVERSATION_STORE=d1 in D1) keeps its conversations there.
const ctx = { db: createDb(env.DB), env };

async function bot(
  stores: { messageStore: "d1" | "shard"; conversationStore: "d1" | "shard" } = { messageStore: testMessageStore, conversationStore: testConversationStore },
) {
  const orgId = newId("org_");
  await ctx.db.insert(organisations).values({ id: orgId, name: "C", slug: `c-${newId()}`, periodStart: Date.now() });
  const chatbotId = newId("cb_");
  await ctx.db.insert(chatbots).values({ id: chatbotId, orgId, name: "Bot", ...stores });
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
    await setConversationStatus(first.id, "closed", { ref });
    const next = await getOrCreateConversation(ctx, ref, { visitorId: "v_c", channel: "widget" });
    expect(next.id).not.toBe(first.id);
    expect(next.isNew).toBe(true);
    const fresh = await getOrCreateConversation(ctx, ref, { visitorId: "v_c", channel: "widget", fresh: true });
    expect(fresh.id).not.toBe(next.id);
    expect(fresh.isNew).toBe(true);
  });
});

describe("recordExchange", () => {
  // A caller that does not hold the chatbot's row: the kinds are looked up, never assumed to be D1's
  // (a shard index's row updated in D1 would be lost without an error).
  for (const conversationStore of ["d1", "shard"] as const)
    it(`without the store kinds, updates the conversation where its index is (${conversationStore})`, async () => {
      const ref = await bot({ messageStore: "shard", conversationStore });
      const conversation = await getOrCreateConversation(ctx, ref, { visitorId: "v_rec", channel: "widget" });
      const at = Date.now();
      const reply = {
        id: newId("msg_"),
        at: at + 1,
        content: "Nine to five.",
        sources: [],
        answered: true,
        model: "local",
        latencyMs: 1,
        firstTokenMs: 1,
        credits: 1,
      };
      await recordExchange(ctx, conversation, { visitorText: "When are you open?", askedAt: at, bot: reply });
      expect(await conversationRow(conversation.id, ref)).toMatchObject({ messageCount: 2, title: "When are you open?", lastMessageAt: at + 1 });
      expect((await storedMessages(conversation.id)).map((m) => m.content)).toEqual(["When are you open?", "Nine to five."]);
    });
});
