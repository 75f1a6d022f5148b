-- Issue #20, ADR 044 (stage 2, ADR 048): nothing in D1 references `conversations.id` any more except
-- `messages` (which never hold a row of a chatbot whose conversations are in its shard), so rows
-- about a conversation that lives in a chatbot's ConversationShard can be written. Each table is
-- rebuilt without that foreign key, keeping every row, every other constraint and every index;
-- `analytics_conversations` gains the chatbot cascade it had only through its conversation.
--
-- D1 runs a migration in one transaction with foreign keys enforced: `PRAGMA foreign_keys=OFF` is
-- ignored, and dropping a table still fires ON DELETE CASCADE / SET NULL on the tables that reference
-- it (deferring only delays the checks). `leads` is referenced by `lead_events` and
-- `lead_conversations`, so those two are parked in tables without constraints and dropped first,
-- `leads` is rebuilt, and they are recreated from the parked rows. No other rebuilt table is referenced.
PRAGMA defer_foreign_keys = on;
--> statement-breakpoint
CREATE TABLE `__park_lead_events` AS SELECT * FROM `lead_events`;
--> statement-breakpoint
DROP TABLE `lead_events`;
--> statement-breakpoint
CREATE TABLE `__park_lead_conversations` AS SELECT * FROM `lead_conversations`;
--> statement-breakpoint
DROP TABLE `lead_conversations`;
--> statement-breakpoint
CREATE TABLE `__new_leads` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`conversation_id` text,
	`visitor_id` text,
	`name` text,
	`email` text,
	`phone` text,
	`custom` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'new' NOT NULL,
	`notes` text,
	`source` text DEFAULT 'widget' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_leads`("id", "org_id", "chatbot_id", "conversation_id", "visitor_id", "name", "email", "phone", "custom", "status", "notes", "source", "created_at", "updated_at") SELECT "id", "org_id", "chatbot_id", "conversation_id", "visitor_id", "name", "email", "phone", "custom", "status", "notes", "source", "created_at", "updated_at" FROM `leads`;
--> statement-breakpoint
DROP TABLE `leads`;
--> statement-breakpoint
ALTER TABLE `__new_leads` RENAME TO `leads`;
--> statement-breakpoint
CREATE INDEX `leads_list_idx` ON `leads` (`chatbot_id`,`created_at`,`id`);
--> statement-breakpoint
CREATE INDEX `leads_status_idx` ON `leads` (`chatbot_id`,`status`,`created_at`,`id`);
--> statement-breakpoint
CREATE INDEX `leads_email_idx` ON `leads` (`chatbot_id`,`email`) WHERE "leads"."email" is not null;
--> statement-breakpoint
CREATE INDEX `leads_visitor_idx` ON `leads` (`chatbot_id`,`visitor_id`);
--> statement-breakpoint
CREATE TABLE `lead_conversations` (
	`lead_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`lead_id`, `conversation_id`),
	FOREIGN KEY (`lead_id`) REFERENCES `leads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `lead_conversations`("lead_id", "conversation_id", "created_at") SELECT "lead_id", "conversation_id", "created_at" FROM `__park_lead_conversations`;
--> statement-breakpoint
DROP TABLE `__park_lead_conversations`;
--> statement-breakpoint
CREATE INDEX `lead_conversations_conversation_idx` ON `lead_conversations` (`conversation_id`);
--> statement-breakpoint
CREATE TABLE `lead_events` (
	`id` text PRIMARY KEY NOT NULL,
	`lead_id` text NOT NULL,
	`actor_user_id` text,
	`actor_label` text NOT NULL,
	`kind` text NOT NULL,
	`from_value` text,
	`to_value` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`lead_id`) REFERENCES `leads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `lead_events`("id", "lead_id", "actor_user_id", "actor_label", "kind", "from_value", "to_value", "created_at") SELECT "id", "lead_id", "actor_user_id", "actor_label", "kind", "from_value", "to_value", "created_at" FROM `__park_lead_events`;
--> statement-breakpoint
DROP TABLE `__park_lead_events`;
--> statement-breakpoint
CREATE INDEX `lead_events_lead_idx` ON `lead_events` (`lead_id`,`created_at`);
--> statement-breakpoint
CREATE TABLE `__new_conversation_agents` (
	`conversation_id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`user_id` text,
	`agent_name` text NOT NULL,
	`taken_at` integer NOT NULL,
	`closed_at` integer,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_conversation_agents`("conversation_id", "org_id", "chatbot_id", "user_id", "agent_name", "taken_at", "closed_at") SELECT "conversation_id", "org_id", "chatbot_id", "user_id", "agent_name", "taken_at", "closed_at" FROM `conversation_agents`;
--> statement-breakpoint
DROP TABLE `conversation_agents`;
--> statement-breakpoint
ALTER TABLE `__new_conversation_agents` RENAME TO `conversation_agents`;
--> statement-breakpoint
CREATE INDEX `conversation_agents_user_idx` ON `conversation_agents` (`chatbot_id`,`user_id`);
--> statement-breakpoint
CREATE INDEX `conversation_agents_closed_idx` ON `conversation_agents` (`chatbot_id`,`closed_at`) WHERE "conversation_agents"."closed_at" is not null;
--> statement-breakpoint
CREATE TABLE `__new_conversation_notes` (
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
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_conversation_notes`("id", "org_id", "chatbot_id", "conversation_id", "user_id", "author_name", "body", "created_at") SELECT "id", "org_id", "chatbot_id", "conversation_id", "user_id", "author_name", "body", "created_at" FROM `conversation_notes`;
--> statement-breakpoint
DROP TABLE `conversation_notes`;
--> statement-breakpoint
ALTER TABLE `__new_conversation_notes` RENAME TO `conversation_notes`;
--> statement-breakpoint
CREATE INDEX `conversation_notes_conversation_idx` ON `conversation_notes` (`conversation_id`,`created_at`);
--> statement-breakpoint
CREATE TABLE `__new_analytics_conversations` (
	`conversation_id` text PRIMARY KEY NOT NULL,
	`chatbot_id` text NOT NULL,
	`day` text NOT NULL,
	`problem` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_analytics_conversations`("conversation_id", "chatbot_id", "day", "problem") SELECT "conversation_id", "chatbot_id", "day", "problem" FROM `analytics_conversations`;
--> statement-breakpoint
DROP TABLE `analytics_conversations`;
--> statement-breakpoint
ALTER TABLE `__new_analytics_conversations` RENAME TO `analytics_conversations`;
--> statement-breakpoint
CREATE INDEX `analytics_conversations_chatbot_idx` ON `analytics_conversations` (`chatbot_id`);
--> statement-breakpoint
CREATE TABLE `__new_tool_pending_calls` (
	`conversation_id` text PRIMARY KEY NOT NULL,
	`chatbot_id` text NOT NULL,
	`tool_id` text NOT NULL,
	`stage` text NOT NULL,
	`params` text DEFAULT '{}' NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tool_id`) REFERENCES `custom_tools`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_tool_pending_calls`("conversation_id", "chatbot_id", "tool_id", "stage", "params", "expires_at") SELECT "conversation_id", "chatbot_id", "tool_id", "stage", "params", "expires_at" FROM `tool_pending_calls`;
--> statement-breakpoint
DROP TABLE `tool_pending_calls`;
--> statement-breakpoint
ALTER TABLE `__new_tool_pending_calls` RENAME TO `tool_pending_calls`;
--> statement-breakpoint
CREATE TABLE `__new_bug_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`conversation_id` text,
	`message_id` text,
	`message_ref` text,
	`reporter` text DEFAULT 'visitor' NOT NULL,
	`visitor_id` text,
	`comment` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`expected_answer` text,
	`reporter_user_id` text,
	`fix_source_id` text,
	`resolved_at` integer,
	`resolved_by` text,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`reporter_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`fix_source_id`) REFERENCES `knowledge_sources`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`resolved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_bug_reports`("id", "org_id", "chatbot_id", "conversation_id", "message_id", "message_ref", "reporter", "visitor_id", "comment", "status", "created_at", "expected_answer", "reporter_user_id", "fix_source_id", "resolved_at", "resolved_by") SELECT "id", "org_id", "chatbot_id", "conversation_id", "message_id", "message_ref", "reporter", "visitor_id", "comment", "status", "created_at", "expected_answer", "reporter_user_id", "fix_source_id", "resolved_at", "resolved_by" FROM `bug_reports`;
--> statement-breakpoint
DROP TABLE `bug_reports`;
--> statement-breakpoint
ALTER TABLE `__new_bug_reports` RENAME TO `bug_reports`;
--> statement-breakpoint
CREATE INDEX `bug_reports_chatbot_idx` ON `bug_reports` (`chatbot_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `bug_reports_status_idx` ON `bug_reports` (`chatbot_id`,`status`,`created_at`,`id`);
--> statement-breakpoint
CREATE INDEX `bug_reports_message_idx` ON `bug_reports` (`message_id`);
--> statement-breakpoint
CREATE TABLE `__new_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`phone_number_id` text,
	`conversation_id` text,
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
	`duration_s` integer,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`phone_number_id`) REFERENCES `phone_numbers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_calls`("id", "org_id", "chatbot_id", "phone_number_id", "conversation_id", "call_sid", "caller", "called", "status", "outcome", "step", "missed", "silent", "turns", "started_at", "ended_at", "duration_s") SELECT "id", "org_id", "chatbot_id", "phone_number_id", "conversation_id", "call_sid", "caller", "called", "status", "outcome", "step", "missed", "silent", "turns", "started_at", "ended_at", "duration_s" FROM `calls`;
--> statement-breakpoint
DROP TABLE `calls`;
--> statement-breakpoint
ALTER TABLE `__new_calls` RENAME TO `calls`;
--> statement-breakpoint
CREATE UNIQUE INDEX `calls_sid_idx` ON `calls` (`call_sid`);
--> statement-breakpoint
CREATE INDEX `calls_org_idx` ON `calls` (`org_id`,`started_at`);
--> statement-breakpoint
CREATE TABLE `__new_tool_calls` (
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
	FOREIGN KEY (`tool_id`) REFERENCES `custom_tools`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_tool_calls`("id", "org_id", "chatbot_id", "tool_id", "tool_name", "conversation_id", "source", "outcome", "http_status", "duration_ms", "created_at") SELECT "id", "org_id", "chatbot_id", "tool_id", "tool_name", "conversation_id", "source", "outcome", "http_status", "duration_ms", "created_at" FROM `tool_calls`;
--> statement-breakpoint
DROP TABLE `tool_calls`;
--> statement-breakpoint
ALTER TABLE `__new_tool_calls` RENAME TO `tool_calls`;
--> statement-breakpoint
CREATE INDEX `tool_calls_chatbot_idx` ON `tool_calls` (`chatbot_id`,`created_at`);
