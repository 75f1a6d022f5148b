-- Text and Q&A sources' content moves out of `knowledge_sources` (issue #21): that row is read and
-- rewritten at every ingestion step and listed on every knowledge page, and with up to 2 MB of text
-- inline each of those moved the text too. Existing content is copied before the column goes.
CREATE TABLE `knowledge_source_contents` (
	`source_id` text PRIMARY KEY NOT NULL,
	`content` text NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `knowledge_sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `knowledge_source_contents` (`source_id`, `content`) SELECT `id`, `content` FROM `knowledge_sources` WHERE `content` IS NOT NULL;--> statement-breakpoint
ALTER TABLE `knowledge_sources` DROP COLUMN `content`;
