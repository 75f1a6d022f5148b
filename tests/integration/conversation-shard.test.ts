import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getOrCreateConversation } from "~/.server/chat/conversations";
import {
  conversationShardStub,
  d1MessageStore,
  messageStore,
  shardMessageStore,
  type ChatbotRef,
  type MessageStore,
  type NewMessage,
} from "~/.server/chat/message-store";
import { deleteChatbot } from "~/.server/chatbots/chatbots";
import { createServiceContext } from "~/.server/context";
import { chatbots } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { db, makeOrg, makeUser, testContext } from "../factories";

// A chatbot's messages in its ConversationShard (issue #20, ADR 040) must read back exactly as
// D1's do: the store's D1 implementation runs over the object's storage, and this test writes the
// same conversation to both and compares every read.

const ctx = createServiceContext(env as unknown as Env);

async function botWithConversation(name: string, stores?: { messageStore: "d1"; conversationStore: "d1" }) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, name);
  // D1's messages need their conversation row in D1 (its foreign key, ADR 048 §2): such a chatbot has both there.
  if (stores) await db.update(chatbots).set(stores).where(eq(chatbots.id, bot.id));
  const ref: ChatbotRef = { orgId: org.id, chatbotId: bot.id };
  const conversation = await getOrCreateConversation(ctx, ref, { visitorId: `v_${crypto.randomUUID()}`, channel: "widget" });
  return { owner, org, ref, conversation };
}

/** One conversation: two exchanges, an agent reply and a handoff note, written in the given order of ids. */
function sampleMessages(conversationId: string, t0: number): NewMessage[] {
  return [
    { id: `msg_${t0}_1`, conversationId, role: "visitor", content: "Do you ship parcels to Norway?", createdAt: t0, clientMessageId: `c_${t0}_1` },
    {
      id: `msg_${t0}_2`,
      conversationId,
      role: "bot",
      content: "Yes, within five days [1].",
      createdAt: t0 + 1,
      sources: [{ sourceId: "src_1", chunkId: 7, title: "Shipping", url: null, snippet: "Norway: five days", score: 0.8 }],
      answered: true,
      model: "local",
      latencyMs: 40,
      firstTokenMs: 12,
      credits: 1,
    },
    {
      id: `msg_${t0}_3`,
      conversationId,
      role: "visitor",
      content: "And what about refunds for damaged boxes?",
      createdAt: t0 + 10,
      clientMessageId: `c_${t0}_3`,
    },
    { id: `msg_${t0}_4`, conversationId, role: "system", content: "The visitor asked for a person.", createdAt: t0 + 11 },
    { id: `msg_${t0}_5`, conversationId, role: "human", content: "I can help with the refund.", createdAt: t0 + 12 },
  ];
}

/** Every read of the store, as plain data to compare across stores. */
async function readAll(store: MessageStore, conversationId: string, t0: number) {
  return {
    transcript: await store.transcript(conversationId),
    latest: await store.latest(conversationId, ["visitor", "bot", "human"], 2),
    after: await store.after(conversationId, t0, ["bot", "visitor"], 1),
    lastOf: await store.lastOf([conversationId, "cv_unknown"]),
    byClient: await store.byClientMessageId(`c_${t0}_3`),
    get: await store.get(`msg_${t0}_2`),
    search: await store.search(["refund"], 2_000),
    prefix: await store.search(["norw"], 2_000),
    none: await store.search(["wardrobe"], 2_000),
    count: await store.count(),
  };
}

describe("conversation shard", () => {
  it("stores and reads a conversation exactly as D1 does, and finds it by its visitor's words", async () => {
    const t0 = Date.now();
    const inD1 = await botWithConversation("Messages in D1", { messageStore: "d1", conversationStore: "d1" });
    const inShard = await botWithConversation("Messages in a shard");
    const d1 = d1MessageStore(ctx, inD1.ref);
    const shard = shardMessageStore(ctx.env, inShard.ref);
    for (const [store, c] of [
      [d1, inD1.conversation],
      [shard, inShard.conversation],
    ] as const) {
      const written = await store.append(sampleMessages(c.id, t0));
      expect(written).toEqual({ inserted: sampleMessages(c.id, t0).map((m) => m.id), duplicate: false, counts: { [c.id]: 5 } });
      // A repeated write (live chat's mirror retried) adds nothing.
      expect(await store.append(sampleMessages(c.id, t0).slice(0, 1))).toEqual({ inserted: [], duplicate: false, counts: { [c.id]: 5 } });
      // The same client message id again under a new message id: a retried send, refused as a duplicate.
      const again = { ...sampleMessages(c.id, t0)[0], id: `msg_${t0}_again` };
      expect(await store.append([again])).toEqual({ inserted: [], duplicate: true, counts: { [c.id]: 5 } });
    }
    const a = await readAll(d1, inD1.conversation.id, t0);
    const b = await readAll(shard, inShard.conversation.id, t0);
    // Identical apart from the ids that name the chatbot and conversation.
    const neutral = (x: unknown, ref: ChatbotRef, cid: string) =>
      JSON.parse(JSON.stringify(x).replaceAll(ref.chatbotId, "<bot>").replaceAll(ref.orgId, "<org>").replaceAll(cid, "<cv>"));
    expect(neutral(b, inShard.ref, inShard.conversation.id)).toEqual(neutral(a, inD1.ref, inD1.conversation.id));
    expect(b.transcript.map((m) => m.role)).toEqual(["visitor", "bot", "visitor", "system", "human"]);
    expect(b.transcript[1].sources[0].chunkId).toBe(7);
    expect(b.latest.map((m) => m.content)).toEqual(["And what about refunds for damaged boxes?", "I can help with the refund."]);
    expect(b.after.map((m) => m.role)).toEqual(["bot"]);
    expect(b.lastOf).toEqual({ [inShard.conversation.id]: { content: "I can help with the refund.", role: "human" } });
    expect(b.search).toEqual({ conversationIds: [inShard.conversation.id], capped: false });
    expect(b.prefix.conversationIds).toEqual([inShard.conversation.id]);
    expect(b.none.conversationIds).toEqual([]);
    expect(b.count).toBe(5);
    // Bot replies are not searched (only what visitors asked, as in D1).
    expect((await shard.search(["five"], 2_000)).conversationIds).toEqual([]);

    // Feedback and the conversation's rating it implies.
    expect(await shard.setFeedback(`msg_${t0}_2`, -1)).toEqual({ conversationId: inShard.conversation.id, rating: -1 });
    expect(await shard.setFeedback(`msg_${t0}_2`, 1)).toEqual({ conversationId: inShard.conversation.id, rating: 1 });
    expect(await shard.setFeedback("msg_missing", 1)).toBeUndefined();
    expect(await d1.setFeedback(`msg_${t0}_2`, -1)).toEqual({ conversationId: inD1.conversation.id, rating: -1 });

    // The search cap: more matches than read is reported.
    const many = Array.from({ length: 4 }, (_, i) => ({
      id: `msg_${t0}_m${i}`,
      conversationId: inShard.conversation.id,
      role: "visitor" as const,
      content: `refund number ${i}`,
      createdAt: t0 + 100 + i,
    }));
    await shard.append(many);
    expect(await shard.search(["refund"], 3)).toEqual({ conversationIds: [inShard.conversation.id], capped: true });
  });

  it("is picked by the chatbot's message_store flag; a chatbot's deletion empties its shard", async () => {
    const { ref, conversation } = await botWithConversation("Deleted with its messages");
    await db.update(chatbots).set({ messageStore: "d1" }).where(eq(chatbots.id, ref.chatbotId));
    expect((await messageStore(ctx, ref)).kind).toBe("d1");
    await db.update(chatbots).set({ messageStore: "moving" }).where(eq(chatbots.id, ref.chatbotId));
    expect((await messageStore(ctx, ref)).kind).toBe("d1");
    await db.update(chatbots).set({ messageStore: "shard" }).where(eq(chatbots.id, ref.chatbotId));
    const store = await messageStore(ctx, ref);
    expect(store.kind).toBe("shard");
    await store.append(sampleMessages(conversation.id, 1_000));
    expect(await conversationShardStub(ctx.env, ref).count(ref)).toBe(5);
    expect(await deleteChatbot(testContext(), ref)).toMatchObject({ id: ref.chatbotId });
    expect(await conversationShardStub(ctx.env, ref).count(ref)).toBe(0);
    expect(await conversationShardStub(ctx.env, ref).transcript(ref, conversation.id)).toEqual([]);
  });

  it("answers only the chatbot it holds (tenant isolation)", async () => {
    const mine = await botWithConversation("Holder");
    const other = await botWithConversation("Other tenant");
    const shard = conversationShardStub(ctx.env, mine.ref);
    await shard.append(mine.ref, sampleMessages(mine.conversation.id, 2_000));
    // The object named by one chatbot's id, called with another chatbot's ref: nothing read, nothing written.
    expect(await shard.transcript(other.ref, mine.conversation.id)).toEqual([]);
    expect(await shard.search(other.ref, ["refunds"], 2_000)).toEqual({ conversationIds: [], capped: false });
    expect(await shard.append(other.ref, sampleMessages(other.conversation.id, 3_000))).toEqual({ inserted: [], duplicate: false, counts: {} });
    expect(await shard.count(other.ref)).toBe(0);
    await shard.dropAll(other.ref);
    expect(await shard.count(mine.ref)).toBe(5);
    // The other chatbot's own shard holds nothing of the first.
    expect(await conversationShardStub(ctx.env, other.ref).transcript(other.ref, mine.conversation.id)).toEqual([]);
  });
});
