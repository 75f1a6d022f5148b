import { Hono } from "hono";
import { chatbotForVisitor } from "../../app/.server/chatbots/find-chatbot";
import { ORIGIN_REFUSED_MESSAGE, isRequestOriginAllowed } from "../../app/.server/widget/origin";
import { recordSiteEvent } from "../../app/.server/widget/site-activity";
import { widgetConfigFor } from "../widget/config";
import { readAccessSettings } from "../../app/lib/schemas/widget-settings";
import type { HonoEnv } from "../hono-env";
import { apiError } from "./errors";
import { countPrivateRefusal, visitorSite } from "./visitor-gate";

// GET /api/widget/{chatbotId}/config — read by the loader on the customer's page (a cross-origin
// fetch, so the answer carries CORS headers for that origin) and nothing secret. A site that is not
// on the chatbot's allow-list gets 403 origin_not_allowed and the loader draws nothing. Each answer is
// counted per site for the owner: a successful load ("the widget is on this site") or the refusal.

export const widgetConfig = new Hono<HonoEnv>();

widgetConfig.get("/:chatbotId/config", async (c) => {
  const ctx = c.get("app");
  const origin = c.req.header("Origin") ?? null;
  if (origin) {
    c.header("Access-Control-Allow-Origin", origin);
    c.header("Vary", "Origin");
  }
  c.header("Cache-Control", "no-store");
  const site = visitorSite(c);
  const target = await chatbotForVisitor(ctx, c.req.param("chatbotId"), countPrivateRefusal(c, site));
  if (!target) return apiError(c, 404, "not_found", "No chatbot with this id.");
  if (!isRequestOriginAllowed(origin, [ctx.origin], readAccessSettings(target.chatbot.settings))) {
    recordSiteEvent(ctx, target.chatbot.id, site, "origin_not_allowed");
    return apiError(c, 403, "origin_not_allowed", ORIGIN_REFUSED_MESSAGE);
  }
  recordSiteEvent(ctx, target.chatbot.id, site, "loaded");
  return c.json(widgetConfigFor(target));
});
