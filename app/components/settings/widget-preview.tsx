import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";
import type { HostToFrame } from "~/lib/schemas/widget-api";
import type { UiSettings } from "~/lib/schemas/widget-settings";

export type WidgetPreviewHandle = { send: () => void };

/**
 * The real widget (the chat iframe served at /widget/frame/{id}) in preview mode. Parley is the
 * "host" here, so the frame accepts settings from this page's origin: `read()` is posted on demand
 * and again whenever the frame says it is ready (it may load after the form changed).
 */
export const WidgetPreview = forwardRef<
  WidgetPreviewHandle,
  {
    chatbotId: string;
    origin: string;
    read: () => { ui: UiSettings; name: string };
    /** Extra frame query (the Studio's starting settings). */ query?: string;
    className?: string;
  }
>(function WidgetPreview({ chatbotId, origin, read, query, className }, ref) {
  const frame = useRef<HTMLIFrameElement>(null);
  const readRef = useRef(read);
  readRef.current = read;

  const send = () => {
    const target = frame.current?.contentWindow;
    if (!target) return;
    const message: HostToFrame = { parley: 1, type: "preview-settings", ...readRef.current() };
    target.postMessage(message, window.location.origin);
  };
  useImperativeHandle(ref, () => ({ send }));

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // Only our own frame, served from our own origin, may ask for settings.
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      const data = event.data as { parley?: unknown; type?: unknown } | null;
      if (data && data.parley === 1 && data.type === "ready") send();
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);

  return (
    <iframe
      ref={frame}
      src={`/widget/frame/${encodeURIComponent(chatbotId)}?preview=1&host=${encodeURIComponent(origin)}${query ? `&${query}` : ""}`}
      title="Live preview of the chat widget"
      className={className ?? "h-[560px] w-full rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-950"}
    />
  );
});
