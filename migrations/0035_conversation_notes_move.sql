CREATE INDEX `conversation_notes_chatbot_idx` ON `conversation_notes` (`chatbot_id`);--> statement-breakpoint
-- Hand-written (drizzle-kit does not generate triggers; as 0034's): while the chatbot's conversation
-- index moves (ADR 051, ADR 054), a note added or changed notes its conversation, so the move copies
-- it into the shard again before the switch, or after it during the grace period.
CREATE TRIGGER `conversation_notes_move_ai` AFTER INSERT ON `conversation_notes` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = new.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (new.chatbot_id, new.conversation_id);
END;
--> statement-breakpoint
CREATE TRIGGER `conversation_notes_move_au` AFTER UPDATE ON `conversation_notes` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = new.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (new.chatbot_id, new.conversation_id);
END;
