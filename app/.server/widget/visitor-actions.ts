import { and, eq, sql } from "drizzle-orm";
import type { LeadFormSettings } from "~/lib/schemas/widget-settings";
import type { LeadInput } from "~/lib/schemas/widget-api";
import { newId } from "../auth/crypto";
import { getOrCreateConversation, type ChatbotRef, type Conversation, type Message } from "../chat/conversations";
import { chatbotStores, messageShard } from "../chat/message-store";
import { conversationIndex, flagsStatement } from "../chat/conversation-index";
import type { AppContext } from "../context";
import { bugReports, chatbots, conversations, leads, messages, organisations } from "../db/schema";
import { createLead, visitorContact, type Lead } from "../leads/leads";
import { feedbackStatements, orgTimeZone, reportStatements, type CountDecision } from "../analytics/record";
import { askForPerson, followUpFor, type Availability, type FollowUp } from "../inbox/handoff";
import { notifyBugReport } from "../notifications/notify";

// What a widget visitor can do besides chatting: leave contact details, rate an answer, report a
// problem, ask for a human. A visitor only ever reaches their own conversations on this chatbot:
// the visitor id (a random secret their browser keeps) must own the conversation or message.

// `env` reaches the chatbot's message shard (ADR 040).
type Ctx = Pick<AppContext, "db"> & Partial<Pick<AppContext, "env">>;

/** Where the chatbot's messages and conversation index are (one look-up), and its index. */
async function storesOf(ctx: Ctx, ref: ChatbotRef) {
  const stores = await chatbotStores(ctx, ref);
  return { ...stores, index: await conversationIndex(ctx, ref, stores.conversations) };
}
type Stores = Awaited<ReturnType<typeof storesOf>>;

/** The named conversation when it is this visitor's, otherwise their latest open one; null when they have none. */
async function findVisitorConversation(
  ctx: Ctx,
  ref: ChatbotRef,
  visitorId: string,
  conversationId?: string | null,
  stores?: Stores,
): Promise<Conversation | null> {
  const { index } = stores ?? (await storesOf(ctx, ref));
  const named = conversationId ? await index.get(conversationId, visitorId) : null;
  return named ?? (await index.latestOpen(visitorId));
}

/** A message of one of this visitor's conversations on this chatbot, or null. */
async function findVisitorMessage(
  ctx: Ctx,
  ref: ChatbotRef,
  visitorId: string,
  messageId: string,
  stores?: Stores,
): Promise<{ message: Message; conversation: Conversation; inShard?: true } | null> {
  const { index, messages: kind } = stores ?? (await storesOf(ctx, ref));
  const shard = await messageShard(ctx, ref, kind);
  if (shard) {
    const message = await shard.get(messageId);
    if (!message) return null;
    const conversation = await index.get(message.conversationId, visitorId);
    return conversation ? { message, conversation, inShard: true } : null;
  }
  // Messages in D1 (so is the index: a shard index needs its messages in the shard, ADR 044 §3).
  const row = await ctx.db
    .select({ message: messages, conversation: conversations })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(
      and(eq(messages.id, messageId), eq(conversations.orgId, ref.orgId), eq(conversations.chatbotId, ref.chatbotId), eq(conversations.visitorId, visitorId)),
    )
    .get();
  return row ?? null;
}

/**
 * Stores the visitor's contact details; custom answers are kept only for the fields the form asks.
 * Sent from the bot's "collect lead" step (`stepMessageId`: the bot reply that asked), the lead links
 * that reply's conversation and its source says the bot asked; a message id that is not a bot reply
 * in this visitor's conversations counts as the plain form.
 */
export async function captureLead(ctx: Ctx, ref: ChatbotRef, input: LeadInput, form: LeadFormSettings): Promise<Lead> {
  const asked = input.stepMessageId ? await findVisitorMessage(ctx, ref, input.visitorId, input.stepMessageId) : null;
  const step = asked?.message.role === "bot" ? asked : null;
  const conversation = step?.conversation ?? (await findVisitorConversation(ctx, ref, input.visitorId, input.conversationId));
  const labels = new Set(form.custom.map((f) => f.label));
  const custom = Object.fromEntries(Object.entries(input.custom ?? {}).filter(([label]) => labels.has(label)));
  const test = conversation?.channel === "test";
  return createLead(ctx, ref, {
    conversationId: conversation?.id ?? null,
    visitorId: input.visitorId,
    name: form.name === "off" ? null : input.name,
    email: form.email === "off" ? null : input.email,
    phone: form.phone === "off" ? null : input.phone,
    custom,
    source: step ? (test ? "test-bot" : "bot") : test ? "test" : "widget",
  });
}

/**
 * Thumbs on one bot message (null clears). The conversation's rating follows: -1 when any answer
 * was rated down (what the inbox's "rated down" filter looks for), 1 when only thumbs up, null when none.
 */
export async function setMessageFeedback(
  ctx: Ctx,
  ref: ChatbotRef,
  visitorId: string,
  messageId: string,
  value: 1 | -1 | null,
): Promise<{ conversationId: string; rating: number | null } | null> {
  const stores = await storesOf(ctx, ref);
  const found = await findVisitorMessage(ctx, ref, visitorId, messageId, stores);
  if (!found || found.message.role !== "bot") return null;
  const conversationId = found.conversation.id;
  const shard = await messageShard(ctx, ref, stores.messages);
  if (shard && stores.index.kind === "shard") {
    // The index next to the messages (ADR 044): the thumb, the conversation's rating and, for a
    // thumbs-down, the once-only "unresolved" decision there; D1 gets only the counters.
    const set = await shard.setFeedback(messageId, value);
    if (!set) return null;
    await stores.index.setFlags(conversationId, { rating: set.rating as -1 | 1 | null });
    const decision = value === -1 ? await stores.index.countOnce(conversationId, { problem: true }) : { counted: false, unresolvedDay: null };
    const counted = feedbackStatements(
      ctx.db,
      ref,
      { timeZone: await orgTimeZone(ctx, ref.orgId), conversationId, repliedAt: found.message.createdAt, from: found.message.feedback, to: value },
      decision ?? { counted: false, unresolvedDay: null },
    );
    if (counted.length) await ctx.db.batch(counted as [never, ...never[]]);
    return { conversationId, rating: set.rating };
  }
  if (shard) {
    // The thumb in the shard first (it gives the conversation's rating), then D1's flag and counts.
    const set = await shard.setFeedback(messageId, value);
    if (!set) return null;
    await ctx.db.batch([
      flagsStatement(ctx.db, ref, conversationId, { rating: set.rating as -1 | 1 | null }),
      ...feedbackStatements(ctx.db, ref, {
        timeZone: await orgTimeZone(ctx, ref.orgId),
        conversationId,
        repliedAt: found.message.createdAt,
        from: found.message.feedback,
        to: value,
      }),
    ]);
    return { conversationId, rating: set.rating };
  }
  const rating = sql`(select case when min(m.feedback) < 0 then -1 when max(m.feedback) > 0 then 1 else null end from messages m where m.conversation_id = ${conversationId} and m.feedback is not null)`;
  const counted = feedbackStatements(ctx.db, ref, {
    timeZone: await orgTimeZone(ctx, ref.orgId),
    conversationId,
    repliedAt: found.message.createdAt,
    from: found.message.feedback,
    to: value,
  });
  await ctx.db.batch([
    ctx.db.update(messages).set({ feedback: value }).where(eq(messages.id, messageId)),
    ctx.db.update(conversations).set({ rating }).where(eq(conversations.id, conversationId)),
    ...counted,
  ]);
  const row = await ctx.db.select({ rating: conversations.rating }).from(conversations).where(eq(conversations.id, conversationId)).get();
  return { conversationId, rating: row?.rating ?? null };
}

/** "Report a problem": the message, when given, must be in one of this visitor's conversations. */
export async function reportProblem(
  ctx: Ctx,
  ref: ChatbotRef,
  input: { visitorId: string; messageId?: string; comment: string },
): Promise<{ id: string; conversationId: string | null } | null> {
  let conversationId: string | null = null;
  let messageId: string | null = null;
  let answer: string | null = null;
  let inShard = false;
  const stores = await storesOf(ctx, ref);
  if (input.messageId) {
    const found = await findVisitorMessage(ctx, ref, input.visitorId, input.messageId, stores);
    if (!found) return null;
    conversationId = found.conversation.id;
    messageId = found.message.id;
    answer = found.message.content;
    inShard = !!found.inShard;
  } else {
    conversationId = (await findVisitorConversation(ctx, ref, input.visitorId, null, stores))?.id ?? null;
  }
  const id = newId("bug_");
  const now = Date.now();
  // A shard index marks "reported" and decides "unresolved once" itself (ADR 044, 048); D1 keeps the report and the counters.
  const inIndex = conversationId && stores.index.kind === "shard" ? stores.index : null;
  let decision: CountDecision | undefined;
  if (inIndex && conversationId) {
    await inIndex.setFlags(conversationId, { reported: true });
    decision = (await inIndex.countOnce(conversationId, { problem: true })) ?? { counted: false, unresolvedDay: null };
  }
  const counted = reportStatements(ctx.db, ref, { timeZone: await orgTimeZone(ctx, ref.orgId), at: now, conversationId }, decision);
  const insert = ctx.db.insert(bugReports).values({
    id,
    orgId: ref.orgId,
    chatbotId: ref.chatbotId,
    conversationId,
    // message_id references D1's messages: only for a message that is a D1 row (ADR 040).
    messageId: inShard ? null : messageId,
    messageRef: messageId,
    reporter: "visitor",
    visitorId: input.visitorId,
    comment: input.comment,
    createdAt: now,
  });
  if (conversationId && !inIndex) {
    // The conversation list's "reported" filter.
    await ctx.db.batch([insert, flagsStatement(ctx.db, ref, conversationId, { reported: true }), ...counted]);
  } else {
    await ctx.db.batch([insert, ...counted]);
  }
  await notifyBugReport(ctx, ref, { id, comment: input.comment, reporter: "visitor", conversationId, messageId, answer });
  return { id, conversationId };
}

/**
 * "Talk to a human": the visitor's conversation waits for a person (the inbox's "waiting", the list's
 * "needs human"); the conversation's live object records it and tells the open inboxes. Asking
 * again while it waits or while a person has it changes nothing. A visitor who has not written yet
 * gets a conversation so the request is visible in the chatbot's live inbox.
 */
export async function requestHuman(
  ctx: Ctx & Pick<AppContext, "env">,
  ref: ChatbotRef,
  input: { visitorId: string; conversationId?: string | null },
): Promise<{ conversation: Conversation; alreadyRequested: boolean; followUp: FollowUp; agentsOnline: number; availability: Availability }> {
  const target = await ctx.db
    .select({ chatbot: chatbots, org: organisations })
    .from(chatbots)
    .innerJoin(organisations, eq(organisations.id, chatbots.orgId))
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .get();
  if (!target) throw new Error("requestHuman: unknown chatbot");
  const conversation =
    (await findVisitorConversation(ctx, ref, input.visitorId, input.conversationId).then((c) => (c && c.status !== "closed" ? c : null))) ??
    (await getOrCreateConversation(ctx, ref, { visitorId: input.visitorId, channel: "widget" }, target.chatbot.conversationStore));
  const lead = await visitorContact(ctx, ref, input.visitorId);
  // The plan, the office hours and who is online decide what happens (inbox/handoff.ts, ADR 027).
  const r = await askForPerson(ctx, target, conversation, lead);
  return {
    conversation: { ...conversation, status: r.status },
    alreadyRequested: r.alreadyRequested,
    // What the visitor is told follows what the widget will offer (lead form setting, details left).
    followUp: followUpFor(target.chatbot.settings, lead),
    agentsOnline: r.availability.agentsOnline,
    availability: r.availability,
  };
}
