import { readAccessSettings } from "~/lib/schemas/widget-settings";
import { chatbotLoadStatement, loadedChatbot, rememberedChatbot, visitorTarget, type ChatTarget } from "../chatbots/find-chatbot";
import { d1Client } from "../db/client";
import { hitAllStatement } from "../auth/throttle";
import type { AppContext } from "../context";
import { conversationIndex } from "../chat/conversation-index";
import { NOT_VERIFIED_MESSAGE, verifyVisitor } from "./identity";
import { ORIGIN_REFUSED_MESSAGE, isRequestOriginAllowed } from "./origin";
import { chatMessageLimits, checkLimits, countedLimits, widgetActionLimits, type RateKey } from "./rate-limit";
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
  const checked = await checkVisitor(ctx, target, req);
  if (!checked.ok) {
    recordSiteEvent(ctx, target.chatbot.id, req.site ?? null, checked.refusal.code);
    return checked;
  }
  if (req.rate !== "none" && !(target.member && req.channel === "test")) {
    const keys = req.rate === "message" ? messageLimits(ctx, target, req) : widgetActionLimits(target.chatbot.id, req.visitorId, ctx.ip);
    const r = await checkLimits(ctx.db, keys, Date.now(), req.rate === "message" ? "messages" : "actions");
    if (!r.ok) return { ok: false, refusal: { status: 429, code: "rate_limited", message: r.message, retryAfterS: r.retryAfterS } };
  }
  return checked;
}

/** Origin and identity (the checks before the rate limit), without recording anything. */
async function checkVisitor(
  ctx: Pick<AppContext, "env" | "db" | "origin">,
  target: ChatTarget,
  req: VisitorRequest,
): Promise<{ ok: true; verified: boolean } | { ok: false; refusal: Refusal & { code: "origin_not_allowed" | "visitor_not_verified" } }> {
  const access = readAccessSettings(target.chatbot.settings);
  const own = [ctx.origin, new URL(req.requestUrl).origin];
  if (!isRequestOriginAllowed(req.origin, own, access))
    return { ok: false, refusal: { status: 403, code: "origin_not_allowed", message: ORIGIN_REFUSED_MESSAGE } };
  const tester = target.member && req.channel === "test";
  const verified = await verifyVisitor(ctx, target.chatbot, req.visitorId, req.hash);
  if (access.requireVerified && !verified && !tester && !(req.rate === "action" && (await hasVerifiedConversation(ctx, target, req.visitorId))))
    return { ok: false, refusal: { status: 403, code: "visitor_not_verified", message: NOT_VERIFIED_MESSAGE } };
  return { ok: true, verified };
}

/**
 * chatbotForVisitor then admitVisitor for a chat message, in ONE D1 round trip instead of two, when
 * this isolate has looked the chatbot up before (issue #21: each round trip is ~2.5 ms of the local
 * runtime's CPU). The checks run on the remembered row; the rate limits' statement is counted only if
 * the row still has what they used (organisation, visibility, settings, identity secret), and a fresh
 * look-up rides in the same batch, so everything after the gate reads the chatbot as it is now.
 * Undefined when it cannot answer for sure — nothing remembered, a check refused, a member testing
 * (not counted), or the row changed (nothing counted): the caller then takes the two round trips.
 */
export async function admitKnownChatbotMessage(
  ctx: Pick<AppContext, "env" | "db" | "origin" | "ip" | "waitUntil" | "getAuth">,
  chatbotId: string,
  req: Omit<VisitorRequest, "rate">,
): Promise<{ target: ChatTarget; admission: Admission } | undefined> {
  const known = rememberedChatbot(chatbotId);
  if (!known) return undefined;
  const assumed = await visitorTarget(ctx, known.found);
  if (!assumed || (assumed.member && req.channel === "test")) return undefined;
  const checked = await checkVisitor(ctx, assumed, { ...req, rate: "message" });
  if (!checked.ok) return undefined;
  const c = known.found.chatbot;
  const unchanged = {
    sql: `EXISTS (SELECT 1 FROM chatbots WHERE id = ?1 AND org_id = ?2 AND visibility = ?3 AND settings = ?4 AND identity_secret IS ?5)`,
    params: [c.id, c.orgId, c.visibility, known.settingsText, c.identitySecret],
  };
  const now = Date.now();
  const keys = messageLimits(ctx, assumed, req);
  const client = d1Client(ctx.db);
  const [counted, loaded] = await client.batch<Record<string, unknown>>([
    hitAllStatement(client, keys, now, unchanged),
    chatbotLoadStatement(client, chatbotId),
  ]);
  const fresh = loadedChatbot(chatbotId, loaded.results);
  const r = countedLimits((counted.results ?? []) as { key: string; count: number }[], keys, now);
  if (!fresh || !r) return undefined;
  const target = { ...fresh, member: assumed.member };
  if (!r.ok) return { target, admission: { ok: false, refusal: { status: 429, code: "rate_limited", message: r.message, retryAfterS: r.retryAfterS } } };
  return { target, admission: checked };
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
