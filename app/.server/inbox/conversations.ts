import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { conversations } from "../db/schema";
import type { ChatbotRef, Conversation } from "../chat/conversations";
import { chatbotInbox, liveConversation, type LiveConversationInfo } from "./live";

// Finding the conversation a live socket or poll is about, scoped like every other read: a visitor
// reaches only their own conversations on this chatbot, an agent only this chatbot's of their
// organisation. Anything else is "not found".

type Ctx = Pick<ServiceContext, "db">;

export const liveInfo = (c: Pick<Conversation, "id" | "orgId" | "chatbotId" | "visitorId" | "status">): LiveConversationInfo => ({
  conversationId: c.id,
  orgId: c.orgId,
  chatbotId: c.chatbotId,
  visitorId: c.visitorId,
  status: c.status,
});

export async function visitorConversation(ctx: Ctx, ref: ChatbotRef, visitorId: string, conversationId: string): Promise<LiveConversationInfo | null> {
  const c = await ctx.db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.id, conversationId),
        eq(conversations.orgId, ref.orgId),
        eq(conversations.chatbotId, ref.chatbotId),
        eq(conversations.visitorId, visitorId),
      ),
    )
    .get();
  return c ? liveInfo(c) : null;
}

export async function agentConversation(ctx: Ctx, ref: ChatbotRef, conversationId: string): Promise<LiveConversationInfo | null> {
  const c = await ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), eq(conversations.orgId, ref.orgId), eq(conversations.chatbotId, ref.chatbotId)))
    .get();
  return c ? liveInfo(c) : null;
}

/**
 * The visitor asks for a person (the widget's button, or words the conversation core recognises):
 * the conversation object moves it to "waiting" and the chatbot's open inboxes see it at once.
 * Says how many agents are online, which decides what the visitor is told.
 */
export async function handToHuman(ctx: Pick<ServiceContext, "env">, conversation: LiveConversationInfo) {
  const [r, agentsOnline] = await Promise.all([
    liveConversation(ctx.env, conversation.conversationId).requestHuman(conversation),
    chatbotInbox(ctx.env, conversation.chatbotId)
      .agentsOnline()
      .catch(() => 0),
  ]);
  return { ...r, agentsOnline };
}
