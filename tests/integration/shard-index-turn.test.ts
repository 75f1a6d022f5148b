import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { conversationIndex } from "~/.server/chat/conversation-index";
import { recordLiveMessage } from "~/.server/chat/conversations";
import { messageStore } from "~/.server/chat/message-store";
import { takeTurn, turnReply } from "~/.server/chat/turn";
import { createServiceContext } from "~/.server/context";
import { analyticsDaily, chatbots, knowledgeSources, organisations, usageCounters } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { applyLiveTransition } from "~/.server/inbox/assignment";
import { db, makeOrg, makeUser } from "../factories";
import { seedChunks } from "../knowledge-rows";

// The turn, live chat's mirror and a handoff request for a chatbot whose conversation index is in its
// shard (ADR 044 §5, stage 3): the conversation is opened, updated and counted there, D1 gets only
// the reply's credit and the analytics counters. D1 holds none of its conversation rows, so a path
// that still read or wrote D1's `conversations` would not find the conversation (or would create one
// there, which `inD1` catches).

const ctx = createServiceContext(env as unknown as Env);

async function setup(name: string) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, name, { plan: "starter" });
  await db.update(chatbots).set({ messageStore: "shard", conversationStore: "shard" }).where(eq(chatbots.id, bot.id));
  const sourceId = newId("ks_");
  await db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "Hours", status: "ready" });
  await seedChunks({ orgId: org.id, chatbotId: bot.id }, sourceId, [
    { title: "Opening hours", heading: null, url: null, text: "Our shop in Lyon is open Monday to Saturday from 9:00 to 19:00.", position: 0 },
  ]);
  const chatbot = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!;
  const organisation = (await db.select().from(organisations).where(eq(organisations.id, org.id)).get())!;
  const ref = { orgId: org.id, chatbotId: bot.id };
  return { target: { chatbot, org: organisation }, ref };
}

const inD1 = async (chatbotId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE chatbot_id = ?").bind(chatbotId).first<{ n: number }>())!.n;
const counters = async (chatbotId: string) => {
  const rows = await db.select().from(analyticsDaily).where(eq(analyticsDaily.chatbotId, chatbotId)).all();
  const sum = (k: "conversations" | "messages" | "handoffs" | "unresolved") => rows.reduce((n, r) => n + r[k], 0);
  return { conversations: sum("conversations"), messages: sum("messages"), handoffs: sum("handoffs"), unresolved: sum("unresolved") };
};
const replies = async (orgId: string) => (await db.select().from(usageCounters).where(eq(usageCounters.orgId, orgId)).all()).reduce((n, r) => n + r.replies, 0);

describe("a turn on a chatbot whose conversation index is in its shard", () => {
  it("opens, answers, stores and counts the conversation in the shard; D1 gets the credit and the counters", async () => {
    const { target, ref } = await setup("Shard turn");
    const index = await conversationIndex(ctx, ref);
    expect(index.kind).toBe("shard");
    const visitorId = "v_shard_turn_1";
    const first = await turnReply(
      await takeTurn(ctx, { target, channel: "widget", visitorId, text: "When is the shop in Lyon open?", clientMessageId: "cm_shard_turn_1" }),
    );
    if (!first.ok) throw new Error(first.message);
    expect(first.message?.content).toContain("Monday to Saturday");
    const row = (await index.get(first.conversationId, visitorId))!;
    expect(row).toMatchObject({ messageCount: 2, title: "When is the shop in Lyon open?", channel: "widget" });
    expect(await counters(ref.chatbotId)).toMatchObject({ conversations: 1, messages: 2 });
    expect(await replies(ref.orgId)).toBe(1);

    // The same conversation continues (the shard's openTurn finds it), counted once.
    const second = await turnReply(
      await takeTurn(ctx, {
        target,
        channel: "widget",
        visitorId,
        text: "And on Sunday?",
        conversationId: first.conversationId,
        clientMessageId: "cm_shard_turn_2",
      }),
    );
    if (!second.ok) throw new Error(second.message);
    expect(second.conversationId).toBe(first.conversationId);
    expect((await index.get(first.conversationId))!.messageCount).toBe(4);
    expect(await counters(ref.chatbotId)).toMatchObject({ conversations: 1, messages: 4 });
    expect(await replies(ref.orgId)).toBe(2);

    // A retried send is answered from what the shard stored: nothing stored, counted or charged again.
    const retry = await turnReply(
      await takeTurn(ctx, {
        target,
        channel: "widget",
        visitorId,
        text: "And on Sunday?",
        conversationId: first.conversationId,
        clientMessageId: "cm_shard_turn_2",
      }),
    );
    if (!retry.ok) throw new Error(retry.message);
    expect(retry.message).toMatchObject({ id: second.message!.id, replayed: true });
    expect((await index.get(first.conversationId))!.messageCount).toBe(4);
    expect(await counters(ref.chatbotId)).toMatchObject({ conversations: 1, messages: 4 });
    expect(await replies(ref.orgId)).toBe(2);
    expect((await (await messageStore(ctx, ref)).transcript(first.conversationId)).map((m) => m.role)).toEqual(["visitor", "bot", "visitor", "bot"]);

    // "New conversation" and a verified visitor: created and marked in the shard.
    const fresh = await turnReply(
      await takeTurn(ctx, { target, channel: "widget", visitorId, text: "Hello again", fresh: true, verified: true, clientMessageId: "cm_shard_turn_3" }),
    );
    if (!fresh.ok) throw new Error(fresh.message);
    expect(fresh.conversationId).not.toBe(first.conversationId);
    expect(await index.get(fresh.conversationId, visitorId)).toMatchObject({ verified: true, messageCount: 2 });
    // A retry of "New conversation" creates nothing.
    const freshRetry = await turnReply(
      await takeTurn(ctx, { target, channel: "widget", visitorId, text: "Hello again", fresh: true, clientMessageId: "cm_shard_turn_3" }),
    );
    expect(freshRetry.ok && freshRetry.conversationId).toBe(fresh.conversationId);
    expect(await counters(ref.chatbotId)).toMatchObject({ conversations: 2, messages: 6 });

    expect(await inD1(ref.chatbotId)).toBe(0);
  });

  it("live chat's mirror and a handoff request update and count the shard's conversation", async () => {
    const { ref } = await setup("Shard live");
    const index = await conversationIndex(ctx, ref);
    const c = await index.open({ visitorId: "v_shard_live", channel: "widget", country: "FR" });
    const message = { id: newId("msg_"), role: "visitor" as const, content: "Is anyone there?", createdAt: Date.now(), clientMessageId: "cm_shard_live_1" };
    await recordLiveMessage(ctx, { id: c.id, orgId: ref.orgId, chatbotId: ref.chatbotId }, message);
    expect(await index.get(c.id)).toMatchObject({ messageCount: 1, title: "Is anyone there?" });
    expect(await counters(ref.chatbotId)).toMatchObject({ conversations: 1, messages: 1 });
    // The object may repeat a mirror: nothing more is stored or counted.
    await recordLiveMessage(ctx, { id: c.id, orgId: ref.orgId, chatbotId: ref.chatbotId }, message, { retry: true });
    expect(await index.get(c.id)).toMatchObject({ messageCount: 1 });
    expect(await counters(ref.chatbotId)).toMatchObject({ conversations: 1, messages: 1 });
    // A system note is stored, not counted.
    await recordLiveMessage(
      ctx,
      { id: c.id, orgId: ref.orgId, chatbotId: ref.chatbotId },
      { id: newId("msg_"), role: "system", content: "Waiting", createdAt: Date.now() + 1 },
    );
    expect(await index.get(c.id)).toMatchObject({ messageCount: 2 });
    expect(await counters(ref.chatbotId)).toMatchObject({ conversations: 1, messages: 1 });

    const at = Date.now();
    const request = { action: "request" as const, state: { status: "waiting" as const, agent: null }, at };
    await applyLiveTransition(ctx, { id: c.id, orgId: ref.orgId, chatbotId: ref.chatbotId }, request as Parameters<typeof applyLiveTransition>[2]);
    expect(await index.get(c.id)).toMatchObject({ status: "waiting" });
    expect(await counters(ref.chatbotId)).toMatchObject({ conversations: 1, handoffs: 1, unresolved: 1 });
    // Unresolved once, whatever else happens.
    await applyLiveTransition(ctx, { id: c.id, orgId: ref.orgId, chatbotId: ref.chatbotId }, request as Parameters<typeof applyLiveTransition>[2]);
    expect(await counters(ref.chatbotId)).toMatchObject({ conversations: 1, handoffs: 2, unresolved: 1 });
    expect((await index.inboxLists("nobody")).waiting.map((r) => r.id)).toEqual([c.id]);

    expect(await inD1(ref.chatbotId)).toBe(0);
  });
});
