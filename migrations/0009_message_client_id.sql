ALTER TABLE `messages` ADD `client_message_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_client_message_unique` ON `messages` (`conversation_id`,`client_message_id`);