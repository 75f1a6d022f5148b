DROP INDEX `conversations_chatbot_idx`;--> statement-breakpoint
ALTER TABLE `conversations` ADD `unanswered` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `reported` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `has_lead` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `lead_name` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `lead_email` text;--> statement-breakpoint
CREATE INDEX `conversations_list_idx` ON `conversations` (`org_id`,`chatbot_id`,`last_message_at`,`id`,`message_count`) WHERE "conversations"."message_count" > 0;--> statement-breakpoint
CREATE INDEX `conversations_unanswered_idx` ON `conversations` (`org_id`,`chatbot_id`,`last_message_at`,`id`,`message_count`) WHERE "conversations"."message_count" > 0 and "conversations"."unanswered" = 1;--> statement-breakpoint
CREATE INDEX `conversations_rated_down_idx` ON `conversations` (`org_id`,`chatbot_id`,`last_message_at`,`id`,`message_count`) WHERE "conversations"."message_count" > 0 and "conversations"."rating" = -1;--> statement-breakpoint
CREATE INDEX `conversations_reported_idx` ON `conversations` (`org_id`,`chatbot_id`,`last_message_at`,`id`,`message_count`) WHERE "conversations"."message_count" > 0 and "conversations"."reported" = 1;--> statement-breakpoint
CREATE INDEX `conversations_waiting_idx` ON `conversations` (`org_id`,`chatbot_id`,`last_message_at`,`id`,`message_count`) WHERE "conversations"."message_count" > 0 and "conversations"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX `conversations_lead_idx` ON `conversations` (`org_id`,`chatbot_id`,`last_message_at`,`id`,`message_count`) WHERE "conversations"."message_count" > 0 and "conversations"."has_lead" = 1;--> statement-breakpoint
CREATE INDEX `conversations_lead_email_idx` ON `conversations` (`chatbot_id`,`lead_email`) WHERE "conversations"."lead_email" is not null;--> statement-breakpoint
-- Full-text search of the conversation list: one row per visitor message (what people asked), the
-- chatbot id as one token (its hex, like chunks_fts) so a MATCH is confined to one chatbot.
-- Written by chat/conversations.ts with the message it indexes; no trigger, so the list keeps
-- working when messages move out of D1 (issue #20).
CREATE VIRTUAL TABLE `conversation_search` USING fts5(
  chatbot_id, body, conversation_id UNINDEXED,
  tokenize='porter unicode61'
);
--> statement-breakpoint
INSERT INTO conversation_search(chatbot_id, body, conversation_id)
  SELECT lower(hex(chatbot_id)), content, conversation_id FROM messages WHERE role = 'visitor';
--> statement-breakpoint
-- Backfill of the list's flags. "Unanswered" for existing rows: replies stored without a model call
-- (the fallback text, the reply limit); from now on chat/answer.ts also flags model replies that
-- did not answer from knowledge, which stored rows cannot tell apart from small talk.
UPDATE `conversations` SET `unanswered` = 1
  WHERE `id` IN (SELECT `conversation_id` FROM `messages` WHERE `role` = 'bot' AND `answered` = 0 AND `model` IS NULL);
--> statement-breakpoint
UPDATE `conversations` SET `reported` = 1
  WHERE `id` IN (SELECT `conversation_id` FROM `bug_reports` WHERE `conversation_id` IS NOT NULL);
--> statement-breakpoint
UPDATE `conversations` SET
  `has_lead` = 1,
  `lead_name` = (SELECT l.`name` FROM `leads` l WHERE l.`chatbot_id` = `conversations`.`chatbot_id`
    AND (l.`conversation_id` = `conversations`.`id` OR l.`visitor_id` = `conversations`.`visitor_id`) AND l.`name` IS NOT NULL
    ORDER BY l.`created_at` DESC LIMIT 1),
  `lead_email` = (SELECT l.`email` FROM `leads` l WHERE l.`chatbot_id` = `conversations`.`chatbot_id`
    AND (l.`conversation_id` = `conversations`.`id` OR l.`visitor_id` = `conversations`.`visitor_id`) AND l.`email` IS NOT NULL
    ORDER BY l.`created_at` DESC LIMIT 1)
  WHERE EXISTS (SELECT 1 FROM `leads` l WHERE l.`chatbot_id` = `conversations`.`chatbot_id`
    AND (l.`conversation_id` = `conversations`.`id` OR l.`visitor_id` = `conversations`.`visitor_id`));
