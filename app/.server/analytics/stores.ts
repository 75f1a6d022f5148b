import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { chatbots } from "../db/schema";

/**
 * Where a chatbot's per-conversation analytics rows are: its conversation index's store, and whether
 * D1 may still hold visitors (ADR 076) or question groups (ADR 077) of it. Null when the
 * organisation does not hold the chatbot.
 */
export async function analyticsStoresOf(ctx: Pick<ServiceContext, "db">, ref: { orgId: string; chatbotId: string }) {
  const row = await ctx.db
    .select({ conversationStore: chatbots.conversationStore, visitorsInD1: chatbots.visitorsInD1, questionsInD1: chatbots.questionsInD1 })
    .from(chatbots)
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .get();
  return row ?? null;
}
