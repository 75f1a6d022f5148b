import { handoffStatements, orgTimeZone } from "../analytics/record";
import type { ServiceContext } from "../context";
import { countedConversation, liveStatements } from "../chat/conversation-index";
import type { LiveAction, LiveState } from "./rules";

// D1's side of a live status change (the conversation object decides it, then calls this before it
// tells anyone): the conversation's status, which the conversation core reads to refuse bot turns
// while a person holds it, and who holds it (the inbox's "mine" and "closed" lists).

type Ctx = Pick<ServiceContext, "db"> & Partial<Pick<ServiceContext, "env">>;

export async function applyLiveTransition(
  ctx: Ctx,
  /** The analytics' values of a handoff (visitor, channel, country) are read from the chatbot's index when not given. */
  conversation: Parameters<typeof countedConversation>[1],
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
    const [timeZone, counted] = await Promise.all([orgTimeZone(ctx, conversation.orgId), countedConversation(ctx, conversation)]);
    await ctx.db.batch([...index, ...(counted ? handoffStatements(ctx.db, counted, { timeZone, at: change.at }) : [])]);
  } else {
    await ctx.db.batch(index);
  }
}
