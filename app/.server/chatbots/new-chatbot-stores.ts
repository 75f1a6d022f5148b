import type { ConversationStoreKind } from "../chat/conversation-index";
import type { MessageStoreKind } from "../chat/message-store";
import type { KnowledgeStoreKind } from "../retrieval/knowledge-store";

export type ChatbotStores = { knowledgeStore: KnowledgeStoreKind; messageStore: MessageStoreKind; conversationStore: ConversationStoreKind };

/** The bindings the rule looks at (only whether each is there). */
export type ShardBindings = Partial<Record<"KNOWLEDGE_SHARD" | "CONVERSATION_SHARD", unknown>>;

/**
 * Where a chatbot created now keeps its data: its knowledge, its messages and its conversation index
 * in its own shards from the start when the bindings are there (ADR 034, ADR 040, ADR 044 — the index
 * only next to its messages), D1 otherwise. The columns' defaults stay 'd1' for rows from before,
 * which are moved. The one rule for createChatbot and for the end-to-end fixtures that insert
 * chatbots themselves (tests/e2e/support/chatbots.ts); type-only imports keep it loadable in Node.
 */
export function newChatbotStores(bindings: ShardBindings): ChatbotStores {
  const messageStore: MessageStoreKind = bindings.CONVERSATION_SHARD ? "shard" : "d1";
  return { knowledgeStore: bindings.KNOWLEDGE_SHARD ? "shard" : "d1", messageStore, conversationStore: messageStore };
}
