// The message tables of one chatbot's conversation shard (issue #20, ADR 040): the same shape D1's
// `messages` (migrations 0001, 0009) and `conversation_search` (0010) have, so the message store's
// D1 implementation runs unchanged over the shard's storage. No foreign key: the conversation rows
// stay in D1; deleting the chatbot empties the whole object. Two indexes more than D1: a retried
// send is looked up by its client message id alone (D1 starts from the visitor's conversations),
// and the daily digest counts a day's handoff notes and thumbs-down by role and time (D1 starts
// from the day's active conversations).

export const MESSAGE_SHARD_SCHEMA_VERSION = 1;

export const MESSAGE_SHARD_SCHEMA = `
CREATE TABLE IF NOT EXISTS messages (
  id TEXT PRIMARY KEY NOT NULL,
  conversation_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  chatbot_id TEXT NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  sources TEXT DEFAULT '[]' NOT NULL,
  answered INTEGER,
  model TEXT,
  latency_ms INTEGER,
  first_token_ms INTEGER,
  credits INTEGER DEFAULT 0 NOT NULL,
  feedback INTEGER,
  client_message_id TEXT,
  created_at INTEGER DEFAULT (unixepoch() * 1000) NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_conversation_idx ON messages (conversation_id, created_at);
CREATE UNIQUE INDEX IF NOT EXISTS messages_client_message_unique ON messages (conversation_id, client_message_id);
CREATE INDEX IF NOT EXISTS messages_client_id_idx ON messages (client_message_id) WHERE client_message_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS messages_role_time_idx ON messages (role, created_at);
CREATE VIRTUAL TABLE IF NOT EXISTS conversation_search USING fts5(
  chatbot_id, body, conversation_id UNINDEXED,
  tokenize='porter unicode61'
);
`;
