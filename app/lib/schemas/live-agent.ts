import { z } from "zod";

// The chatbot home's live-chat forms for agents (ADR 027): an internal note on the open
// conversation and the knowledge's suggested reply. Client-safe: the forms and the actions share them.

export const NOTE_MAX = 2000;
const conversationId = z.string({ error: "Open a conversation first." }).trim().min(1, "Open a conversation first.").max(64, "Open a conversation first.");

export const addNoteSchema = z.object({
  intent: z.literal("add-note"),
  conversationId,
  body: z.string({ error: "Write the note." }).trim().min(1, "Write the note.").max(NOTE_MAX, `Use at most ${NOTE_MAX} characters.`),
});
export const NOTE_FIELDS = ["conversationId", "body"] as const;

export const suggestReplySchema = z.object({ intent: z.literal("suggest-reply"), conversationId });
export const SUGGEST_FIELDS = ["conversationId"] as const;
