import type { ServiceContext } from "../context";
import type { ChatbotRef } from "../chat/conversations";
import { d1ConversationIndex, type InboxLists } from "../chat/conversation-index";

export { INBOX_LIMIT, type InboxRow } from "../chat/conversation-index";

// The chatbot home's live inbox: conversations waiting for a person, held by one (all, and the
// signed-in agent's own), and the ones agents closed most recently. Each list is one indexed read
// (migration 0016's partial indexes), capped: the inbox is for what needs attention now; the full
// history stays in the conversation list below it. The queries are the conversation index's
// (chat/conversation-index.ts), so a chatbot whose index is in its shard lists the same way there
// (ADR 044); this caller still reads D1, where every chatbot's index is until stage 3.

export async function inboxLists(ctx: Pick<ServiceContext, "db">, ref: ChatbotRef, userId: string): Promise<InboxLists> {
  return d1ConversationIndex(ctx, ref).inboxLists(userId);
}
