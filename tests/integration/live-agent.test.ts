import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { getTranscript } from "~/.server/chat/conversations";
import { createServiceContext } from "~/.server/context";
import { chatbots, conversationNotes } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { listNotes } from "~/.server/inbox/notes";
import { addMember, db, makeUser, testConversationStore } from "../factories";
import { agentRow } from "./conversation-rows";
import { BASE, request } from "./helpers";
import { liveChatbot, liveRequests } from "./live-sockets";
import { storedMessages } from "./stored-messages";

// The agent workflow around a handoff (ADR 027): what the visitor is promised (office hours, who is
// online), the wait timer in the conversation's object, and what only agents see.

const { worker, ip, post, socket } = liveRequests(31);
const visitor = () => `v_${newId().slice(0, 20)}`;

const setup = (live: Record<string, unknown> = {}) => liveChatbot({ name: "Agents", live });

const session = (cid: string) => env.CHAT_SESSION.get(env.CHAT_SESSION.idFromName(cid));
/** Moves the conversation's wait deadline into the past, as if the minutes had gone by. */
const expireWait = (cid: string) =>
  runInDurableObject(session(cid), async (_o, state) => {
    state.storage.sql.exec(`UPDATE meta SET v = json_set(v, '$.at', 0) WHERE k = 'wait'`);
  });

describe("handoff promises and the wait timer", () => {
  it("promises an in-chat reply when an agent is online; nobody taking it within the wait offers the lead form", async () => {
    const s = await setup({ waitMinutes: 2 });
    const inbox = await socket(`${s.base}/inbox`, s.agentHeaders);
    await inbox.next("presence", (f) => f.agents.length === 1);
    const visitorId = visitor();
    const r = (await (await post(`/api/widget/${s.bot.id}/handoff`, { visitorId })).json()) as { conversationId: string; available: boolean; message: string };
    expect(r).toMatchObject({ available: true, message: expect.stringContaining("They will reply here in this chat, usually within 2 minutes") });
    expect(r.message).not.toMatch(/email/);
    const cid = r.conversationId;
    const v = await socket(`/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=${cid}&after=0`);
    await v.next("welcome");

    // Not yet due: the alarm changes nothing.
    expect(await runDurableObjectAlarm(session(cid))).toBe(true);
    expect(v.frames.some((f) => f.type === "message" && f.message.kind === "wait-timeout")).toBe(false);

    await expireWait(cid);
    await runDurableObjectAlarm(session(cid));
    const timeout = await v.next("message", (f) => f.message.kind === "wait-timeout");
    expect(timeout.message).toMatchObject({
      role: "system",
      text: "No one from the team could join within 2 minutes. Leave your email and a person will get back to you.",
    });
    // Stored like any system message (the transcript shows it).
    const stored = (await storedMessages(cid)).filter((m) => m.role === "system");
    expect(stored.map((m) => m.content)).toContain(timeout.message.text);
    // Once only: no timer is left.
    expect(await runDurableObjectAlarm(session(cid))).toBe(false);
    v.close();
    inbox.close();
  });

  it("stops the timer when an agent takes the conversation", async () => {
    const s = await setup({ waitMinutes: 1 });
    const inbox = await socket(`${s.base}/inbox`, s.agentHeaders);
    await inbox.next("presence", (f) => f.agents.length === 1);
    const r = (await (await post(`/api/widget/${s.bot.id}/handoff`, { visitorId: visitor() })).json()) as { conversationId: string };
    const a = await socket(`${s.base}/conversations/${r.conversationId}?after=0`, s.agentHeaders);
    a.send({ type: "take" });
    await a.next("status", (f) => f.status === "human");
    await expireWait(r.conversationId);
    await runDurableObjectAlarm(session(r.conversationId));
    await new Promise((done) => setTimeout(done, 100));
    expect(a.frames.some((f) => f.type === "message" && f.message.kind === "wait-timeout")).toBe(false);
    a.close();
    inbox.close();
  });

  it("outside office hours tells the visitor the hours at once, even with an agent online", async () => {
    const today = ((new Date().getUTCDay() + 6) % 7) + 1; // ISO weekday, Monday = 1
    const other = (today % 7) + 1;
    const s = await setup({ officeHoursOn: true, days: [other], from: "09:00", to: "17:00" });
    const inbox = await socket(`${s.base}/inbox`, s.agentHeaders);
    await inbox.next("presence", (f) => f.agents.length === 1);
    const r = (await (await post(`/api/widget/${s.bot.id}/handoff`, { visitorId: visitor() })).json()) as {
      available: boolean;
      status: string;
      message: string;
    };
    const day = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][other - 1];
    expect(r).toMatchObject({
      available: false,
      status: "waiting",
      message: `The team is not available right now — office hours are ${day}, 09:00–17:00 (UTC). Leave your email and a person will get back to you.`,
    });
    inbox.close();
  });
});

describe("agent actions", () => {
  it("keeps internal notes from the visitor: not on their socket, poll, history or in the transcript's messages", async () => {
    const s = await setup();
    const visitorId = visitor();
    const r = (await (await post(`/api/widget/${s.bot.id}/handoff`, { visitorId })).json()) as { conversationId: string };
    const cid = r.conversationId;
    const v = await socket(`/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=${cid}&after=0`);
    await v.next("welcome");
    const secret = `Refund approved by finance ${newId().slice(0, 6)}`;
    const res = await request(`/app/${s.org.id}/${s.bot.id}?index`, {
      cookie: s.agentHeaders.Cookie,
      form: { intent: "add-note", conversationId: cid, body: secret },
    });
    expect(res.status).toBe(200);
    // Stored where the chatbot's conversation index is (D1 or its shard, ADR 054).
    const ref = { orgId: s.org.id, chatbotId: s.bot.id };
    const stored = await listNotes(createServiceContext(env as unknown as Env), ref, cid);
    expect(stored).toMatchObject([{ body: secret, authorName: "Ada Agent" }]);
    if (testConversationStore === "d1")
      expect(await db.select().from(conversationNotes).where(eq(conversationNotes.conversationId, cid)).all()).toMatchObject([
        { body: secret, userId: s.agentUser.id, orgId: s.org.id },
      ]);
    // Agents see it on the chatbot home.
    expect(await (await request(`/app/${s.org.id}/${s.bot.id}?c=${cid}`, { cookie: s.agentHeaders.Cookie })).text()).toContain(secret);

    await new Promise((done) => setTimeout(done, 100));
    expect(JSON.stringify(v.frames)).not.toContain(secret);
    const poll = await worker.fetch(new Request(`${BASE}/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=${cid}&after=0`));
    expect(await poll.text()).not.toContain(secret);
    const history = await worker.fetch(new Request(`${BASE}/api/chat/${s.bot.id}/history?visitorId=${visitorId}&conversationId=${cid}`));
    expect(history.status).toBe(200);
    expect(await history.text()).not.toContain(secret);
    // The transcript the REST API serves (GET /api/v1/conversations/:id reads getTranscript).
    const t = await getTranscript(createServiceContext(env as unknown as Env), { orgId: s.org.id, chatbotId: s.bot.id }, cid);
    expect(JSON.stringify(t)).not.toContain(secret);

    // Empty or another chatbot's conversation: refused, nothing stored.
    const empty = await request(`/app/${s.org.id}/${s.bot.id}?index`, {
      cookie: s.agentHeaders.Cookie,
      form: { intent: "add-note", conversationId: cid, body: "  " },
    });
    expect(empty.status).toBe(400);
    const other = await setup();
    const foreign = await request(`/app/${s.org.id}/${s.bot.id}?index`, {
      cookie: s.agentHeaders.Cookie,
      form: {
        intent: "add-note",
        conversationId: ((await (await post(`/api/widget/${other.bot.id}/handoff`, { visitorId: visitor() })).json()) as { conversationId: string })
          .conversationId,
        body: "x",
      },
    });
    expect(foreign.status).toBe(404);
    expect(await listNotes(createServiceContext(env as unknown as Env), ref, cid)).toHaveLength(1);
    v.close();
  });

  it("transfers a conversation to another agent of the organisation only", async () => {
    const s = await setup();
    const bea = await makeUser({ name: "Bea Agent" });
    await addMember(s.org.id, bea.id, "editor");
    const stranger = await makeUser({ name: "Stranger" });
    const visitorId = visitor();
    const r = (await (await post(`/api/widget/${s.bot.id}/handoff`, { visitorId })).json()) as { conversationId: string };
    const cid = r.conversationId;
    const v = await socket(`/api/live/visitor/${s.bot.id}?visitorId=${visitorId}&conversationId=${cid}&after=0`);
    const a = await socket(`${s.base}/conversations/${cid}?after=0`, s.agentHeaders);
    await a.next("welcome");
    a.send({ type: "take" });
    await a.next("status", (f) => f.status === "human" && f.agent?.id === s.agentUser.id);

    a.send({ type: "transfer", agentId: stranger.id });
    expect(await a.next("error", (f) => f.code === "not_found")).toMatchObject({ message: "Choose a member of your organisation who works the inbox." });

    a.send({ type: "transfer", agentId: bea.id });
    await v.next("status", (f) => f.status === "human" && f.agent?.name === "Bea Agent");
    await v.next("message", (f) => f.message.text === "Ada Agent passed the conversation to Bea Agent.");
    expect(await agentRow(cid)).toMatchObject({
      userId: bea.id,
      agentName: "Bea Agent",
    });
    // Ada no longer holds it: her reply is refused.
    a.send({ type: "send", clientId: "c_after_transfer", text: "Still me" });
    expect(await a.next("error", (f) => f.clientId === "c_after_transfer")).toMatchObject({ code: "not_yours" });
    a.close();
    v.close();
  });

  it("saves the office hours from the chatbot home (editors), refusing bad input without saving", async () => {
    const s = await setup();
    const editor = await makeUser({ name: "Eve Editor" });
    await addMember(s.org.id, editor.id, "editor");
    const path = `/app/${s.org.id}/${s.bot.id}?index`;
    const form = { intent: "save-live-settings", officeHoursOn: "on", day: "1", from: "08:30", to: "16:00", waitMinutes: "3" };
    const bad = await request(path, { cookie: editor.cookie, form: { ...form, to: "08:00" } });
    expect(bad.status).toBe(400);
    expect((await db.select().from(chatbots).where(eq(chatbots.id, s.bot.id)).get())!.settings).not.toHaveProperty("live.from", "08:30");
    // Two weekdays: the form sends one `day` per ticked box.
    const body = new URLSearchParams({ ...form });
    body.append("day", "3");
    const ok = await worker.fetch(
      new Request(BASE + path, {
        method: "POST",
        headers: {
          Host: new URL(BASE).host,
          Cookie: editor.cookie,
          Origin: BASE,
          "Content-Type": "application/x-www-form-urlencoded",
          "CF-Connecting-IP": ip(),
        },
        body: body.toString(),
      }),
    );
    expect(ok.status).toBe(200);
    const saved = (await db.select().from(chatbots).where(eq(chatbots.id, s.bot.id)).get())!.settings as { live: unknown; ui: unknown };
    expect(saved.live).toEqual({ officeHoursOn: true, days: [1, 3], from: "08:30", to: "16:00", waitMinutes: 3 });
    expect(saved.ui).toMatchObject({ humanHandoff: true });
    // Agents read them but may not change them.
    expect((await request(path, { cookie: s.agentHeaders.Cookie, form })).status).toBe(403);
  });
});
