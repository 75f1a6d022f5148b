import type { WidgetConfig } from "../../../app/lib/schemas/widget-api";

// The boot document the frame page (/widget/frame/{id}) and the test page (/test/{id}) embed as
// <script type="application/json" id="parley-boot">; the chat UI reads it instead of fetching.
export type WidgetBoot = {
  /** widget: inside the loader's iframe; page: the full /test page; preview: the dashboard's UI preview. */
  mode: "widget" | "page" | "preview";
  chatbotId: string;
  /** The embedding page's origin (server-checked against the allow-list); null on /test. */
  hostOrigin: string | null;
  channel: "widget" | "test";
  config: WidgetConfig;
};

export const BOOT_ELEMENT_ID = "parley-boot";
export const ROOT_ELEMENT_ID = "parley-root";

export function readBoot(doc: Document): WidgetBoot | null {
  const el = doc.getElementById(BOOT_ELEMENT_ID);
  if (!el?.textContent) return null;
  try {
    const boot = JSON.parse(el.textContent) as WidgetBoot;
    return boot && typeof boot.chatbotId === "string" && boot.config ? boot : null;
  } catch {
    return null;
  }
}
