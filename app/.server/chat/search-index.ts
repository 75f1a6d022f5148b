import { sqliteTable, text } from "drizzle-orm/sqlite-core";

// The conversation list's full-text index (migration 0010: an FTS5 virtual table, one row per
// visitor message). Declared here, not in db/schema.ts, so drizzle-kit never tries to create it as
// a plain table; drizzle only needs its shape to batch an insert with the message it indexes.
export const conversationSearch = sqliteTable("conversation_search", {
  /** lower(hex(chatbot id)): one FTS token per chatbot (like chunks_fts). */
  chatbotId: text("chatbot_id").notNull(),
  body: text("body").notNull(),
  conversationId: text("conversation_id").notNull(),
});
