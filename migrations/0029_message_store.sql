-- Where a chatbot's messages live (issue #20, ADR 040): 'd1' (the shared messages table), 'moving', or
-- 'shard' (its own ConversationShard Durable Object).
ALTER TABLE `chatbots` ADD `message_store` text DEFAULT 'd1' NOT NULL;--> statement-breakpoint
-- A bug report's message id without a foreign key: a chatbot's messages can be in its
-- ConversationShard, where message_id (which references D1's messages) cannot point.
ALTER TABLE `bug_reports` ADD `message_ref` text;--> statement-breakpoint
UPDATE `bug_reports` SET `message_ref` = `message_id` WHERE `message_id` IS NOT NULL;
