-- Moving a chatbot's knowledge from D1 into its shard (issue #20, ADR 034): one resumable job per chatbot.
CREATE TABLE `knowledge_moves` (
	`chatbot_id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`phase` text NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`copied` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`signature` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`started_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
