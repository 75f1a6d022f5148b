CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`org_id` text,
	`received_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `organisations` ADD `stripe_customer_id` text;--> statement-breakpoint
ALTER TABLE `organisations` ADD `stripe_subscription_id` text;--> statement-breakpoint
ALTER TABLE `organisations` ADD `billing_event_at` integer;