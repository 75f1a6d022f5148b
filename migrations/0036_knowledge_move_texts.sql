-- A move of a chatbot's knowledge into its shard also copies its text and Q&A sources' own content
-- (ADR 075); this is where that copy stands: the last part copied, as JSON [sourceId, start].
ALTER TABLE `knowledge_moves` ADD `text_cursor` text;
