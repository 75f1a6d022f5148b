// The knowledge tables of one chatbot's shard (issue #20): the same shape D1 has after migrations
// 0001–0007, so retrieval and indexing run on either unchanged. The triggers keep FTS5 and the term
// statistics exact, as in D1 (ADR 012). `knowledge_sources` holds only what retrieval reads of a
// source (its type: Q&A pairs rank differently, ADR 022); the source itself stays in D1. A text or
// Q&A source's own content is here too (version 2, ADR 075), in the parts D1 used.

/** The stems a chunk's features list (title+heading `h`, URL path `u`, sentences `b`) as a JSON array. */
const featureTerms = (row: "new" | "old") =>
  `json_each(CASE WHEN json_valid(${row}.features) THEN '["' || replace(coalesce(json_extract(${row}.features, '$.h'), '') || ' ' || coalesce(json_extract(${row}.features, '$.u'), '') || ' ' || coalesce((SELECT group_concat(value, ' ') FROM json_each(${row}.features, '$.b')), ''), ' ', '","') || '"]' END)`;

/** The URL without scheme and host, as D1's chunks_fts indexes it (host words are in every chunk of a site). */
const urlPath = (row: "new" | "old") =>
  `CASE WHEN instr(coalesce(${row}.url, ''), '://') > 0 THEN substr(substr(${row}.url, instr(${row}.url, '://') + 3), instr(substr(${row}.url, instr(${row}.url, '://') + 3) || '/', '/')) ELSE coalesce(${row}.url, '') END`;

const ftsRow = (row: "new" | "old") => `${row}.id, lower(hex(${row}.chatbot_id)), ${row}.title, coalesce(${row}.heading, ''), ${row}.text, ${urlPath(row)}`;

export const SHARD_SCHEMA_VERSION = 2;

export const SHARD_SCHEMA = `
CREATE TABLE IF NOT EXISTS knowledge_sources (id TEXT PRIMARY KEY NOT NULL, type TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS knowledge_source_contents (source_id TEXT NOT NULL, start INTEGER NOT NULL, content TEXT NOT NULL, PRIMARY KEY (source_id, start));
CREATE TABLE IF NOT EXISTS chunks (
  id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  source_id TEXT NOT NULL,
  chatbot_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  title TEXT NOT NULL,
  heading TEXT,
  url TEXT,
  text TEXT NOT NULL,
  created_at INTEGER DEFAULT (unixepoch() * 1000) NOT NULL,
  features TEXT
);
CREATE INDEX IF NOT EXISTS chunks_source_idx ON chunks (source_id, position);
CREATE TABLE IF NOT EXISTS chunk_vectors (
  chunk_id INTEGER PRIMARY KEY NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  chatbot_id TEXT NOT NULL,
  model TEXT NOT NULL,
  vector BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS term_stats (chatbot_id TEXT NOT NULL, term TEXT NOT NULL, df INTEGER NOT NULL, PRIMARY KEY (chatbot_id, term)) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(chatbot_id, title, heading, text, url, content='chunks', content_rowid='id', tokenize='porter unicode61');
CREATE TRIGGER IF NOT EXISTS chunks_terms_ai AFTER INSERT ON chunks BEGIN
  INSERT INTO term_stats (chatbot_id, term, df) VALUES (new.chatbot_id, '#chunks', 1) ON CONFLICT (chatbot_id, term) DO UPDATE SET df = df + 1;
  INSERT INTO term_stats (chatbot_id, term, df) SELECT DISTINCT new.chatbot_id, value, 1 FROM ${featureTerms("new")} WHERE value <> '' ON CONFLICT (chatbot_id, term) DO UPDATE SET df = df + 1;
  INSERT INTO chunks_fts (rowid, chatbot_id, title, heading, text, url) VALUES (${ftsRow("new")});
END;
CREATE TRIGGER IF NOT EXISTS chunks_terms_ad AFTER DELETE ON chunks BEGIN
  UPDATE term_stats SET df = df - 1 WHERE chatbot_id = old.chatbot_id AND term IN (SELECT value FROM ${featureTerms("old")} WHERE value <> '' UNION ALL SELECT '#chunks');
  INSERT INTO chunks_fts (chunks_fts, rowid, chatbot_id, title, heading, text, url) VALUES ('delete', ${ftsRow("old")});
END;
`;
