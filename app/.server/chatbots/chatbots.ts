import { messageStore } from "../chat/message-store";
import { and, desc, eq, sql } from "drizzle-orm";
import { newId } from "../auth/crypto";
import { belowChatbotLimit, checkChatbotLimit } from "../billing/limits";
import { deleteChatbotKnowledgeStorage } from "../kb/sources";
import type { AppContext } from "../context";
import { chatbots, organisations, termStats } from "../db/schema";
import { newChatbotStores } from "./new-chatbot-stores";
import { forgetLiveChat } from "../inbox/live";

// Every function is scoped by organisation: a chatbot id of another organisation is simply not found.

export type Chatbot = typeof chatbots.$inferSelect;
export type ChatbotRef = { orgId: string; chatbotId: string };

const summary = {
  id: chatbots.id,
  orgId: chatbots.orgId,
  name: chatbots.name,
  visibility: chatbots.visibility,
  createdAt: chatbots.createdAt,
  updatedAt: chatbots.updatedAt,
};
export type ChatbotSummary = Omit<
  Chatbot,
  "settings" | "identitySecret" | "knowledgeStore" | "messageStore" | "conversationStore" | "visitorsInD1" | "questionsInD1"
>;

/** The organisation's chatbots, newest first (settings left out: list screens do not need them). */
export async function listChatbots(ctx: AppContext, orgId: string): Promise<ChatbotSummary[]> {
  return ctx.db.select(summary).from(chatbots).where(eq(chatbots.orgId, orgId)).orderBy(desc(chatbots.createdAt), desc(chatbots.id)).all();
}

export async function getChatbot(ctx: Pick<AppContext, "db">, ref: ChatbotRef): Promise<Chatbot | null> {
  const row = await ctx.db
    .select()
    .from(chatbots)
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .get();
  return row ?? null;
}

export type CreateChatbotResult = { ok: true; chatbot: Chatbot } | { ok: false; message: string };

/**
 * Creates a chatbot unless the organisation's plan limit is reached (one statement: the count is
 * checked inside the INSERT, so two concurrent creations cannot pass the limit together). Its
 * knowledge, messages and conversation index live where newChatbotStores says: its own shards when
 * the bindings are there.
 */
export async function createChatbot(
  ctx: Pick<AppContext, "db" | "env">,
  orgId: string,
  input: { name: string; visibility?: Chatbot["visibility"]; settings?: Record<string, unknown> },
): Promise<CreateChatbotResult> {
  const org = await ctx.db.select({ id: organisations.id, plan: organisations.plan }).from(organisations).where(eq(organisations.id, orgId)).get();
  if (!org) return { ok: false, message: "That organisation no longer exists." };
  const now = Date.now();
  const id = newId("cb_");
  const stores = newChatbotStores(ctx.env);
  const result = await ctx.db.run(sql`
    INSERT INTO ${chatbots} (id, org_id, name, visibility, settings, knowledge_store, message_store, conversation_store, created_at, updated_at)
    SELECT ${id}, ${org.id}, ${input.name.trim()}, ${input.visibility ?? "public"}, ${JSON.stringify(input.settings ?? {})}, ${stores.knowledgeStore}, ${stores.messageStore}, ${stores.conversationStore}, ${now}, ${now}
    WHERE ${belowChatbotLimit(org)}`);
  if (!result.meta.changes) {
    const refusal = await checkChatbotLimit(ctx, org);
    return refusal ?? { ok: false, message: "The chatbot could not be created. Please try again." };
  }
  const chatbot = await getChatbot(ctx, { orgId: org.id, chatbotId: id });
  if (!chatbot) return { ok: false, message: "The chatbot could not be created. Please try again." };
  return { ok: true, chatbot };
}

/** Renames; null when the chatbot is not in this organisation. */
export async function renameChatbot(ctx: AppContext, ref: ChatbotRef, name: string): Promise<ChatbotSummary | null> {
  const row = await ctx.db
    .update(chatbots)
    .set({ name: name.trim(), updatedAt: Date.now() })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .returning(summary)
    .get();
  return row ?? null;
}

/**
 * Deletes the chatbot: its vectors and files first, then the row (related rows go with it through
 * ON DELETE CASCADE). The deleted chatbot's name, or null when not found.
 */
export async function deleteChatbot(ctx: AppContext, ref: ChatbotRef): Promise<{ id: string; name: string } | null> {
  if (!(await getChatbot(ctx, ref))) return null;
  await deleteChatbotKnowledgeStorage(ctx, ref);
  // A shard's messages go first, as the knowledge does: a failure leaves the chatbot to delete again.
  const messagesOf = await messageStore(ctx, ref);
  if (messagesOf.kind === "shard") await messagesOf.dropAll();
  // So do the copies live chat keeps in each conversation's object, and the inbox object (ADR 074).
  await forgetLiveChat(ctx.env, ref.chatbotId);
  const row = await ctx.db
    .delete(chatbots)
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id, name: chatbots.name })
    .get();
  // Its chunks went by cascade and their triggers left the retrieval statistics at zero: drop the rows.
  if (row) await ctx.db.delete(termStats).where(eq(termStats.chatbotId, row.id));
  // Its conversations and D1's messages went too; the conversation list's search index is not a table with a foreign key.
  if (row && messagesOf.kind === "d1") await messagesOf.dropAll();
  return row ?? null;
}
