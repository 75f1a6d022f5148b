-- A text or Q&A source's content is stored in parts, each under D1's 2,000,000-byte cap on a string
-- or row (issue #21, ADR 045): the plans count characters, and 2 M characters of non-Latin text are
-- more bytes than one row may hold. Existing content becomes its source's one part, starting at 0.
-- Nothing references this table, so it is rebuilt without deferring foreign keys.
CREATE TABLE `__new_knowledge_source_contents` (
	`source_id` text NOT NULL,
	`start` integer DEFAULT 0 NOT NULL,
	`content` text NOT NULL,
	PRIMARY KEY(`source_id`, `start`),
	FOREIGN KEY (`source_id`) REFERENCES `knowledge_sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_knowledge_source_contents`("source_id", "start", "content") SELECT "source_id", 0, "content" FROM `knowledge_source_contents`;--> statement-breakpoint
DROP TABLE `knowledge_source_contents`;--> statement-breakpoint
ALTER TABLE `__new_knowledge_source_contents` RENAME TO `knowledge_source_contents`;
