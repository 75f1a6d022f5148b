-- Notifications (settings/notifications): where a chatbot's events go, each delivery with its
-- attempts, and once-only marks (plan-usage thresholds per period, daily digests per day).
CREATE TABLE `notification_destinations` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`kind` text NOT NULL,
	`label` text NOT NULL,
	`email` text,
	`user_id` text,
	`url` text,
	`url_sealed` text,
	`secret_sealed` text,
	`previous_secret_sealed` text,
	`previous_secret_until` integer,
	`events` text DEFAULT '[]' NOT NULL,
	`confirmed_at` integer,
	`confirm_token_hash` text,
	`confirm_expires_at` integer,
	`failing_since` integer,
	`paused_at` integer,
	`pause_reason` text,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `notification_destinations_chatbot_idx` ON `notification_destinations` (`chatbot_id`);--> statement-breakpoint
CREATE INDEX `notification_destinations_org_idx` ON `notification_destinations` (`org_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `notification_destinations_token_unique` ON `notification_destinations` (`confirm_token_hash`);--> statement-breakpoint
CREATE TABLE `notification_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`destination_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`run_attempts` integer DEFAULT 0 NOT NULL,
	`response_code` integer,
	`duration_ms` integer,
	`error` text,
	`next_attempt_at` integer,
	`last_attempt_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`destination_id`) REFERENCES `notification_destinations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_deliveries_chatbot_idx` ON `notification_deliveries` (`chatbot_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_destination_idx` ON `notification_deliveries` (`destination_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_created_idx` ON `notification_deliveries` (`created_at`);--> statement-breakpoint
CREATE TABLE `notification_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`number` integer NOT NULL,
	`ok` integer NOT NULL,
	`response_code` integer,
	`duration_ms` integer NOT NULL,
	`error` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `notification_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_attempts_delivery_idx` ON `notification_attempts` (`delivery_id`,`number`);--> statement-breakpoint
CREATE TABLE `notification_marks` (
	`key` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
