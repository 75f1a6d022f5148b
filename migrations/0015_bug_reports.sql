ALTER TABLE `bug_reports` ADD `expected_answer` text;--> statement-breakpoint
ALTER TABLE `bug_reports` ADD `reporter_user_id` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `bug_reports` ADD `fix_source_id` text REFERENCES knowledge_sources(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `bug_reports` ADD `resolved_at` integer;--> statement-breakpoint
ALTER TABLE `bug_reports` ADD `resolved_by` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `bug_reports_status_idx` ON `bug_reports` (`chatbot_id`,`status`,`created_at`,`id`);
