-- Moving a chatbot's messages from D1 into its conversation shard (issue #20, ADR 042): one resumable
-- job per chatbot; the sweep finds running and stalled moves by phase and last step, and chatbots
-- still in D1 oldest first. Deleting a moved D1 message sets its bug reports' message_id null: the
-- new index finds them instead of scanning bug_reports for every deleted row.
CREATE TABLE `message_moves` (
	`chatbot_id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`phase` text NOT NULL,
	`cursor` text DEFAULT '' NOT NULL,
	`round_from` integer DEFAULT 0 NOT NULL,
	`copied` integer DEFAULT 0 NOT NULL,
	`checked` integer DEFAULT 0 NOT NULL,
	`removed` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`signature` text,
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
CREATE INDEX `message_moves_phase_idx` ON `message_moves` (`phase`,`updated_at`);--> statement-breakpoint
CREATE INDEX `bug_reports_message_idx` ON `bug_reports` (`message_id`);--> statement-breakpoint
CREATE INDEX `chatbots_message_store_idx` ON `chatbots` (`message_store`,`created_at`);