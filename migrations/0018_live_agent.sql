-- Live chat's agent workflow (issue 16, ADR 027): internal notes on a conversation, for agents only.
-- Kept apart from `messages` (which the visitor's history, the transcript API and the live log read)
-- so a note can never reach the visitor.
CREATE TABLE `conversation_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`user_id` text,
	`author_name` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `conversation_notes_conversation_idx` ON `conversation_notes` (`conversation_id`,`created_at`);
