import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { HonoEnv } from "../hono-env";
import { chat } from "./chat";
import { limitApiBodies } from "./body-limit";
import { live } from "./live";
import { apiError } from "./errors";
import { health } from "./health";
import { phone } from "./phone";
import { stripe } from "./stripe";
import { widget } from "./widget";
import { widgetConfig } from "./widget-config";
import { v1 } from "./v1";
import { woocommerceWebhooks } from "./webhooks/woocommerce";
import { voice } from "./voice";

export const api = new Hono<HonoEnv>();

// Before every router, so no handler reads an oversized body (workers/api/body-limit.ts).
api.use("*", limitApiBodies);

api.route("/health", health);
api.route("/chat", chat);
api.route("/widget", widgetConfig);
api.route("/widget", widget);
api.route("/v1", v1);
api.route("/live", live);
api.route("/stripe", stripe);
api.route("/phone", phone);
api.route("/webhooks/woocommerce", woocommerceWebhooks);
api.route("/voice", voice);

api.onError((err, c) => {
  if (err instanceof HTTPException) return apiError(c, err.status as 400, "http_error", err.message || "Request failed.");
  console.error("[api] unhandled error", err);
  return apiError(c, 500, "internal_error", "Something went wrong on our side. Please try again.");
});
