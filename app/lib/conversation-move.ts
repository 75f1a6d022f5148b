// Client-safe facts about moving a chatbot's conversation list (its conversation index) from the
// shared database into the chatbot's own storage (issue #20, ADR 051), shared by the inbox page and
// app/.server/chat.

/** Phases of a move that is still under way. */
export const CONVERSATION_MOVE_RUNNING = ["copy", "leads", "switch", "cleanup"] as const;
export type ConversationMovePhase = (typeof CONVERSATION_MOVE_RUNNING)[number];

/**
 * What the inbox tells owners and admins about such a move (null: nothing): how far it is while it
 * runs (conversations copied and checked, of how many), or why it failed and when it is tried again.
 */
export type ConversationMoveNotice =
  { state: "moving"; phase: ConversationMovePhase; copied: number; total: number } | { state: "failed"; error: string; retryAfter: number };
