-- Full-text index over chunks (BM25 via FTS5's bm25()). External-content table kept in step by
-- triggers. chatbot_id is indexed so a query can be confined to one chatbot inside MATCH
-- (weight 0 in bm25()); url is indexed because URL slugs name what a page is about.
CREATE VIRTUAL TABLE `chunks_fts` USING fts5(
  chatbot_id, title, heading, text, url,
  content='chunks', content_rowid='id', tokenize='porter unicode61'
);
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_ai` AFTER INSERT ON `chunks` BEGIN
  INSERT INTO chunks_fts(rowid, chatbot_id, title, heading, text, url)
  VALUES (new.id, new.chatbot_id, new.title, coalesce(new.heading, ''), new.text, coalesce(new.url, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_ad` AFTER DELETE ON `chunks` BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, chatbot_id, title, heading, text, url)
  VALUES ('delete', old.id, old.chatbot_id, old.title, coalesce(old.heading, ''), old.text, coalesce(old.url, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_au` AFTER UPDATE ON `chunks` BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, chatbot_id, title, heading, text, url)
  VALUES ('delete', old.id, old.chatbot_id, old.title, coalesce(old.heading, ''), old.text, coalesce(old.url, ''));
  INSERT INTO chunks_fts(rowid, chatbot_id, title, heading, text, url)
  VALUES (new.id, new.chatbot_id, new.title, coalesce(new.heading, ''), new.text, coalesce(new.url, ''));
END;
