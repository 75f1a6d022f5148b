// The widget's live part (ADR 025), loaded with a dynamic import only when a conversation goes live
// (the visitor asked for a person, or a person holds it), so the first load stays small. It keeps
// one WebSocket to the conversation's live object and, when WebSockets fail (a proxy, a blocked
// port), polls the same URL over HTTP instead. It always asks for what came after the last seq it
// saw, so a reconnect loses nothing and repeats nothing.
import { liveSnapshotSchema, parseServerFrame, type LiveAgent, type LiveMessage, type LiveStatus } from "../../../app/lib/live/protocol";

export type LiveHandlers = {
  /** `historic`: the message was already in the log when this page first connected (a reload's catch-up). */
  onMessage: (m: LiveMessage, historic: boolean) => void;
  onStatus: (status: LiveStatus, agent: LiveAgent | null) => void;
};

export type LiveQuery = { chatbotId: string; visitorId: string; conversationId: string; channel: string; hash?: string };

const POLL_MS = 3000;
const MAX_SOCKET_FAILURES = 2;

export function connectLive(q: LiveQuery, h: LiveHandlers): { close: () => void; transport: () => "socket" | "poll" } {
  let seq = 0;
  let closed = false;
  let firstSeq: number | null = null;
  let ws: WebSocket | null = null;
  let failures = 0;
  let mode: "socket" | "poll" = typeof WebSocket === "function" ? "socket" : "poll";
  let timer: ReturnType<typeof setTimeout> | undefined;

  const url = (proto: string) => {
    const p = new URLSearchParams({ visitorId: q.visitorId, conversationId: q.conversationId, channel: q.channel, after: String(seq) });
    if (q.hash) p.set("hash", q.hash);
    return `${proto}//${location.host}/api/live/visitor/${encodeURIComponent(q.chatbotId)}?${p}`;
  };
  const seen = (m: LiveMessage) => {
    if (m.seq <= seq) return;
    seq = m.seq;
    h.onMessage(m, firstSeq !== null && m.seq <= firstSeq);
  };

  const poll = async () => {
    if (closed) return;
    try {
      const res = await fetch(url(location.protocol), { credentials: "same-origin" });
      if (res.ok) {
        const s = liveSnapshotSchema.safeParse(await res.json());
        if (s.success) {
          firstSeq ??= s.data.seq;
          s.data.messages.forEach(seen);
          h.onStatus(s.data.status, s.data.agent);
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
    ws = new WebSocket(url(location.protocol === "https:" ? "wss:" : "ws:"));
    ws.onopen = () => {
      opened = true;
      failures = 0;
    };
    ws.onmessage = (e) => {
      const f = parseServerFrame(e.data);
      if (!f.ok) return;
      if (f.frame.type === "welcome") firstSeq ??= f.frame.seq;
      if (f.frame.type === "message") seen(f.frame.message);
      else if (f.frame.type === "welcome" || f.frame.type === "status") h.onStatus(f.frame.status, f.frame.agent);
    };
    ws.onclose = () => {
      ws = null;
      if (closed) return;
      if (!opened && ++failures >= MAX_SOCKET_FAILURES) mode = "poll";
      timer = setTimeout(open, opened ? 500 : 1000);
    };
  };

  open();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      ws?.close(1000, "done");
    },
    transport: () => mode,
  };
}
