import { z } from "zod";

// The chat API's input (POST /api/chat/{chatbotId}), shared by the Hono handler and the chat screens.

export const MESSAGE_MAX = 2000;
export const VISITOR_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

export const visitorIdSchema = z.string({ error: "visitorId is required." }).regex(VISITOR_ID_PATTERN, "visitorId must be 8–64 letters, digits, '-' or '_'.");

/** HMAC-SHA256(identity secret, visitorId) as hex (identity verification). Re-exported by widget-api.ts. */
export const visitorHashSchema = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{64}$/i, "hash must be 64 hex characters (HMAC-SHA256 of the visitor id).");

/** The widget's id for one visitor message: a retry of the same send carries the same id. */
export const clientMessageIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "clientMessageId must be 8–64 letters, digits, '-' or '_'.");

/** An http(s) page address without its query or fragment (those may carry a visitor's tokens). */
export const pageUrlSchema = z
  .string()
  .max(2000, "pageUrl is limited to 2,000 characters.")
  .refine((v) => /^https?:\/\/[^\s?#]+$/.test(v) && URL.canParse(v), "pageUrl must be an http(s) address without a query or fragment.");

export const widgetChatRequestSchema = z.object({
  visitorId: visitorIdSchema,
  message: z
    .string({ error: "message is required." })
    .trim()
    .min(1, "Type a message first.")
    .max(MESSAGE_MAX, `Messages are limited to ${MESSAGE_MAX} characters.`),
  conversationId: z.string().trim().min(1).max(64).optional(),
  /** "voice": the words were spoken (voice playground, the widget's microphone); allowed when voice is on. */
  channel: z.enum(["test", "widget", "voice"], { error: 'channel must be "test", "widget" or "voice".' }).optional(),
  /** true: start a new conversation instead of continuing the visitor's open one ("New conversation"). */
  newConversation: z.boolean().optional(),
  /** false: answer with one JSON document instead of the streamed UI message stream. */
  stream: z.boolean().optional(),
  /** HMAC-SHA256(identity secret, visitorId) from the customer's site: marks the visitor verified. */
  visitorHash: visitorHashSchema.optional(),
  /** Makes the send idempotent: a retry with the same id is answered again without storing or counting it twice. */
  clientMessageId: clientMessageIdSchema.optional(),
  /**
   * The client believes a person holds the conversation (the widget in live chat). Only a scheduling
   * hint: the bot's search waits for the conversation instead of starting at once; the server still
   * decides from the conversation's status whether the bot answers.
   */
  held: z.boolean().optional(),
  /** The page of the customer's site the visitor writes from (origin and path), shown to agents. */
  pageUrl: pageUrlSchema.optional(),
});

/** A source as the chat stream (`data-sources`) and the history endpoint send it; `n` is its [n] citation. */
export type ChatSource = { n: number; title: string; url: string | null; snippet: string; sourceId: string; chunkId: number };

/** Metadata on the stream's `start`/`finish` chunks. */
export type ChatMessageMetadata = {
  conversationId: string;
  messageId: string;
  answered?: boolean;
  /**
   * "limit": the organisation's reply allowance is used up; "fallback": the bot did not know;
   * "held": a person holds the conversation, so the bot did not answer (the message is stored).
   * "handoff": the visitor asked for a person; the conversation waits for one (live chat).
   */
  kind?: "answer" | "fallback" | "small-talk" | "limit" | "held" | "handoff";
  /** With "handoff": how many agents were online to join (none: the visitor is offered the lead form). */
  agentsOnline?: number;
  /** With "handoff" (ADR 027): whether someone may join now (plan, office hours, online); false → the lead form is offered. */
  available?: boolean;
  /** With "handoff": the conversation's status after the request ("bot" when the plan has no live chat). */
  status?: "bot" | "waiting" | "human" | "closed";
  /** The reply was already stored for this client message id (a retried send): sent again, not stored or counted again. */
  replayed?: boolean;
};

export type HistoryMessage = { id: string; role: "visitor" | "bot" | "human"; content: string; sources: ChatSource[]; createdAt: number };
