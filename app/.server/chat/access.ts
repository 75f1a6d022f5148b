import { and, eq } from "drizzle-orm";
import type { AppContext } from "../context";
import { chatbots, memberships, organisations } from "../db/schema";

// Who may chat with a chatbot: anyone for a public bot; for a private bot only signed-in members of
// its organisation. Everyone else gets "not found", so private bots' ids reveal nothing.

export type ChatTarget = { chatbot: typeof chatbots.$inferSelect; org: typeof organisations.$inferSelect; member: boolean };

export async function findChatTarget(ctx: AppContext, chatbotId: string | undefined): Promise<ChatTarget | null> {
  if (!chatbotId || chatbotId.length > 64) return null;
  const row = await ctx.db
    .select({ chatbot: chatbots, org: organisations })
    .from(chatbots)
    .innerJoin(organisations, eq(organisations.id, chatbots.orgId))
    .where(eq(chatbots.id, chatbotId))
    .get();
  if (!row) return null;
  const auth = await ctx.getAuth();
  let member = false;
  if (auth) {
    const m = await ctx.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.orgId, row.org.id), eq(memberships.userId, auth.user.id)))
      .get();
    member = !!m;
  }
  if (row.chatbot.visibility === "private" && !member) return null;
  return { ...row, member };
}
