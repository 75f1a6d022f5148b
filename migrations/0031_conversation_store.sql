-- Where a chatbot's conversation rows (the inbox's index) live (issue #20, ADR 044): 'd1', 'moving', or
-- 'shard' (its ConversationShard, next to its messages). Every row starts in D1; stage 1 sets nothing else.
ALTER TABLE `chatbots` ADD `conversation_store` text DEFAULT 'd1' NOT NULL;