import type { CollectLeadStep } from "~/lib/collect-lead";
import type { ChatSource } from "~/lib/schemas/chat";
import type { ChatbotWithOrg } from "../chatbots/find-chatbot";
import type { ServiceContext } from "../context";
import { fail, type Result } from "../failure";
import { answerMessage, collectAnswer, HISTORY_MESSAGES, replayExchange, standaloneSearch, type AnswerKind, type AnswerStream } from "./answer";
import {
  createConversation,
  findClientMessage,
  markConversationVerified,
  openTurn,
  openTurnInShard,
  storedExchange,
  storedExchangeInShard,
  turnCreditCondition,
  type Conversation,
} from "./conversations";
import { consumeReply, type ConsumeResult } from "./usage";
import { createInD1With } from "./conversation-index";
import { d1Client } from "../db/client";
import { asksForHuman } from "../ai/human-request";
import { builtInToolOn } from "~/lib/schemas/custom-tools";
import { handoffTurn, offersHuman, postHeldMessage, showExchangeLive } from "../inbox/core-hooks";

// One visitor turn, whatever the channel: the widget and the test page (POST /api/chat), the REST
// API (POST /api/v1/chat), live chat (a held conversation's message goes to its live object), and
// next voice and phone. It finds or creates the
// conversation, honours its status, records a verified identity, answers through answerMessage
// (numbered sources, credits, persistence) and gives back the reply as a stream or as one JSON
// document. A new channel authenticates its caller, finds the chatbot (chatbots/find-chatbot.ts),
// then calls takeTurn; it never builds an answer itself. ADR 014 explains the seam.

export type Channel = Conversation["channel"];

export type VisitorTurn = {
  target: ChatbotWithOrg;
  channel: Channel;
  visitorId: string;
  /** The visitor proved their id (identity verification); the conversation is marked verified. */
  verified?: boolean;
  /** Continue this conversation when it is the visitor's and open. */
  conversationId?: string | null;
  /** Always start a new conversation ("New conversation"). */
  fresh?: boolean;
  text: string;
  /** The visitor's country (CF-IPCountry, app/lib/country.ts), kept on a conversation this turn starts. */
  country?: string | null;
  /** The client's id for this message: a retried send with the same id is answered again, not stored or counted twice. */
  clientMessageId?: string;
  /** The page of the customer's site the visitor writes from (the widget sends origin and path). */
  pageUrl?: string | null;
  /** The client believes a person holds the conversation: the bot's search waits for the look-up (answer.ts). */
  heldHint?: boolean;
  startedAt?: number;
};

/** The bot answers unless a person holds the conversation (live chat takes it over). */
export function botMayAnswer(conversation: Pick<Conversation, "status">): boolean {
  return conversation.status !== "human";
}

export async function takeTurn(ctx: ServiceContext, turn: VisitorTurn): Promise<AnswerStream> {
  const startedAt = turn.startedAt ?? Date.now();
  const ref = { orgId: turn.target.org.id, chatbotId: turn.target.chatbot.id };
  const where = {
    visitorId: turn.visitorId,
    channel: turn.channel,
    conversationId: turn.conversationId,
    country: turn.country,
    pageUrl: turn.pageUrl,
  };
  const markVerified = async (c: Conversation & { isNew?: boolean }) => {
    if (turn.verified && !c.verified) {
      await markConversationVerified(ctx, c, turn.target.chatbot.conversationStore);
      c.verified = true;
    }
    return c;
  };
  // "Can I talk to a human?": handed to a person (live chat) instead of answered, once per conversation.
  const handsOver = asksForHuman(turn.text) && offersHuman(turn.target) && builtInToolOn(turn.target.chatbot.settings, "hand_to_human");
  // The question's search goes out before the opening round trip, so the two overlap (each sits before
  // the first byte). Not for a message the client says a person will read, nor for a hand-over.
  const search = turn.heldHint || handsOver ? null : standaloneSearch(ctx, turn.target.chatbot, turn.text);
  let opened: Pick<Awaited<ReturnType<typeof openTurn>>, "conversation" | "history">;
  let quota: Promise<ConsumeResult> | undefined;
  const store = turn.target.chatbot.messageStore;
  const indexStore = turn.target.chatbot.conversationStore;
  // A chatbot whose messages are in its shard (ADR 040) has a retried send looked up there, not in
  // D1's batch, and its history read from there (answerMessage, alongside retrieval).
  const inShard = store === "shard";
  if (turn.fresh) {
    // "New conversation" must not create one for a retry: the client message id is looked up first.
    const stored = turn.clientMessageId ? await findClientMessage(ctx, ref, turn.visitorId, turn.clientMessageId, store, indexStore) : null;
    if (stored) return replayExchange(stored);
    // With the index in D1, the reply's credit rides in the insert's batch (one round trip, not two;
    // answerMessage would otherwise count it on its own). Not for a visitor handed to a person in words.
    const consume = handsOver || indexStore === "shard" ? null : consumeReply(ctx, turn.target.org, startedAt);
    if (consume?.query) {
      const created = await createInD1With(ctx.db, ref, where, consume.query);
      opened = { conversation: created.conversation, history: [] };
      quota = consume.settle((created.also as { replies: number }[])[0]);
    } else opened = { conversation: await createConversation(ctx, ref, where, indexStore), history: [] };
  } else if (indexStore === "shard") {
    // The conversation index is in the chatbot's shard too (ADR 044 §5): ONE call there (retry
    // look-up, the conversation found or created, its history), and D1 only for the reply's credit —
    // after it when a retry may be found (a retry pays nothing), alongside it otherwise (a racing
    // retry's credit is refunded when its exchange is stored, as in the message-shard case below).
    const consume = handsOver ? null : consumeReply(ctx, turn.target.org, startedAt);
    const q = consume?.query;
    const credit = () =>
      q
        ? d1Client(ctx.db)
            .prepare(q.sql)
            .bind(...q.params)
            .first<{ replies: number }>()
        : Promise.resolve(null);
    const input = { ...where, clientMessageId: turn.clientMessageId, historyLimit: HISTORY_MESSAGES };
    // The client's held hint defers the credit too: a held conversation's message is not counted.
    const early = consume && !turn.clientMessageId && !turn.heldHint ? credit() : null;
    const turnOpened = await openTurnInShard(ctx, ref, input);
    if (turnOpened.sent) return replayExchange(await storedExchangeInShard(ctx, ref, turnOpened.sent));
    opened = turnOpened;
    // Not awaited here: answerMessage awaits it alongside retrieval, as it does the batch's answer below.
    // A conversation a person holds gets no bot reply: nothing is counted (no credit, then refund).
    if (consume)
      quota = early || botMayAnswer(opened.conversation) ? (early ?? credit()).then((row) => consume.settle(row ?? undefined)) : consume.settle(undefined);
  } else {
    if (inShard && turn.clientMessageId) {
      const stored = await findClientMessage(ctx, ref, turn.visitorId, turn.clientMessageId, store, indexStore);
      if (stored) return replayExchange(stored);
    }
    // One D1 round trip: a retried send's stored message (same client message id), the conversation
    // (found or created) and its recent messages for the prompt — the first and last only for D1's messages.
    // The reply's credit rides along, counted only when the message is not a retry of a stored one
    // (a visitor handed to a person in words pays none: answerMessage counts it if it answers after all).
    // In a shard the retry was looked up above; one racing it is refunded when its exchange is stored.
    // Nor is it counted for a conversation a person holds (no bot reply): before, it was counted and
    // then given back, a round trip for nothing (issue #21).
    const condition = turnCreditCondition(ref, where, inShard ? undefined : turn.clientMessageId);
    const consume = handsOver ? null : consumeReply(ctx, turn.target.org, startedAt, condition);
    const { sent, also, ...rest } = await openTurn(
      ctx,
      ref,
      inShard ? where : { ...where, clientMessageId: turn.clientMessageId, historyLimit: HISTORY_MESSAGES },
      consume?.query,
    );
    if (sent) return replayExchange(await storedExchange(ctx, sent));
    opened = rest;
    quota = consume?.settle((also as { replies: number }[] | null)?.[0]);
  }
  // Unresolved on purpose when a verified visitor's conversation is marked: retrieval and the quota start alongside.
  const conversation = markVerified(opened.conversation);
  if (handsOver) {
    const c = await conversation;
    if (c.status === "bot") return handoffTurn(ctx, turn.target, c, { text: turn.text.trim(), askedAt: startedAt, clientMessageId: turn.clientMessageId });
  }
  return answerMessage(ctx, {
    chatbot: turn.target.chatbot,
    org: turn.target.org,
    conversation,
    history: opened.history ?? undefined,
    quota,
    search,
    text: turn.text,
    startedAt,
    botMayAnswer,
    // The conversation is known here (except a fresh one, never held): a held one's message starts no
    // knowledge search, with the client's hint or without it.
    heldHint: turn.heldHint || !botMayAnswer(opened.conversation),
    clientMessageId: turn.clientMessageId,
    pageUrl: turn.pageUrl,
    // Live chat (ADR 025): a held conversation's message is stored by its live object and reaches
    // the agent at once; a conversation waiting for a person shows its bot exchanges to the agents.
    onHeld: (c, m) => postHeldMessage(ctx, c, m),
    onStored: (c, stored) => showExchangeLive(ctx, c, stored),
  });
}

export type TurnReply = {
  conversationId: string;
  /** The bot's reply; null when a person holds the conversation (the visitor's message was stored). */
  message: {
    id: string;
    role: "bot";
    content: string;
    sources: ChatSource[];
    answered: boolean;
    kind?: AnswerKind;
    replayed?: true;
    /** The bot asks for the visitor's contact details with this form (app/lib/collect-lead.ts). */
    collectLead?: CollectLeadStep;
  } | null;
};

/** The whole reply as one JSON document (`stream: false`), or the failure the API answers with. */
export async function turnReply(answer: AnswerStream): Promise<Result<TurnReply>> {
  const result = await collectAnswer(answer.stream);
  if (answer.limited) return fail("reply_limit_reached", answer.limitMessage ?? "The reply limit of this plan is reached.");
  if (result.error && !result.text) return fail("model_error", result.error);
  if (answer.held) return { ok: true, conversationId: answer.conversationId, message: null };
  return {
    ok: true,
    conversationId: answer.conversationId,
    message: {
      id: answer.messageId,
      role: "bot",
      content: result.text,
      sources: result.sources,
      answered: result.metadata?.answered ?? false,
      kind: result.metadata?.kind,
      ...(result.metadata?.replayed ? { replayed: true as const } : {}),
      ...(result.collectLead ? { collectLead: result.collectLead } : {}),
    },
  };
}
