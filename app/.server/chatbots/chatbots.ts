import { and, desc, eq } from "drizzle-orm";
import { newId } from "../auth/crypto";
import type { AppContext } from "../context";
import { chatbots } from "../db/schema";

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
export type ChatbotSummary = Omit<Chatbot, "settings" | "identitySecret">;

/** The organisation's chatbots, newest first (settings left out: list screens do not need them). */
export async function listChatbots(ctx: AppContext, orgId: string): Promise<ChatbotSummary[]> {
  return ctx.db.select(summary).from(chatbots).where(eq(chatbots.orgId, orgId)).orderBy(desc(chatbots.createdAt), desc(chatbots.id)).all();
}

export async function getChatbot(ctx: AppContext, ref: ChatbotRef): Promise<Chatbot | null> {
  const row = await ctx.db
    .select()
    .from(chatbots)
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .get();
  return row ?? null;
}

export async function createChatbot(ctx: AppContext, orgId: string, input: { name: string }): Promise<Chatbot> {
  const now = Date.now();
  return ctx.db
    .insert(chatbots)
    .values({ id: newId("cb_"), orgId, name: input.name.trim(), settings: {}, createdAt: now, updatedAt: now })
    .returning()
    .get();
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

/** Deletes (related rows go with it through ON DELETE CASCADE); the deleted chatbot's name, or null when not found. */
export async function deleteChatbot(ctx: AppContext, ref: ChatbotRef): Promise<{ id: string; name: string } | null> {
  const row = await ctx.db
    .delete(chatbots)
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id, name: chatbots.name })
    .get();
  return row ?? null;
}
