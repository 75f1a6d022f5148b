import { z } from "zod";
import { NOTE_MAX } from "~/lib/schemas/live-agent";
import { conversationShardStub, type ChatbotRef } from "../chat/message-store";
import type { ServiceContext } from "../context";
import { valuesHash } from "../db/moves";
import type { Env } from "../env";

// Agents' notes in the conversation index's move (ADR 051 → ADR 054): a moved conversation's notes go
// with it into the chatbot's ConversationShard. The move calls `copyNotesAndCheck` wherever it copies
// and checks conversations (every page, the conversations noted as written, each page just before
// D1 deletes it), `notesCountsDiffer` before switching, and deletes D1's notes with the page
// (`NOTES_REMOVE_SQL`). Notes are only ever inserted (a user's deletion nulls `user_id` in D1), so
// importing by id and replacing is always right; the check is by note id, so notes the shard holds
// that D1 does not (written there after the switch) never fail it. Migration 0035's triggers note a
// conversation whose notes change while its chatbot moves, so a note added meanwhile is copied too.

type Ctx = Pick<ServiceContext, "env">;

/** D1's note columns, copied and checksummed in this order (the shard's table has the same). */
export const NOTE_COLUMNS = ["id", "org_id", "chatbot_id", "conversation_id", "user_id", "author_name", "body", "created_at"] as const;

export const movedNoteSchema = z
  .object({
    id: z.string().min(1).max(64),
    org_id: z.string(),
    chatbot_id: z.string(),
    conversation_id: z.string().min(1).max(200),
    user_id: z.string().nullable(),
    author_name: z.string(),
    body: z.string().max(NOTE_MAX * 4),
    created_at: z.number().int(),
  })
  .strict();
export type MovedNote = z.infer<typeof movedNoteSchema>;
/** Notes per shard call (a note is at most NOTE_MAX characters: ~1 MB a call at worst). */
const NOTES_PER_CALL = 200;
export const movedNotesSchema = z.array(movedNoteSchema).max(NOTES_PER_CALL);

export const noteHash = (r: MovedNote) => valuesHash(NOTE_COLUMNS.map((c) => r[c]));

/** The notes of these conversations (binds ?1 the ids as JSON, ?2 chatbot, ?3 organisation), by the conversation index; runs on D1 and in the shard. */
export const NOTES_OF_SQL = `SELECT ${NOTE_COLUMNS.join(", ")} FROM conversation_notes
  WHERE conversation_id IN (SELECT value FROM json_each(?1)) AND +chatbot_id = ?2 AND +org_id = ?3 ORDER BY id`;
/** Notes by id (binds ?1 the ids as JSON, ?2 chatbot, ?3 organisation). */
export const NOTES_BY_IDS_SQL = `SELECT ${NOTE_COLUMNS.join(", ")} FROM conversation_notes
  WHERE id IN (SELECT value FROM json_each(?1)) AND +chatbot_id = ?2 AND +org_id = ?3`;
/** Removing a page's notes from D1 with its conversations (same binds as the move's REMOVE_SQL: ?1 ids, ?2 chatbot). */
export const NOTES_REMOVE_SQL = "DELETE FROM conversation_notes WHERE conversation_id IN (SELECT value FROM json_each(?1)) AND +chatbot_id = ?2";
/** A page's half-made tool calls go too: short-lived state that is not moved (ADR 054). */
export const PENDING_REMOVE_SQL = "DELETE FROM tool_pending_calls WHERE conversation_id IN (SELECT value FROM json_each(?1)) AND +chatbot_id = ?2";

/** The move's side of a chatbot's ConversationShard for notes; the object refuses another chatbot's ref (answers empty). */
export type NotesMoveApi = {
  importNotes(ref: ChatbotRef, rows: MovedNote[]): Promise<{ imported: number; refused: number }>;
  noteChecksums(ref: ChatbotRef, ids: string[]): Promise<Record<string, number>>;
  noteCount(ref: ChatbotRef): Promise<number>;
};

const shardStub = (env: Pick<Env, "CONVERSATION_SHARD">, ref: ChatbotRef) => conversationShardStub<NotesMoveApi>(env, ref);

/**
 * Copies D1's notes of these conversations into the shard and checks each one's checksum there; a
 * differing one is imported once more, still differing throws (the move's step fails and is retried).
 */
export async function copyNotesAndCheck(ctx: Ctx, ref: ChatbotRef, conversationIds: string[]): Promise<number> {
  if (!conversationIds.length) return 0;
  const { results } = await ctx.env.DB.prepare(NOTES_OF_SQL).bind(JSON.stringify(conversationIds), ref.chatbotId, ref.orgId).all<MovedNote>();
  if (!results.length) return 0;
  const shard = shardStub(ctx.env, ref);
  const per = NOTES_PER_CALL;
  for (let i = 0; i < results.length; i += per) {
    const rows = results.slice(i, i + per);
    const want = new Map(rows.map((r) => [r.id, noteHash(r)]));
    const differing = async (of: MovedNote[]) => {
      const got = await shard.noteChecksums(
        ref,
        of.map((r) => r.id),
      );
      return of.filter((r) => got[r.id] !== want.get(r.id));
    };
    const first = await shard.importNotes(ref, rows);
    if (first.refused) throw new Error(`the shard refused ${first.refused} notes of ${ref.chatbotId}`);
    let off = await differing(rows);
    if (off.length) {
      await shard.importNotes(ref, off);
      off = await differing(off);
    }
    if (off.length) throw new Error(`${off.length} copied notes of ${ref.chatbotId} differ from D1's`);
  }
  return results.length;
}

/** Before the switch: the chatbot's notes in D1 and in the shard must be as many. Null when they are. */
export async function notesCountsDiffer(ctx: Ctx, ref: ChatbotRef): Promise<{ d1: number; shard: number } | null> {
  const [row, shard] = await Promise.all([
    ctx.env.DB.prepare("SELECT count(*) AS n FROM conversation_notes WHERE chatbot_id = ? AND org_id = ?")
      .bind(ref.chatbotId, ref.orgId)
      .first<{ n: number }>(),
    shardStub(ctx.env, ref).noteCount(ref),
  ]);
  const d1 = row?.n ?? 0;
  return d1 === shard ? null : { d1, shard };
}
