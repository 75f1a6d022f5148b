import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loadReport } from "~/.server/analytics/report";
import { newId } from "~/.server/auth/crypto";
import { chatbots } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { MESSAGE_MAX } from "~/lib/schemas/chat";
import { dayIn } from "~/lib/time-zone";
import { db } from "../factories";
import { conversationRow } from "./conversation-rows";
import { liveChatbot, liveRequests } from "./live-sockets";
import { storedMessages, storeOf } from "./stored-messages";

// A visitor's message on their own socket while a person holds the conversation (ADR 033): stored
// in the object before its ack, sent to the agent, mirrored to the chatbot's message store through
// the conversation core (counted once), within the HTTP path's length and the visitor gate's rate
// limits, and refused while the bot (or the bot while a person is awaited) has the conversation.

const { post, socket, chat } = liveRequests(35);
const visitor = () => `v_${newId().slice(0, 20)}`;
const session = (cid: string) => env.CHAT_SESSION.get(env.CHAT_SESSION.idFromName(cid));

/** A conversation that waits for a person, with the visitor's socket open on it. */
async function waiting(s: Awaited<ReturnType<typeof liveChatbot>>) {
  const visitorId = visitor();
  const { conversationId: cid } = await chat(s.bot.id, visitorId, "Hello!");
  await chat(s.bot.id, visitorId, "Can I talk to a human?", cid);
  const v = await socket(`/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=${cid}&channel=widget`);
  await v.next("welcome", (f) => f.status === "waiting");
  return { visitorId, cid, v };
}

/** …and taken by the agent, whose socket is open too. */
async function held(s: Awaited<ReturnType<typeof liveChatbot>>) {
  const w = await waiting(s);
  const a = await socket(`${s.base}/conversations/${w.cid}?after=0`, s.agentHeaders);
  await a.next("welcome");
  a.send({ type: "take" });
  await w.v.next("status", (f) => f.status === "human");
  return { ...w, a };
}

const visitorRows = async (cid: string) => (await storedMessages(cid)).filter((m) => m.role === "visitor");

describe("a visitor's messages on their socket", () => {
  it("stores before the ack, reaches the agent, mirrors to the message store once and counts once, also when resent", async () => {
    const s = await liveChatbot({ name: "Socket sends" });
    const ref = { orgId: s.org.id, chatbotId: s.bot.id };
    const today = dayIn("UTC", Date.now());
    const figures = async () => (await loadReport({ db, env: env as unknown as Env }, ref, { from: today, to: today, preset: null })).totals;
    const { cid, v, a } = await held(s);
    const before = await figures();

    v.send({ type: "send", clientId: "c_sock_visit_1", text: "  My parcel never came  " });
    const ack = await v.next("ack", (f) => f.clientId === "c_sock_visit_1");
    const stored = await runInDurableObject(session(cid), async (_o, state) =>
      state.storage.sql.exec<{ seq: number; role: string; text: string }>(`SELECT seq, role, text FROM log WHERE id = ?`, ack.id).toArray(),
    );
    expect(stored).toEqual([{ seq: ack.seq, role: "visitor", text: "My parcel never came" }]);
    const got = await a.next("message", (f) => f.message.id === ack.id);
    expect(got.message).toMatchObject({ seq: ack.seq, role: "visitor", text: "My parcel never came" });

    // Mirrored through the conversation core: the message, the conversation's count and the day's figures.
    for (let i = 0; i < 50 && !(await visitorRows(cid)).some((m) => m.id === ack.id); i++) await new Promise((r) => setTimeout(r, 50));
    const row = (await visitorRows(cid)).find((m) => m.id === ack.id);
    expect(row).toMatchObject({ content: "My parcel never came", clientMessageId: "c_sock_visit_1", orgId: s.org.id, chatbotId: s.bot.id });
    expect((await figures()).messages).toBe(before.messages + 1);
    const count = (await conversationRow(cid))!.messageCount;

    // The same client id again (the ack was lost on the way): acknowledged with the same seq, not stored twice.
    const from = v.frames.length;
    v.send({ type: "send", clientId: "c_sock_visit_1", text: "My parcel never came" });
    expect(await v.next("ack", (f) => f.clientId === "c_sock_visit_1", from)).toMatchObject({ seq: ack.seq, id: ack.id });
    expect(await a.none("message", a.frames.indexOf(got) + 1)).toBe(true);
    // …and the widget's HTTP fallback with that id: answered as held, nothing stored.
    const res = await post(`/api/chat/${s.bot.id}`, {
      visitorId: (await conversationRow(cid))!.visitorId,
      message: "My parcel never came",
      stream: false,
      channel: "widget",
      conversationId: cid,
      clientMessageId: "c_sock_visit_1",
    });
    expect(await res.json()).toEqual({ conversationId: cid, message: null });
    const log = await runInDurableObject(session(cid), async (_o, state) =>
      state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM log WHERE role = 'visitor' AND client_id = 'c_sock_visit_1'`).one(),
    );
    expect(log.n).toBe(1);
    expect((await visitorRows(cid)).filter((m) => m.clientMessageId === "c_sock_visit_1")).toHaveLength(1);
    expect((await conversationRow(cid))!.messageCount).toBe(count);
    expect((await figures()).messages).toBe(before.messages + 1);
  });

  it("holds the visitor to the chatbot's rate limit and the HTTP path's message length", async () => {
    const s = await liveChatbot({ name: "Socket limits" });
    const settings = (await db.select().from(chatbots).where(eq(chatbots.id, s.bot.id)).get())!.settings as Record<string, unknown>;
    await db
      .update(chatbots)
      .set({ settings: { ...settings, access: { rateLimitPerMinute: 3, rateLimitPerHour: 100 } } })
      .where(eq(chatbots.id, s.bot.id));
    const { cid, v, a } = await held(s);

    v.send({ type: "send", clientId: "c_too_long_01", text: "x".repeat(MESSAGE_MAX + 1) });
    expect(await v.next("error", (f) => f.clientId === "c_too_long_01")).toMatchObject({ code: "invalid_input" });

    // The object counts its socket's messages itself: three a minute, the fourth refused.
    for (const n of [1, 2, 3]) {
      v.send({ type: "send", clientId: `c_within_${n}_0`, text: `Message ${n}` });
      await v.next("ack", (f) => f.clientId === `c_within_${n}_0`);
    }
    v.send({ type: "send", clientId: "c_over_limit_1", text: "One too many" });
    const refused = await v.next("error", (f) => f.clientId === "c_over_limit_1");
    expect(refused).toMatchObject({ code: "rate_limited" });
    expect(refused.message).toMatch(/faster than this chat allows\. Please wait \d+ seconds?/);
    await new Promise((r) => setTimeout(r, 300));
    expect(a.frames.some((f) => f.type === "message" && f.message.text === "One too many")).toBe(false);
    const texts = await runInDurableObject(session(cid), async (_o, state) =>
      state.storage.sql
        .exec<{ text: string }>(`SELECT text FROM log WHERE role = 'visitor' ORDER BY seq`)
        .toArray()
        .map((r) => r.text),
    );
    expect(texts).not.toContain("One too many");
    expect(texts).not.toContain("x".repeat(MESSAGE_MAX + 1));
  });

  it("is refused while the bot has the conversation, or answers it while a person is awaited", async () => {
    const s = await liveChatbot({ name: "Socket refusals" });
    // The bot's conversation.
    const visitorId = visitor();
    const { conversationId } = await chat(s.bot.id, visitorId, "Hello!");
    const v = await socket(`/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=${conversationId}&channel=widget`);
    await v.next("welcome", (f) => f.status === "bot");
    v.send({ type: "send", clientId: "c_bot_conv_01", text: "Do you ship to Norway?" });
    expect(await v.next("error", (f) => f.clientId === "c_bot_conv_01")).toMatchObject({ code: "not_live" });

    // Waiting for a person: the bot still answers, so its turns stay the conversation core's.
    const w = await waiting(s);
    w.v.send({ type: "send", clientId: "c_waiting_001", text: "Are you there?" });
    expect(await w.v.next("error", (f) => f.clientId === "c_waiting_001")).toMatchObject({ code: "not_live" });

    for (const cid of [conversationId, w.cid]) {
      const n = await runInDurableObject(session(cid), async (_o, state) =>
        state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM log WHERE client_id IN ('c_bot_conv_01', 'c_waiting_001')`).one(),
      );
      expect(n.n).toBe(0);
    }
    const store = await storeOf({ orgId: s.org.id, chatbotId: s.bot.id });
    for (const clientId of ["c_bot_conv_01", "c_waiting_001"]) expect(await store.byClientMessageId(clientId)).toEqual([]);
  });
});

// Keeps the env import typed for runInDurableObject.
void (env as unknown as Env);
