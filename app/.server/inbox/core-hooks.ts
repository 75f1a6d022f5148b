import { createUIMessageStream } from "ai";
import type { ChatMessageMetadata } from "~/lib/schemas/chat";
import { readUiSettings } from "~/lib/schemas/widget-settings";
import { newId } from "../auth/crypto";
import type { AnswerStream } from "../chat/answer";
import { numberedSources, recordExchange, type Conversation } from "../chat/conversations";
import type { ChatbotWithOrg } from "../chatbots/find-chatbot";
import type { ServiceContext } from "../context";
import type { MessageSource } from "../db/schema";
import { visitorContact } from "../leads/leads";
import { liveInfo } from "./conversations";
import { askForPerson, availabilityReply, followUpFor, liveAvailability } from "./handoff";
import { liveConversation } from "./live";

// What the conversation core (chat/turn.ts) does for live chat: a held conversation's visitor
// message goes to the conversation's live object (stored there first, then mirrored to D1), an
// exchange in a conversation waiting for a person is shown to the agents watching it, and a
// visitor who asks for a person in words is handed over instead of answered.

/** A person holds the conversation: the visitor's message is the live object's to store and deliver. */
export async function postHeldMessage(ctx: ServiceContext, conversation: Conversation, m: { text: string; askedAt: number; clientMessageId?: string }) {
  await liveConversation(ctx.env, conversation.id).postVisitor(liveInfo(conversation), { text: m.text, at: m.askedAt, clientId: m.clientMessageId });
}

/** An exchange the bot had while the conversation waits for a person: the agents see it live. */
export async function showExchangeLive(
  ctx: ServiceContext,
  conversation: Conversation,
  stored: { visitorMessageId: string; visitorText: string; askedAt: number; bot: { id: string; content: string; at: number; sources: MessageSource[] } | null },
) {
  if (conversation.status !== "waiting") return;
  const messages = [
    { id: stored.visitorMessageId, role: "visitor" as const, text: stored.visitorText, at: stored.askedAt },
    ...(stored.bot
      ? [{ id: stored.bot.id, role: "bot" as const, text: stored.bot.content, at: stored.bot.at, sources: numberedSources(stored.bot.sources) }]
      : []),
  ];
  // The exchange is stored in D1 already; failing to show it live loses nothing.
  await liveConversation(ctx.env, conversation.id)
    .appendStored(liveInfo(conversation), messages)
    .catch((e) => console.error("[live] could not show an exchange live", e));
}

/** Whether this chatbot offers a person at all (Settings → widget: "Talk to a human"). */
export const offersHuman = (target: ChatbotWithOrg) => readUiSettings(target.chatbot.settings).humanHandoff;

/**
 * The visitor asked for a person in words: their message and the reply are stored (the reply costs
 * no credit), the live object moves the conversation to "waiting", and the reply says whether
 * someone is online to join.
 */
export async function handoffTurn(
  ctx: ServiceContext,
  target: ChatbotWithOrg,
  conversation: Conversation,
  input: { text: string; askedAt: number; clientMessageId?: string },
): Promise<AnswerStream> {
  const messageId = newId("msg_");
  const ref = { orgId: target.org.id, chatbotId: target.chatbot.id };
  const info = liveInfo(conversation);
  // What the visitor is promised depends on the plan, the office hours and who is online (ADR 027).
  const [availability, contact] = await Promise.all([liveAvailability(ctx, target), visitorContact(ctx, ref, conversation.visitorId)]);
  const reply = availabilityReply(availability, followUpFor(target.chatbot.settings, contact));
  const at = Math.max(Date.now(), input.askedAt + 1);
  const { visitorMessageId } = await recordExchange(ctx, conversation, {
    visitorText: input.text,
    askedAt: input.askedAt,
    clientMessageId: input.clientMessageId,
    bot: { id: messageId, at, content: reply, sources: [], answered: false, model: null, latencyMs: at - input.askedAt, firstTokenMs: null, credits: 0 },
    messageStore: target.chatbot.messageStore,
    conversationStore: target.chatbot.conversationStore,
  });
  // The exchange first, then the request (its note sorts after the reply, in the log and in D1).
  await liveConversation(ctx.env, conversation.id).appendStored(info, [
    { id: visitorMessageId, role: "visitor", text: input.text, at: input.askedAt },
    { id: messageId, role: "bot", text: reply, at },
  ]);
  const { agentsOnline, live: available } = availability;
  const outcome = await askForPerson(ctx, target, conversation, contact, availability);
  const meta = (extra: Partial<ChatMessageMetadata> = {}): ChatMessageMetadata => ({ conversationId: conversation.id, messageId, ...extra });
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      writer.write({ type: "start", messageId, messageMetadata: meta() });
      writer.write({ type: "text-start", id: "t0" });
      writer.write({ type: "text-delta", id: "t0", delta: reply });
      writer.write({ type: "text-end", id: "t0" });
      writer.write({
        type: "finish",
        finishReason: "stop",
        messageMetadata: meta({ answered: false, kind: "handoff", agentsOnline, available, status: outcome.status }),
      });
    },
  });
  return { stream, done: Promise.resolve(), conversationId: conversation.id, messageId, limited: false };
}
