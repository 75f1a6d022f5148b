-- A bug report's message id without a foreign key (issue #20, ADR 040): a chatbot's messages can be
-- in its ConversationShard, where message_id (which references D1's messages) cannot point.
ALTER TABLE `bug_reports` ADD `message_ref` text;--> statement-breakpoint
UPDATE `bug_reports` SET `message_ref` = `message_id` WHERE `message_id` IS NOT NULL;
