-- A chatbot whose conversation index is in its shard keeps its question groups there (ADR 077); the
-- rows it wrote to D1 before are moved by the cron's sweep, which finds them by this flag.
ALTER TABLE `chatbots` ADD `questions_in_d1` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `chatbots_questions_in_d1_idx` ON `chatbots` (`id`) WHERE questions_in_d1 = 1;--> statement-breakpoint
UPDATE `chatbots` SET `questions_in_d1` = 1 WHERE `conversation_store` = 'shard' AND (EXISTS (SELECT 1 FROM `analytics_questions` q WHERE q.`chatbot_id` = `chatbots`.`id`) OR EXISTS (SELECT 1 FROM `analytics_question_days` d WHERE d.`chatbot_id` = `chatbots`.`id`));
