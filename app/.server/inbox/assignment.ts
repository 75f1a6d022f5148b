import { handoffStatements, orgTimeZone } from "../analytics/record";
import type { ServiceContext } from "../context";
import { liveStatements } from "../chat/conversation-index";
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
  // The index's statements (chat/conversation-index.ts): the status, and who took or closed it.
  const agent = change.state.agent;
  const taken = (change.action === "take" || change.action === "transfer") && agent;
  const index = liveStatements(ctx.db, conversation, conversation.id, {
    status: change.state.status,
    ...(taken ? { agent: { userId: agent.id, name: agent.name, at: change.at } } : {}),
    ...(change.action === "close" ? { closedAt: change.at, ...(agent ? { agent: { userId: agent.id, name: agent.name, at: change.at } } : {}) } : {}),
  });
  if (change.action === "request") {
    // A visitor asked for a person: a human handoff in the analytics, and the conversation unresolved.
    const timeZone = await orgTimeZone(ctx, conversation.orgId);
    await ctx.db.batch([...index, ...handoffStatements(ctx.db, conversation, { timeZone, at: change.at, conversationId: conversation.id })]);
  } else {
    await ctx.db.batch(index);
  }
}
