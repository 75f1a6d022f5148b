import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { d1ConversationIndex, shardConversationIndex, type ConversationIndex } from "~/.server/chat/conversation-index";
import { createServiceContext } from "~/.server/context";
import { chatbots } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { digestNumbers } from "~/.server/notifications/digest";
import { db, makeChatbot, makeOrg, makeUser } from "../factories";

// The daily digest's "new conversations" for a chatbot whose conversation index is in its shard
// (ADR 044, 048) comes from the index there; D1 holds none of its conversations, so a digest that
// still counted D1's rows would say 0. The same conversations in a D1 chatbot give the same number.

const ctx = createServiceContext(env as unknown as Env);
const DAY = Date.parse("2032-02-10T00:00:00Z");
const HOUR = 3_600_000;

async function sameDay(index: ConversationIndex) {
  const withMessages = async (visitorId: string, createdAt: number, lastAt: number) => {
    const c = await index.create({ visitorId, channel: "widget", now: createdAt });
    await index.recordMessages(c.id, { added: 2, at: lastAt, title: "Hello" });
  };
  await withMessages("v_1", DAY + HOUR, DAY + 2 * HOUR); // new that day
  await withMessages("v_2", DAY + 3 * HOUR, DAY + 3 * HOUR); // new that day
  await withMessages("v_3", DAY - 5 * HOUR, DAY + HOUR); // started the day before, active that day
  await withMessages("v_4", DAY + 25 * HOUR, DAY + 25 * HOUR); // the next day
  await index.create({ visitorId: "v_5", channel: "widget", now: DAY + 4 * HOUR }); // opened, never written in
}

describe("daily digest with the conversation index in the chatbot's shard", () => {
  it("counts the day's new conversations from the shard, as D1 counts its own", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Digest");
    const sharded = await makeChatbot(org.id, "Digest in shard");
    await db.update(chatbots).set({ messageStore: "shard", conversationStore: "shard" }).where(eq(chatbots.id, sharded.id));
    await db.update(chatbots).set({ messageStore: "d1", conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
    const inD1 = { orgId: org.id, chatbotId: bot.id };
    const inShard = { orgId: org.id, chatbotId: sharded.id };
    await sameDay(d1ConversationIndex(ctx, inD1));
    await sameDay(shardConversationIndex(ctx.env, inShard));

    const d1Numbers = await digestNumbers(ctx, inD1, DAY, DAY + 24 * HOUR);
    expect(d1Numbers.conversations).toBe(2);
    expect(await digestNumbers(ctx, inShard, DAY, DAY + 24 * HOUR)).toEqual(d1Numbers);
    const inD1Rows = await env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE chatbot_id = ?").bind(sharded.id).first<{ n: number }>();
    expect(inD1Rows?.n).toBe(0);
  });
});
