-- Where a chatbot's knowledge lives (issue #20, ADR 034): 'd1' (the shared chunks tables) or 'shard'
-- (its own KnowledgeShard Durable Object).
ALTER TABLE `chatbots` ADD `knowledge_store` text DEFAULT 'd1' NOT NULL;
