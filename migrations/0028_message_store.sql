-- Where a chatbot's messages live (issue #20, ADR 040): 'd1' (the shared messages table), 'moving', or
-- 'shard' (its own ConversationShard Durable Object).
ALTER TABLE `chatbots` ADD `message_store` text DEFAULT 'd1' NOT NULL;