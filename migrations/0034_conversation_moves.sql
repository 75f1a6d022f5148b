CREATE TABLE `conversation_move_dirty` (
	`chatbot_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	PRIMARY KEY(`chatbot_id`, `conversation_id`)
);
--> statement-breakpoint
CREATE TABLE `conversation_moves` (
	`chatbot_id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`phase` text NOT NULL,
	`cursor` text DEFAULT '' NOT NULL,
	`copied` integer DEFAULT 0 NOT NULL,
	`removed` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`rounds` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`started_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`switched_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_moves_phase_idx` ON `conversation_moves` (`phase`,`updated_at`);
--> statement-breakpoint
-- Written by hand (drizzle-kit does not generate triggers), as 0002 did for FTS: while a chatbot's
-- conversation move runs (ADR 051), every write to its conversation rows, live agents, analytics
-- marks and leads notes the conversation (an empty id for leads) so the move copies it again. One
-- primary-key look-up on conversation_moves per write when no move runs.
CREATE TRIGGER `conversations_move_ai` AFTER INSERT ON `conversations` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = new.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (new.chatbot_id, new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `conversations_move_au` AFTER UPDATE ON `conversations` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = new.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (new.chatbot_id, new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `conversation_agents_move_ai` AFTER INSERT ON `conversation_agents` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = new.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (new.chatbot_id, new.conversation_id);
END;
--> statement-breakpoint
CREATE TRIGGER `conversation_agents_move_au` AFTER UPDATE ON `conversation_agents` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = new.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (new.chatbot_id, new.conversation_id);
END;
--> statement-breakpoint
CREATE TRIGGER `analytics_conversations_move_ai` AFTER INSERT ON `analytics_conversations` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = new.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (new.chatbot_id, new.conversation_id);
END;
--> statement-breakpoint
CREATE TRIGGER `analytics_conversations_move_au` AFTER UPDATE ON `analytics_conversations` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = new.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (new.chatbot_id, new.conversation_id);
END;
--> statement-breakpoint
CREATE TRIGGER `leads_move_ai` AFTER INSERT ON `leads` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = new.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (new.chatbot_id, '');
END;
--> statement-breakpoint
CREATE TRIGGER `leads_move_au` AFTER UPDATE ON `leads` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = new.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (new.chatbot_id, '');
END;
--> statement-breakpoint
CREATE TRIGGER `leads_move_ad` AFTER DELETE ON `leads` WHEN EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = old.chatbot_id AND phase IN ('copy', 'leads', 'switch', 'cleanup')) BEGIN
  INSERT OR IGNORE INTO conversation_move_dirty (chatbot_id, conversation_id) VALUES (old.chatbot_id, '');
END;
