// The widget's live part (ADR 025), loaded with a dynamic import only when a conversation goes live
// (the visitor asked for a person, or a person holds it), so the first load stays small. It keeps
// one WebSocket to the conversation's live object and, when WebSockets fail (a proxy, a blocked
// port), polls the same URL over HTTP instead. It always asks for what came after the last seq it
// saw, so a reconnect loses nothing and repeats nothing.
//
// Frames are checked with the zod-free guard (ADR 026), not the zod schemas: this chunk stays a few
// KB. Typing (throttled) and read marks go out over the socket; the poll fallback has neither.
import { checkSnapshot, readServerFrame } from "../../../app/lib/live/guard";
import type { LiveAgent, LiveMessage, LiveStatus } from "../../../app/lib/live/protocol";
import { encodeClientFrame, typingThrottle } from "../../../app/lib/live/wire";

export type LiveHandlers = {
  /** `historic`: the message was already in the log when this page first connected (a reload's catch-up). */
  onMessage: (m: LiveMessage, historic: boolean) => void;
  onStatus: (status: LiveStatus, agent: LiveAgent | null) => void;
  /** The agent is writing (`on`) or stopped. */
  onTyping?: (on: boolean, name: string | undefined) => void;
  /** Whether the agents have seen the visitor's latest message. */
  onSeen?: (seen: boolean) => void;
  /** Whether an agent has the conversation open. */
  onAgentHere?: (here: boolean) => void;
};

export type LiveQuery = { chatbotId: string; visitorId: string; conversationId: string; channel: string; hash?: string };

/** How a message sent on the socket ended: stored (`ok`), refused (the object's error), or unknown (null: send it over HTTP). */
export type LiveSent = { ok: true } | { ok: false; code: string; message: string } | null;

const POLL_MS = 3000;
/** A message not acknowledged within this time is sent over HTTP with the same client id (stored once). */
const ACK_WAIT_MS = 8000;
const MAX_SOCKET_FAILURES = 2;

export function connectLive(q: LiveQuery, h: LiveHandlers) {
  let seq = 0;
  let closed = false;
  let firstSeq: number | null = null;
  let ws: WebSocket | null = null;
  let failures = 0;
  let mode: "socket" | "poll" = typeof WebSocket === "function" ? "socket" : "poll";
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Read state: what the agents have seen, the visitor's latest message, what this tab last said it read.
  let agentRead = 0;
  let lastVisitorSeq = 0;
  let readSent = 0;
  // Messages sent on the socket, waiting for their ack or error (by client id).
  const pending = new Map<string, (r: LiveSent) => void>();
  const settle = (clientId: string, r: LiveSent) => {
    pending.get(clientId)?.(r);
    pending.delete(clientId);
  };
  const settleAll = () => [...pending.keys()].forEach((id) => settle(id, null));

  const url = (proto: string) => {
    const p = new URLSearchParams({ visitorId: q.visitorId, conversationId: q.conversationId, channel: q.channel, after: String(seq) });
    if (q.hash) p.set("hash", q.hash);
    return `${proto}//${location.host}/api/live/visitor/${encodeURIComponent(q.chatbotId)}?${p}`;
  };
  const out = (f: Parameters<typeof encodeClientFrame>[0]) => {
    if (ws?.readyState === WebSocket.OPEN) ws.send(encodeClientFrame(f));
  };
  /** Says what the visitor has seen, when the chat is on screen (an iframe in a closed widget has no size). */
  const markRead = () => {
    if (seq > readSent && document.visibilityState === "visible" && innerWidth > 0 && ws?.readyState === WebSocket.OPEN) {
      readSent = seq;
      out({ type: "read", seq });
    }
  };
  const seenNow = () => h.onSeen?.(lastVisitorSeq > 0 && agentRead >= lastVisitorSeq);
  const seen = (m: LiveMessage) => {
    if (m.seq <= seq) return;
    seq = m.seq;
    if (m.role === "visitor") {
      lastVisitorSeq = m.seq;
      seenNow();
    }
    if (m.role === "human") h.onTyping?.(false, undefined);
    h.onMessage(m, firstSeq !== null && m.seq <= firstSeq);
  };
  const typing = typingThrottle((on) => out({ type: "typing", on }));

  const poll = async () => {
    if (closed) return;
    try {
      const res = await fetch(url(location.protocol), { credentials: "same-origin" });
      if (res.ok) {
        const s = checkSnapshot(await res.json());
        if (s) {
          firstSeq ??= s.seq;
          s.messages.forEach(seen);
          h.onStatus(s.status, s.agent);
        }
      }
    } catch {
      // offline for a moment: the next poll catches up
    }
    if (!closed) timer = setTimeout(poll, POLL_MS);
  };

  const open = () => {
    if (closed) return;
    if (mode === "poll") return void poll();
    let opened = false;
    readSent = 0;
    ws = new WebSocket(url(location.protocol === "https:" ? "wss:" : "ws:"));
    ws.onopen = () => {
      opened = true;
      failures = 0;
    };
    ws.onmessage = (e) => {
      const f = readServerFrame(e.data);
      if (!f) return;
      if (f.type === "welcome") firstSeq ??= f.seq;
      if (f.type === "ack") settle(f.clientId, { ok: true });
      else if (f.type === "error" && f.clientId) settle(f.clientId, { ok: false, code: f.code, message: f.message });
      else if (f.type === "message") {
        seen(f.message);
        markRead();
      } else if (f.type === "welcome" || f.type === "status") h.onStatus(f.status, f.agent);
      else if (f.type === "typing" && f.who === "agent") h.onTyping?.(f.on, f.name);
      else if (f.type === "read" && f.by === "agent") {
        agentRead = Math.max(agentRead, f.seq);
        seenNow();
      } else if (f.type === "read" && f.by === "visitor") readSent = Math.max(readSent, f.seq);
      else if (f.type === "online" && f.who === "agent") {
        h.onAgentHere?.(f.on);
        if (!f.on) h.onTyping?.(false, undefined);
      }
    };
    ws.onclose = () => {
      ws = null;
      settleAll();
      h.onTyping?.(false, undefined);
      if (closed) return;
      if (!opened && ++failures >= MAX_SOCKET_FAILURES) mode = "poll";
      timer = setTimeout(open, opened ? 500 : 1000);
    };
  };

  const onVisible = () => markRead();
  document.addEventListener("visibilitychange", onVisible);
  addEventListener("resize", onVisible);
  open();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      typing.stop();
      document.removeEventListener("visibilitychange", onVisible);
      removeEventListener("resize", onVisible);
      ws?.close(1000, "done");
      settleAll();
    },
    /**
     * Sends the visitor's message on the socket (a person holds the conversation, ADR 033): resolves
     * when the object stored it or refused it; null when the socket is not open, closed meanwhile or
     * no answer came in time, and the caller sends it over HTTP with the same client id.
     */
    send(text: string, clientId: string): Promise<LiveSent> {
      if (ws?.readyState !== WebSocket.OPEN) return Promise.resolve(null);
      return new Promise<LiveSent>((resolve) => {
        const t = setTimeout(() => settle(clientId, null), ACK_WAIT_MS);
        pending.set(clientId, (r) => {
          clearTimeout(t);
          resolve(r);
        });
        out({ type: "send", clientId, text });
      });
    },
    transport: () => mode,
    /** The visitor typed in the composer (throttled here). */
    typed: () => typing.input(),
    /** The visitor sent or left the composer: typing stops. */
    stopTyping: () => typing.stop(),
    markRead,
  };
}

export type LiveHandle = ReturnType<typeof connectLive>;
