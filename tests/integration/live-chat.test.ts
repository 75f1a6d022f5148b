import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { createServiceContext } from "~/.server/context";
import { notificationDeliveries } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { addDestination } from "~/.server/notifications/destinations";
import { addMember, db, makeUser } from "../factories";
import { agentRow, conversationRow } from "./conversation-rows";
import { BASE } from "./helpers";
import { liveChatbot, liveRequests } from "./live-sockets";
import { storedMessages } from "./stored-messages";

// Live chat through the Worker entry (ADR 025): the visitor's and the agent's sockets on the
// conversation's Durable Object, the inbox object's presence, the conversation core refusing bot
// turns while a person holds the conversation, storage before acknowledgement, catch-up by seq.

const { worker, ip, post, open, socket, chat } = liveRequests(30);
const visitor = () => `v_${newId().slice(0, 20)}`;

const setup = () => liveChatbot();

describe("live chat", async () => {
  const s = await setup();

  it("hands a conversation to an agent and back, both ways in real time, every message stored before its ack", async () => {
    const visitorId = visitor();
    const first = await chat(s.bot.id, visitorId, "Hello!");
    const cid = first.conversationId;

    const inbox = await socket(`${s.base}/inbox`, s.agentHeaders);
    await inbox.next("presence", (f) => f.agents.some((a) => a.id === s.agentUser.id && a.state === "online"));

    const v = await socket(`/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=${cid}&after=0`);
    expect(await v.next("welcome")).toMatchObject({ conversationId: cid, status: "bot", seq: 0 });

    // The visitor asks in words: handed over, not answered; the agent online is promised.
    const asked = await chat(s.bot.id, visitorId, "Can I talk to a human?", cid);
    expect(asked.message?.content).toMatch(/asked a person from the team to join/);
    await inbox.next("changed", (f) => f.conversationId === cid && f.status === "waiting");
    await v.next("status", (f) => f.status === "waiting");
    expect((await conversationRow(cid))!.status).toBe("waiting");

    const a = await socket(`${s.base}/conversations/${cid}?after=0`, s.agentHeaders);
    const welcome = await a.next("welcome");
    expect(welcome).toMatchObject({ status: "waiting" });

    // Replying before taking it is refused.
    a.send({ type: "send", clientId: "c_early_001", text: "Hi" });
    expect(await a.next("error", (f) => f.clientId === "c_early_001")).toMatchObject({ code: "not_yours" });

    a.send({ type: "take" });
    await v.next("status", (f) => f.status === "human" && f.agent?.name === "Ada Agent");
    await v.next("message", (f) => f.message.role === "system" && f.message.text === "Ada Agent joined the conversation.");
    expect(await agentRow(cid)).toMatchObject({
      userId: s.agentUser.id,
      closedAt: null,
    });

    // Agent → visitor: acknowledged with its seq only once it is in the object's storage.
    a.send({ type: "send", clientId: "c_reply_0001", text: "Hi, I'm Ada. How can I help?" });
    const ack = await a.next("ack", (f) => f.clientId === "c_reply_0001");
    const stored = await runInDurableObject(env.CHAT_SESSION.get(env.CHAT_SESSION.idFromName(cid)), async (_o, state) =>
      state.storage.sql.exec<{ seq: number; text: string; role: string }>(`SELECT seq, text, role FROM log WHERE id = ?`, ack.id).toArray(),
    );
    expect(stored).toEqual([{ seq: ack.seq, text: "Hi, I'm Ada. How can I help?", role: "human" }]);
    const got = await v.next("message", (f) => f.message.id === ack.id);
    expect(got.message).toMatchObject({ seq: ack.seq, role: "human", author: "Ada Agent" });
    // A resend with the same client id is acknowledged again, not stored twice.
    a.send({ type: "send", clientId: "c_reply_0001", text: "Hi, I'm Ada. How can I help?" });
    expect((await a.next("ack", (f) => f.clientId === "c_reply_0001", a.frames.indexOf(ack) + 1)).seq).toBe(ack.seq);

    // Visitor → agent through the conversation core: the bot does not answer a held conversation.
    const held = await chat(s.bot.id, visitorId, "My order #12 never arrived", cid, "c_held_order_12");
    expect(held.message).toBeNull();
    const fromVisitor = await a.next("message", (f) => f.message.role === "visitor" && f.message.text === "My order #12 never arrived");
    expect(fromVisitor.message.seq).toBeGreaterThan(ack.seq);

    // Mirrored to the chatbot's message store in the object's order (the transcript, search and analytics read it).
    const rows = await storedMessages(cid);
    expect(rows.map((m) => [m.role, m.content])).toEqual([
      ["visitor", "Hello!"],
      ["bot", expect.any(String)],
      ["visitor", "Can I talk to a human?"],
      ["bot", asked.message!.content],
      ["system", "The visitor asked to talk to a person."],
      ["system", "Ada Agent joined the conversation."],
      ["human", "Hi, I'm Ada. How can I help?"],
      ["visitor", "My order #12 never arrived"],
    ]);
    expect((await conversationRow(cid))!.messageCount).toBe(8);

    // A client that reconnects after seq N gets exactly what came after.
    const again = await socket(`/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=${cid}&after=${ack.seq}`);
    await again.next("message", (f) => f.message.role === "visitor");
    const caught = again.frames.filter((f) => f.type === "message");
    expect(caught.map((f) => (f.type === "message" ? f.message.seq : 0))).toEqual([fromVisitor.message.seq]);
    // The HTTP fallback's poll answers the same.
    const poll = await worker.fetch(
      new Request(`${BASE}/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=${cid}&after=${ack.seq}`, {
        headers: { "CF-Connecting-IP": ip() },
      }),
    );
    expect(await poll.json()).toMatchObject({ status: "human", agent: { name: "Ada Agent" }, messages: [{ seq: fromVisitor.message.seq }] });

    // Hand back: the bot answers the next question.
    a.send({ type: "handBack" });
    await v.next("status", (f) => f.status === "bot");
    expect((await conversationRow(cid))!.status).toBe("bot");
    const after = await chat(s.bot.id, visitorId, "What are your opening hours?", cid);
    expect(after.message).not.toBeNull();
    // The held message resent after the hand-back (its first answer lost on the way): still "held",
    // neither an error nor the bot's answer to the later question; stored once.
    expect(await chat(s.bot.id, visitorId, "My order #12 never arrived", cid, "c_held_order_12")).toEqual({ conversationId: cid, message: null });
    expect((await storedMessages(cid)).filter((m) => m.content === "My order #12 never arrived")).toHaveLength(1);

    // Close: the conversation ends; the "closed" list knows who closed it.
    a.send({ type: "close" });
    await v.next("status", (f) => f.status === "closed");
    expect((await conversationRow(cid))!.status).toBe("closed");
    expect((await agentRow(cid))!.closedAt).not.toBeNull();
    for (const c of [inbox, v, a, again]) c.close();
  });

  it("tells the visitor nobody is online when no inbox is open, and the away switch counts as not online", async () => {
    const lone = await setup();
    const visitorId = visitor();
    const r = await post(`/api/widget/${lone.bot.id}/handoff`, { visitorId });
    expect(await r.json()).toMatchObject({ status: "waiting", agentsOnline: 0, message: expect.stringMatching(/^No one from the team is online/) });

    const inbox = await socket(`${lone.base}/inbox`, lone.agentHeaders);
    await inbox.next("presence", (f) => f.you === "online");
    inbox.send({ type: "presence", state: "away" });
    await inbox.next("presence", (f) => f.you === "away");
    const r2 = await post(`/api/widget/${lone.bot.id}/handoff`, { visitorId: visitor() });
    expect(await r2.json()).toMatchObject({ agentsOnline: 0 });
    inbox.send({ type: "presence", state: "online" });
    await inbox.next("presence", (f) => f.you === "online", inbox.frames.length);
    const r3 = await post(`/api/widget/${lone.bot.id}/handoff`, { visitorId: visitor() });
    expect(await r3.json()).toMatchObject({ agentsOnline: 1, message: expect.stringContaining("reply here in this chat") });
    inbox.close();
  });

  it("notifies 'human requested' once per handoff, asked in words or with the button", async () => {
    const n = await setup();
    const owner = await makeUser({ name: "Noor Owner" });
    await addMember(n.org.id, owner.id, "owner");
    const added = await addDestination(
      createServiceContext(env as unknown as Env),
      { org: n.org, chatbot: n.bot, user: owner },
      {
        kind: "member",
        userId: owner.id,
        events: ["handoff.requested"],
      },
    );
    if (!added.ok) throw new Error("setup");
    const inWords = visitor();
    const first = await chat(n.bot.id, inWords, "Hello!");
    await chat(n.bot.id, inWords, "Can I talk to a human?", first.conversationId);
    await chat(n.bot.id, inWords, "I want to talk to a human", first.conversationId); // already waiting: no second event
    await post(`/api/widget/${n.bot.id}/handoff`, { visitorId: visitor() });
    const sent = await db.select().from(notificationDeliveries).where(eq(notificationDeliveries.destinationId, added.destination.id)).all();
    expect(sent.map((d) => d.eventType)).toEqual(["handoff.requested", "handoff.requested"]);
    expect(sent.map((d) => JSON.parse(d.payload).data.conversation.id)).toContain(first.conversationId);
  });

  it("refuses malformed frames and agent actions from the visitor's socket", async () => {
    const visitorId = visitor();
    const { conversationId } = await chat(s.bot.id, visitorId, "Hello!");
    const v = await socket(`/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=${conversationId}`);
    v.ws.send("{nope");
    expect(await v.next("error")).toMatchObject({ code: "invalid_frame" });
    v.send({ type: "take" });
    expect(await v.next("error", (f) => f.code === "forbidden")).toBeTruthy();
    expect((await conversationRow(conversationId))!.status).toBe("bot");
    v.close();
  });

  it("lets only the visitor who owns the conversation and the organisation's members in", async () => {
    const visitorId = visitor();
    const { conversationId } = await chat(s.bot.id, visitorId, "Hello!");
    // Another visitor id, an unknown conversation, an unknown chatbot: 404.
    expect((await open(`/api/live/visitor/${s.bot.id}?visitorId=${visitor()}&conversationId=${conversationId}`)).status).toBe(404);
    expect((await open(`/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=cv_nope`)).status).toBe(404);
    expect((await open(`/api/live/visitor/cb_nope?visitorId=${visitorId}&conversationId=${conversationId}`)).status).toBe(404);
    // No session: 401; a page of another site: 403; a member of another organisation: 404.
    expect((await open(`${s.base}/conversations/${conversationId}`, { Origin: BASE })).status).toBe(401);
    expect((await open(`${s.base}/conversations/${conversationId}`, { ...s.agentHeaders, Origin: "https://evil.example" })).status).toBe(403);
    const other = await setup();
    for (const path of [`${s.base}/inbox`, `${s.base}/conversations/${conversationId}`, `${other.base}/conversations/${conversationId}`]) {
      expect((await open(path, other.agentHeaders)).status, path).toBe(404);
    }
    expect((await conversationRow(conversationId, { orgId: s.org.id, chatbotId: s.bot.id }))!.status).toBe("bot");
  });
});

// Keeps the env import typed for runInDurableObject.
void (env as unknown as Env);
