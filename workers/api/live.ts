import { Hono, type Context } from "hono";
import { chatbotForMember, chatbotForVisitor } from "../../app/.server/chatbots/find-chatbot";
import { agentConversation, visitorConversation } from "../../app/.server/inbox/conversations";
import { chatbotInbox, INFO_HEADER, liveConversation, WHO_HEADER, type LiveConversationInfo, type LiveWho } from "../../app/.server/inbox/live";
import { admitVisitor, socketMessageLimits } from "../../app/.server/widget/gate";
import { extraPlanHint, planExtras } from "../../app/lib/plans";
import { visitorIdSchema } from "../../app/lib/schemas/chat";
import type { HonoEnv } from "../hono-env";
import { apiError } from "./errors";
import { countPrivateRefusal, refuse, visitorSite } from "./visitor-gate";

// Live chat transport (ADR 025). Authenticates, then hands the socket to the Durable Object:
//
// GET /api/live/visitor/{chatbotId}?visitorId=…&conversationId=…&after=N[&hash=…]
//     with Upgrade: websocket → the conversation's socket; without → the HTTP fallback's poll
//     (the same state as JSON). The visitor id must own the conversation on this chatbot, and the
//     visitor gate (allowed origin, verified identity) holds as for /api/chat. While a person holds
//     the conversation the visitor sends on the socket; its rate limits are counted by the object.
// GET /api/live/agent/{orgId}/{chatbotId}/conversations/{conversationId}?after=N   (WebSocket)
// GET /api/live/agent/{orgId}/{chatbotId}/inbox                                     (WebSocket)
//     A signed-in member of the organisation with "inbox:work", from Parley's own pages (the
//     Origin must be this site: browsers send cookies with cross-site WebSockets). Unknown ids,
//     another organisation's, or no membership → 404; no session → 401.

export const live = new Hono<HonoEnv>();

type C = Context<HonoEnv>;
const notFound = (c: C) => apiError(c, 404, "not_found", "No conversation with this id.");
const wantsSocket = (c: C) => c.req.header("Upgrade")?.toLowerCase() === "websocket";

/** Forwards the upgrade to the object, saying who is connecting and which conversation it is. */
function connect(stub: { fetch(r: Request): Promise<Response> }, c: C, who: LiveWho, info?: LiveConversationInfo) {
  const headers = new Headers(c.req.raw.headers);
  headers.set(WHO_HEADER, JSON.stringify(who));
  if (info) headers.set(INFO_HEADER, JSON.stringify(info));
  return stub.fetch(new Request(c.req.url, { headers }));
}

const after = (c: C) => Math.max(0, Math.floor(Number(c.req.query("after")) || 0));

live.get("/visitor/:chatbotId", async (c) => {
  const ctx = c.get("app");
  const visitorId = visitorIdSchema.safeParse(c.req.query("visitorId") ?? "");
  if (!visitorId.success) return apiError(c, 400, "invalid_input", `visitorId: ${visitorId.error.issues[0].message}`);
  const conversationId = c.req.query("conversationId") ?? "";
  if (!conversationId || conversationId.length > 64) return apiError(c, 400, "invalid_input", "conversationId: required.");
  const site = visitorSite(c);
  const target = await chatbotForVisitor(ctx, c.req.param("chatbotId"), countPrivateRefusal(c, site));
  if (!target) return notFound(c);
  const admission = await admitVisitor(ctx, target, {
    site,
    origin: c.req.header("Origin"),
    requestUrl: c.req.url,
    visitorId: visitorId.data,
    hash: c.req.query("hash"),
    channel: c.req.query("channel"),
    rate: "none",
  });
  if (!admission.ok) return refuse(c, admission.refusal);
  const info = await visitorConversation(ctx, { orgId: target.org.id, chatbotId: target.chatbot.id }, visitorId.data, conversationId);
  if (!info) return notFound(c);
  const stub = liveConversation(ctx.env, info.conversationId);
  // The visitor's messages of a held conversation go over this socket (ADR 033), counted by the
  // object against the limits POST /api/chat would count them against.
  const limits = socketMessageLimits(ctx, target, { visitorId: visitorId.data, channel: c.req.query("channel") });
  if (wantsSocket(c)) return connect(stub, c, { role: "visitor", limits }, info);
  c.header("Cache-Control", "no-store");
  return c.json(await stub.snapshot(info, after(c)));
});

/** The signed-in agent and the chatbot, or the error response. */
async function agentOf(c: C) {
  const ctx = c.get("app");
  const auth = await ctx.getAuth();
  if (!auth) return apiError(c, 401, "unauthorized", "Sign in first.");
  if (c.req.header("Origin") !== new URL(c.req.url).origin) return apiError(c, 403, "origin_not_allowed", "Open the inbox from Parley itself.");
  const found = await chatbotForMember(ctx, auth.user.id, { orgId: c.req.param("orgId"), chatbotId: c.req.param("chatbotId") }, "inbox:work");
  if (!found.ok) return found.code === "forbidden" ? apiError(c, 403, "forbidden", found.message) : notFound(c);
  // Live chat is a Growth-plan extra (ADR 027).
  if (!planExtras(found.org.plan).liveChat) return apiError(c, 403, "plan_required", extraPlanHint("liveChat", "Live chat"));
  const who: LiveWho = { role: "agent", id: auth.user.id, name: auth.user.name };
  return { who, ref: { orgId: found.org.id, chatbotId: found.chatbot.id } };
}

live.get("/agent/:orgId/:chatbotId/inbox", async (c) => {
  const a = await agentOf(c);
  if (a instanceof Response) return a;
  if (!wantsSocket(c)) return apiError(c, 426, "upgrade_required", "Connect with a WebSocket.");
  return connect(chatbotInbox(c.env, a.ref.chatbotId), c, a.who);
});

live.get("/agent/:orgId/:chatbotId/conversations/:conversationId", async (c) => {
  const a = await agentOf(c);
  if (a instanceof Response) return a;
  const info = await agentConversation(c.get("app"), a.ref, c.req.param("conversationId"));
  if (!info) return notFound(c);
  if (!wantsSocket(c)) return apiError(c, 426, "upgrade_required", "Connect with a WebSocket.");
  return connect(liveConversation(c.env, info.conversationId), c, a.who, info);
});
