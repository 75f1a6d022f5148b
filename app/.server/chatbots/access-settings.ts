import { and, eq, sql } from "drizzle-orm";
import type { AccessSettings } from "~/lib/schemas/widget-settings";
import type { AppContext } from "../context";
import { chatbots } from "../db/schema";

// The settings/oryg ("origins & access") screen's write. Scoped by organisation.

type Ctx = Pick<AppContext, "db">;
type Ref = { orgId: string; chatbotId: string };

/**
 * Saves visibility (its own column, read by the chat API and /test) and the `$.access` section in
 * one statement; only `$.access` is replaced, so other sections saved meanwhile survive.
 */
export async function saveAccessSettings(ctx: Ctx, ref: Ref, input: { visibility: "public" | "private"; access: AccessSettings }) {
  const row = await ctx.db
    .update(chatbots)
    .set({
      visibility: input.visibility,
      settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), '$.access', json(${JSON.stringify(input.access)}))`,
      updatedAt: Date.now(),
    })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id })
    .get();
  return row ?? null;
}
