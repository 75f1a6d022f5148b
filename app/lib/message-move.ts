// Client-safe facts about moving a chatbot's conversations (its messages) from the shared database
// into the chatbot's own storage (issue #20, ADR 042), shared by the inbox page and app/.server/chat.

/** Phases of a move that is still under way. */
export const MESSAGE_MOVE_RUNNING = ["copy", "verify", "switch", "cleanup"] as const;
export type MessageMovePhase = (typeof MESSAGE_MOVE_RUNNING)[number];

/**
 * What the inbox tells owners and admins about such a move (null: nothing): how far it is while it
 * runs (messages copied, or checked, of how many), or why it failed and when it is tried again.
 * Nobody else sees it: there is nothing for them to do.
 */
export type MessageMoveNotice =
  { state: "moving"; phase: MessageMovePhase; copied: number; checked: number; total: number } | { state: "failed"; error: string; retryAfter: number };
