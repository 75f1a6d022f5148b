import type { ServiceContext } from "../context";
import { conversationIndex } from "../chat/conversation-index";
import type { ChatbotRef, Conversation } from "../chat/conversations";
import type { LiveConversationInfo } from "./live";

// Finding the conversation a live socket or poll is about, scoped like every other read: a visitor
// reaches only their own conversations on this chatbot, an agent only this chatbot's of their
// organisation. Anything else is "not found". The look-ups are the conversation index's (ADR 044).

// `env` reaches a conversation index in the chatbot's shard; without it only D1's can be read.
type Ctx = Pick<ServiceContext, "db"> & Partial<Pick<ServiceContext, "env">>;

export const liveInfo = (c: Pick<Conversation, "id" | "orgId" | "chatbotId" | "visitorId" | "status">): LiveConversationInfo => ({
  conversationId: c.id,
  orgId: c.orgId,
  chatbotId: c.chatbotId,
  visitorId: c.visitorId,
  status: c.status,
});

export async function visitorConversation(ctx: Ctx, ref: ChatbotRef, visitorId: string, conversationId: string): Promise<LiveConversationInfo | null> {
  const c = await (await conversationIndex(ctx, ref)).get(conversationId, visitorId);
  return c ? liveInfo(c) : null;
}

export async function agentConversation(ctx: Ctx, ref: ChatbotRef, conversationId: string): Promise<LiveConversationInfo | null> {
  const c = await (await conversationIndex(ctx, ref)).get(conversationId);
  return c ? liveInfo(c) : null;
}
