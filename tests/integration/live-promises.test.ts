import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import type { Env } from "~/.server/env";
import { db } from "../factories";
import { liveChatbot, liveRequests } from "./live-sockets";

// What the visitor is promised after asking for a person matches what the widget will offer (ADR
// 027): the lead form only when its setting is not "Never" and no details were left; "by email"
// when the visitor already left an email — at once, and when nobody took the conversation in time.

const { post, socket } = liveRequests(34);
const visitor = () => `v_${newId().slice(0, 20)}`;

const setup = (timing: "off" | "on-fallback", live: Record<string, unknown> = {}) => liveChatbot({ name: "Promises", leadForm: timing, live });

type Handoff = { conversationId: string; available: boolean; message: string };
const handoff = async (botId: string, visitorId: string) => (await (await post(`/api/widget/${botId}/handoff`, { visitorId })).json()) as Handoff;
const inWords = async (botId: string, visitorId: string) => {
  const res = await post(`/api/chat/${botId}`, { visitorId, message: "Can I talk to a human?", stream: false, channel: "widget" });
  return ((await res.json()) as { message: { content: string } }).message.content;
};
const leaveEmail = async (botId: string, visitorId: string) =>
  expect((await post(`/api/widget/${botId}/leads`, { visitorId, email: `${visitorId.toLowerCase()}@example.com` })).status).toBe(201);

const session = (cid: string) => env.CHAT_SESSION.get(env.CHAT_SESSION.idFromName(cid));
/** The wait timer's note once its minutes have gone by. */
async function timeoutNote(cid: string, visitorId: string, botId: string) {
  const v = await socket(`/api/live/visitor/${botId}?visitorId=${visitorId}&conversationId=${cid}&after=0`);
  await v.next("welcome");
  await runInDurableObject(session(cid), async (_o, state) => {
    state.storage.sql.exec(`UPDATE meta SET v = json_set(v, '$.at', 0) WHERE k = 'wait'`);
  });
  await runDurableObjectAlarm(session(cid));
  const note = (await v.next("message", (f) => f.message.kind === "wait-timeout")).message.text;
  v.close();
  return note;
}

describe("handoff promises follow the lead form setting and the details left", () => {
  it("lead form 'Never', nobody online: no email is asked for; the conversation stays open for a reply here", async () => {
    const s = await setup("off");
    for (const message of [(await handoff(s.bot.id, visitor())).message, await inWords(s.bot.id, visitor())]) {
      expect(message).toBe(
        "No one from the team is online right now. Your conversation stays open: when someone from the team is back, they can reply here in this chat, so come back to this page to see it.",
      );
      expect(message).not.toMatch(/email/i);
    }
  });

  it("lead form on, nobody online: the visitor is asked for an email (the widget opens the form)", async () => {
    const s = await setup("on-fallback");
    expect((await handoff(s.bot.id, visitor())).message).toBe("No one from the team is online right now. Leave your email and a person will get back to you.");
  });

  it("an email already left: the team replies by email, nothing is asked for", async () => {
    const s = await setup("on-fallback");
    const [button, words] = [visitor(), visitor()];
    for (const v of [button, words]) await leaveEmail(s.bot.id, v);
    for (const message of [(await handoff(s.bot.id, button)).message, await inWords(s.bot.id, words)]) {
      expect(message).toBe("No one from the team is online right now. Your conversation has been passed on, and a person will get back to you by email.");
    }
  });

  it("the wait runs out with the lead form 'Never': the note promises a reply in this chat, not an email", async () => {
    const s = await setup("off", { waitMinutes: 3 });
    const inbox = await socket(`${s.base}/inbox`, s.agentHeaders);
    await inbox.next("presence", (f) => f.agents.length === 1);
    const visitorId = visitor();
    const r = await handoff(s.bot.id, visitorId);
    expect(r.available).toBe(true);
    expect(await timeoutNote(r.conversationId, visitorId, s.bot.id)).toBe(
      "No one from the team could join within 3 minutes. Your conversation stays open: when someone from the team is free, they can reply here in this chat, so come back to this page to see it.",
    );
    inbox.close();
  });

  it("the wait runs out after the visitor left an email (even one left while waiting): the note says by email, no form", async () => {
    const s = await setup("on-fallback", { waitMinutes: 2 });
    const inbox = await socket(`${s.base}/inbox`, s.agentHeaders);
    await inbox.next("presence", (f) => f.agents.length === 1);
    const emailed = "No one from the team could join within 2 minutes. Your conversation has been passed on, and a person will get back to you by email.";

    const before = visitor();
    await leaveEmail(s.bot.id, before);
    const r1 = await handoff(s.bot.id, before);
    expect(await timeoutNote(r1.conversationId, before, s.bot.id)).toBe(emailed);

    const meanwhile = visitor();
    const r2 = await handoff(s.bot.id, meanwhile);
    await leaveEmail(s.bot.id, meanwhile);
    expect(await timeoutNote(r2.conversationId, meanwhile, s.bot.id)).toBe(emailed);

    // No email: the form is offered.
    const none = visitor();
    const r3 = await handoff(s.bot.id, none);
    expect(await timeoutNote(r3.conversationId, none, s.bot.id)).toBe(
      "No one from the team could join within 2 minutes. Leave your email and a person will get back to you.",
    );
    inbox.close();
  });
});

void (env as unknown as Env);
