import { and, eq, sql } from "drizzle-orm";
import { readGeneralSettings, type GeneralSettings } from "~/lib/schemas/chatbot-settings";
import { isKnownModel, listModels } from "../ai/providers";
import type { AppContext } from "../context";
import { fail, type Result } from "../failure";
import type { Chatbot } from "./find-chatbot";
import { createChatbot } from "./chatbots";
import { chatbots, type organisations } from "../db/schema";

// The settings/general screen's writes. Scoped by organisation like every chatbot function.

type Ctx = Pick<AppContext, "db" | "env">;

/**
 * Saves the name and the "general" settings section in one statement. Only `$.general` is replaced
 * (json_set), so a concurrent save of another section (ui, access…) is never overwritten.
 * A model that is not configured on this server may be kept when it is already the saved one (the
 * bot falls back to the built-in engine meanwhile), but not newly chosen.
 */
export async function saveGeneralSettings(
  ctx: Pick<AppContext, "db" | "env">,
  ref: { orgId: string; chatbot: Pick<Chatbot, "id" | "settings"> },
  input: { name: string; general: GeneralSettings },
): Promise<Result<{ name: string }>> {
  const current = readGeneralSettings(ref.chatbot.settings);
  const model = listModels(ctx.env).find((m) => m.id === input.general.model);
  if (!model || !isKnownModel(input.general.model) || (!model.available && input.general.model !== current.model))
    return fail("invalid_input", model?.reason ? `This model is not available: ${model.reason}` : "Choose a model from the list.", "model");
  const row = await ctx.db
    .update(chatbots)
    .set({
      name: input.name.trim(),
      settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), '$.general', json(${JSON.stringify(input.general)}))`,
      updatedAt: Date.now(),
    })
    .where(and(eq(chatbots.id, ref.chatbot.id), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id, name: chatbots.name })
    .get();
  return row ? { ok: true, name: row.name } : fail("not_found", "That chatbot no longer exists.");
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
  // The copy starts its own setup checklist (a hidden checklist is not copied).
  const { setup: _setup, ...settings } = source.settings;
  const created = await createChatbot(ctx, org.id, { name: `${source.name.slice(0, 73)} (copy)`, visibility: source.visibility, settings });
  if (!created.ok) return created;
  const copy = { id: created.chatbot.id, name: created.chatbot.name };
  return { ok: true, chatbot: copy };
}
