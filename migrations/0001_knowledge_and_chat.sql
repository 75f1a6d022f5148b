CREATE TABLE `chunk_vectors` (
	`chunk_id` integer PRIMARY KEY NOT NULL,
	`chatbot_id` text NOT NULL,
	`model` text NOT NULL,
	`vector` blob NOT NULL,
	FOREIGN KEY (`chunk_id`) REFERENCES `chunks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chunk_vectors_chatbot_idx` ON `chunk_vectors` (`chatbot_id`);--> statement-breakpoint
CREATE TABLE `chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`org_id` text NOT NULL,
	`position` integer NOT NULL,
	`title` text NOT NULL,
	`heading` text,
	`url` text,
	`text` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `knowledge_sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chunks_source_idx` ON `chunks` (`source_id`,`position`);--> statement-breakpoint
CREATE INDEX `chunks_chatbot_idx` ON `chunks` (`chatbot_id`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`visitor_id` text NOT NULL,
	`channel` text NOT NULL,
	`status` text DEFAULT 'bot' NOT NULL,
	`verified` integer DEFAULT false NOT NULL,
	`country` text,
	`rating` integer,
	`title` text,
	`message_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`last_message_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversations_chatbot_idx` ON `conversations` (`chatbot_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_visitor_idx` ON `conversations` (`chatbot_id`,`visitor_id`);--> statement-breakpoint
CREATE TABLE `knowledge_sources` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`type` text NOT NULL,
	`title` text NOT NULL,
	`location` text,
	`content` text,
	`config` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`progress_done` integer DEFAULT 0 NOT NULL,
	`progress_total` integer DEFAULT 0 NOT NULL,
	`error` text,
	`char_count` integer DEFAULT 0 NOT NULL,
	`chunk_count` integer DEFAULT 0 NOT NULL,
	`schedule` text DEFAULT 'off' NOT NULL,
	`last_synced_at` integer,
	`next_sync_at` integer,
	`job_state` text,
	`heartbeat_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `knowledge_sources_chatbot_idx` ON `knowledge_sources` (`chatbot_id`);--> statement-breakpoint
CREATE INDEX `knowledge_sources_status_idx` ON `knowledge_sources` (`status`,`heartbeat_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`sources` text DEFAULT '[]' NOT NULL,
	`answered` integer,
	`model` text,
	`latency_ms` integer,
	`first_token_ms` integer,
	`credits` integer DEFAULT 0 NOT NULL,
	`feedback` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `messages_conversation_idx` ON `messages` (`conversation_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `usage_counters` (
	`org_id` text NOT NULL,
	`period` integer NOT NULL,
	`replies` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`org_id`, `period`),
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade
);
