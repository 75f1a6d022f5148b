import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { botMayAnswer, takeTurn, turnReply } from "~/.server/chat/turn";
import { createServiceContext } from "~/.server/context";
import { chatbots, knowledgeSources, organisations, usageCounters } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { db, makeOrg, makeUser } from "../factories";
import { seedChunks } from "../knowledge-rows";
import { setConversationStatus } from "./conversation-rows";
import { BASE } from "./helpers";
import { storedMessages } from "./stored-messages";

// The conversation core (app/.server/chat/turn.ts): one turn for every channel. These tests call it
// directly, without a request, as the live-chat objects, voice and phone will, and check that a
// conversation a person holds is not answered by the bot on any channel.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;

async function setup() {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Turn", { plan: "starter" });
  const sourceId = newId("ks_");
  await db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "Hours", status: "ready" });
  await seedChunks({ orgId: org.id, chatbotId: bot.id }, sourceId, [
    { title: "Opening hours", heading: null, url: null, text: "Our shop in Lyon is open Monday to Saturday from 9:00 to 19:00.", position: 0 },
  ]);
  const chatbot = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!;
  const organisation = (await db.select().from(organisations).where(eq(organisations.id, org.id)).get())!;
  return { target: { chatbot, org: organisation }, org, bot };
}

const replies = async (orgId: string) => (await db.select().from(usageCounters).where(eq(usageCounters.orgId, orgId)).all()).reduce((n, r) => n + r.replies, 0);

describe("the conversation core", async () => {
  const ctx = createServiceContext(env as unknown as Env);
  const { target, org, bot } = await setup();

  it("answers a turn without any request (a service context is enough), on any channel", async () => {
    for (const channel of ["widget", "api", "voice", "phone"] as const) {
      const reply = await turnReply(await takeTurn(ctx, { target, channel, visitorId: `v_turn_${channel}_0001`, text: "When is the shop in Lyon open?" }));
      expect(reply.ok).toBe(true);
      if (reply.ok) {
        expect(reply.message?.content).toContain("Monday to Saturday");
        expect(reply.message?.sources.length).toBeGreaterThan(0);
      }
    }
  });

  it("only a conversation held by a person stops the bot", () => {
    expect(botMayAnswer({ status: "bot" })).toBe(true);
    expect(botMayAnswer({ status: "waiting" })).toBe(true);
    expect(botMayAnswer({ status: "human" })).toBe(false);
  });

  it("a held conversation: the visitor's message is stored, the bot does not answer and no credit is used", async () => {
    const visitorId = "v_turn_held_0001";
    const first = await turnReply(await takeTurn(ctx, { target, channel: "widget", visitorId, text: "hello there" }));
    if (!first.ok) throw new Error(first.message);
    await setConversationStatus(first.conversationId, "human", { ref: { orgId: org.id, chatbotId: bot.id } });
    const before = await replies(org.id);

    const held = await takeTurn(ctx, { target, channel: "widget", visitorId, text: "When is the shop open?" });
    const reply = await turnReply(held);
    expect(reply).toEqual({ ok: true, conversationId: first.conversationId, message: null });
    await held.done;
    expect(await replies(org.id)).toBe(before);
    const stored = await storedMessages(first.conversationId);
    expect(stored.map((m) => [m.role, m.content])).toContainEqual(["visitor", "When is the shop open?"]);
    expect(stored.filter((m) => m.role === "bot")).toHaveLength(1); // only the reply to "hello there"
  });

  it("the chat API and the REST API both honour it", async () => {
    const visitorId = "v_turn_api_00001";
    const res = await worker.fetch(
      new Request(`${BASE}/api/chat/${bot.id}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.8.0.1" },
        body: JSON.stringify({ visitorId, message: "hi", stream: false }),
      }),
    );
    const { conversationId } = (await res.json()) as { conversationId: string };
    await setConversationStatus(conversationId, "human", { ref: { orgId: org.id, chatbotId: bot.id } });
    const held = await worker.fetch(
      new Request(`${BASE}/api/chat/${bot.id}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.8.0.1" },
        body: JSON.stringify({ visitorId, message: "anyone?", stream: false }),
      }),
    );
    expect(held.status).toBe(200);
    expect(await held.json()).toEqual({ conversationId, message: null });
  });
});
