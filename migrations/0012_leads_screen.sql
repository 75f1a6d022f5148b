CREATE TABLE `lead_conversations` (
	`lead_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`lead_id`, `conversation_id`),
	FOREIGN KEY (`lead_id`) REFERENCES `leads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lead_conversations_conversation_idx` ON `lead_conversations` (`conversation_id`);--> statement-breakpoint
CREATE TABLE `lead_events` (
	`id` text PRIMARY KEY NOT NULL,
	`lead_id` text NOT NULL,
	`actor_user_id` text,
	`actor_label` text NOT NULL,
	`kind` text NOT NULL,
	`from_value` text,
	`to_value` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`lead_id`) REFERENCES `leads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `lead_events_lead_idx` ON `lead_events` (`lead_id`,`created_at`);--> statement-breakpoint
DROP INDEX `leads_chatbot_idx`;--> statement-breakpoint
CREATE INDEX `leads_list_idx` ON `leads` (`chatbot_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `leads_status_idx` ON `leads` (`chatbot_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `leads_email_idx` ON `leads` (`chatbot_id`,`email`) WHERE "leads"."email" is not null;--> statement-breakpoint
-- Backfill: each existing lead is linked to the conversation it was captured in, and its history starts with its capture.
INSERT OR IGNORE INTO `lead_conversations` (`lead_id`, `conversation_id`, `created_at`)
SELECT `id`, `conversation_id`, `created_at` FROM `leads` WHERE `conversation_id` IS NOT NULL AND `conversation_id` IN (SELECT `id` FROM `conversations`);--> statement-breakpoint
INSERT OR IGNORE INTO `lead_events` (`id`, `lead_id`, `actor_user_id`, `actor_label`, `kind`, `from_value`, `to_value`, `created_at`)
SELECT 'le_' || `id`, `id`, NULL, CASE WHEN `source` = 'api' THEN 'API' ELSE 'Visitor' END, 'created', NULL, `source`, `created_at` FROM `leads`;
