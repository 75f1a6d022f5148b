import { Hono, type Context } from "hono";
import { chatbotForVisitor } from "../../app/.server/chatbots/find-chatbot";
import { ORIGIN_REFUSED_MESSAGE } from "../../app/.server/widget/origin";
import { recordSiteEvent, siteOrigin } from "../../app/.server/widget/site-activity";
import { STUDIO_PREVIEW_ID, STUDIO_PREVIEW_NAME } from "../../app/lib/studio/designer";
import { readGeneralSettings } from "../../app/lib/schemas/chatbot-settings";
import { frameAncestors, isOriginAllowed, readAccessSettings, readUiSettings } from "../../app/lib/schemas/widget-settings";
import { chatCss, chatJs, loader, loaderHash, version } from "../../build/widget/manifest.js";
import type { HonoEnv } from "../hono-env";
import { BOOT_ELEMENT_ID, ROOT_ELEMENT_ID, type WidgetBoot } from "./chat/boot";
import { widgetConfigFor } from "./config";

// The widget's pages, served before Remix and without its runtime (ADR 009):
//   GET /widget.js                          the loader (cached; ETag = its content hash)
//   GET /widget/frame/{chatbotId}?host=…    the chat inside the iframe on a customer's site
//       &preview=1                          the same, previewed live by the dashboard (settings/ui)
//   GET /test/{chatbotId}                   the chat as a full page, shareable; only Parley's own pages
//                                           may frame it (the live demo on the home page)
// The iframe page may only be framed by the chatbot's allowed origins (CSP frame-ancestors), and a
// `host` that is not allowed gets a refusal instead of the chat.

export const widgetPages = new Hono<HonoEnv>();

widgetPages.get("/widget.js", (c) => {
  const etag = `"${loaderHash}"`;
  const headers = {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": "public, max-age=300, stale-while-revalidate=86400",
    ETag: etag,
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Access-Control-Allow-Origin": "*",
  };
  if (c.req.header("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  return new Response(loader, { headers });
});

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/** JSON inside <script type="application/json">: "<" escaped so no text can close the element. */
const jsonForScript = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

function csp(nonce: string, ancestors: string) {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data:",
    "connect-src 'self'",
    // Spoken answers of the OpenAI engine play from blob: URLs (the widget's microphone).
    "media-src 'self' blob:",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    ancestors,
  ].join("; ");
}

function page(c: Context<HonoEnv>, status: 200 | 403 | 404, opts: { title: string; lang: string; ancestors: string; body: string }) {
  const nonce = c.get("nonce");
  const html = `<!doctype html>
<html lang="${esc(opts.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>${esc(opts.title)}</title>${
    chatCss ? `<link rel="stylesheet" href="${chatCss}">` : ""
  }</head><body>${opts.body}</body></html>`;
  return c.html(html, status, { "Content-Security-Policy": csp(nonce, opts.ancestors), "Cache-Control": "private, no-cache" });
}

const notice = (text: string) => `<main style="font:15px/1.5 system-ui,sans-serif;padding:24px;color:#444;text-align:center"><p>${esc(text)}</p></main>`;

function chatPage(c: Context<HonoEnv>, boot: WidgetBoot, lang: string, ancestors: string) {
  return page(c, 200, {
    title: `Chat with ${boot.config.name}`,
    lang,
    ancestors,
    body: `<div id="${ROOT_ELEMENT_ID}"></div><script type="application/json" id="${BOOT_ELEMENT_ID}">${jsonForScript(boot)}</script><script type="module" src="${chatJs}" nonce="${c.get("nonce")}"></script>`,
  });
}

function validOrigin(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && u.origin === value ? u.origin : null;
  } catch {
    return null;
  }
}

const langOf = (settings: unknown) => {
  const l = readGeneralSettings(settings).language;
  return l === "auto" ? "en" : l;
};

widgetPages.get("/widget/frame/:chatbotId", async (c) => {
  const ctx = c.get("app");
  if (c.req.param("chatbotId") === STUDIO_PREVIEW_ID && c.req.query("preview") === "1") return studioPreview(c);
  const host = validOrigin(c.req.query("host"));
  // Refusals are counted against the host page's site for the owner (not Parley's own previews).
  const site = host && host !== ctx.origin ? siteOrigin(host) : null;
  const target = await chatbotForVisitor(ctx, c.req.param("chatbotId"), (id) => recordSiteEvent(ctx, id, site, "private"));
  if (!target) return page(c, 404, { title: "Not found", lang: "en", ancestors: "frame-ancestors *", body: notice("This chatbot does not exist.") });
  const access = readAccessSettings(target.chatbot.settings);
  const lang = langOf(target.chatbot.settings);
  if (c.req.query("preview") === "1") {
    // The dashboard's live preview (settings/ui): only Parley itself may frame it.
    if (host !== ctx.origin)
      return page(c, 403, { title: "Preview unavailable", lang, ancestors: "frame-ancestors 'self'", body: notice("The preview only opens inside Parley.") });
    return chatPage(
      c,
      { mode: "preview", chatbotId: target.chatbot.id, hostOrigin: host, channel: "widget", config: widgetConfigFor(target) },
      lang,
      "frame-ancestors 'self'",
    );
  }
  const ancestors = frameAncestors(access);
  if (!host || !isOriginAllowed(host, access)) {
    recordSiteEvent(ctx, target.chatbot.id, site, "origin_not_allowed");
    return page(c, 403, { title: "Chat unavailable", lang, ancestors, body: notice(ORIGIN_REFUSED_MESSAGE) });
  }
  return chatPage(c, { mode: "widget", chatbotId: target.chatbot.id, hostOrigin: host, channel: "widget", config: widgetConfigFor(target) }, lang, ancestors);
});

widgetPages.get("/test/:chatbotId", async (c) => {
  const ctx = c.get("app");
  const target = await chatbotForVisitor(ctx, c.req.param("chatbotId"));
  if (!target)
    return page(c, 404, {
      title: "Not found · Parley",
      lang: "en",
      ancestors: "frame-ancestors 'self'",
      body: notice("This chatbot does not exist, or it is private."),
    });
  return chatPage(
    c,
    { mode: "page", chatbotId: target.chatbot.id, hostOrigin: null, channel: "test", config: widgetConfigFor(target) },
    langOf(target.chatbot.settings),
    "frame-ancestors 'self'",
  );
});

/**
 * The Studio's widget designer (/studio/widget-designer): the real chat UI in preview mode without a
 * chatbot (preview mode sends nothing). Starts from `ui` (JSON, read through the ui-settings schema:
 * invalid fields fall back to defaults) so the page works without script; the page then posts
 * settings as the dashboard's preview does. Only Parley itself may frame it.
 */
function studioPreview(c: Context<HonoEnv>) {
  const ctx = c.get("app");
  const host = validOrigin(c.req.query("host"));
  if (host !== ctx.origin)
    return page(c, 403, {
      title: "Preview unavailable",
      lang: "en",
      ancestors: "frame-ancestors 'self'",
      body: notice("The preview only opens inside Parley."),
    });
  let raw: unknown = {};
  try {
    raw = JSON.parse((c.req.query("ui") ?? "{}").slice(0, 4000));
  } catch {
    raw = {};
  }
  const { removeBranding: _, ...ui } = readUiSettings({ ui: raw });
  return chatPage(
    c,
    {
      mode: "preview",
      chatbotId: STUDIO_PREVIEW_ID,
      hostOrigin: host,
      channel: "widget",
      config: { chatbotId: STUDIO_PREVIEW_ID, name: ui.displayName || STUDIO_PREVIEW_NAME, ui, showBranding: true, requireVerified: false, version },
    },
    "en",
    "frame-ancestors 'self'",
  );
}
