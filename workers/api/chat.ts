import { createUIMessageStreamResponse } from "ai";
import { Hono } from "hono";
import { takeTurn, turnReply } from "../../app/.server/chat/turn";
import { failureStatus } from "../../app/.server/failure";
import { chatbotForVisitor } from "../../app/.server/chatbots/find-chatbot";
import { getVisitorHistory, numberedSources } from "../../app/.server/chat/conversations";
import { widgetChatRequestSchema, visitorIdSchema, type HistoryMessage } from "../../app/lib/schemas/chat";
import { visitorHasLead } from "../../app/.server/leads/leads";
import { countryFromHeader } from "../../app/lib/country";
import { admitKnownChatbotMessage, admitVisitor } from "../../app/.server/widget/gate";
import { readUiSettings } from "../../app/lib/schemas/widget-settings";
import { voiceAccess } from "../../app/.server/voice/access";
import { AdmissionGate, GateFull, releaseWhenSent } from "../admission";
import type { HonoEnv } from "../hono-env";
import { apiError } from "./errors";
import { countPrivateRefusal, refuse, visitorSite } from "./visitor-gate";

// POST /api/chat/{chatbotId}          one visitor message → the reply as an AI SDK UI message stream
//                                       (or one JSON document with "stream": false)
// GET  /api/chat/{chatbotId}/history  the visitor's latest conversation, to restore a chat after reload
//                                       (and leadCaptured: whether they already left contact details)
// Public chatbots answer anyone; private ones only signed-in members of their organisation (others: 404).
// Then the visitor gate (app/.server/widget/gate.ts): allowed Origin (403 origin_not_allowed), identity
// when the chatbot requires verified visitors (403 visitor_not_verified), rate limit (429 rate_limited).

export const chat = new Hono<HonoEnv>();

// Outside production, at most LOCAL_CHAT_CONCURRENCY (default 8) visitor chat requests are worked on
// at once per isolate; the others wait up to 30 s (workers/admission.ts, ADR 015).
let gate: AdmissionGate | null = null;
chat.use("*", async (c, next) => {
  if (c.env.ENVIRONMENT === "production") return next();
  gate ??= new AdmissionGate(Math.max(1, Number(c.env.LOCAL_CHAT_CONCURRENCY) || 8), 2_000, 30_000);
  let release: () => void;
  try {
    release = await gate.enter();
  } catch (e) {
    if (!(e instanceof GateFull)) throw e;
    c.header("Retry-After", "1");
    return apiError(c, 503, "busy", "Too many messages at once. Please try again in a moment.");
  }
  try {
    await next();
  } catch (e) {
    release();
    throw e;
  }
  c.res = releaseWhenSent(c.res, release);
});

const notFound = (c: Parameters<typeof apiError>[0]) => apiError(c, 404, "not_found", "No chatbot with this id.");

chat.post("/:chatbotId", async (c) => {
  const startedAt = Date.now();
  const ctx = c.get("app");
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return apiError(c, 400, "invalid_input", "Send a JSON body: { visitorId, message }.");
  }
  const parsed = widgetChatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join(".");
    return apiError(c, 400, "invalid_input", field ? `${field}: ${issue.message}` : issue.message);
  }
  const input = parsed.data;
  const site = visitorSite(c);
  const visitor = {
    site,
    origin: c.req.header("Origin"),
    requestUrl: c.req.url,
    visitorId: input.visitorId,
    hash: input.visitorHash,
    channel: input.channel,
  };
  // A chatbot this isolate knows: its look-up and the rate limits in one round trip (not for voice,
  // whose own check comes before the count).
  const known = input.channel === "voice" ? undefined : await admitKnownChatbotMessage(ctx, c.req.param("chatbotId"), visitor);
  const target = known?.target ?? (await chatbotForVisitor(ctx, c.req.param("chatbotId"), countPrivateRefusal(c, site)));
  if (!target) return notFound(c);
  if (input.channel === "voice") {
    // Spoken messages only where voice is on (or from a member trying the voice playground).
    const access = voiceAccess(target);
    if (!access.ok) return apiError(c, 403, "voice_not_enabled", access.message);
  }
  const admission = known?.admission ?? (await admitVisitor(ctx, target, { ...visitor, rate: "message" }));
  if (!admission.ok) return refuse(c, admission.refusal);

  const answer = await takeTurn(ctx, {
    target,
    channel: input.channel ?? "widget",
    visitorId: input.visitorId,
    verified: admission.verified,
    conversationId: input.conversationId,
    fresh: input.newConversation,
    text: input.message,
    country: countryFromHeader(c.req.header("CF-IPCountry")),
    clientMessageId: input.clientMessageId,
    pageUrl: input.pageUrl,
    heldHint: input.held,
    startedAt,
  });
  if (input.stream === false) {
    const reply = await turnReply(answer);
    if (!reply.ok) return apiError(c, failureStatus(reply.code), reply.code, reply.message);
    return c.json({ conversationId: reply.conversationId, message: reply.message });
  }
  return createUIMessageStreamResponse({ stream: answer.stream, headers: { "Cache-Control": "no-store" } });
});

chat.get("/:chatbotId/history", async (c) => {
  const ctx = c.get("app");
  const visitorId = visitorIdSchema.safeParse(c.req.query("visitorId") ?? "");
  if (!visitorId.success) return apiError(c, 400, "invalid_input", `visitorId: ${visitorId.error.issues[0].message}`);
  const site = visitorSite(c);
  const target = await chatbotForVisitor(ctx, c.req.param("chatbotId"), countPrivateRefusal(c, site));
  if (!target) return notFound(c);
  const channel = c.req.query("channel");
  const admission = await admitVisitor(ctx, target, {
    site,
    origin: c.req.header("Origin"),
    requestUrl: c.req.url,
    visitorId: visitorId.data,
    hash: c.req.query("hash"),
    channel,
    rate: "none",
  });
  if (!admission.ok) return refuse(c, admission.refusal);
  const ref = { orgId: target.org.id, chatbotId: target.chatbot.id };
  const history = await getVisitorHistory(ctx, ref, visitorId.data, {
    channel: channel === "test" || channel === "widget" ? channel : undefined,
    limit: 100,
    messageStore: target.chatbot.messageStore,
    conversationStore: target.chatbot.conversationStore,
  });
  c.header("Cache-Control", "no-store");
  // Lets the widget stop offering its lead form even where it cannot keep that in storage.
  const leadCaptured = readUiSettings(target.chatbot.settings).leadForm.timing !== "off" && (await visitorHasLead(ctx, ref, visitorId.data));
  if (!history) return c.json({ conversationId: null, messages: [], leadCaptured });
  const messages: HistoryMessage[] = history.messages.map((m) => ({
    id: m.id,
    role: m.role as HistoryMessage["role"],
    content: m.content,
    createdAt: m.createdAt,
    sources: numberedSources(m.sources),
  }));
  // status: a conversation waiting for or held by a person reconnects the widget's live part.
  return c.json({ conversationId: history.conversation.id, messages, leadCaptured, status: history.conversation.status });
});
