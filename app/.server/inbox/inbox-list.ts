import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { conversationAgents, conversations } from "../db/schema";
import type { ChatbotRef } from "../chat/conversations";

// The chatbot home's live inbox: conversations waiting for a person, held by one (all, and the
// signed-in agent's own), and the ones agents closed most recently. Each list is one indexed read
// (migration 0016's partial indexes), capped: the inbox is for what needs attention now; the full
// history stays in the conversation list below it.

export const INBOX_LIMIT = 50;

export type InboxRow = {
  id: string;
  visitorId: string;
  title: string | null;
  status: "bot" | "waiting" | "human" | "closed";
  lastMessageAt: number;
  agentId: string | null;
  agentName: string | null;
  leadName: string | null;
  leadEmail: string | null;
};

export async function inboxLists(ctx: Pick<ServiceContext, "db">, ref: ChatbotRef, userId: string) {
  const columns = {
    id: conversations.id,
    visitorId: conversations.visitorId,
    title: conversations.title,
    status: conversations.status,
    lastMessageAt: conversations.lastMessageAt,
    agentId: conversationAgents.userId,
    agentName: conversationAgents.agentName,
    leadName: conversations.leadName,
    leadEmail: conversations.leadEmail,
  };
  const mine = and(eq(conversations.orgId, ref.orgId), eq(conversations.chatbotId, ref.chatbotId));
  const ofStatus = (status: "waiting" | "human") =>
    ctx.db
      .select(columns)
      .from(conversations)
      .leftJoin(conversationAgents, eq(conversationAgents.conversationId, conversations.id))
      .where(and(mine, eq(conversations.status, status)))
      .orderBy(desc(conversations.lastMessageAt))
      .limit(INBOX_LIMIT)
      .all();
  const [waiting, live, closed] = await Promise.all([
    ofStatus("waiting"),
    ofStatus("human"),
    ctx.db
      .select(columns)
      .from(conversationAgents)
      .innerJoin(conversations, eq(conversations.id, conversationAgents.conversationId))
      .where(
        and(
          eq(conversationAgents.chatbotId, ref.chatbotId),
          eq(conversationAgents.orgId, ref.orgId),
          isNotNull(conversationAgents.closedAt),
          eq(conversations.status, "closed"),
        ),
      )
      .orderBy(desc(conversationAgents.closedAt))
      .limit(20)
      .all(),
  ]);
  return { waiting, live, mine: live.filter((r) => r.agentId === userId), closed } satisfies Record<string, InboxRow[]>;
}
