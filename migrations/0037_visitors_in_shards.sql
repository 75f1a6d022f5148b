-- A chatbot whose conversation index is in its shard keeps its visitors by day there (ADR 076); the
-- rows it wrote to D1 before are moved by the cron's sweep, which finds them by this flag.
ALTER TABLE `chatbots` ADD `visitors_in_d1` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `chatbots_visitors_in_d1_idx` ON `chatbots` (`id`) WHERE visitors_in_d1 = 1;--> statement-breakpoint
UPDATE `chatbots` SET `visitors_in_d1` = 1 WHERE `conversation_store` = 'shard' AND EXISTS (SELECT 1 FROM `analytics_visitors` v WHERE v.`chatbot_id` = `chatbots`.`id`);
