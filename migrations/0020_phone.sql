-- Phone numbers (Twilio): an organisation's connected account (credentials sealed with SECRETS_KEY),
-- its numbers attached to chatbots, and the call log. ADR 029.
CREATE TABLE `phone_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL REFERENCES organisations(id) ON DELETE cascade,
	`provider` text DEFAULT 'twilio' NOT NULL,
	`credentials` text NOT NULL,
	`account_hint` text NOT NULL,
	`account_name` text,
	`connected_by` text REFERENCES users(id) ON DELETE set null,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX `phone_accounts_org_idx` ON `phone_accounts` (`org_id`);--> statement-breakpoint
CREATE TABLE `phone_numbers` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL REFERENCES organisations(id) ON DELETE cascade,
	`account_id` text NOT NULL REFERENCES phone_accounts(id) ON DELETE cascade,
	`chatbot_id` text NOT NULL REFERENCES chatbots(id) ON DELETE cascade,
	`provider_sid` text NOT NULL,
	`number` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX `phone_numbers_sid_idx` ON `phone_numbers` (`account_id`,`provider_sid`);--> statement-breakpoint
CREATE INDEX `phone_numbers_chatbot_idx` ON `phone_numbers` (`org_id`,`chatbot_id`);--> statement-breakpoint
CREATE TABLE `calls` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL REFERENCES organisations(id) ON DELETE cascade,
	`chatbot_id` text NOT NULL REFERENCES chatbots(id) ON DELETE cascade,
	`phone_number_id` text REFERENCES phone_numbers(id) ON DELETE set null,
	`conversation_id` text REFERENCES conversations(id) ON DELETE set null,
	`call_sid` text NOT NULL,
	`caller` text,
	`called` text,
	`status` text DEFAULT 'in-progress' NOT NULL,
	`outcome` text,
	`step` integer DEFAULT 1 NOT NULL,
	`missed` integer DEFAULT 0 NOT NULL,
	`silent` integer DEFAULT 0 NOT NULL,
	`turns` integer DEFAULT 0 NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`duration_s` integer
);--> statement-breakpoint
CREATE UNIQUE INDEX `calls_sid_idx` ON `calls` (`call_sid`);--> statement-breakpoint
CREATE INDEX `calls_org_idx` ON `calls` (`org_id`,`started_at`);
