import { and, eq, sql } from "drizzle-orm";
import type { UiSettings } from "~/lib/schemas/widget-settings";
import type { AppContext } from "../context";
import { chatbots } from "../db/schema";

// The settings/ui screen's write. Scoped by organisation like every chatbot function.

type Ctx = Pick<AppContext, "db">;
type Ref = { orgId: string; chatbotId: string };

/** Replaces only `$.ui` (json_set), so a concurrent save of another section is never overwritten. */
export async function saveUiSettings(ctx: Ctx, ref: Ref, ui: UiSettings) {
  const row = await ctx.db
    .update(chatbots)
    .set({
      settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), '$.ui', json(${JSON.stringify(ui)}))`,
      updatedAt: Date.now(),
    })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id })
    .get();
  return row ?? null;
}
