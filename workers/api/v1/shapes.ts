import type { ConversationRow, Conversation, Message } from "../../../app/.server/chat/conversations";
import { numberedSources } from "../../../app/.server/chat/conversations";
import type { SourceSummary } from "../../../app/.server/kb/sources";
import type { Lead } from "../../../app/.server/leads/leads";
import type { z } from "zod";
import type { conversationSchema, knowledgeSourceSchema, leadSchema, messageSchema } from "../../../app/lib/api/v1/schemas";

// Database rows → the API's documented shapes (schemas.ts): only documented fields leave.

export function toApiConversation(c: ConversationRow | Conversation): z.infer<typeof conversationSchema> {
  return {
    id: c.id,
    visitorId: c.visitorId,
    channel: c.channel,
    status: c.status,
    verified: "verified" in c ? Boolean(c.verified) : false,
    messageCount: c.messageCount,
    createdAt: c.createdAt,
    lastMessageAt: c.lastMessageAt,
  };
}

export function toApiMessage(m: Message): z.infer<typeof messageSchema> {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    createdAt: m.createdAt,
    sources: numberedSources(m.sources),
  };
}

export function toApiLead(l: Lead): z.infer<typeof leadSchema> {
  return {
    id: l.id,
    name: l.name,
    email: l.email,
    phone: l.phone,
    custom: l.custom ?? {},
    status: l.status,
    source: l.source,
    conversationId: l.conversationId,
    createdAt: l.createdAt,
  };
}

export function toApiSource(s: SourceSummary): z.infer<typeof knowledgeSourceSchema> {
  return {
    id: s.id,
    type: s.type,
    title: s.title,
    location: s.type === "url" || s.type === "site" ? s.location : null,
    status: s.status,
    progressDone: s.progressDone,
    progressTotal: s.progressTotal,
    error: s.error,
    charCount: s.charCount,
    chunkCount: s.chunkCount,
    lastSyncedAt: s.lastSyncedAt,
    createdAt: s.createdAt,
  };
}
