import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { loadReport } from "~/.server/analytics/report";
import { newId } from "~/.server/auth/crypto";
import { recordLiveMessage } from "~/.server/chat/conversations";
import type { Env } from "~/.server/env";
import { liveConversation } from "~/.server/inbox/live";
import { dayIn } from "~/lib/time-zone";
import { db } from "../factories";
import { liveChatbot, liveRequests } from "./live-sockets";
import { storedMessages } from "./stored-messages";

// Live messages in the analytics page's figures (ADR 020, ADR 027): what a visitor and a person write
// while a person holds the conversation is mirrored from its Durable Object to the chatbot's message
// store (D1 or its shard, ADR 040) with the daily counters in D1, counted once however often the
// mirror is retried or a message resent.

const { post, socket } = liveRequests(33);
const visitor = () => `v_${newId().slice(0, 20)}`;

const setup = () => liveChatbot({ name: "Live figures" });

async function chat(botId: string, visitorId: string, message: string, conversationId?: string, clientMessageId = `c_${newId().slice(0, 16)}`) {
  const res = await post(`/api/chat/${botId}`, { visitorId, message, stream: false, channel: "widget", conversationId, clientMessageId });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { conversationId: string; message: { id: string; content: string } | null };
}

const session = (cid: string) => env.CHAT_SESSION.get(env.CHAT_SESSION.idFromName(cid));
/** What the live chat's object mirrors with (the chatbot's messages may be in its shard). */
const service = { db, env: env as unknown as Env };

describe("live chat in analytics", () => {
  it("counts the visitor's and the agent's live messages once each, through resends, replays and the alarm's retry", async () => {
    const s = await setup();
    const ref = { orgId: s.org.id, chatbotId: s.bot.id };
    const today = dayIn("UTC", Date.now());
    const figures = async () => (await loadReport({ db, env: env as unknown as Env }, ref, { from: today, to: today, preset: null })).totals;
    /** What the analytics page should say: the conversation's visitor, bot and human messages in the chatbot's store. */
    const stored = async (cid: string) => (await storedMessages(cid)).filter((m) => ["visitor", "bot", "human"].includes(m.role)).length;
    /** The count once the object's mirror has caught up with `n` messages (it runs after the broadcast). */
    const mirrored = async (cid: string, n: number) => {
      for (let i = 0; i < 50 && (await stored(cid)) < n; i++) await new Promise((r) => setTimeout(r, 50));
      return stored(cid);
    };

    const visitorId = visitor();
    const first = await chat(s.bot.id, visitorId, "Hello!");
    const cid = first.conversationId;
    await chat(s.bot.id, visitorId, "Can I talk to a human?", cid);
    expect((await figures()).messages).toBe(4);

    const a = await socket(`${s.base}/conversations/${cid}?after=0`, s.agentHeaders);
    await a.next("welcome");
    a.send({ type: "take" });
    await a.next("status", (f) => f.status === "human");

    // The agent's reply, resent with the same client id: one message.
    a.send({ type: "send", clientId: "c_live_reply_1", text: "Hi, I'm Ada." });
    const ack = await a.next("ack", (f) => f.clientId === "c_live_reply_1");
    a.send({ type: "send", clientId: "c_live_reply_1", text: "Hi, I'm Ada." });
    await a.next("ack", (f) => f.clientId === "c_live_reply_1", a.frames.indexOf(ack) + 1);

    // The visitor's held message, resent by the widget with the same client message id (its first
    // answer lost on the way): answered as held again, stored and counted once.
    const held = await chat(s.bot.id, visitorId, "My parcel never came", cid, "c_live_visitor_1");
    expect(held.message).toBeNull();
    const resent = await chat(s.bot.id, visitorId, "My parcel never came", cid, "c_live_visitor_1");
    expect(resent).toEqual({ conversationId: cid, message: null });
    // …and the same client id reaching the object again.
    const info = { conversationId: cid, ...ref, visitorId, status: "human" as const };
    await liveConversation(env as unknown as Env, cid).postVisitor(info, { text: "My parcel never came", at: Date.now(), clientId: "c_live_visitor_1" });
    await a.next("message", (f) => f.message.role === "visitor" && f.message.text === "My parcel never came");

    // System notes ("Ada Agent joined…") are not messages; the visitor and agent messages are.
    expect(await mirrored(cid, 6)).toBe(6);
    const counted = await figures();
    expect(counted).toMatchObject({ messages: 6, conversations: 1, visitors: 1 });

    // The mirror replayed as the alarm would retry it, and again without the retry flag (a second
    // mirror racing the first): inserted already, so counted nothing.
    const log = await runInDurableObject(session(cid), async (_o, state) =>
      state.storage.sql
        .exec<{ id: string; role: "visitor" | "human" | "system"; text: string; at: number; client_id: string | null }>(
          `SELECT id, role, text, at, client_id FROM log WHERE role IN ('visitor', 'human', 'system') ORDER BY seq`,
        )
        .toArray(),
    );
    const conversation = { id: cid, ...ref };
    for (const retry of [true, false]) {
      for (const r of log) {
        await recordLiveMessage(service, conversation, { id: r.id, role: r.role, content: r.text, createdAt: r.at, clientMessageId: r.client_id }, { retry });
      }
    }
    // The same visitor message under a new id (its client id already stored here): not stored, not counted.
    const visitorRow = log.find((r) => r.role === "visitor" && r.text === "My parcel never came")!;
    await recordLiveMessage(service, conversation, {
      id: newId("msg_"),
      role: "visitor",
      content: visitorRow.text,
      createdAt: visitorRow.at,
      clientMessageId: visitorRow.client_id,
    });
    // Everything marked unmirrored, and the object's alarm mirrors it all again.
    await runInDurableObject(session(cid), async (_o, state) => {
      state.storage.sql.exec(`UPDATE log SET mirrored = 0`);
      await state.storage.setAlarm(Date.now());
    });
    await runDurableObjectAlarm(session(cid));
    expect(await stored(cid)).toBe(6);
    expect(await figures()).toMatchObject({ messages: 6, conversations: 1, visitors: 1 });

    // A live message after that is counted, on its own.
    a.send({ type: "send", clientId: "c_live_reply_2", text: "I'll look it up now." });
    await a.next("ack", (f) => f.clientId === "c_live_reply_2");
    // Acknowledged once in the object's log; mirrored to the store right after.
    expect(await mirrored(cid, 7)).toBe(7);
    expect((await figures()).messages).toBe(7);
    a.close();
  });

  it("counts a live message on its day in the organisation's time zone, once", async () => {
    const s = await setup();
    const ref = { orgId: s.org.id, chatbotId: s.bot.id };
    const { conversationId } = await chat(s.bot.id, visitor(), "Hello!");
    // 23:30 UTC on 1 March is already 2 March in Tokyo.
    const at = Date.UTC(2026, 2, 1, 23, 30);
    const m = { id: newId("msg_"), role: "human" as const, content: "Good morning from the team", createdAt: at };
    for (let i = 0; i < 3; i++) await recordLiveMessage(service, { id: conversationId, ...ref }, m, { timeZone: "Asia/Tokyo" });
    const day = (d: string) => loadReport({ db, env: env as unknown as Env }, ref, { from: d, to: d, preset: null }).then((r) => r.totals.messages);
    expect(await day("2026-03-02")).toBe(1);
    expect(await day("2026-03-01")).toBe(0);
  });
});

void (env as unknown as Env);
