import { and, eq } from "drizzle-orm";
import { handoffStatements, orgTimeZone } from "../analytics/record";
import type { ServiceContext } from "../context";
import { conversationAgents, conversations } from "../db/schema";
import type { LiveAction, LiveState } from "./rules";

// D1's side of a live status change (the conversation object decides it, then calls this before it
// tells anyone): the conversation's status, which the conversation core reads to refuse bot turns
// while a person holds it, and who holds it (the inbox's "mine" and "closed" lists).

type Ctx = Pick<ServiceContext, "db">;

export async function applyLiveTransition(
  ctx: Ctx,
  conversation: { id: string; orgId: string; chatbotId: string },
  change: { action: LiveAction; state: LiveState; at: number },
) {
  const scoped = and(eq(conversations.id, conversation.id), eq(conversations.orgId, conversation.orgId));
  const status = ctx.db.update(conversations).set({ status: change.state.status }).where(scoped);
  const agent = change.state.agent;
  if ((change.action === "take" || change.action === "transfer") && agent) {
    const row = { userId: agent.id, agentName: agent.name, takenAt: change.at, closedAt: null };
    await ctx.db.batch([
      status,
      ctx.db
        .insert(conversationAgents)
        .values({ conversationId: conversation.id, orgId: conversation.orgId, chatbotId: conversation.chatbotId, ...row })
        .onConflictDoUpdate({ target: conversationAgents.conversationId, set: row }),
    ]);
  } else if (change.action === "close") {
    const closer = agent ?? { id: null, name: "" };
    await ctx.db.batch([
      status,
      ctx.db
        .insert(conversationAgents)
        .values({
          conversationId: conversation.id,
          orgId: conversation.orgId,
          chatbotId: conversation.chatbotId,
          userId: closer.id,
          agentName: closer.name,
          takenAt: change.at,
          closedAt: change.at,
        })
        .onConflictDoUpdate({ target: conversationAgents.conversationId, set: { closedAt: change.at } }),
    ]);
  } else if (change.action === "request") {
    // A visitor asked for a person: a human handoff in the analytics, and the conversation unresolved.
    const timeZone = await orgTimeZone(ctx, conversation.orgId);
    await ctx.db.batch([status, ...handoffStatements(ctx.db, conversation, { timeZone, at: change.at, conversationId: conversation.id })]);
  } else {
    await status;
  }
}
