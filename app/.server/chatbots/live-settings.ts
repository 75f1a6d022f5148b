import { and, eq, sql } from "drizzle-orm";
import type { LiveSettings } from "~/lib/live/office-hours";
import type { AppContext } from "../context";
import { chatbots } from "../db/schema";
import { fail, type Result } from "../failure";

// The chatbot's live chat settings (office hours, the wait; ADR 027): the `live` section of
// chatbots.settings, written alone (json_set) so a concurrent save of another section is kept.

export async function saveLiveSettings(ctx: Pick<AppContext, "db">, ref: { orgId: string; chatbotId: string }, live: LiveSettings): Promise<Result<object>> {
  const row = await ctx.db
    .update(chatbots)
    .set({
      settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), '$.live', json(${JSON.stringify(live)}))`,
      updatedAt: Date.now(),
    })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id })
    .get();
  return row ? { ok: true } : fail("not_found", "That chatbot no longer exists.");
}
