import { and, count, eq, sql } from "drizzle-orm";
import { planLimits, raiseLimitHint } from "~/lib/plans";
import type { GeneralSettings } from "~/lib/schemas/chatbot-settings";
import { newId } from "../auth/crypto";
import type { AppContext } from "../context";
import { chatbots, type organisations } from "../db/schema";

// The settings/general screen's writes. Scoped by organisation like every chatbot function.

type Ctx = Pick<AppContext, "db">;
type Ref = { orgId: string; chatbotId: string };

/**
 * Saves the name and the "general" settings section in one statement. Only `$.general` is replaced
 * (json_set), so a concurrent save of another section (ui, access…) is never overwritten.
 */
export async function saveGeneralSettings(ctx: Ctx, ref: Ref, input: { name: string; general: GeneralSettings }) {
  const row = await ctx.db
    .update(chatbots)
    .set({
      name: input.name.trim(),
      settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), '$.general', json(${JSON.stringify(input.general)}))`,
      updatedAt: Date.now(),
    })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id, name: chatbots.name })
    .get();
  return row ?? null;
}

export type DuplicateResult = { ok: true; chatbot: { id: string; name: string } } | { ok: false; message: string };

/**
 * A copy of the chatbot's settings and visibility under "<name> (copy)" — not its knowledge,
 * conversations or leads. Refused when the plan's chatbot limit is reached.
 */
export async function duplicateChatbot(ctx: Ctx, org: Pick<typeof organisations.$inferSelect, "id" | "plan">, chatbotId: string): Promise<DuplicateResult> {
  const source = await ctx.db
    .select()
    .from(chatbots)
    .where(and(eq(chatbots.id, chatbotId), eq(chatbots.orgId, org.id)))
    .get();
  if (!source) return { ok: false, message: "That chatbot no longer exists." };
  const limit = planLimits(org.plan).chatbots;
  const existing = (await ctx.db.select({ n: count() }).from(chatbots).where(eq(chatbots.orgId, org.id)).get())?.n ?? 0;
  if (existing >= limit) {
    return { ok: false, message: `Your plan allows ${limit} chatbot${limit === 1 ? "" : "s"} and you have ${existing}. ${raiseLimitHint(org.plan, "chatbots")}` };
  }
  const now = Date.now();
  const name = `${source.name.slice(0, 73)} (copy)`;
  const copy = await ctx.db
    .insert(chatbots)
    .values({ id: newId("cb_"), orgId: org.id, name, visibility: source.visibility, settings: source.settings, createdAt: now, updatedAt: now })
    .returning({ id: chatbots.id, name: chatbots.name })
    .get();
  return { ok: true, chatbot: copy };
}
