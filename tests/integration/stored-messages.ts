import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { messageStore, type ChatbotRef, type Message, type MessageStore } from "~/.server/chat/message-store";
import { shardConversationIndex } from "~/.server/chat/conversation-index";
import { chatbots, conversations } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { db } from "../factories";

// Messages as the product stored them, read the way the product reads them (ADR 040): through the
// chatbot's message store — D1's `messages` table or the chatbot's ConversationShard, whichever its
// row names. Tests read messages through here (or the store), never D1's tables directly, so one
// assertion holds in both test modes (TEST_MESSAGE_STORE, tests/factories.ts) and fails when a
// message went to the wrong store.

/** The chatbot's message store, as its row names it. */
export const storeOf = (ref: ChatbotRef): Promise<MessageStore> => messageStore({ env: env as unknown as Env, db }, ref);

/** The chatbot a conversation belongs to. */
export async function chatbotOfConversation(conversationId: string): Promise<ChatbotRef> {
  const row = await db
    .select({ orgId: conversations.orgId, chatbotId: conversations.chatbotId })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
    .get();
  if (row) return row;
  // A conversation index in the chatbot's shard (the tests' default, ADR 044): D1 has no
  // row naming its chatbot, so each such chatbot of this test file's storage is asked (a handful).
  const sharded = await db.select({ orgId: chatbots.orgId, chatbotId: chatbots.id }).from(chatbots).where(eq(chatbots.conversationStore, "shard")).all();
  for (const ref of sharded) if (await shardConversationIndex(env as unknown as Env, ref).get(conversationId)) return ref;
  throw new Error(`no conversation ${conversationId}`);
}

/** Every message of a conversation, oldest first (time, then id). */
export async function storedMessages(conversationId: string): Promise<Message[]> {
  return (await storeOf(await chatbotOfConversation(conversationId))).transcript(conversationId);
}

/** One message of the chatbot's, or null. */
export async function storedMessage(ref: ChatbotRef, messageId: string): Promise<Message | null> {
  return (await storeOf(ref)).get(messageId);
}
