CREATE TABLE `custom_tools` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`examples` text DEFAULT '[]' NOT NULL,
	`method` text NOT NULL,
	`url_template` text NOT NULL,
	`headers` text DEFAULT '[]' NOT NULL,
	`parameters` text NOT NULL,
	`timeout_ms` integer DEFAULT 5000 NOT NULL,
	`confirm` integer DEFAULT false NOT NULL,
	`result_template` text DEFAULT '' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_tools_name_unique` ON `custom_tools` (`chatbot_id`,`name`);--> statement-breakpoint
CREATE INDEX `custom_tools_org_idx` ON `custom_tools` (`org_id`);--> statement-breakpoint
CREATE TABLE `tool_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`tool_id` text,
	`tool_name` text NOT NULL,
	`conversation_id` text,
	`source` text NOT NULL,
	`outcome` text NOT NULL,
	`http_status` integer,
	`duration_ms` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tool_id`) REFERENCES `custom_tools`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `tool_calls_chatbot_idx` ON `tool_calls` (`chatbot_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `tool_pending_calls` (
	`conversation_id` text PRIMARY KEY NOT NULL,
	`chatbot_id` text NOT NULL,
	`tool_id` text NOT NULL,
	`stage` text NOT NULL,
	`params` text DEFAULT '{}' NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tool_id`) REFERENCES `custom_tools`(`id`) ON UPDATE no action ON DELETE cascade
);
