import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { CALL_LOG_SIZE } from "~/lib/schemas/phone";
import { readVoiceSettings } from "~/lib/schemas/voice-settings";
import { asksForHuman } from "../ai/human-request";
import { newId } from "../auth/crypto";
import { getOrCreateConversation, recordExchange } from "../chat/conversations";
import { conversationIndex } from "../chat/conversation-index";
import { takeTurn, turnReply } from "../chat/turn";
import type { ChatbotWithOrg } from "../chatbots/find-chatbot";
import type { ServiceContext } from "../context";
import { calls, chatbots, organisations, phoneAccounts, phoneNumbers } from "../db/schema";
import { openCredentials, phoneAllowed } from "./accounts";
import { verifyTwilioSignature } from "./signature";
import { speakable, speechLanguage, twiml, type TwimlVerb } from "./twiml";

// The phone call flow behind Twilio's voice webhooks (ADR 029). Every request is checked first:
// its X-Twilio-Signature against the number's auth token, then its place in the call. Each action
// URL this flow hands Twilio carries the call's next sequence number, and a request is served only
// when it claims that number (one atomic update), so a replayed request (same call, same sequence)
// is refused and changes nothing. A call is one conversation with channel "phone": every question
// the caller says goes through the conversation core (chat/turn.ts) like a typed one.

export type TwilioRequest = { url: string; signature: string | null; params: URLSearchParams };
export type WebhookReply = { ok: true; twiml: string } | { ok: false; status: 403 | 404; message: string };

type Call = typeof calls.$inferSelect;

/** Prompts without speech in a row before the bot says goodbye; unanswered questions in a row before it transfers. */
export const MAX_SILENT = 2;
export const MAX_MISSED = 2;

export const PHRASES = {
  reprompt: "Sorry, I didn't catch that. What would you like to know?",
  noInputGoodbye: "I can't hear anything, so I'll end the call now. Goodbye!",
  maxLength: "We've reached the maximum length of this call. Thank you for calling, goodbye!",
  transferOnRequest: "Of course. Putting you through to someone now.",
  transferAfterMisses: "Let me put you through to someone who can help.",
  unavailable: "Sorry, this number is not taking calls at the moment. Goodbye.",
  next: "Anything else?",
} as const;

const FORBIDDEN: WebhookReply = { ok: false, status: 403, message: "The request's Twilio signature is missing or wrong, or it was already handled." };
const NOT_FOUND: WebhookReply = { ok: false, status: 404, message: "No such phone number or call." };

type NumberContext = { number: typeof phoneNumbers.$inferSelect; account: typeof phoneAccounts.$inferSelect; target: ChatbotWithOrg };

async function loadNumber(ctx: Pick<ServiceContext, "db">, phoneNumberId: string): Promise<NumberContext | null> {
  if (!phoneNumberId || phoneNumberId.length > 64) return null;
  const row = await ctx.db
    .select({ number: phoneNumbers, account: phoneAccounts, chatbot: chatbots, org: organisations })
    .from(phoneNumbers)
    .innerJoin(phoneAccounts, eq(phoneAccounts.id, phoneNumbers.accountId))
    .innerJoin(chatbots, eq(chatbots.id, phoneNumbers.chatbotId))
    .innerJoin(organisations, eq(organisations.id, phoneNumbers.orgId))
    .where(eq(phoneNumbers.id, phoneNumberId))
    .get();
  return row ? { number: row.number, account: row.account, target: { chatbot: row.chatbot, org: row.org } } : null;
}

/**
 * The number's context when the request is Twilio's: signed with the account's auth token over
 * the URL Twilio called (as received, or as configured from `origin` when a proxy changed it) and
 * from that account. Null otherwise.
 */
async function authenticate(ctx: Pick<ServiceContext, "db" | "env" | "origin">, phoneNumberId: string, req: TwilioRequest) {
  const found = await loadNumber(ctx, phoneNumberId);
  if (!found) return { found: null, ok: false } as const;
  const creds = await openCredentials(ctx, found.account);
  const received = new URL(req.url);
  const configured = `${ctx.origin}${received.pathname}${received.search}`;
  const signed = await verifyTwilioSignature(creds.authToken, req.signature, [req.url, configured], req.params.entries());
  const ok = signed && req.params.get("AccountSid") === creds.accountSid;
  return { found, ok } as const;
}

function settingsOf(target: ChatbotWithOrg) {
  const voice = readVoiceSettings(target.chatbot.settings);
  return { voice, language: speechLanguage(voice.language === "auto" ? "en" : voice.language) };
}

const turnUrl = (req: TwilioRequest, phoneNumberId: string, callId: string, seq: number) =>
  `${new URL(req.url).origin}/api/phone/twilio/voice/${phoneNumberId}/calls/${callId}/turn?seq=${seq}`;

/** Listen for the caller's next words: speech goes to the turn URL; silence falls through to the same URL without SpeechResult. */
function listen(action: string, say?: string): TwimlVerb[] {
  return [{ gather: { action, say } }, { redirect: action }];
}

/** POST /api/phone/twilio/voice/{phoneNumberId}: a new call. Greets and listens. */
export async function answerCall(ctx: ServiceContext, phoneNumberId: string, req: TwilioRequest): Promise<WebhookReply> {
  const { found, ok } = await authenticate(ctx, phoneNumberId, req);
  if (!found) return NOT_FOUND;
  if (!ok) return FORBIDDEN;
  const callSid = req.params.get("CallSid")?.trim() ?? "";
  if (!/^CA[0-9a-zA-Z]{1,62}$/.test(callSid)) return FORBIDDEN;
  const { voice, language } = settingsOf(found.target);
  // The plan lost phone numbers since the number was attached: say so and end, storing nothing.
  if (!phoneAllowed(found.target.org)) return { ok: true, twiml: twiml([{ say: PHRASES.unavailable }, { hangup: true }], language) };

  const id = newId("call_");
  const inserted = await ctx.db
    .insert(calls)
    .values({
      id,
      orgId: found.target.org.id,
      chatbotId: found.target.chatbot.id,
      phoneNumberId,
      callSid,
      caller: req.params.get("From")?.slice(0, 32) || null,
      called: req.params.get("To")?.slice(0, 32) || found.number.number,
      startedAt: Date.now(),
    })
    .onConflictDoNothing()
    .returning({ id: calls.id })
    .get();
  // The same CallSid again: a replay of the call's first request.
  if (!inserted) return FORBIDDEN;
  const conversation = await getOrCreateConversation(
    ctx,
    { orgId: found.target.org.id, chatbotId: found.target.chatbot.id },
    { visitorId: visitorIdOf(id), channel: "phone", fresh: true },
    found.target.chatbot.conversationStore,
  );
  await ctx.db.update(calls).set({ conversationId: conversation.id }).where(eq(calls.id, id));
  return { ok: true, twiml: twiml(listen(turnUrl(req, phoneNumberId, id, 1), voice.greeting), language) };
}

/** The caller is this call's visitor (a phone number is not an identity the bot should trust). */
const visitorIdOf = (callId: string) => `phone-${callId}`;

async function setCall(ctx: Pick<ServiceContext, "db">, callId: string, values: Partial<Pick<Call, "outcome" | "missed" | "silent" | "turns">>) {
  await ctx.db.update(calls).set(values).where(eq(calls.id, callId));
}

/**
 * POST …/calls/{callId}/turn?seq=N: what the caller said (SpeechResult), or nothing (the gather
 * timed out). Answers, transfers, re-prompts or ends the call.
 */
export async function continueCall(
  ctx: ServiceContext,
  input: { phoneNumberId: string; callId: string; seq: number },
  req: TwilioRequest,
): Promise<WebhookReply> {
  const { found, ok } = await authenticate(ctx, input.phoneNumberId, req);
  if (!found) return NOT_FOUND;
  if (!ok || !Number.isSafeInteger(input.seq) || input.seq < 1) return FORBIDDEN;
  // Claim this step: only the request carrying the call's current sequence number gets past here, once.
  const call = await ctx.db
    .update(calls)
    .set({ step: sql`${calls.step} + 1` })
    .where(
      and(
        eq(calls.id, input.callId),
        eq(calls.phoneNumberId, input.phoneNumberId),
        eq(calls.callSid, req.params.get("CallSid") ?? ""),
        eq(calls.step, input.seq),
        eq(calls.status, "in-progress"),
      ),
    )
    .returning()
    .get();
  if (!call) return FORBIDDEN;

  const { voice, language } = settingsOf(found.target);
  const next = turnUrl(req, input.phoneNumberId, call.id, input.seq + 1);
  const reply = (verbs: TwimlVerb[]): WebhookReply => ({ ok: true, twiml: twiml(verbs, language) });

  // The seconds left of the maximum call length: a transfer (<Dial timeLimit>) is cut there too.
  const secondsLeft = () => Math.ceil((call.startedAt + voice.maxCallMinutes * 60_000 - Date.now()) / 1000);
  if (secondsLeft() <= 0) {
    await setCall(ctx, call.id, { outcome: "max_length" });
    return reply([{ say: PHRASES.maxLength }, { hangup: true }]);
  }

  const speech = (req.params.get("SpeechResult") ?? "").trim().slice(0, 2000);
  if (!speech) {
    const silent = call.silent + 1;
    if (silent >= MAX_SILENT) {
      await setCall(ctx, call.id, { silent, outcome: "no_input" });
      return reply([{ say: PHRASES.noInputGoodbye }, { hangup: true }]);
    }
    await setCall(ctx, call.id, { silent });
    return reply(listen(next, PHRASES.reprompt));
  }

  const conversation = call.conversationId
    ? ((await (
        await conversationIndex(ctx, { orgId: call.orgId, chatbotId: call.chatbotId }, found.target.chatbot.conversationStore)
      ).get(call.conversationId)) ?? undefined)
    : undefined;
  const fallback = voice.phoneFallbackNumber;

  // "Speak to someone": put through to the fallback number, or say what the bot cannot do.
  if (asksForHuman(speech)) {
    const said = fallback ? PHRASES.transferOnRequest : voice.cannotHelpMessage;
    if (conversation) {
      const at = Date.now();
      await recordExchange(ctx, conversation, {
        visitorText: speech,
        askedAt: at,
        bot: { id: newId("msg_"), at: at + 1, content: said, sources: [], answered: false, model: null, latencyMs: 1, firstTokenMs: null, credits: 0 },
        messageStore: found.target.chatbot.messageStore,
        conversationStore: found.target.chatbot.conversationStore,
      });
    }
    if (fallback) {
      await setCall(ctx, call.id, { outcome: "transferred", silent: 0, turns: call.turns + 1 });
      return reply([{ say: said }, { dial: fallback, timeLimit: secondsLeft() }]);
    }
    await setCall(ctx, call.id, { silent: 0, turns: call.turns + 1 });
    return reply(listen(next, `${said} ${PHRASES.next}`));
  }

  const answer = await turnReply(
    await takeTurn(ctx, {
      target: found.target,
      channel: "phone",
      visitorId: visitorIdOf(call.id),
      conversationId: call.conversationId,
      text: speech,
      clientMessageId: `${call.id}-${input.seq}`,
    }),
  );
  const answered = answer.ok && !!answer.message?.answered;
  const spoken = answer.ok && answer.message ? speakable(answer.message.content) : "";
  const missed = answered ? 0 : call.missed + 1;
  if (missed >= MAX_MISSED) {
    if (fallback) {
      await setCall(ctx, call.id, { outcome: "transferred", silent: 0, missed, turns: call.turns + 1 });
      return reply([...(spoken ? [{ say: spoken }] : []), { say: PHRASES.transferAfterMisses }, { dial: fallback, timeLimit: secondsLeft() }]);
    }
    // Nobody to transfer to: say what the bot cannot do and keep listening.
    await setCall(ctx, call.id, { silent: 0, missed: 0, turns: call.turns + 1 });
    return reply([...(spoken ? [{ say: spoken }] : []), ...listen(next, `${voice.cannotHelpMessage} ${PHRASES.next}`)]);
  }
  await setCall(ctx, call.id, { silent: 0, missed, turns: call.turns + 1 });
  return reply([...(spoken ? [{ say: spoken }] : [{ say: voice.cannotHelpMessage }]), ...listen(next)]);
}

/** A call Twilio never reported ended is taken for over after this (Twilio ends calls at four hours). */
const STALE_CALL_MS = 24 * 3_600_000;

/**
 * The organisation's call log keeps what /app/phone shows, its latest CALL_LOG_SIZE calls: D1 holds
 * a bounded log per organisation, not one that grows with its traffic (issue #20). A call still in
 * progress is kept unless it is stale. Each call's conversation (its transcript) stays in the inbox.
 */
async function pruneCallLog(ctx: Pick<ServiceContext, "db">, orgId: string, now: number) {
  await ctx.db.delete(calls).where(
    and(
      eq(calls.orgId, orgId),
      or(eq(calls.status, "ended"), lt(calls.startedAt, now - STALE_CALL_MS)),
      inArray(
        calls.id,
        ctx.db
          .select({ id: calls.id })
          .from(calls)
          .where(eq(calls.orgId, orgId))
          .orderBy(desc(calls.startedAt), desc(calls.id))
          .limit(1_000_000_000) // SQLite takes an offset only after a limit
          .offset(CALL_LOG_SIZE),
      ),
    ),
  );
}

const FINAL_STATUSES = new Set(["completed", "busy", "failed", "no-answer", "canceled"]);

/** POST /api/phone/twilio/status/{phoneNumberId}: the call ended; its duration and outcome are recorded once. */
export async function recordCallStatus(ctx: ServiceContext, phoneNumberId: string, req: TwilioRequest): Promise<WebhookReply> {
  const { found, ok } = await authenticate(ctx, phoneNumberId, req);
  if (!found) return NOT_FOUND;
  if (!ok) return FORBIDDEN;
  const status = req.params.get("CallStatus") ?? "";
  if (!FINAL_STATUSES.has(status)) return { ok: true, twiml: twiml([]) };
  const now = Date.now();
  const reported = Number.parseInt(req.params.get("CallDuration") ?? "", 10);
  const ended = await ctx.db
    .update(calls)
    .set({
      status: "ended",
      endedAt: now,
      durationS: Number.isFinite(reported) && reported >= 0 ? reported : sql`max(0, (${now} - ${calls.startedAt}) / 1000)`,
      // The flow set an outcome when it ended the call itself; otherwise the caller hung up.
      outcome: sql`coalesce(${calls.outcome}, case when ${calls.turns} > 0 then 'answered' else 'caller_hung_up' end)`,
    })
    .where(and(eq(calls.phoneNumberId, phoneNumberId), eq(calls.callSid, req.params.get("CallSid") ?? ""), eq(calls.status, "in-progress")))
    .returning({ id: calls.id, conversationId: calls.conversationId, orgId: calls.orgId, chatbotId: calls.chatbotId })
    .get();
  // Unknown or already ended: a replay (or a call this number refused), and nothing changes.
  if (!ended) return FORBIDDEN;
  await pruneCallLog(ctx, ended.orgId, now);
  // The call's conversation ends with it (the inbox lists it as closed); a next call starts a new one.
  // Through the chatbot's conversation index (ADR 044): the call's conversation is a phone one by construction.
  if (ended.conversationId)
    await (await conversationIndex(ctx, { orgId: ended.orgId, chatbotId: ended.chatbotId })).applyLive(ended.conversationId, { status: "closed" });
  return { ok: true, twiml: twiml([]) };
}
