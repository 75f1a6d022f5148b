import { handoffStatements, orgTimeZone } from "../analytics/record";
import type { ServiceContext } from "../context";
import { conversationIndex, countedConversation, liveStatements } from "../chat/conversation-index";
import { dayIn } from "~/lib/time-zone";
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
  const live = {
    status: change.state.status,
    ...(taken ? { agent: { userId: agent.id, name: agent.name, at: change.at } } : {}),
    ...(change.action === "close" ? { closedAt: change.at, ...(agent ? { agent: { userId: agent.id, name: agent.name, at: change.at } } : {}) } : {}),
  };
  const store = await conversationIndex(ctx, conversation);
  if (store.kind === "shard") {
    // The index in the chatbot's shard (ADR 044): the change there, then for a request the once-only
    // decision there and D1's analytics with it (ADR 048) — never D1's conversation rows.
    const held = await store.applyLive(conversation.id, live);
    if (!held || change.action !== "request") return;
    const [timeZone, counted] = await Promise.all([orgTimeZone(ctx, conversation.orgId), countedConversation(ctx, conversation)]);
    const decision = counted ? await store.countOnce(conversation.id, { day: dayIn(timeZone, change.at), problem: true }) : null;
    if (counted && decision) await ctx.db.batch(handoffStatements(ctx.db, counted, { timeZone, at: change.at }, decision) as [never, ...never[]]);
    return;
  }
  const index = liveStatements(ctx.db, conversation, conversation.id, live);
  if (change.action === "request") {
    // A visitor asked for a person: a human handoff in the analytics, and the conversation unresolved.
    const [timeZone, counted] = await Promise.all([orgTimeZone(ctx, conversation.orgId), countedConversation(ctx, conversation)]);
    await ctx.db.batch([...index, ...(counted ? handoffStatements(ctx.db, counted, { timeZone, at: change.at }) : [])]);
  } else {
    await ctx.db.batch(index);
  }
}
