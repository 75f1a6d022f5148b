// Node-side live-chat clients for the durability test (tests/e2e/live-durability.e2e.ts) and
// `npm run bench:live`: an agent signed in over HTTP, visitors handed to a person through the
// public widget API, and WebSockets (the `ws` package, installed with wrangler) that keep every
// frame they receive. Frames are the protocol's JSON (app/lib/live/protocol.ts).
import { createRequire } from "node:module";
import { DEMO } from "./demo.mjs";

const WebSocket = createRequire(import.meta.url)("ws");

/** Signs in as the demo owner once (the per-email sign-in limit is 10 per 15 minutes) and returns the session cookie. */
export async function signIn(baseURL, { email = DEMO.email, password = DEMO.password } = {}) {
  const res = await fetch(`${baseURL}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseURL },
    body: new URLSearchParams({ email, password, redirectTo: "/app" }),
  });
  const cookie = (res.headers.getSetCookie?.() ?? [res.headers.get("set-cookie") ?? ""])
    .map((c) => c.split(";")[0])
    .filter(Boolean)
    .join("; ");
  if (res.status !== 302 || !cookie) throw new Error(`sign-in failed: ${res.status} ${await res.text().catch(() => "")}`);
  return cookie;
}

/** A visitor asks for a person ("talk to a human" button); returns the conversation id (now waiting). */
export async function handOff(baseURL, chatbotId, visitorId, ip) {
  const res = await fetch(`${baseURL}/api/widget/${chatbotId}/handoff`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
    body: JSON.stringify({ visitorId }),
  });
  if (!res.ok) throw new Error(`handoff: ${res.status} ${await res.text()}`);
  return (await res.json()).conversationId;
}

/** A visitor's message through the conversation core (what the widget does); resolves when it is stored. */
export async function visitorSays(baseURL, chatbotId, { visitorId, conversationId, text, clientMessageId, ip }) {
  const res = await fetch(`${baseURL}/api/chat/${chatbotId}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
    body: JSON.stringify({ visitorId, conversationId, message: text, stream: false, channel: "widget", clientMessageId }),
  });
  if (!res.ok) throw new Error(`chat: ${res.status} ${await res.text()}`);
  return res.json();
}

export const visitorPath = (chatbotId, visitorId, conversationId, after = 0) =>
  `/api/live/visitor/${chatbotId}?visitorId=${visitorId}&conversationId=${conversationId}&channel=widget&after=${after}`;
export const agentPath = (orgId, chatbotId, conversationId, after = 0) =>
  `/api/live/agent/${orgId}/${chatbotId}/conversations/${conversationId}?after=${after}`;

/** One socket: every frame received (with the time it arrived), waiting for one, sending one. */
export class LiveSocket {
  /** @param {string} url ws://… @param {Record<string, string>} headers */
  static open(url, headers = {}, { timeoutMs = 15_000, onFrame } = {}) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers, perMessageDeflate: false, handshakeTimeout: timeoutMs });
      const s = new LiveSocket(ws, onFrame);
      ws.once("open", () => resolve(s));
      ws.once("error", reject);
      ws.once("unexpected-response", (_req, res) => reject(new Error(`${url}: HTTP ${res.statusCode}`)));
    });
  }

  constructor(ws, onFrame) {
    this.ws = ws;
    this.frames = [];
    this.closed = false;
    this.waiters = new Set();
    ws.on("message", (data) => {
      const f = JSON.parse(String(data));
      const at = performance.now();
      this.frames.push(f);
      onFrame?.(f, at);
      for (const w of this.waiters) w();
    });
    ws.on("close", () => {
      this.closed = true;
      for (const w of this.waiters) w();
    });
    ws.on("error", () => {});
  }

  send(frame) {
    this.ws.send(JSON.stringify({ v: 1, ...frame }));
  }

  /** The first frame of `type` matching `match` (from index `from`), or a rejection after `timeoutMs`. */
  next(type, match = () => true, { from = 0, timeoutMs = 15_000 } = {}) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const f = this.frames.slice(from).find((x) => x.type === type && match(x));
        if (f) return done(() => resolve(f));
        if (this.closed) return done(() => reject(new Error(`socket closed before a ${type} frame`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`no ${type} frame within ${timeoutMs} ms; last: ${JSON.stringify(this.frames.slice(-3))}`))),
        timeoutMs,
      );
      const done = (fn) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        fn();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Messages received, in arrival order. */
  messages() {
    return this.frames.filter((f) => f.type === "message").map((f) => f.message);
  }

  close() {
    try {
      this.ws.close(1000, "done");
    } catch {
      /* already closed */
    }
  }

  /** Drops the connection without a close handshake (a crash, a lost network). */
  terminate() {
    this.ws.terminate();
  }
}
