import type { LanguageModelV3, LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { createUIMessageStream, stepCountIs, streamText, type ModelMessage, type UIMessageChunk, type UIMessageStreamWriter } from "ai";
import { readCollectLeadStep, type CollectLeadStep } from "~/lib/collect-lead";
import type { ChatMessageMetadata, ChatSource } from "~/lib/schemas/chat";
import { readGeneralSettings, type GeneralSettings } from "~/lib/schemas/chatbot-settings";
import { readUiSettings } from "~/lib/schemas/widget-settings";
import { builtInToolOn } from "~/lib/schemas/custom-tools";
import { newId } from "../auth/crypto";
import type { ServiceContext } from "../context";
import type { chatbots, MessageSource, organisations } from "../db/schema";
import { buyingIntentReply, detectBuyingIntent } from "../ai/buying-intent";
import { citedSnippets, LOCAL_MODEL_ID, localReply, textPieces } from "../ai/local-model";
import { buildSystemPrompt, type PromptPassage } from "../ai/prompts";
import { resolveChatModel } from "../ai/providers";
import { detectSmallTalk } from "../ai/small-talk";
import { collectLeadReason, collectLeadStep, collectLeadTool, COLLECT_LEAD_TOOL, leadFormOffered } from "../ai/tools/collect-lead";
import { localToolReply, modelTools } from "../ai/tools";
import type { ToolTurn } from "../ai/tools/registry";
import { knowledgeStore } from "../retrieval/knowledge-store";
import type { Passage, RetrievalResult } from "../retrieval/types";
import {
  isDuplicateClientMessage,
  numberedSources,
  recentMessages,
  recordExchange,
  type Conversation,
  type Message,
  type StoredExchange,
} from "./conversations";
import { refundReply, tryConsumeReply, type ConsumeResult } from "./usage";

// The answer engine for one visitor message: quota → retrieve → decide → prompt → stream → persist.
//
// Credits: every reply the bot gives costs one credit, whatever it is — a grounded answer, small talk,
// or the configured fallback when the knowledge has no answer ("one reply is one credit", content/docs/account/plans-and-limits.md).
// Only the refusal past the plan's limit is free (credits 0), and a reply that failed (model error)
// is refunded. Refusals are still stored, so the dashboard shows that visitors were turned away.

type Chatbot = typeof chatbots.$inferSelect;
type Org = typeof organisations.$inferSelect;

/** How many earlier messages of the conversation go into the prompt. */
export const HISTORY_MESSAGES = 10;
/** How many passages the model sees. */
export const PASSAGES_K = 5;
const SNIPPET_CHARS = 220;
const MAX_TOKENS = { short: 250, medium: 500, long: 1000 } as const;

export const LIMIT_REPLY = "Sorry, this assistant cannot answer more questions right now. Please try again later or contact the team another way.";
const ERROR_REPLY = "Sorry, something went wrong while answering. Please try again in a moment.";

export type AnswerKind = NonNullable<ChatMessageMetadata["kind"]>;

export type AnswerStream = {
  stream: ReadableStream<UIMessageChunk>;
  conversationId: string;
  messageId: string;
  /** True when the reply is the refusal past the plan's reply limit (the JSON API answers 429). */
  limited: boolean;
  limitMessage?: string;
  /** Resolves once the exchange is stored (the stream closes after it, too). */
  done: Promise<void>;
  /** True when the bot did not answer because a person holds the conversation (chat/turn.ts). */
  held?: boolean;
};

export function snippetOf(text: string, max = SNIPPET_CHARS) {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max * 0.6))}…`;
}

/**
 * The sources shown under an answer. Each snippet is the sentence the answer cites from that
 * passage (for a passage it does not cite, the passage's sentence that matches the question best),
 * not the passage's opening.
 */
function toSources(
  passages: Passage[],
  question: { question: string; previousQuestions: string[]; language: string; length: GeneralSettings["answerLength"] },
): { chat: ChatSource[]; stored: MessageSource[] } {
  const cited = passages.length
    ? citedSnippets(
        question,
        passages.map((p, i) => ({ id: i + 1, title: p.title, text: p.text })),
      )
    : new Map<number, string>();
  const chat = passages.map((p, i) => ({
    n: i + 1,
    title: p.heading && p.heading !== p.title ? `${p.title} — ${p.heading}` : p.title,
    url: p.url,
    snippet: snippetOf(cited.get(i + 1) ?? p.text),
    sourceId: p.sourceId,
    chunkId: p.chunkId,
  }));
  const stored = passages.map((p, i) => ({
    sourceId: p.sourceId,
    chunkId: p.chunkId,
    title: chat[i].title,
    url: p.url,
    snippet: chat[i].snippet,
    score: p.score,
  }));
  return { chat, stored };
}

function writeText(writer: UIMessageStreamWriter, text: string, id = "t0") {
  writer.write({ type: "text-start", id });
  for (const delta of textPieces(text)) writer.write({ type: "text-delta", id, delta });
  writer.write({ type: "text-end", id });
}

const normalise = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/** The "collect lead" step as a part of the UI message stream (the widget renders the lead form for it). */
function writeStep(writer: UIMessageStreamWriter, step: CollectLeadStep | null) {
  if (step) writer.write({ type: "data-collect-lead", id: "collect-lead", data: step });
}

/** The chatbot's knowledge searched for `query` (null when the search fails: the reply is then the fallback). */
function searchKnowledge(ctx: ServiceContext, chatbot: Pick<Chatbot, "id" | "orgId" | "knowledgeStore">, query: string): Promise<RetrievalResult | null> {
  return knowledgeStore(ctx, { orgId: chatbot.orgId, chatbotId: chatbot.id }, chatbot.knowledgeStore)
    .then((store) => store.retrieve(query, { k: PASSAGES_K }))
    .catch((e) => {
      console.error("[chat] retrieval failed", e);
      return null;
    });
}

/**
 * Whether a message is searched as it is, at once: a question of four words or more that is not
 * small talk. A short follow-up ("and to Germany?") needs the history first.
 */
const searchedAsItIs = (text: string, smallTalk: () => unknown) => text.split(/\s+/).length >= 4 && !smallTalk();

/**
 * The search of a message that stands alone and is not small talk, started now; null otherwise.
 * takeTurn starts it before the turn's opening round trip so that the two overlap: the same query
 * answerMessage would send once the conversation is known, only earlier (wasted only on a retried
 * send that was already answered).
 */
export function standaloneSearch(
  ctx: ServiceContext,
  chatbot: Pick<Chatbot, "id" | "orgId" | "name" | "knowledgeStore">,
  text: string,
): Promise<RetrievalResult | null> | null {
  const t = text.trim();
  return searchedAsItIs(t, () => detectSmallTalk(t, chatbot.name)) ? searchKnowledge(ctx, chatbot, t) : null;
}

/**
 * Answers `text` in `conversation` and returns the AI SDK UI message stream of the reply: a `start`
 * chunk (metadata: conversationId, messageId), a `data-sources` part when passages were used, the
 * text deltas, and a `finish` chunk whose metadata says whether the bot answered from knowledge.
 * The visitor message and the reply are stored before the stream closes (and even if the reader
 * goes away: the work is kept alive with waitUntil).
 */
export async function answerMessage(
  ctx: ServiceContext,
  input: {
    chatbot: Chatbot;
    /**
     * The conversation, or the promise of it: the chat API passes its lookup unresolved so that
     * retrieval and the quota update start alongside it (every round trip here is before the first byte).
     */
    conversation: (Conversation & { isNew?: boolean }) | Promise<Conversation & { isNew?: boolean }>;
    /** The conversation's last HISTORY_MESSAGES messages when the caller read them already (chat/turn.ts, in its first round trip). */
    history?: Pick<Message, "role" | "content">[];
    /** The reply's credit when the caller counted it already (chat/turn.ts, in the same round trip). */
    quota?: Promise<ConsumeResult>;
    text: string;
    org?: Org;
    startedAt?: number;
    /** Overrides the chatbot's configured model (tests and benchmarks). */
    model?: { id: string; model: LanguageModelV3 };
    /**
     * Whether the bot may answer in this conversation (chat/turn.ts decides: not while a person
     * holds it). Asked once the conversation is known, after retrieval and the quota have started
     * (unless `heldHint`), so the rule costs no round trip; a reply counted for nothing is given back.
     */
    botMayAnswer?: (conversation: Conversation) => boolean;
    /**
     * The client says a person holds the conversation (the widget in live chat): the search waits
     * for `botMayAnswer` and is skipped on a held conversation. Without the hint it starts at once,
     * so an ordinary question's first byte does not wait a round trip for the conversation.
     */
    heldHint?: boolean;
    /** The search of `text` when the caller started it already (standaloneSearch, chat/turn.ts). */
    search?: Promise<RetrievalResult | null> | null;
    /** The widget's id for this message: a concurrent retry that stored it first wins, this one is not stored or counted. */
    clientMessageId?: string;
    /** The page the visitor writes from (stored on the conversation with the exchange). */
    pageUrl?: string | null;
    /** A held conversation's visitor message goes here instead of being stored by this function (live chat stores it). */
    onHeld?: (conversation: Conversation, message: { text: string; askedAt: number; clientMessageId?: string }) => Promise<void>;
    /** Told of every stored exchange (live chat shows it to the agents watching a waiting conversation). */
    onStored?: (
      conversation: Conversation,
      stored: {
        visitorMessageId: string;
        visitorText: string;
        askedAt: number;
        bot: { id: string; content: string; at: number; sources: MessageSource[] } | null;
      },
    ) => Promise<void>;
  },
): Promise<AnswerStream> {
  const { chatbot } = input;
  const text = input.text.trim();
  const askedAt = input.startedAt ?? Date.now();
  const ref = { orgId: chatbot.orgId, chatbotId: chatbot.id };
  const org = input.org ?? (await ctx.db.query.organisations.findFirst({ where: (o, { eq }) => eq(o.id, chatbot.orgId) }));
  if (!org) throw new Error("chatbot without organisation");
  const settings = readGeneralSettings(chatbot.settings);
  // The collect-lead tool's switch on the tools page (…/tools) turns the bot's offers of the form off.
  const uiLeadForm = readUiSettings(chatbot.settings).leadForm;
  const leadForm = builtInToolOn(chatbot.settings, "collect_lead") ? uiLeadForm : { ...uiLeadForm, timing: "off" as const };
  const messageId = newId("msg_");

  const smallTalk = detectSmallTalk(text, chatbot.name);
  const intent = smallTalk ? null : detectBuyingIntent(text);
  const search = (query: string) => searchKnowledge(ctx, chatbot, query);
  // A question that stands alone is searched at once, alongside the quota and history round trips
  // (or earlier: takeTurn's `search`).
  const atOnce = searchedAsItIs(text, () => smallTalk);
  // …unless the client says a person holds the conversation (live chat): then there is likely no bot
  // turn, so the search waits for the conversation and is skipped instead of running on every
  // message to the agent (ADR 026).
  const mayAnswer = input.botMayAnswer && input.heldHint ? Promise.resolve(input.conversation).then((c) => input.botMayAnswer!(c)) : null;
  const early =
    input.search ??
    (atOnce
      ? mayAnswer
        ? mayAnswer.then(
            (ok) => (ok ? search(text) : null),
            () => null,
          )
        : search(text)
      : null);
  const quotaDone = input.quota ?? tryConsumeReply(ctx, org, askedAt);
  // A conversation created by this request has no history to read.
  const historyDone =
    input.history ?? Promise.resolve(input.conversation).then((c) => (c.isNew ? [] : recentMessages(ctx, c, HISTORY_MESSAGES, chatbot.messageStore)));
  const [quota, history, conversation] = await Promise.all([quotaDone, historyDone, input.conversation]);
  const meta = (extra: Partial<ChatMessageMetadata> = {}): ChatMessageMetadata => ({ conversationId: conversation.id, messageId, ...extra });
  // Stores the exchange once: if the same client message id was stored meanwhile (a retry racing the
  // first attempt), this copy is dropped and its credit given back.
  const store = async (exchange: Omit<Parameters<typeof recordExchange>[2], "clientMessageId">) => {
    try {
      const { visitorMessageId } = await recordExchange(ctx, conversation, {
        ...exchange,
        clientMessageId: input.clientMessageId,
        timeZone: org.timeZone,
        pageUrl: input.pageUrl,
        messageStore: chatbot.messageStore,
        conversationStore: chatbot.conversationStore,
      });
      const bot = exchange.bot
        ? { id: exchange.bot.id, content: exchange.bot.content, at: Math.max(exchange.bot.at, exchange.askedAt + 1), sources: exchange.bot.sources }
        : null;
      await input.onStored?.(conversation, { visitorMessageId, visitorText: exchange.visitorText, askedAt: exchange.askedAt, bot });
    } catch (e) {
      if (!input.clientMessageId || !isDuplicateClientMessage(e)) throw e;
      if (quota.ok && exchange.bot?.credits) await refundReply(ctx, org.id, quota.period);
    }
  }; // A reply written without a model (the limit notice, the fallback, a Q&A pair's answer): shown at
  // once and stored with the visitor's message.
  const storeFixedReply = (content: string, o: { sources?: MessageSource[]; answered: boolean; credits: number; unanswered: boolean }) => {
    const at = Date.now();
    return store({
      visitorText: text,
      askedAt,
      bot: {
        id: messageId,
        at,
        content,
        sources: o.sources ?? [],
        answered: o.answered,
        model: null,
        latencyMs: at - askedAt,
        firstTokenMs: o.answered ? at - askedAt : null,
        credits: o.credits,
      },
      unanswered: o.unanswered,
    });
  };

  if (input.botMayAnswer && !input.botMayAnswer(conversation)) {
    if (quota.ok) await refundReply(ctx, org.id, quota.period);
    const { stream, done } = run(ctx, async (writer) => {
      writer.write({ type: "start", messageId, messageMetadata: meta() });
      if (input.onHeld) await input.onHeld(conversation, { text, askedAt, clientMessageId: input.clientMessageId });
      else await store({ visitorText: text, askedAt, bot: null });
      writer.write({ type: "finish", finishReason: "stop", messageMetadata: meta({ answered: false, kind: "held" }) });
    });
    return { stream, done, conversationId: conversation.id, messageId, limited: false, held: true };
  }
  if (!quota.ok) {
    const { stream, done } = run(ctx, async (writer) => {
      writer.write({ type: "start", messageId, messageMetadata: meta() });
      writeText(writer, LIMIT_REPLY);
      await storeFixedReply(LIMIT_REPLY, { answered: false, credits: 0, unanswered: true });
      writer.write({ type: "finish", finishReason: "stop", messageMetadata: meta({ answered: false, kind: "limit" }) });
    });
    return { stream, done, conversationId: conversation.id, messageId, limited: true, limitMessage: quota.message };
  }

  const { id: modelId, model } = input.model ?? resolveChatModel(ctx.env, settings.model);
  const local = modelId === LOCAL_MODEL_ID;
  const toolTurn: ToolTurn = { ctx, chatbot, org, conversation, text, history, settings, visitorId: conversation.visitorId };
  // The built-in engine's tools (ai/tools/index.ts): a message one of them recognises ("where is my
  // order 1234?") is answered by the tool, not from the knowledge.
  // An acknowledgement ("ok", "sure") may be the yes to a tool's "Shall I …?", so tools see it too.
  const toolReply = local && (!smallTalk || smallTalk.kind === "ack") ? await localToolReply(toolTurn) : null;
  if (toolReply) {
    const { stream, done } = run(ctx, async (writer) => {
      writer.write({ type: "start", messageId, messageMetadata: meta() });
      for (const part of toolReply.parts ?? []) writer.write(part as UIMessageChunk);
      writeText(writer, toolReply.text);
      await storeFixedReply(toolReply.text, { sources: toolReply.sources, answered: toolReply.answered, credits: 1, unanswered: false });
      writer.write({ type: "finish", finishReason: "stop", messageMetadata: meta({ answered: toolReply.answered, kind: "answer" }) });
    });
    return { stream, done, conversationId: conversation.id, messageId, limited: false };
  }

  let passages: Passage[] = [];
  let answerable = false;
  /** A Q&A pair whose question matches closely (ADR 022): its answer is the reply, as written. */
  let pairAnswer: string | null = null;
  if (!smallTalk) {
    // A short follow-up is searched together with the previous question.
    const previous = [...history].reverse().find((m) => m.role === "visitor")?.content;
    const result = await (early ?? search(previous ? `${previous} ${text}` : text));
    if (result) {
      passages = result.passages;
      answerable = result.answerable && result.passages.length > 0;
      if (result.qa && passages[0]?.chunkId === result.qa.chunkId) {
        pairAnswer = result.qa.answer;
        passages = [passages[0]];
      }
    }
  }
  // A configured model gets the enabled bot tools (ai/tools/index.ts); their UI parts (product cards…)
  // go into the reply as they run. A question the knowledge does not answer still goes to the model
  // when it has tools ("where is my order 1234?" is never in the knowledge): their results are facts too.
  const emit: { to: ((part: UIMessageChunk) => void) | null } = { to: null };
  const botTools = local || smallTalk ? {} : await modelTools(toolTurn, (part) => emit.to?.(part as UIMessageChunk));
  const withTools = Object.keys(botTools).length > 0;
  const kind: AnswerKind = smallTalk ? "small-talk" : answerable ? "answer" : settings.onlyFromKnowledge && !withTools ? "fallback" : "answer";
  // The collect-lead step (ai/tools/collect-lead.ts). A visitor who already left details is not asked again.
  const visitorHasLead = conversation.hasLead;
  const stepFor = (reply: { intent: boolean; fallback: boolean }) => {
    const reason = collectLeadReason(leadForm, { ...reply, visitorHasLead });
    return reason ? collectLeadStep(leadForm, reason) : null;
  };
  // Buying intent the knowledge does not answer ("Can someone call me?", "Can I get a quote?") is
  // answered with the offer of the form (or that the team has the details) instead of "I don't know";
  // with the built-in engine also when it may answer beyond the knowledge, since it never does.
  const intentReply =
    intent && !answerable && leadFormOffered(leadForm) && leadForm.timing === "on-intent" && (kind === "fallback" || local)
      ? buyingIntentReply(intent, { language: settings.language, alreadyLeft: visitorHasLead })
      : null;
  const used = kind === "answer" && answerable ? passages : [];
  const sources = toSources(used, {
    question: text,
    previousQuestions: history.filter((m) => m.role === "visitor").map((m) => m.content),
    language: settings.language,
    length: settings.answerLength,
  });

  const { stream, done } = run(ctx, async (writer) => {
    writer.write({ type: "start", messageId, messageMetadata: meta() });
    if (sources.chat.length) writer.write({ type: "data-sources", id: "sources", data: sources.chat });

    if (kind === "fallback" || intentReply) {
      // Nothing in the knowledge answers this and the bot may only answer from it: no model call at all,
      // so nothing can be invented.
      const content = intentReply ?? settings.fallbackMessage;
      writeText(writer, content);
      writeStep(writer, stepFor({ intent: !!intent, fallback: true }));
      // A request to be contacted, for a quote, a demo or to buy is for the team, not a gap in the
      // knowledge; a price the knowledge does not give is.
      await storeFixedReply(content, { answered: false, credits: 1, unanswered: !(intentReply && intent && intent.kind !== "price") });
      writer.write({ type: "finish", finishReason: "stop", messageMetadata: meta({ answered: false, kind: "fallback" }) });
      return;
    }

    if (pairAnswer && kind === "answer") {
      // The team's own answer to this question (a Q&A pair, e.g. a bug report's fix): no model call,
      // so nothing is added to it or left out; it cites its Q&A source.
      writeText(writer, pairAnswer);
      writeStep(writer, stepFor({ intent: !!intent, fallback: false }));
      await storeFixedReply(pairAnswer, { sources: sources.stored, answered: true, credits: 1, unanswered: false });
      writer.write({ type: "finish", finishReason: "stop", messageMetadata: meta({ answered: true, kind: "answer" }) });
      return;
    }

    const promptPassages: PromptPassage[] = used.map((p, i) => ({ id: i + 1, title: p.title, heading: p.heading, url: p.url, text: p.text }));
    // A configured model decides itself when to ask for contact details: it gets the collect_lead tool.
    // The built-in engine has no tool calling; the intent rule below stands in for it.
    const called: { step: CollectLeadStep | null } = { step: null };
    const offerTool = !local && !smallTalk && leadFormOffered(leadForm) && !visitorHasLead;
    emit.to = (part) => writer.write(part);
    /** A bot tool ran: its result answers (or refuses) like the knowledge does. */
    let toolAnswered = false;
    const allTools = { ...botTools, ...(offerTool ? { [COLLECT_LEAD_TOOL]: collectLeadTool(leadForm, (step) => (called.step ??= step)) } : {}) };
    const tools = Object.keys(allTools).length ? allTools : undefined;
    const system = buildSystemPrompt({ botName: chatbot.name, settings, passages: promptPassages, collectLeadTool: offerTool, botTools: withTools });
    const messages: ModelMessage[] = [
      ...history.map((m): ModelMessage => (m.role === "visitor" ? { role: "user", content: m.content } : { role: "assistant", content: m.content })),
      { role: "user", content: text },
    ];
    let failed: unknown = null;
    let firstTokenMs: number | null = null;
    let reply = "";
    if (local) {
      // The built-in engine works its whole reply out at once (ai/local-model.ts). It gets the prompt
      // the AI SDK would give it and its reply goes out in the same chunks (a step, the text in
      // textPieces' pieces), written directly: the SDK's streaming pipeline, several transform
      // streams per piece, was most of a message's stream CPU under load (issue #21, ADR 039).
      const prompt: LanguageModelV3Prompt = [
        { role: "system", content: system },
        ...messages.map((m) => ({ role: m.role, content: [{ type: "text" as const, text: String(m.content) }] }) as LanguageModelV3Message),
      ];
      writer.write({ type: "start-step" });
      try {
        const pieces = textPieces(localReply(prompt));
        writer.write({ type: "text-start", id: "t0" });
        if (pieces.length) firstTokenMs = Date.now() - askedAt;
        for (const delta of pieces) writer.write({ type: "text-delta", id: "t0", delta });
        writer.write({ type: "text-end", id: "t0" });
        reply = pieces.join("");
      } catch (error) {
        failed = error;
        console.error("[chat] model error", error);
        writer.write({ type: "error", errorText: ERROR_REPLY });
      }
      writer.write({ type: "finish-step" });
    } else {
      const result = streamText({
        model,
        system,
        messages,
        temperature: settings.temperature,
        maxOutputTokens: MAX_TOKENS[settings.answerLength],
        maxRetries: 1,
        // After calling a tool, the model gets more steps: to call another, then to say its answer.
        ...(tools ? { tools, stopWhen: stepCountIs(3) } : {}),
        onError: ({ error }) => {
          failed = error;
          console.error("[chat] model error", error);
        },
      });
      const toolNameOf = new Map<string, string>();
      for await (const chunk of result.toUIMessageStream({ sendStart: false, sendFinish: false, onError: () => ERROR_REPLY })) {
        if (chunk.type === "text-delta") {
          firstTokenMs ??= Date.now() - askedAt;
          reply += chunk.delta;
        }
        if (chunk.type === "error") failed ??= chunk.errorText;
        if (chunk.type === "tool-output-available" && chunk.toolCallId && botTools[toolNameOf.get(chunk.toolCallId) ?? ""]) toolAnswered = true;
        if (chunk.type === "tool-input-available") toolNameOf.set(chunk.toolCallId, chunk.toolName);
        // The tool's own parts stay on the server: the step goes out as one data-collect-lead part.
        if (chunk.type.startsWith("tool-")) continue;
        writer.write(chunk);
      }
    }
    reply = reply.trim();
    if (!failed && !reply && called.step) {
      // The model only called the tool: say what the form is for.
      reply = buyingIntentReply(intent ?? { kind: "contact", lang: null }, { language: settings.language, alreadyLeft: false });
      writeText(writer, reply, "t-lead");
    }
    if (failed || !reply) {
      await refundReply(ctx, org.id, quota.period);
      await store({ visitorText: text, askedAt, bot: null, unanswered: true });
      if (!failed) writer.write({ type: "error", errorText: ERROR_REPLY });
      writer.write({ type: "finish", finishReason: "error", messageMetadata: meta({ answered: false, kind }) });
      return;
    }
    const answered = kind === "answer" && (used.length > 0 || toolAnswered) && normalise(reply) !== normalise(settings.fallbackMessage);
    const fellBack = !answered && kind !== "small-talk";
    writeStep(writer, called.step ?? stepFor({ intent: local && !!intent, fallback: fellBack }));
    await store({
      visitorText: text,
      askedAt,
      bot: {
        id: messageId,
        at: Date.now(),
        content: reply,
        sources: answered ? sources.stored : [],
        answered,
        model: modelId,
        latencyMs: Date.now() - askedAt,
        firstTokenMs,
        credits: 1,
      },
      // Small talk is not a question left unanswered; a reply without knowledge behind it is.
      unanswered: !answered && kind !== "small-talk",
    });
    writer.write({
      type: "finish",
      finishReason: "stop",
      messageMetadata: meta({ answered, kind: answered ? "answer" : kind === "small-talk" ? kind : "fallback" }),
    });
  });
  return { stream, done, conversationId: conversation.id, messageId, limited: false };
}

/**
 * The stream of an exchange already stored under the same client message id (a retried send): the
 * stored reply again, with its conversation and message ids; nothing is stored or counted.
 */
export function replayExchange(stored: StoredExchange): AnswerStream {
  const messageId = stored.reply?.id ?? newId("msg_");
  const meta = (extra: Partial<ChatMessageMetadata> = {}): ChatMessageMetadata => ({
    conversationId: stored.conversationId,
    messageId,
    replayed: true,
    ...extra,
  });
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      writer.write({ type: "start", messageId, messageMetadata: meta() });
      const reply = stored.reply;
      if (!reply && stored.held) {
        // A resent message to the person holding the conversation: it reached them; there is no bot answer.
        writer.write({ type: "finish", finishReason: "stop", messageMetadata: meta({ answered: false, kind: "held" }) });
        return;
      }
      if (!reply) {
        writer.write({ type: "error", errorText: ERROR_REPLY });
        writer.write({ type: "finish", finishReason: "error", messageMetadata: meta({ answered: false }) });
        return;
      }
      const sources = numberedSources(reply.sources);
      if (sources.length) writer.write({ type: "data-sources", id: "sources", data: sources });
      writeText(writer, reply.content);
      writer.write({ type: "finish", finishReason: "stop", messageMetadata: meta({ answered: reply.answered ?? false }) });
    },
  });
  return { stream, done: Promise.resolve(), conversationId: stored.conversationId, messageId, limited: false, held: !stored.reply && stored.held };
}

/** A UI message stream whose producer keeps running (and is kept alive) even if nobody reads it. */
function run(ctx: ServiceContext, produce: (writer: UIMessageStreamWriter) => Promise<void>) {
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      try {
        await produce(writer);
      } finally {
        resolveDone();
      }
    },
    onError: (error) => {
      console.error("[chat] answer failed", error);
      return ERROR_REPLY;
    },
  });
  ctx.waitUntil(done);
  return { stream, done };
}

export type CollectedAnswer = {
  text: string;
  sources: ChatSource[];
  /** The "collect lead" step the reply carries, if any. */
  collectLead: CollectLeadStep | null;
  metadata: ChatMessageMetadata | null;
  error: string | null;
};

/** Reads a whole answer stream (the JSON API, tests). */
export async function collectAnswer(stream: ReadableStream<UIMessageChunk>): Promise<CollectedAnswer> {
  const out: CollectedAnswer = { text: "", sources: [], collectLead: null, metadata: null, error: null };
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === "text-delta") out.text += value.delta;
    else if (value.type === "data-sources") out.sources = value.data as ChatSource[];
    else if (value.type === "data-collect-lead") out.collectLead = readCollectLeadStep(value.data);
    else if (value.type === "error") out.error = value.errorText;
    else if ((value.type === "start" || value.type === "finish") && value.messageMetadata)
      out.metadata = { ...out.metadata, ...(value.messageMetadata as ChatMessageMetadata) };
  }
  return out;
}
