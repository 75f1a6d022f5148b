-- The knowledge-move sweep (issue #20, ADR 034): chatbots still in D1 oldest first, a few per cron run;
-- running and stalled moves by phase and last step.
CREATE INDEX `chatbots_knowledge_store_idx` ON `chatbots` (`knowledge_store`,`created_at`);--> statement-breakpoint
CREATE INDEX `knowledge_moves_phase_idx` ON `knowledge_moves` (`phase`,`updated_at`);
