import { env, exports } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { chatbots, messages } from "~/.server/db/schema";
import { clientFrame, parseServerFrame, type ServerFrame } from "~/lib/live/protocol";
import { addMember, db, makeOrg, makeUser, signedIn } from "../factories";
import { BASE } from "./helpers";

// The agent workflow around a handoff (ADR 027): what the visitor is promised (office hours, who is
// online), the wait timer in the conversation's object, and what only agents see.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;
const ip = () => `10.31.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const visitor = () => `v_${newId().slice(0, 20)}`;

function post(path: string, body: unknown) {
  return worker.fetch(
    new Request(BASE + path, { method: "POST", headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip() }, body: JSON.stringify(body) }),
  );
}

class Client {
  frames: ServerFrame[] = [];
  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (e) => {
      const f = parseServerFrame(e.data);
      if (f.ok) this.frames.push(f.frame);
    });
  }
  send(f: Parameters<typeof clientFrame>[0]) {
    this.ws.send(clientFrame(f));
  }
  async next<T extends ServerFrame["type"]>(type: T, match: (f: Extract<ServerFrame, { type: T }>) => boolean = () => true) {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = this.frames.find((f): f is Extract<ServerFrame, { type: T }> => f.type === type && match(f as Extract<ServerFrame, { type: T }>));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${type} frame; got ${JSON.stringify(this.frames)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  close() {
    this.ws.close(1000, "done");
  }
}

async function socket(path: string, headers: Record<string, string> = {}) {
  const res = await worker.fetch(new Request(BASE + path, { headers: { Upgrade: "websocket", "CF-Connecting-IP": ip(), ...headers } }));
  if (res.status !== 101) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return new Client(res.webSocket!);
}

async function setup(live: Record<string, unknown> = {}) {
  const owner = await makeUser({ name: "Omar Owner" });
  const { org, bot } = await makeOrg(owner.id, "Agents", { plan: "growth" });
  await db
    .update(chatbots)
    .set({ settings: { ui: { humanHandoff: true, leadForm: { timing: "on-fallback" } }, live } })
    .where(eq(chatbots.id, bot.id));
  const agentUser = await makeUser({ name: "Ada Agent" });
  await addMember(org.id, agentUser.id, "agent");
  const { request } = await signedIn(agentUser.id);
  const agentHeaders = { Cookie: request.headers.get("Cookie")!, Origin: BASE };
  return { org, bot, agentUser, agentHeaders, base: `/api/live/agent/${org.id}/${bot.id}` };
}

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
    const stored = await db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, cid), eq(messages.role, "system")))
      .all();
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
