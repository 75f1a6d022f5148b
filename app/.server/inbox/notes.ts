import { and, asc, eq } from "drizzle-orm";
import type { ChatbotRef } from "../chat/conversations";
import type { ServiceContext } from "../context";
import { conversationNotes } from "../db/schema";
import { conversationIndex } from "../chat/conversation-index";
import { fail, type Result } from "../failure";
import { chatbotInbox } from "./live";
import { newId } from "../auth/crypto";

// Internal notes (ADR 027): agents write them on a conversation for each other. They live in their
// own table, never in `messages` or the conversation object's log, so nothing that serves the
// visitor (history, live socket, poll, transcript API) can read them.

type Ctx = Pick<ServiceContext, "db">;

export type ConversationNote = { id: string; authorName: string; body: string; createdAt: number };

export async function addNote(
  ctx: Ctx & Pick<ServiceContext, "env">,
  ref: ChatbotRef,
  input: { conversationId: string; author: { id: string; name: string }; body: string },
): Promise<Result<{ note: ConversationNote }>> {
  const c = await (await conversationIndex(ctx, ref)).get(input.conversationId);
  if (!c) return fail("not_found", "No conversation with this id.");
  const note = { id: newId("note_"), authorName: input.author.name, body: input.body, createdAt: Date.now() };
  await ctx.db.insert(conversationNotes).values({ ...note, orgId: ref.orgId, chatbotId: ref.chatbotId, conversationId: c.id, userId: input.author.id });
  // Other agents with the inbox open refresh and see it (the nudge carries no content).
  await chatbotInbox(ctx.env, ref.chatbotId)
    .changed({ conversationId: c.id, status: c.status })
    .catch(() => undefined);
  return { ok: true, note };
}

export async function listNotes(ctx: Ctx, ref: ChatbotRef, conversationId: string): Promise<ConversationNote[]> {
  return ctx.db
    .select({ id: conversationNotes.id, authorName: conversationNotes.authorName, body: conversationNotes.body, createdAt: conversationNotes.createdAt })
    .from(conversationNotes)
    .where(and(eq(conversationNotes.conversationId, conversationId), eq(conversationNotes.orgId, ref.orgId), eq(conversationNotes.chatbotId, ref.chatbotId)))
    .orderBy(asc(conversationNotes.createdAt))
    .limit(200)
    .all();
}
