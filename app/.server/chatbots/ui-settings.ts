import { and, eq, sql } from "drizzle-orm";
import { extraPlanHint, planExtras } from "~/lib/plans";
import type { UiSettings } from "~/lib/schemas/widget-settings";
import type { Organisation } from "./find-chatbot";
import type { AppContext } from "../context";
import { chatbots } from "../db/schema";
import { fail, type Result } from "../failure";

// The settings/ui screen's write. Scoped by organisation like every chatbot function.

type Ctx = Pick<AppContext, "db">;

/** The branding option's name in plan hints. */
export const BRANDING_FEATURE = "Removing “Powered by Parley”";

/**
 * Saves the look & feel. Removing "Powered by Parley" needs a plan that allows it. Replaces only
 * `$.ui` (json_set), so a concurrent save of another section is never overwritten.
 */
export async function saveUiSettings(ctx: Ctx, ref: { org: Pick<Organisation, "id" | "plan">; chatbotId: string }, ui: UiSettings): Promise<Result<object>> {
  if (ui.removeBranding && !planExtras(ref.org.plan).removeBranding)
    return fail("plan_required", extraPlanHint("removeBranding", BRANDING_FEATURE), "removeBranding");
  const row = await ctx.db
    .update(chatbots)
    .set({
      settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), '$.ui', json(${JSON.stringify(ui)}))`,
      updatedAt: Date.now(),
    })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.org.id)))
    .returning({ id: chatbots.id })
    .get();
  return row ? { ok: true } : fail("not_found", "That chatbot no longer exists.");
}
