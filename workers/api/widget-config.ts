import { Hono } from "hono";
import { chatbotForVisitor } from "../../app/.server/chatbots/find-chatbot";
import { ORIGIN_REFUSED_MESSAGE, isRequestOriginAllowed } from "../../app/.server/widget/origin";
import { widgetConfigFor } from "../widget/config";
import { readAccessSettings } from "../../app/lib/schemas/widget-settings";
import type { HonoEnv } from "../hono-env";
import { apiError } from "./errors";

// GET /api/widget/{chatbotId}/config — read by the loader on the customer's page (a cross-origin
// fetch, so the answer carries CORS headers for that origin) and nothing secret. A site that is not
// on the chatbot's allow-list gets 403 origin_not_allowed and the loader draws nothing.

export const widgetConfig = new Hono<HonoEnv>();

widgetConfig.get("/:chatbotId/config", async (c) => {
  const ctx = c.get("app");
  const origin = c.req.header("Origin") ?? null;
  if (origin) {
    c.header("Access-Control-Allow-Origin", origin);
    c.header("Vary", "Origin");
  }
  c.header("Cache-Control", "no-store");
  const target = await chatbotForVisitor(ctx, c.req.param("chatbotId"));
  if (!target) return apiError(c, 404, "not_found", "No chatbot with this id.");
  if (!isRequestOriginAllowed(origin, [ctx.origin], readAccessSettings(target.chatbot.settings))) {
    return apiError(c, 403, "origin_not_allowed", ORIGIN_REFUSED_MESSAGE);
  }
  return c.json(widgetConfigFor(target));
});
