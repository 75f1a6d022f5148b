import { and, eq, sql } from "drizzle-orm";
import type { AccessSettings } from "~/lib/schemas/widget-settings";
import type { AppContext } from "../context";
import { chatbots } from "../db/schema";
import { fail, type Result } from "../failure";
import type { Chatbot } from "./find-chatbot";

// The settings/oryg ("origins & access") screen's write. Scoped by organisation.

type Ctx = Pick<AppContext, "db">;

/**
 * Saves visibility (its own column, read by the chat API and /test) and the `$.access` section in
 * one statement; only `$.access` is replaced, so other sections saved meanwhile survive.
 * "Require verified visitors" needs an identity secret first: without one nobody could be verified
 * and the chat would refuse everyone.
 */
export async function saveAccessSettings(
  ctx: Ctx,
  ref: { orgId: string; chatbot: Pick<Chatbot, "id" | "identitySecret"> },
  input: { visibility: "public" | "private"; access: AccessSettings },
): Promise<Result<object>> {
  if (input.access.requireVerified && !ref.chatbot.identitySecret)
    return fail(
      "invalid_input",
      "Generate an identity secret first: without one, no visitor could be verified and the chat would refuse everyone.",
      "requireVerified",
    );
  const row = await ctx.db
    .update(chatbots)
    .set({
      visibility: input.visibility,
      settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), '$.access', json(${JSON.stringify(input.access)}))`,
      updatedAt: Date.now(),
    })
    .where(and(eq(chatbots.id, ref.chatbot.id), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id })
    .get();
  return row ? { ok: true } : fail("not_found", "That chatbot no longer exists.");
}
