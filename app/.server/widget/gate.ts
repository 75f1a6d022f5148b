import { readAccessSettings } from "~/lib/schemas/widget-settings";
import type { ChatTarget } from "../chatbots/find-chatbot";
import type { AppContext } from "../context";
import { conversationIndex } from "../chat/conversation-index";
import { NOT_VERIFIED_MESSAGE, verifyVisitor } from "./identity";
import { ORIGIN_REFUSED_MESSAGE, isRequestOriginAllowed } from "./origin";
import { chatMessageLimits, checkLimits, widgetActionLimits, type RateKey } from "./rate-limit";
import { recordSiteEvent } from "./site-activity";

// The checks every visitor request to a chatbot passes, in order: origin → identity → rate limit
// (visibility is chatbotForVisitor's job). Only requests that pass all the others are counted against
// the rate limit. Signed-in members of the chatbot's organisation testing it on the /test page
// (channel "test") skip the identity requirement and the rate limit: their session proves more
// than a visitor hash, and their tests must not be throttled like anonymous traffic.
// Widget actions (lead, thumbs, report, handoff) also pass "require verified visitors" when the
// visitor already has a verified conversation: the widget may act without re-sending the hash.
// Origin and identity refusals are counted per site for the owner (site-activity.ts, after the response).

export type Refusal = { status: 403 | 429; code: "origin_not_allowed" | "visitor_not_verified" | "rate_limited"; message: string; retryAfterS?: number };
export type Admission = { ok: true; verified: boolean } | { ok: false; refusal: Refusal };

export type VisitorRequest = {
  /** The Origin header, when the browser sent one. */
  origin: string | null | undefined;
  /** The URL the request was made to (its origin is Parley's own, like ctx.origin). */
  requestUrl: string;
  visitorId: string;
  hash?: string | null;
  channel?: string | null;
  /** Which rate limit counts this request: a chat message, a widget action, or none (reads). */
  rate: "message" | "action" | "none";
  /** The customer site the request comes from (siteOfRequest), to count refusals per site. */
  site?: string | null;
};

export async function admitVisitor(
  ctx: Pick<AppContext, "env" | "db" | "origin" | "ip" | "waitUntil">,
  target: ChatTarget,
  req: VisitorRequest,
): Promise<Admission> {
  const access = readAccessSettings(target.chatbot.settings);
  const own = [ctx.origin, new URL(req.requestUrl).origin];
  if (!isRequestOriginAllowed(req.origin, own, access)) {
    recordSiteEvent(ctx, target.chatbot.id, req.site ?? null, "origin_not_allowed");
    return { ok: false, refusal: { status: 403, code: "origin_not_allowed", message: ORIGIN_REFUSED_MESSAGE } };
  }
  const tester = target.member && req.channel === "test";
  const verified = await verifyVisitor(ctx, target.chatbot, req.visitorId, req.hash);
  if (access.requireVerified && !verified && !tester && !(req.rate === "action" && (await hasVerifiedConversation(ctx, target, req.visitorId)))) {
    recordSiteEvent(ctx, target.chatbot.id, req.site ?? null, "visitor_not_verified");
    return { ok: false, refusal: { status: 403, code: "visitor_not_verified", message: NOT_VERIFIED_MESSAGE } };
  }
  if (req.rate !== "none" && !tester) {
    const keys = req.rate === "message" ? messageLimits(ctx, target, req) : widgetActionLimits(target.chatbot.id, req.visitorId, ctx.ip);
    const r = await checkLimits(ctx.db, keys, Date.now(), req.rate === "message" ? "messages" : "actions");
    if (!r.ok) return { ok: false, refusal: { status: 429, code: "rate_limited", message: r.message, retryAfterS: r.retryAfterS } };
  }
  return { ok: true, verified };
}

const messageLimits = (ctx: Pick<AppContext, "ip">, target: ChatTarget, req: Pick<VisitorRequest, "visitorId">) =>
  chatMessageLimits(readAccessSettings(target.chatbot.settings), target.chatbot.id, req.visitorId, ctx.ip);

/**
 * The message limits an admitted visitor's live socket carries (ADR 033): the conversation's object
 * counts the messages sent on it against these, as admitVisitor counts POST /api/chat's. None for a
 * member testing on the /test page, whom admitVisitor does not count either.
 */
export function socketMessageLimits(ctx: Pick<AppContext, "ip">, target: ChatTarget, req: Pick<VisitorRequest, "visitorId" | "channel">): RateKey[] {
  return target.member && req.channel === "test" ? [] : messageLimits(ctx, target, req);
}

/** Whether the visitor has a verified conversation, wherever the chatbot's conversation index is (ADR 044). */
async function hasVerifiedConversation(ctx: Pick<AppContext, "env" | "db">, target: ChatTarget, visitorId: string): Promise<boolean> {
  const index = await conversationIndex(ctx, { orgId: target.chatbot.orgId, chatbotId: target.chatbot.id }, target.chatbot.conversationStore);
  return index.hasConversation({ visitorId, verified: true });
}
