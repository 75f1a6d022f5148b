import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { NOTE_MAX } from "~/lib/schemas/live-agent";
import type { ChatbotRef } from "../chat/conversations";
import type { ServiceContext } from "../context";
import type { Db } from "../db/client";
import { conversationNotes } from "../db/schema";
import type { Env } from "../env";
import { conversationIndex } from "../chat/conversation-index";
import { conversationShardStub } from "../chat/message-store";
import { fail, type Result } from "../failure";
import { chatbotInbox } from "./live";
import { newId } from "../auth/crypto";

// Internal notes (ADR 027): agents write them on a conversation for each other. They live in their
// own table, never in `messages` or the conversation object's log, so nothing that serves the
// visitor (history, live socket, poll, transcript API) can read them.
// Where: next to the conversation index (ADR 054) — D1 for a 'd1' or 'moving' index, the chatbot's
// ConversationShard for a 'shard' one. Both run `notesOn` below (the shard over its own storage).

type Ctx = Pick<ServiceContext, "db"> & Partial<Pick<ServiceContext, "env">>;

export type ConversationNote = { id: string; authorName: string; body: string; createdAt: number };
export const NOTES_LIMIT = 200;

/** A stored note, every column (what the shard takes, and what the move copies). */
export const noteRowSchema = z
  .object({
    id: z.string().min(1).max(64),
    orgId: z.string().min(1).max(64),
    chatbotId: z.string().min(1).max(64),
    conversationId: z.string().min(1).max(200),
    userId: z.string().max(64).nullable(),
    authorName: z.string().max(320),
    body: z.string().max(NOTE_MAX),
    createdAt: z.number().int().nonnegative(),
  })
  .strict();
export type NoteRow = z.infer<typeof noteRowSchema>;

/** The notes of one chatbot on a drizzle instance: D1's, or a shard's storage through its D1 adapter. */
export function notesOn(db: Db, ref: ChatbotRef) {
  return {
    async add(row: NoteRow) {
      await db.insert(conversationNotes).values(row).run();
    },
    list(conversationId: string): Promise<ConversationNote[]> {
      return db
        .select({ id: conversationNotes.id, authorName: conversationNotes.authorName, body: conversationNotes.body, createdAt: conversationNotes.createdAt })
        .from(conversationNotes)
        .where(
          and(eq(conversationNotes.conversationId, conversationId), eq(conversationNotes.orgId, ref.orgId), eq(conversationNotes.chatbotId, ref.chatbotId)),
        )
        .orderBy(asc(conversationNotes.createdAt))
        .limit(NOTES_LIMIT)
        .all();
    },
  };
}

/** What the chatbot's ConversationShard answers for notes; it refuses another chatbot's ref (false / empty). */
export type NotesShardApi = {
  notesAdd(ref: ChatbotRef, row: NoteRow): Promise<boolean>;
  notesList(ref: ChatbotRef, conversationId: string): Promise<ConversationNote[]>;
};

/** The chatbot's shard object, named by its id. Only after the permission check (the callers' ref). */
export const notesShard = (env: Pick<Env, "CONVERSATION_SHARD">, ref: ChatbotRef) => conversationShardStub<NotesShardApi>(env, ref);

export async function addNote(
  ctx: Pick<ServiceContext, "db" | "env">,
  ref: ChatbotRef,
  input: { conversationId: string; author: { id: string; name: string }; body: string },
): Promise<Result<{ note: ConversationNote }>> {
  const index = await conversationIndex(ctx, ref);
  const c = await index.get(input.conversationId);
  if (!c) return fail("not_found", "No conversation with this id.");
  const note = { id: newId("note_"), authorName: input.author.name, body: input.body, createdAt: Date.now() };
  const row = noteRowSchema.parse({ ...note, orgId: ref.orgId, chatbotId: ref.chatbotId, conversationId: c.id, userId: input.author.id });
  if (index.kind === "shard") {
    if (!(await notesShard(ctx.env, ref).notesAdd(ref, row))) throw new Error(`the conversation shard named by ${ref.chatbotId} refused a note`);
  } else await notesOn(ctx.db, ref).add(row);
  // Other agents with the inbox open refresh and see it (the nudge carries no content).
  await chatbotInbox(ctx.env, ref.chatbotId)
    .changed({ conversationId: c.id, status: c.status })
    .catch(() => undefined);
  return { ok: true, note };
}

export async function listNotes(ctx: Ctx, ref: ChatbotRef, conversationId: string): Promise<ConversationNote[]> {
  const index = await conversationIndex(ctx, ref);
  if (index.kind === "shard" && ctx.env) return notesShard(ctx.env, ref).notesList(ref, conversationId);
  return notesOn(ctx.db, ref).list(conversationId);
}
