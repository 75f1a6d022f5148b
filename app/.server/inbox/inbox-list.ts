import type { ServiceContext } from "../context";
import type { ChatbotRef } from "../chat/conversations";
import { conversationIndex, type InboxLists } from "../chat/conversation-index";

export { INBOX_LIMIT, type InboxRow } from "../chat/conversation-index";

// The chatbot home's live inbox: conversations waiting for a person, held by one (all, and the
// signed-in agent's own), and the ones agents closed most recently. Each list is one indexed read
// (migration 0016's partial indexes), capped: the inbox is for what needs attention now; the full
// history stays in the conversation list below it. The queries are the conversation index's
// (chat/conversation-index.ts), so a chatbot whose index is in its shard lists the same way there
// (ADR 044).

export async function inboxLists(ctx: Pick<ServiceContext, "db"> & Partial<Pick<ServiceContext, "env">>, ref: ChatbotRef, userId: string): Promise<InboxLists> {
  return (await conversationIndex(ctx, ref)).inboxLists(userId);
}
