import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { chatbots } from "~/.server/db/schema";
import { clientFrame, parseServerFrame, type ServerFrame } from "~/lib/live/protocol";
import { addMember, db, makeOrg, makeUser, signedIn } from "../factories";
import { BASE } from "./helpers";

// Live chat's sockets and requests through the Worker entry, shared by the live-chat tests. Each test
// file passes its own network so its visitors' rate limits never meet another file's.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;

/** A socket with every frame it received, and a way to wait for one. */
export class LiveClient {
  frames: ServerFrame[] = [];
  private waiters: (() => void)[] = [];
  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (e) => {
      const f = parseServerFrame(e.data);
      if (!f.ok) throw new Error(f.message);
      this.frames.push(f.frame);
      for (const w of this.waiters.splice(0)) w();
    });
  }
  send(f: Parameters<typeof clientFrame>[0]) {
    this.ws.send(clientFrame(f));
  }
  /** The first frame of `type` (from index `from`) that `match` accepts; fails after 5 s. */
  async next<T extends ServerFrame["type"]>(type: T, match: (f: Extract<ServerFrame, { type: T }>) => boolean = () => true, from = 0) {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = this.frames
        .slice(from)
        .find((f): f is Extract<ServerFrame, { type: T }> => f.type === type && match(f as Extract<ServerFrame, { type: T }>));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${type} frame; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }
  /** Lets frames in flight arrive, then says whether any of this type came after `from`. */
  async none(type: ServerFrame["type"], from: number) {
    await new Promise((r) => setTimeout(r, 300));
    return !this.frames.slice(from).some((f) => f.type === type);
  }
  close() {
    this.ws.close(1000, "done");
  }
}

/** Requests from visitors of the network `10.{net}.x.y`, each from an address of its own. */
export function liveRequests(net: number) {
  const ip = () => `10.${net}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const post = (path: string, body: unknown) =>
    worker.fetch(
      new Request(BASE + path, { method: "POST", headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip() }, body: JSON.stringify(body) }),
    );
  const open = (path: string, headers: Record<string, string> = {}) =>
    worker.fetch(new Request(BASE + path, { headers: { Upgrade: "websocket", "CF-Connecting-IP": ip(), ...headers } }));
  const socket = async (path: string, headers: Record<string, string> = {}) => {
    const res = await open(path, headers);
    if (res.status !== 101) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return new LiveClient(res.webSocket!);
  };
  /** A visitor's widget message through POST /api/chat (non-streamed), which must succeed. */
  const chat = async (botId: string, visitorId: string, message: string, conversationId?: string, clientMessageId = `c_${newId().slice(0, 16)}`) => {
    const res = await post(`/api/chat/${botId}`, { visitorId, message, stream: false, channel: "widget", conversationId, clientMessageId });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { conversationId: string; message: { id: string; content: string; kind?: string } | null };
  };
  return { worker, ip, post, open, socket, chat };
}

/**
 * A Growth-plan chatbot with the handoff on (live chat is a Growth extra, app/lib/plans.ts), its
 * owner, and a signed-in agent: the headers of the agent's socket and the agent API's base path.
 */
export async function liveChatbot(opts: { name?: string; leadForm?: "off" | "on-fallback"; live?: Record<string, unknown> } = {}) {
  const owner = await makeUser({ name: "Olga Owner" });
  const { org, bot } = await makeOrg(owner.id, opts.name ?? "Live", { plan: "growth" });
  await db
    .update(chatbots)
    .set({ settings: { ui: { humanHandoff: true, leadForm: { timing: opts.leadForm ?? "on-fallback" } }, ...(opts.live ? { live: opts.live } : {}) } })
    .where(eq(chatbots.id, bot.id));
  const agentUser = await makeUser({ name: "Ada Agent" });
  await addMember(org.id, agentUser.id, "agent");
  const signed = await signedIn(agentUser.id);
  const agentHeaders = { Cookie: signed.request.headers.get("Cookie")!, Origin: BASE };
  return { owner, org, bot, agentUser, agentHeaders, base: `/api/live/agent/${org.id}/${bot.id}` };
}
