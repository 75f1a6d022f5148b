import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { chatbots } from "~/.server/db/schema";
import { addMember, db, makeOrg, makeUser, signedIn } from "../factories";
import { BASE } from "./helpers";
import { liveRequests } from "./live-sockets";

// Typing, read state and who is here on a live conversation (ADR 026), through the Worker entry:
// typing is passed to the other side and not kept; read marks are kept by the conversation's object
// and told to a socket that connects later; each side learns whether the other has the chat open.

const { worker, ip, socket } = liveRequests(32);

async function chat(botId: string, visitorId: string, message: string, conversationId?: string) {
  const res = await worker.fetch(
    new Request(`${BASE}/api/chat/${botId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip() },
      body: JSON.stringify({ visitorId, message, stream: false, channel: "widget", conversationId, clientMessageId: `c_${newId().slice(0, 16)}` }),
    }),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { conversationId: string };
}

describe("live typing, read state and presence", () => {
  it("passes typing both ways, keeps read marks for later sockets, and says who has the chat open", async () => {
    const owner = await makeUser({ name: "Olga Owner" });
    const { org, bot } = await makeOrg(owner.id, "Typing", { plan: "growth" });
    await db
      .update(chatbots)
      .set({ settings: { ui: { humanHandoff: true } } })
      .where(eq(chatbots.id, bot.id));
    const agentUser = await makeUser({ name: "Tia Typist" });
    await addMember(org.id, agentUser.id, "agent");
    const cookie = (await signedIn(agentUser.id)).request.headers.get("Cookie")!;
    const agentHeaders = { Cookie: cookie, Origin: BASE };

    const visitorId = `v_${newId().slice(0, 20)}`;
    const { conversationId: cid } = await chat(bot.id, visitorId, "Hello!");
    await chat(bot.id, visitorId, "Can I talk to a human?", cid);
    const visitorPath = `/api/live/visitor/${bot.id}?visitorId=${visitorId}&conversationId=${cid}`;
    const agentPath = `/api/live/agent/${org.id}/${bot.id}/conversations/${cid}`;

    // The visitor is alone at first; the agent arriving is told to the visitor, and the visitor's presence to the agent.
    const v = await socket(visitorPath);
    expect(await v.next("online")).toMatchObject({ who: "agent", on: false });
    const a = await socket(agentPath, agentHeaders);
    expect(await a.next("online")).toMatchObject({ who: "visitor", on: true });
    expect(await v.next("online", (f) => f.on)).toMatchObject({ who: "agent", on: true, name: "Tia Typist" });
    a.send({ type: "take" });
    const joined = await v.next("message", (f) => f.message.role === "system" && f.message.text.includes("joined"));

    // Typing, both ways, with the agent's name; never echoed to the sender.
    let from = a.frames.length;
    a.send({ type: "typing", on: true });
    expect(await v.next("typing")).toMatchObject({ who: "agent", name: "Tia Typist", on: true });
    a.send({ type: "typing", on: false });
    await v.next("typing", (f) => !f.on);
    expect(await a.none("typing", from)).toBe(true);
    v.send({ type: "typing", on: true });
    expect(await a.next("typing")).toMatchObject({ who: "visitor", on: true });
    expect((await a.next("typing")).name).toBeUndefined();

    // Read marks: the visitor reads the agent's reply; the agent is told; a mark never goes back or past the log.
    a.send({ type: "send", clientId: "c_reply_typing", text: "Hello, how can I help?" });
    const ack = await a.next("ack");
    await v.next("message", (f) => f.message.id === ack.id);
    from = a.frames.length;
    v.send({ type: "read", seq: ack.seq });
    expect(await a.next("read", () => true, from)).toMatchObject({ by: "visitor", seq: ack.seq });
    v.send({ type: "read", seq: joined.message.seq });
    v.send({ type: "read", seq: ack.seq + 1000 });
    expect(await a.none("read", a.frames.length)).toBe(true);
    a.send({ type: "read", seq: ack.seq });
    expect(await v.next("read", (f) => f.by === "agent")).toMatchObject({ seq: ack.seq });

    // The visitor leaves: the agent is told. A socket that connects later is told the stored marks.
    v.close();
    await a.next("online", (f) => f.who === "visitor" && !f.on);
    const later = await socket(`${visitorPath}&after=${ack.seq}`);
    await later.next("online", (f) => f.who === "agent" && f.on);
    expect(later.frames.filter((f) => f.type === "read")).toEqual([
      { v: 1, type: "read", by: "visitor", seq: ack.seq },
      { v: 1, type: "read", by: "agent", seq: ack.seq },
    ]);
    // Typing is not kept: nothing about it reaches a new socket.
    expect(later.frames.some((f) => f.type === "typing")).toBe(false);
    for (const c of [later, a]) c.close();
  });
});
