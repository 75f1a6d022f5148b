import { useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { clientFrame, parseServerFrame, type ServerFrame } from "~/lib/live/protocol";

/**
 * A WebSocket to one of the live-chat endpoints (ADR 025) that reconnects after a drop (the server
 * resends what was missed: `path(after)` carries the last seq seen). Frames are parsed with the
 * shared protocol; `onFrame` sees each valid one.
 */
export function useLiveSocket(path: ((after: number) => string) | null, onFrame: (f: ServerFrame) => void) {
  const [connected, setConnected] = useState(false);
  const wsRef = useRef<WebSocket | null>(null);
  const latest = useRef(onFrame);
  latest.current = onFrame;
  const lastSeq = useRef(0);
  const key = path ? path(0) : null;
  const pathRef = useRef(path);
  pathRef.current = path;

  useEffect(() => {
    if (!key) return;
    lastSeq.current = 0;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    const open = () => {
      const p = pathRef.current;
      if (stopped || !p) return;
      const ws = new WebSocket(`${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${p(lastSeq.current)}`);
      wsRef.current = ws;
      ws.onopen = () => {
        attempt = 0;
        setConnected(true);
      };
      ws.onmessage = (e) => {
        const f = parseServerFrame(e.data);
        if (!f.ok) return;
        if (f.frame.type === "message") lastSeq.current = Math.max(lastSeq.current, f.frame.message.seq);
        latest.current(f.frame);
      };
      ws.onclose = () => {
        setConnected(false);
        wsRef.current = null;
        if (!stopped) timer = setTimeout(open, Math.min(10_000, 500 * 2 ** attempt++));
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      wsRef.current?.close(1000, "done");
    };
  }, [key]);

  const send = useCallback((f: Parameters<typeof clientFrame>[0]) => {
    const ws = wsRef.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(clientFrame(f));
    return true;
  }, []);

  return { connected, send };
}

/** Reloads the page's data (no page reload) shortly after live events, at most every 300 ms. */
export function useDebouncedRevalidate() {
  const revalidator = useRevalidator();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const rev = useRef(revalidator);
  rev.current = revalidator;
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    clearTimeout(timer.current);
    // A navigation (a click, a reload) may abort the revalidation: nothing to report, the new page loads its own data.
    timer.current = setTimeout(() => void Promise.resolve(rev.current.revalidate()).catch(() => {}), 300);
  }, []);
}
