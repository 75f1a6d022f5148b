import { and, eq, sql } from "drizzle-orm";
import { extraPlanHint, planExtras } from "~/lib/plans";
import type { VoiceSettings } from "~/lib/schemas/voice-settings";
import type { Organisation } from "../chatbots/find-chatbot";
import type { AppContext } from "../context";
import { chatbots } from "../db/schema";
import { fail, type Result } from "../failure";
import { listVoiceEngines } from "./engines";

// The settings/voice screen's write. Scoped by organisation like every chatbot function.

type Ctx = Pick<AppContext, "db" | "env">;

/** The feature's name in plan hints. */
export const VOICE_FEATURE = "Voice";

/** Whether visitors may talk to this chatbot: switched on in settings and allowed by the plan. */
export function voiceOffered(plan: string, voice: Pick<VoiceSettings, "enabled">): boolean {
  return voice.enabled && planExtras(plan).voice;
}

/**
 * Saves the voice section. Switching voice on needs a plan with the voice extra; an engine the server
 * cannot run is refused. Replaces only `$.voice` (json_set), so another section's save is never lost.
 */
export async function saveVoiceSettings(
  ctx: Ctx,
  ref: { org: Pick<Organisation, "id" | "plan">; chatbotId: string },
  voice: VoiceSettings,
): Promise<Result<object>> {
  if (voice.enabled && !planExtras(ref.org.plan).voice) return fail("plan_required", extraPlanHint("voice", VOICE_FEATURE), "enabled");
  const engine = listVoiceEngines(ctx.env).find((e) => e.value === voice.engine);
  if (!engine?.available) return fail("invalid_input", engine?.reason ?? "Choose a speech engine.", "engine");
  const row = await ctx.db
    .update(chatbots)
    .set({
      settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), '$.voice', json(${JSON.stringify(voice)}))`,
      updatedAt: Date.now(),
    })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.org.id)))
    .returning({ id: chatbots.id })
    .get();
  return row ? { ok: true } : fail("not_found", "That chatbot no longer exists.");
}
