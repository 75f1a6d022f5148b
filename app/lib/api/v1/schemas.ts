import { z } from "zod";
import { MESSAGE_MAX, VISITOR_ID_PATTERN } from "../../schemas/chat";
import { qaPairsSchema, TEXT_SOURCE_MAX } from "../../schemas/kb";
import { leadInputSchema } from "../../schemas/widget-api";

// The REST API v1 contract: what requests and replies look like, shared by the Worker (validation),
// the OpenAPI document and the docs page. Client-safe: nothing here touches auth or the database.

/** Requests a minute each API key may make (enforced in workers/api/v1/auth.ts). */
export const RATE_PER_MINUTE = 60;

// The REST API v1's request and response shapes. The handlers validate with these and the OpenAPI
// document (openapi.ts) is generated from these, so the two cannot drift apart.

export const errorSchema = z
  .object({ error: z.object({ code: z.string().meta({ example: "invalid_input" }), message: z.string().meta({ example: "message: Type a message first." }) }) })
  .meta({ id: "Error" });

const id = z.string().min(1).max(64);

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1, "limit must be between 1 and 100.").max(100, "limit must be between 1 and 100.").default(20),
  before: z.coerce
    .number()
    .int()
    .positive("before must be a timestamp in milliseconds.")
    .optional()
    .meta({ description: "Cursor: `nextBefore` of the previous page." }),
});

const sourceSchema = z
  .object({
    n: z.number().int().meta({ description: "The [n] the answer cites it by." }),
    title: z.string(),
    url: z.string().nullable(),
    snippet: z.string(),
    sourceId: z.string().meta({ description: "The knowledge source it comes from." }),
    chunkId: z.number().int(),
  })
  .meta({ id: "Source" });

export const apiChatRequestSchema = z
  .object({
    message: z
      .string({ error: "message is required." })
      .trim()
      .min(1, "message: Type a message first.")
      .max(MESSAGE_MAX, `message: at most ${MESSAGE_MAX} characters.`),
    visitorId: z
      .string()
      .regex(VISITOR_ID_PATTERN, "visitorId must be 8–64 letters, digits, '-' or '_'.")
      .optional()
      .meta({ description: "Your id for the person asking; conversations are kept per visitor. Generated when absent." }),
    conversationId: id.optional().meta({ description: "Continue this conversation of the visitor." }),
    stream: z.boolean().optional().meta({ description: "true: answer as an AI SDK UI message stream (Server-Sent Events) instead of one JSON document." }),
  })
  .meta({ id: "ChatRequest" });

export const chatResponseSchema = z
  .object({
    conversationId: z.string(),
    visitorId: z.string(),
    message: z
      .object({
        id: z.string(),
        role: z.literal("bot"),
        content: z.string(),
        answered: z.boolean().meta({ description: "false when the bot did not find the answer in its knowledge (fallback or small talk)." }),
        kind: z
          .enum(["answer", "fallback", "small-talk", "limit"])
          .optional()
          .meta({ description: "What the reply is: an answer from knowledge, the fallback message, small talk, or the refusal past the plan's limit." }),
        sources: z.array(sourceSchema),
      })
      .nullable()
      .meta({ description: "null when a person of your team holds the conversation: the message was stored for them and the bot did not answer." }),
  })
  .meta({ id: "ChatResponse" });

export const messageSchema = z
  .object({
    id: z.string(),
    role: z.enum(["visitor", "bot", "human", "tool", "system"]),
    content: z.string(),
    sources: z.array(sourceSchema),
    createdAt: z.number().int(),
  })
  .meta({ id: "Message" });

export const conversationSchema = z
  .object({
    id: z.string(),
    visitorId: z.string(),
    channel: z.string(),
    status: z.enum(["bot", "waiting", "human", "closed"]),
    verified: z.boolean(),
    messageCount: z.number().int(),
    createdAt: z.number().int(),
    lastMessageAt: z.number().int(),
  })
  .meta({ id: "Conversation" });

export const conversationListSchema = z.object({ data: z.array(conversationSchema), nextBefore: z.number().int().nullable() }).meta({ id: "ConversationList" });
export const conversationDetailSchema = conversationSchema.extend({ messages: z.array(messageSchema) }).meta({ id: "ConversationDetail" });

export const leadCreateSchema = leadInputSchema
  .omit({ visitorId: true })
  .extend({ visitorId: z.string().regex(VISITOR_ID_PATTERN, "visitorId must be 8–64 letters, digits, '-' or '_'.").optional() })
  .meta({ id: "LeadCreate" });

export const leadSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    custom: z.record(z.string(), z.string()),
    status: z.enum(["new", "contacted", "qualified", "won", "lost"]),
    source: z.string(),
    conversationId: z.string().nullable(),
    createdAt: z.number().int(),
  })
  .meta({ id: "Lead" });
export const leadListSchema = z.object({ data: z.array(leadSchema), nextBefore: z.number().int().nullable() }).meta({ id: "LeadList" });

const title = z.string().trim().max(200, "title: at most 200 characters.").optional();
export const sourceCreateSchema = z
  .discriminatedUnion(
    "type",
    [
      z.object({
        type: z.literal("text"),
        title,
        text: z
          .string({ error: "text is required." })
          .trim()
          .min(1, "text: enter the text the bot should learn.")
          .max(TEXT_SOURCE_MAX, `text: at most ${TEXT_SOURCE_MAX.toLocaleString("en-US")} characters.`),
      }),
      z.object({
        type: z.literal("qa"),
        title,
        pairs: qaPairsSchema
          .refine((p) => p.length > 0, "pairs: add at least one question with its answer.")
          .refine((p) => p.every((x) => x.question && x.answer), "pairs: every pair needs both a question and an answer."),
      }),
      z.object({ type: z.literal("url"), url: z.string({ error: "url is required." }).trim().min(1, "url is required.").max(2000, "url is too long.") }),
      z.object({
        type: z.literal("site"),
        url: z.string({ error: "url is required." }).trim().min(1, "url is required.").max(2000, "url is too long."),
        pageCap: z.number().int().min(1).optional().meta({ description: "Most pages to crawl; defaults to the plan's limit." }),
        include: z.array(z.string().max(200)).max(50).optional(),
        exclude: z.array(z.string().max(200)).max(50).optional(),
      }),
    ],
    { error: 'type must be one of "text", "qa", "url", "site".' },
  )
  .meta({ id: "KnowledgeSourceCreate" });

export const knowledgeSourceSchema = z
  .object({
    id: z.string(),
    type: z.enum(["text", "qa", "file", "url", "site", "woocommerce"]),
    title: z.string(),
    location: z.string().nullable(),
    status: z.enum(["queued", "processing", "ready", "failed"]),
    progressDone: z.number().int(),
    progressTotal: z.number().int(),
    error: z.string().nullable(),
    charCount: z.number().int(),
    chunkCount: z.number().int(),
    lastSyncedAt: z.number().int().nullable(),
    createdAt: z.number().int(),
  })
  .meta({ id: "KnowledgeSource" });
export const knowledgeSourceListSchema = z.object({ data: z.array(knowledgeSourceSchema) }).meta({ id: "KnowledgeSourceList" });
