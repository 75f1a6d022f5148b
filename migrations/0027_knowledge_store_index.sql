-- The knowledge-move sweep (issue #20, ADR 034) reads chatbots still in D1, oldest first, a few per cron run.
CREATE INDEX `chatbots_knowledge_store_idx` ON `chatbots` (`knowledge_store`,`created_at`);
