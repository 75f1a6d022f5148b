import { and, asc, count, eq, sql } from "drizzle-orm";
import { can, type Role } from "~/lib/permissions";
import { readAccessSettings } from "~/lib/schemas/widget-settings";
import type { SetupProgress } from "~/lib/setup-progress";
import type { AppContext } from "../context";
import { conversationIndex } from "../chat/conversation-index";
import { chatbots, knowledgeSources, widgetSites } from "../db/schema";
import type { Chatbot } from "./find-chatbot";

// A chatbot's first-run checklist, read from what really happened, never from clicks on the list:
//   knowledge — at least one knowledge source is ready (indexed);
//   tested    — at least one conversation exists (the test page, the settings preview, or a visitor);
//   look      — the widget look was saved at least once: the `$.ui` settings section only exists
//               after a save on Look & feel (saveUiSettings), a new chatbot has none;
//   embedded  — the widget loaded on a real website (site-activity.ts records the loader's config request);
//   origins   — allowed origins are set.
// Dismissing it is kept in `$.setup.dismissedAt` (team-wide, per chatbot).

type Ctx = Pick<AppContext, "db"> & Partial<Pick<AppContext, "env">>;
type Ref = { orgId: string; chatbot: Pick<Chatbot, "id" | "settings"> & Partial<Pick<Chatbot, "conversationStore">> };

export async function getSetupProgress(ctx: Ctx, ref: Ref & { role: Role }): Promise<SetupProgress> {
  const chatbotId = ref.chatbot.id;
  const [sources, conversation, site, flags] = await Promise.all([
    ctx.db
      .select({ status: knowledgeSources.status, n: count() })
      .from(knowledgeSources)
      .where(and(eq(knowledgeSources.chatbotId, chatbotId), eq(knowledgeSources.orgId, ref.orgId)))
      .groupBy(knowledgeSources.status)
      .all(),
    // Wherever the chatbot's conversation index is (ADR 044): the row names it.
    conversationIndex(ctx, { orgId: ref.orgId, chatbotId }, ref.chatbot.conversationStore).then((index) => index.hasConversation()),
    ctx.db
      .select({ origin: widgetSites.origin })
      .from(widgetSites)
      .where(and(eq(widgetSites.chatbotId, chatbotId), eq(widgetSites.kind, "loaded")))
      .orderBy(asc(widgetSites.firstSeenAt))
      .limit(1)
      .get(),
    // Read from the row (not the loaded settings object) so the answer is exact even if the caller's copy is older.
    ctx.db
      .select({
        look: sql<number>`json_type(${chatbots.settings}, '$.ui') IS NOT NULL`,
        dismissed: sql<number>`json_type(${chatbots.settings}, '$.setup.dismissedAt') IS NOT NULL`,
      })
      .from(chatbots)
      .where(and(eq(chatbots.id, chatbotId), eq(chatbots.orgId, ref.orgId)))
      .get(),
  ]);
  const by = (status: string) => sources.find((s) => s.status === status)?.n ?? 0;
  const knowledge = { ready: by("ready"), pending: by("queued") + by("processing"), failed: by("failed") };
  return {
    done: {
      knowledge: knowledge.ready > 0,
      tested: !!conversation,
      look: !!flags?.look,
      embedded: !!site,
      origins: readAccessSettings(ref.chatbot.settings).allowedOrigins.length > 0,
    },
    knowledge,
    embeddedOn: site?.origin ?? null,
    dismissed: !!flags?.dismissed,
    canEdit: can(ref.role, "chatbot:edit"),
  };
}

/** Hides the checklist for everyone in the organisation; false when the chatbot is not in it. */
export async function dismissSetupChecklist(ctx: Ctx, ref: { orgId: string; chatbotId: string }): Promise<boolean> {
  const row = await ctx.db
    .update(chatbots)
    .set({ settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), '$.setup.dismissedAt', ${Date.now()})` })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id })
    .get();
  return !!row;
}
