-- Live chat (issue 16, ADR 025): who holds a conversation, and the inbox's "waiting / live" lists.
CREATE TABLE `conversation_agents` (
	`conversation_id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`user_id` text,
	`agent_name` text NOT NULL,
	`taken_at` integer NOT NULL,
	`closed_at` integer,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `conversation_agents_user_idx` ON `conversation_agents` (`chatbot_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `conversation_agents_closed_idx` ON `conversation_agents` (`chatbot_id`,`closed_at`) WHERE "conversation_agents"."closed_at" is not null;--> statement-breakpoint
CREATE INDEX `conversations_live_idx` ON `conversations` (`org_id`,`chatbot_id`,`status`,`last_message_at`) WHERE "conversations"."status" in ('waiting', 'human');
