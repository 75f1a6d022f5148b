import type { LiveMessage, LiveSnapshot, LiveStatus } from "~/lib/live/protocol";
import type { Env } from "../env";
import type { LiveAgent } from "~/lib/live/protocol";
import type { RateKey } from "../widget/rate-limit";

// How domain code reaches the live-chat Durable Objects (workers/durable-objects/): one object per
// conversation (CHAT_SESSION, named by the conversation id) and one per chatbot for its inbox
// (CHATBOT_INBOX, named by the chatbot id). The objects implement these interfaces; `.server` never
// imports `workers/`, so the shapes are declared here and the objects are reached by RPC.

/** What a conversation object needs to know about its conversation (read from D1 by the caller). */
export type LiveConversationInfo = { conversationId: string; orgId: string; chatbotId: string; visitorId: string; status: LiveStatus };

/** A message already stored in D1 by the conversation core (a bot exchange while a person is awaited). */
export type StoredLiveMessage = { id: string; role: "visitor" | "bot"; text: string; at: number; sources?: LiveMessage["sources"] };

/**
 * A wait timer: when it fires the note is chosen again from `waitMinutes` and `leadForm` (the lead
 * form is not "Never") with the contact details the visitor has left by then; `note` is the one
 * chosen when it started (and the only one of timers started before these fields).
 */
export type WaitTimer = { at: number; note: string; waitMinutes?: number; leadForm?: boolean };

export interface LiveConversationApi {
  /** Stores a visitor's message (a person holds the conversation) and sends it to the agents; resent client ids are not stored twice. */
  postVisitor(info: LiveConversationInfo, input: { text: string; at: number; clientId?: string }): Promise<LiveMessage>;
  /** Adds messages the conversation core already stored in D1 to the live log. */
  appendStored(info: LiveConversationInfo, messages: StoredLiveMessage[]): Promise<void>;
  /** The visitor asks for a person: bot → waiting. */
  requestHuman(info: LiveConversationInfo): Promise<{ status: LiveStatus; alreadyRequested: boolean }>;
  /**
   * A person was asked for and someone may join: if the conversation still waits at `at`, the
   * object's alarm tells the visitor `note` (a system message of kind "wait-timeout": the widget
   * offers the lead form). Taking, handing back or closing it stops the timer.
   */
  startWaitTimer(info: LiveConversationInfo, timer: WaitTimer): Promise<void>;
  /** The conversation's state and the messages after `after` (the HTTP fallback's poll). */
  snapshot(info: LiveConversationInfo, after: number): Promise<LiveSnapshot>;
  /** Deleting the chatbot: the object's log, state and counters go, its sockets close. Refused for another chatbot's conversation. */
  forget(chatbotId: string): Promise<void>;
}

export interface ChatbotInboxApi {
  /** Agents connected to the chatbot's inbox with their switch on "online". */
  agentsOnline(): Promise<number>;
  /** A conversation changed: connected inboxes refresh. The conversation is noted as one with a live object. */
  changed(event: { conversationId: string; status: LiveStatus }): Promise<void>;
  /** A conversation's live object started keeping state: noted, so that deleting the chatbot finds it. */
  noteSession(conversationId: string): Promise<void>;
  /** The conversations noted as having a live object, at most `limit` after `after` (by id). */
  sessions(after: string, limit: number): Promise<string[]>;
  /** Deleting the chatbot: the agents' switches and the notes of live objects go, open inboxes close. */
  forget(): Promise<void>;
}

export function liveConversation(env: Pick<Env, "CHAT_SESSION">, conversationId: string): LiveConversationApi & { fetch(r: Request): Promise<Response> } {
  return env.CHAT_SESSION.get(env.CHAT_SESSION.idFromName(conversationId)) as unknown as LiveConversationApi & { fetch(r: Request): Promise<Response> };
}

export function chatbotInbox(env: Pick<Env, "CHATBOT_INBOX">, chatbotId: string): ChatbotInboxApi & { fetch(r: Request): Promise<Response> } {
  return env.CHATBOT_INBOX.get(env.CHATBOT_INBOX.idFromName(chatbotId)) as unknown as ChatbotInboxApi & { fetch(r: Request): Promise<Response> };
}

/**
 * Who is on the other end of a socket: set by the Worker after it authenticated the request. A
 * visitor's socket carries the message limits the visitor gate gave it (ADR 033): the object counts
 * the messages the visitor sends on it against them. Without `limits` (a socket opened before
 * visitors could send on it) the visitor sends over HTTP.
 */
export type LiveWho = { role: "visitor"; limits?: RateKey[] } | ({ role: "agent" } & LiveAgent);
export const WHO_HEADER = "X-Parley-Live-Who";
export const INFO_HEADER = "X-Parley-Live-Info";

/**
 * Deleting a chatbot: every conversation's live object that kept a log (visitor, agent and bot
 * messages copied there, its state, the visitor's counters) is emptied, then the chatbot's inbox
 * object. Before the chatbot's rows go, as its shards do, so that a failure leaves the chatbot to
 * delete again. Objects started before they were noted in the inbox (before ADR 074) are not found.
 */
export async function forgetLiveChat(env: Pick<Env, "CHAT_SESSION" | "CHATBOT_INBOX">, chatbotId: string): Promise<number> {
  const inbox = chatbotInbox(env, chatbotId);
  let after = "";
  let forgotten = 0;
  for (;;) {
    const ids = await inbox.sessions(after, 200);
    if (ids.length === 0) break;
    // A few at a time: each is a call to its own object.
    for (let i = 0; i < ids.length; i += 20) await Promise.all(ids.slice(i, i + 20).map((id) => liveConversation(env, id).forget(chatbotId)));
    forgotten += ids.length;
    after = ids[ids.length - 1];
  }
  await inbox.forget();
  return forgotten;
}
