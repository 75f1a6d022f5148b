import { useEffect, useRef } from "preact/hooks";
import type { HistoryMessage } from "../../../app/lib/schemas/chat";
import { request } from "./api";

export type History = { conversationId: string | null; messages: HistoryMessage[]; leadCaptured?: boolean; status?: string };

/**
 * Loads the visitor's latest conversation (after a reload, or when the host page identifies the
 * visitor) and hands it to `onLoaded`. A new visitor or a refused origin loads nothing: the first
 * send then shows the reason.
 */
export function useHistory(q: { chatbotId: string; channel: string; visitorId: string; hash?: string; skip: boolean }, onLoaded: (h: History) => void) {
  const latest = useRef(onLoaded);
  latest.current = onLoaded;
  useEffect(() => {
    if (q.skip) return;
    let live = true;
    const params = new URLSearchParams({ visitorId: q.visitorId, channel: q.channel });
    if (q.hash) params.set("hash", q.hash);
    request(`/api/chat/${encodeURIComponent(q.chatbotId)}/history?${params}`)
      .then((r) => r.json() as Promise<History>)
      .then((h) => {
        if (live) latest.current(h);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [q.chatbotId, q.channel, q.visitorId, q.hash, q.skip]);
}
