import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { Hono } from "hono";
import * as build from "../build/server";
import type { Env } from "../app/.server/env";
import { api } from "./api";
import { apiError } from "./api/errors";
import type { HonoEnv } from "./hono-env";
import { createAppContext } from "./load-context";
import { handleQueue } from "./queues";
import { handleScheduled } from "./scheduled";
import { applySecurityHeaders } from "./security-headers";
import { widgetPages } from "./widget/serve";

const remixHandler = createRequestHandler(build as unknown as ServerBuild);

const app = new Hono<HonoEnv>();

app.use("*", async (c, next) => {
  const nonce = crypto.randomUUID().replaceAll("-", "");
  const ctx = createAppContext(c.req.raw, c.env, c.executionCtx);
  c.set("app", ctx);
  c.set("nonce", nonce);
  const path = new URL(c.req.url).pathname;
  const isApi = path.startsWith("/api/");
  // Same-origin check for page form posts (API routes authenticate by key or token instead).
  if (!isApi && !["GET", "HEAD", "OPTIONS"].includes(c.req.method)) {
    const origin = c.req.header("Origin");
    if (origin && origin !== new URL(c.req.url).origin) return c.text("Cross-site form submissions are refused.", 403);
  }
  await next();
  // A WebSocket upgrade's response carries the socket: passed through as it is.
  if (c.res.status === 101) return;
  // Responses from Remix can be immutable; copy so headers can be added.
  c.res = new Response(c.res.body, c.res);
  applySecurityHeaders(c.res.headers, { nonce, production: ctx.production, isApi });
  for (const cookie of ctx.responseCookies) c.res.headers.append("Set-Cookie", cookie);
});

app.route("/api", api);
// /widget.js, the widget's iframe page and /test/{chatbotId}: lean pages without the Remix runtime.
app.route("/", widgetPages);
// A mounted router's notFound does not fire inside a parent app: answer unknown API paths here.
app.all("/api/*", (c) => apiError(c, 404, "not_found", "No API endpoint at this path."));

app.all("*", (c) =>
  remixHandler(c.req.raw, {
    cloudflare: { env: c.env, ctx: c.executionCtx as ExecutionContext },
    app: c.get("app"),
    nonce: c.get("nonce"),
  }),
);

app.onError((err, c) => {
  console.error("[worker] unhandled error", err);
  return c.text("Something went wrong on our side. Please try again.", 500);
});

export default {
  fetch: app.fetch,
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env, never>;

export { ChatSession } from "./durable-objects/chat-session";
export { ChatbotInbox } from "./durable-objects/chatbot-inbox";
export { KnowledgeShard } from "./durable-objects/knowledge-shard";
export { ConversationShard } from "./durable-objects/conversation-shard";
