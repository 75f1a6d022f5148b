-- Retrieval statistics without counting postings (retrieval/search.ts, ADR 012).
--
-- 1. term_stats: per chatbot, how many chunks contain each term (the stems stored in
--    chunks.features: title+heading `h`, URL path `u`, sentences `b`), and `#chunks`, the chunk
--    count. Triggers on chunks keep it exact through every insert, delete (incl. the cascades from
--    a source or chatbot) and update. A term whose count fell to 0 keeps its row (df = 0 = absent).
CREATE TABLE `term_stats` (
	`chatbot_id` text NOT NULL,
	`term` text NOT NULL,
	`df` integer NOT NULL,
	PRIMARY KEY(`chatbot_id`, `term`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER `chunks_terms_ai` AFTER INSERT ON `chunks` BEGIN
  INSERT INTO term_stats (chatbot_id, term, df) VALUES (new.chatbot_id, '#chunks', 1)
    ON CONFLICT (chatbot_id, term) DO UPDATE SET df = df + 1;
  INSERT INTO term_stats (chatbot_id, term, df)
    SELECT DISTINCT new.chatbot_id, value, 1 FROM json_each(CASE WHEN json_valid(new.features) THEN '["' || replace(coalesce(json_extract(new.features, '$.h'), '') || ' ' || coalesce(json_extract(new.features, '$.u'), '') || ' ' || coalesce((SELECT group_concat(value, ' ') FROM json_each(new.features, '$.b')), ''), ' ', '","') || '"]' END) WHERE value <> ''
    ON CONFLICT (chatbot_id, term) DO UPDATE SET df = df + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_terms_ad` AFTER DELETE ON `chunks` BEGIN
  UPDATE term_stats SET df = df - 1 WHERE chatbot_id = old.chatbot_id
    AND term IN (SELECT value FROM json_each(CASE WHEN json_valid(old.features) THEN '["' || replace(coalesce(json_extract(old.features, '$.h'), '') || ' ' || coalesce(json_extract(old.features, '$.u'), '') || ' ' || coalesce((SELECT group_concat(value, ' ') FROM json_each(old.features, '$.b')), ''), ' ', '","') || '"]' END) WHERE value <> '' UNION ALL SELECT '#chunks');
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_terms_au` AFTER UPDATE OF chatbot_id, features ON `chunks` BEGIN
  UPDATE term_stats SET df = df - 1 WHERE chatbot_id = old.chatbot_id
    AND term IN (SELECT value FROM json_each(CASE WHEN json_valid(old.features) THEN '["' || replace(coalesce(json_extract(old.features, '$.h'), '') || ' ' || coalesce(json_extract(old.features, '$.u'), '') || ' ' || coalesce((SELECT group_concat(value, ' ') FROM json_each(old.features, '$.b')), ''), ' ', '","') || '"]' END) WHERE value <> '' UNION ALL SELECT '#chunks');
  INSERT INTO term_stats (chatbot_id, term, df)
    SELECT DISTINCT new.chatbot_id, value, 1 FROM json_each(CASE WHEN json_valid(new.features) THEN '["' || replace(coalesce(json_extract(new.features, '$.h'), '') || ' ' || coalesce(json_extract(new.features, '$.u'), '') || ' ' || coalesce((SELECT group_concat(value, ' ') FROM json_each(new.features, '$.b')), ''), ' ', '","') || '"]' END) WHERE value <> '' UNION SELECT new.chatbot_id, '#chunks', 1 WHERE true
    ON CONFLICT (chatbot_id, term) DO UPDATE SET df = df + 1;
END;
--> statement-breakpoint
-- Existing chunks (rows indexed before 0005 have no features: they count in #chunks only).
INSERT INTO term_stats (chatbot_id, term, df)
  SELECT chatbot_id, term, count(*) FROM (
    SELECT DISTINCT c.id, c.chatbot_id, t.value AS term FROM chunks c, json_each(CASE WHEN json_valid(c.features) THEN '["' || replace(coalesce(json_extract(c.features, '$.h'), '') || ' ' || coalesce(json_extract(c.features, '$.u'), '') || ' ' || coalesce((SELECT group_concat(value, ' ') FROM json_each(c.features, '$.b')), ''), ' ', '","') || '"]' END) t WHERE t.value <> ''
  ) GROUP BY chatbot_id, term;
--> statement-breakpoint
INSERT INTO term_stats (chatbot_id, term, df)
  SELECT chatbot_id, '#chunks', count(*) FROM chunks GROUP BY chatbot_id;
--> statement-breakpoint
-- 2. chunks_fts again, indexing what the statistics count: the chatbot id as one token (its hex,
--    so one MATCH term confines a search instead of a phrase of the id's parts) and the URL without
--    scheme and host (host words are in every chunk of a site; term_stats does not count them).
--    Values differ from `chunks`, so never run the FTS 'rebuild' command: the triggers index.
DROP TRIGGER `chunks_fts_ai`;
--> statement-breakpoint
DROP TRIGGER `chunks_fts_ad`;
--> statement-breakpoint
DROP TRIGGER `chunks_fts_au`;
--> statement-breakpoint
DROP TABLE `chunks_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `chunks_fts` USING fts5(
  chatbot_id, title, heading, text, url,
  content='chunks', content_rowid='id', tokenize='porter unicode61'
);
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_ai` AFTER INSERT ON `chunks` BEGIN
  INSERT INTO chunks_fts(rowid, chatbot_id, title, heading, text, url) VALUES (new.id, lower(hex(new.chatbot_id)), new.title, coalesce(new.heading, ''), new.text, CASE WHEN instr(coalesce(new.url, ''), '://') > 0 THEN substr(substr(new.url, instr(new.url, '://') + 3), instr(substr(new.url, instr(new.url, '://') + 3) || '/', '/')) ELSE coalesce(new.url, '') END);
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_ad` AFTER DELETE ON `chunks` BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, chatbot_id, title, heading, text, url) VALUES ('delete', old.id, lower(hex(old.chatbot_id)), old.title, coalesce(old.heading, ''), old.text, CASE WHEN instr(coalesce(old.url, ''), '://') > 0 THEN substr(substr(old.url, instr(old.url, '://') + 3), instr(substr(old.url, instr(old.url, '://') + 3) || '/', '/')) ELSE coalesce(old.url, '') END);
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_au` AFTER UPDATE ON `chunks` BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, chatbot_id, title, heading, text, url) VALUES ('delete', old.id, lower(hex(old.chatbot_id)), old.title, coalesce(old.heading, ''), old.text, CASE WHEN instr(coalesce(old.url, ''), '://') > 0 THEN substr(substr(old.url, instr(old.url, '://') + 3), instr(substr(old.url, instr(old.url, '://') + 3) || '/', '/')) ELSE coalesce(old.url, '') END);
  INSERT INTO chunks_fts(rowid, chatbot_id, title, heading, text, url) VALUES (new.id, lower(hex(new.chatbot_id)), new.title, coalesce(new.heading, ''), new.text, CASE WHEN instr(coalesce(new.url, ''), '://') > 0 THEN substr(substr(new.url, instr(new.url, '://') + 3), instr(substr(new.url, instr(new.url, '://') + 3) || '/', '/')) ELSE coalesce(new.url, '') END);
END;
--> statement-breakpoint
INSERT INTO chunks_fts(rowid, chatbot_id, title, heading, text, url) SELECT c.id, lower(hex(c.chatbot_id)), c.title, coalesce(c.heading, ''), c.text, CASE WHEN instr(coalesce(c.url, ''), '://') > 0 THEN substr(substr(c.url, instr(c.url, '://') + 3), instr(substr(c.url, instr(c.url, '://') + 3) || '/', '/')) ELSE coalesce(c.url, '') END FROM chunks c;
