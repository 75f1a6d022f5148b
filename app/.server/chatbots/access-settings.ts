import { and, eq, sql } from "drizzle-orm";
import {
  accessSettingsSchema,
  normaliseOriginPattern,
  originMatches,
  ORIGINS_MAX,
  readAccessSettings,
  type AccessSettings,
} from "~/lib/schemas/widget-settings";
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

/**
 * "Allow this site" on Origins & access: adds one site (an origin seen refusing the widget) to the
 * allowed origins through saveAccessSettings, with the same normalising and limit as the form.
 * `added: false` when the list already allows it.
 */
export async function allowSite(
  ctx: Ctx,
  ref: { orgId: string; chatbot: Pick<Chatbot, "id" | "identitySecret" | "settings" | "visibility"> },
  site: string,
): Promise<Result<{ pattern: string; added: boolean }>> {
  const pattern = normaliseOriginPattern(site);
  // Only an exact site (scheme://host[:port]), as the refusals record them; never a wildcard.
  if (!pattern || pattern.includes("*") || !/^https?:\/\//.test(pattern)) return fail("invalid_input", "That is not a website origin.", "site");
  const access = readAccessSettings(ref.chatbot.settings);
  // An empty list already allows every site: adding one would shut out all the others.
  if (access.allowedOrigins.length === 0 || originMatches(pattern, access.allowedOrigins)) return { ok: true, pattern, added: false };
  const next = accessSettingsSchema.safeParse({ ...access, allowedOrigins: [...access.allowedOrigins, pattern] });
  if (!next.success)
    return fail(
      "limit_reached",
      `The allowed origins list is full (${ORIGINS_MAX}). Remove one you no longer use, or use a *.example.com pattern, then try again.`,
    );
  const saved = await saveAccessSettings(ctx, { orgId: ref.orgId, chatbot: ref.chatbot }, { visibility: ref.chatbot.visibility, access: next.data });
  return saved.ok ? { ok: true, pattern, added: true } : saved;
}
