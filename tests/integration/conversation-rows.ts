import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, asc, eq } from "drizzle-orm";
import { conversationIndex, type Conversation, type ConversationIndex, type ConversationStatus, type LiveChange } from "~/.server/chat/conversation-index";
import type { ChatbotRef } from "~/.server/chat/message-store";
import { createDb, type Db } from "~/.server/db/client";
import { conversationAgents, conversations } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { d1FromSqlStorage } from "~/.server/retrieval/sql-storage-d1";
import { db } from "../factories";
import { chatbotOfConversation } from "./stored-messages";

// Conversation rows as the product keeps them (ADR 044): in D1's `conversations` /
// `conversation_agents`, or in the chatbot's ConversationShard, whichever `chatbots.conversation_store`
// names. Tests read and change a conversation's row through here, never D1's tables directly, so one
// assertion holds in both test modes (TEST_CONVERSATION_STORE, tests/factories.ts) and fails when the
// product wrote the row to the wrong place.

/** The chatbot's conversation index, as its row names it (the product's own choice, conversationIndex). */
export const indexOf = (ref: ChatbotRef): Promise<ConversationIndex> => conversationIndex({ env: env as unknown as Env, db }, ref);

/** A conversation's row, read through its chatbot's index; null when no chatbot holds it. Without `ref`, its chatbot is looked for. */
export async function conversationRow(conversationId: string, ref?: ChatbotRef): Promise<Conversation | null> {
  const owner = ref ?? (await chatbotOfConversation(conversationId).catch(() => null));
  return owner ? (await indexOf(owner)).get(conversationId) : null;
}

/** Sets a conversation's live status (and who holds it) the way the inbox does, through its chatbot's index. Throws when no chatbot holds it. */
export async function setConversationStatus(
  conversationId: string,
  status: ConversationStatus,
  more: Omit<LiveChange, "status"> & { ref?: ChatbotRef } = {},
): Promise<void> {
  const { ref, ...change } = more;
  const owner = ref ?? (await chatbotOfConversation(conversationId));
  if (!(await (await indexOf(owner)).applyLive(conversationId, { status, ...change })))
    throw new Error(`no conversation ${conversationId} of ${owner.chatbotId}`);
}

/**
 * Runs `fn` on the tables that hold the chatbot's index: D1, or its shard's storage (inside the
 * object, as the object's own index does). For what the index has no method for: the agent row,
 * rows a test inserts as they were written long ago.
 */
export async function onIndexTables<T>(ref: ChatbotRef, fn: (tables: Db) => Promise<T>): Promise<T> {
  const index = await indexOf(ref);
  if (index.kind === "d1") return fn(db);
  await index.get("cv_none"); // the object creates its tables on its first call
  const object = env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(ref.chatbotId));
  return runInDurableObject(object, (_instance, state) => fn(createDb(d1FromSqlStorage(state.storage))));
}

/** Who holds (or closed) a conversation, as its chatbot's index keeps it; null when nobody. Without `ref`, its chatbot is looked for. */
export async function agentRow(conversationId: string, ref?: ChatbotRef): Promise<typeof conversationAgents.$inferSelect | null> {
  return onIndexTables(
    ref ?? (await chatbotOfConversation(conversationId)),
    async (tables) => (await tables.select().from(conversationAgents).where(eq(conversationAgents.conversationId, conversationId)).get()) ?? null,
  );
}

/** The chatbot's conversations (of one visitor when given), as its index holds them, oldest first. */
export async function conversationsOf(ref: ChatbotRef, visitorId?: string): Promise<Conversation[]> {
  return onIndexTables(ref, (tables) =>
    tables
      .select()
      .from(conversations)
      .where(and(eq(conversations.chatbotId, ref.chatbotId), visitorId === undefined ? undefined : eq(conversations.visitorId, visitorId)))
      .orderBy(asc(conversations.createdAt), asc(conversations.id))
      .all(),
  );
}

/** Conversation rows written straight into the chatbot's index (as a long history, or another tenant's row would be). */
export async function insertConversations(ref: ChatbotRef, rows: (typeof conversations.$inferInsert)[]): Promise<Conversation[]> {
  return onIndexTables(ref, (tables) => tables.insert(conversations).values(rows).returning().all());
}
