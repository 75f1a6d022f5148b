-- Analytics (issue #15, ADR 020): daily aggregate rows per chatbot, kept up to date as messages,
-- leads, thumbs, reports and handoffs arrive (app/.server/analytics/record.ts), so the analytics
-- page never scans messages. A "day" is a calendar day in the organisation's time zone when the
-- thing was counted (organisations.time_zone, IANA name, UTC by default).
ALTER TABLE `organisations` ADD `time_zone` text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
CREATE TABLE `analytics_daily` (
	`chatbot_id` text NOT NULL,
	`day` text NOT NULL,
	`org_id` text NOT NULL,
	`conversations` integer DEFAULT 0 NOT NULL,
	`messages` integer DEFAULT 0 NOT NULL,
	`questions` integer DEFAULT 0 NOT NULL,
	`unanswered` integer DEFAULT 0 NOT NULL,
	`unresolved` integer DEFAULT 0 NOT NULL,
	`leads` integer DEFAULT 0 NOT NULL,
	`handoffs` integer DEFAULT 0 NOT NULL,
	`reports` integer DEFAULT 0 NOT NULL,
	`thumbs_up` integer DEFAULT 0 NOT NULL,
	`thumbs_down` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`chatbot_id`, `day`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_splits` (
	`chatbot_id` text NOT NULL,
	`day` text NOT NULL,
	`dim` text NOT NULL,
	`key` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`chatbot_id`, `day`, `dim`, `key`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_visitors` (
	`chatbot_id` text NOT NULL,
	`day` text NOT NULL,
	`visitor_id` text NOT NULL,
	PRIMARY KEY(`chatbot_id`, `day`, `visitor_id`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_conversations` (
	`conversation_id` text PRIMARY KEY NOT NULL,
	`chatbot_id` text NOT NULL,
	`day` text NOT NULL,
	`problem` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_questions` (
	`chatbot_id` text NOT NULL,
	`key` text NOT NULL,
	`org_id` text NOT NULL,
	`text` text NOT NULL,
	`asked` integer DEFAULT 0 NOT NULL,
	`unanswered` integer DEFAULT 0 NOT NULL,
	`last_asked_at` integer NOT NULL,
	`last_unanswered_at` integer,
	`answered_at` integer,
	`answered_by` text,
	`answer_source_id` text,
	PRIMARY KEY(`chatbot_id`, `key`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_question_days` (
	`chatbot_id` text NOT NULL,
	`day` text NOT NULL,
	`key` text NOT NULL,
	`asked` integer DEFAULT 0 NOT NULL,
	`unanswered` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`chatbot_id`, `day`, `key`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `analytics_questions_asked_idx` ON `analytics_questions` (`chatbot_id`,`asked`);--> statement-breakpoint
CREATE INDEX `analytics_questions_unanswered_idx` ON `analytics_questions` (`chatbot_id`,`unanswered`) WHERE "analytics_questions"."answered_at" is null;--> statement-breakpoint
CREATE INDEX `analytics_question_days_key_idx` ON `analytics_question_days` (`chatbot_id`,`key`,`day`,`asked`,`unanswered`);--> statement-breakpoint
-- Backfill what plain SQL can count from existing rows, on UTC days (every organisation starts in
-- UTC). Answer-time samples and question groups start with this migration (ADR 020).
INSERT INTO `analytics_conversations` (`conversation_id`, `chatbot_id`, `day`, `problem`)
SELECT `id`, `chatbot_id`, date(`created_at` / 1000, 'unixepoch'),
	`unanswered` = 1 OR `reported` = 1 OR coalesce(`rating`, 0) = -1 OR `status` IN ('waiting', 'human')
FROM `conversations` WHERE `message_count` > 0;
--> statement-breakpoint
INSERT INTO `analytics_daily` (`chatbot_id`, `day`, `org_id`, `conversations`, `unresolved`, `handoffs`)
SELECT c.`chatbot_id`, a.`day`, c.`org_id`, count(*), sum(a.`problem`), sum(c.`status` IN ('waiting', 'human'))
FROM `analytics_conversations` a JOIN `conversations` c ON c.`id` = a.`conversation_id`
GROUP BY c.`chatbot_id`, a.`day`;
--> statement-breakpoint
INSERT INTO `analytics_daily` (`chatbot_id`, `day`, `org_id`, `messages`, `thumbs_up`, `thumbs_down`)
SELECT `chatbot_id`, date(`created_at` / 1000, 'unixepoch') AS d, `org_id`, sum(`role` IN ('visitor', 'bot', 'human')),
	coalesce(sum(`feedback` = 1), 0), coalesce(sum(`feedback` = -1), 0)
FROM `messages` WHERE `chatbot_id` IN (SELECT `id` FROM `chatbots`) GROUP BY `chatbot_id`, d
ON CONFLICT (`chatbot_id`, `day`) DO UPDATE SET `messages` = excluded.`messages`, `thumbs_up` = excluded.`thumbs_up`, `thumbs_down` = excluded.`thumbs_down`;
--> statement-breakpoint
INSERT INTO `analytics_daily` (`chatbot_id`, `day`, `org_id`, `leads`)
SELECT `chatbot_id`, date(`created_at` / 1000, 'unixepoch') AS d, `org_id`, count(*) FROM `leads` WHERE true GROUP BY `chatbot_id`, d
ON CONFLICT (`chatbot_id`, `day`) DO UPDATE SET `leads` = excluded.`leads`;
--> statement-breakpoint
INSERT INTO `analytics_daily` (`chatbot_id`, `day`, `org_id`, `reports`)
SELECT `chatbot_id`, date(`created_at` / 1000, 'unixepoch') AS d, `org_id`, count(*) FROM `bug_reports` WHERE true GROUP BY `chatbot_id`, d
ON CONFLICT (`chatbot_id`, `day`) DO UPDATE SET `reports` = excluded.`reports`;
--> statement-breakpoint
INSERT OR IGNORE INTO `analytics_visitors` (`chatbot_id`, `day`, `visitor_id`)
SELECT DISTINCT c.`chatbot_id`, date(m.`created_at` / 1000, 'unixepoch'), c.`visitor_id`
FROM `messages` m JOIN `conversations` c ON c.`id` = m.`conversation_id` WHERE m.`role` = 'visitor';
--> statement-breakpoint
INSERT INTO `analytics_splits` (`chatbot_id`, `day`, `dim`, `key`, `count`)
SELECT c.`chatbot_id`, a.`day`, 'channel', c.`channel`, count(*)
FROM `analytics_conversations` a JOIN `conversations` c ON c.`id` = a.`conversation_id` GROUP BY c.`chatbot_id`, a.`day`, c.`channel`;
--> statement-breakpoint
INSERT INTO `analytics_splits` (`chatbot_id`, `day`, `dim`, `key`, `count`)
SELECT c.`chatbot_id`, a.`day`, 'country', coalesce(c.`country`, ''), count(*)
FROM `analytics_conversations` a JOIN `conversations` c ON c.`id` = a.`conversation_id` GROUP BY c.`chatbot_id`, a.`day`, coalesce(c.`country`, '');
