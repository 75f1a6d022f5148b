// The message tables of one chatbot's conversation shard (issue #20, ADR 040): the same shape D1's
// `messages` (migrations 0001, 0009) and `conversation_search` (0010) have, so the message store's
// D1 implementation runs unchanged over the shard's storage. No foreign key: the conversation rows
// are D1's (from version 2 they can also be here, ADR 044); deleting the chatbot empties the whole object. Two indexes more than D1: a retried
// send is looked up by its client message id alone (D1 starts from the visitor's conversations),
// and the daily digest counts a day's handoff notes and thumbs-down by role and time (D1 starts
// from the day's active conversations).

// Version 2 adds the conversation index (ADR 044): `conversations` and `conversation_agents` in D1's
// shape (migrations 0001, 0016 and the list's partial indexes) without foreign keys, and
// `visitor_leads`, the newest contact each visitor left (D1's `leads` stays the record; a new
// conversation copies from this one so a turn never reads D1 for it). Every statement is
// IF NOT EXISTS, so a version-1 object gains the tables on its next call and keeps its messages.
//
// Version 3 adds `analytics_conversations` in D1's shape (migration 0033, no foreign key): which of
// the chatbot's conversations analytics has counted, on which day, and which are unresolved, so the
// once-only decisions are taken next to the conversation (ConversationIndex.countOnce, ADR 048).
//
// Version 4 adds the per-conversation state only the inbox and the answer engine use (ADR 054), in
// D1's shape without foreign keys: agents' `conversation_notes` (migrations 0018, 0033) and the
// built-in engine's `tool_pending_calls` (0022, 0033). Written here only for a chatbot whose
// conversation index is in this object.
//
// Version 5 adds `analytics_visitors` in D1's shape (migration 0013, no foreign key): the chatbot's
// visitors by day, written by the once-only analytics mark of a visitor's message (ADR 076), so the
// row a visitor adds each day they write stays out of D1; D1 keeps the daily totals.
//
// Version 6 adds the question groups in D1's shape (migration 0013, no foreign key):
// `analytics_questions` and `analytics_question_days`, written by the same once-only mark when the
// message was a question (ADR 077), and `analytics_question_moves`, the pages of D1's rows the
// cron's sweep has added here (each once).
export const MESSAGE_SHARD_SCHEMA_VERSION = 6;

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
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY NOT NULL,
  org_id TEXT NOT NULL,
  chatbot_id TEXT NOT NULL,
  visitor_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  status TEXT DEFAULT 'bot' NOT NULL,
  verified INTEGER DEFAULT false NOT NULL,
  country TEXT,
  rating INTEGER,
  title TEXT,
  message_count INTEGER DEFAULT 0 NOT NULL,
  created_at INTEGER DEFAULT (unixepoch() * 1000) NOT NULL,
  last_message_at INTEGER DEFAULT (unixepoch() * 1000) NOT NULL,
  unanswered INTEGER DEFAULT false NOT NULL,
  reported INTEGER DEFAULT false NOT NULL,
  has_lead INTEGER DEFAULT false NOT NULL,
  lead_name TEXT,
  lead_email TEXT,
  page_url TEXT
);
CREATE INDEX IF NOT EXISTS conversations_visitor_idx ON conversations (chatbot_id, visitor_id);
CREATE INDEX IF NOT EXISTS conversations_list_idx ON conversations (org_id, chatbot_id, last_message_at, id, message_count) WHERE message_count > 0;
CREATE INDEX IF NOT EXISTS conversations_unanswered_idx ON conversations (org_id, chatbot_id, last_message_at, id, message_count) WHERE message_count > 0 and unanswered = 1;
CREATE INDEX IF NOT EXISTS conversations_rated_down_idx ON conversations (org_id, chatbot_id, last_message_at, id, message_count) WHERE message_count > 0 and rating = -1;
CREATE INDEX IF NOT EXISTS conversations_reported_idx ON conversations (org_id, chatbot_id, last_message_at, id, message_count) WHERE message_count > 0 and reported = 1;
CREATE INDEX IF NOT EXISTS conversations_waiting_idx ON conversations (org_id, chatbot_id, last_message_at, id, message_count) WHERE message_count > 0 and status = 'waiting';
CREATE INDEX IF NOT EXISTS conversations_lead_idx ON conversations (org_id, chatbot_id, last_message_at, id, message_count) WHERE message_count > 0 and has_lead = 1;
CREATE INDEX IF NOT EXISTS conversations_lead_email_idx ON conversations (chatbot_id, lead_email) WHERE lead_email is not null;
CREATE INDEX IF NOT EXISTS conversations_live_idx ON conversations (org_id, chatbot_id, status, last_message_at) WHERE status in ('waiting', 'human');
CREATE TABLE IF NOT EXISTS conversation_agents (
  conversation_id TEXT PRIMARY KEY NOT NULL,
  org_id TEXT NOT NULL,
  chatbot_id TEXT NOT NULL,
  user_id TEXT,
  agent_name TEXT NOT NULL,
  taken_at INTEGER NOT NULL,
  closed_at INTEGER
);
CREATE INDEX IF NOT EXISTS conversation_agents_user_idx ON conversation_agents (chatbot_id, user_id);
CREATE INDEX IF NOT EXISTS conversation_agents_closed_idx ON conversation_agents (chatbot_id, closed_at) WHERE closed_at is not null;
CREATE TABLE IF NOT EXISTS analytics_conversations (
  conversation_id TEXT PRIMARY KEY NOT NULL,
  chatbot_id TEXT NOT NULL,
  day TEXT NOT NULL,
  problem INTEGER DEFAULT false NOT NULL
);
CREATE TABLE IF NOT EXISTS visitor_leads (
  visitor_id TEXT PRIMARY KEY NOT NULL,
  name TEXT,
  email TEXT,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS conversation_notes (
  id TEXT PRIMARY KEY NOT NULL,
  org_id TEXT NOT NULL,
  chatbot_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  user_id TEXT,
  author_name TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER DEFAULT (unixepoch() * 1000) NOT NULL
);
CREATE INDEX IF NOT EXISTS conversation_notes_conversation_idx ON conversation_notes (conversation_id, created_at);
CREATE TABLE IF NOT EXISTS analytics_visitors (
  chatbot_id TEXT NOT NULL,
  day TEXT NOT NULL,
  visitor_id TEXT NOT NULL,
  PRIMARY KEY (chatbot_id, day, visitor_id)
);
CREATE TABLE IF NOT EXISTS analytics_questions (
  chatbot_id TEXT NOT NULL,
  key TEXT NOT NULL,
  org_id TEXT NOT NULL,
  text TEXT NOT NULL,
  asked INTEGER DEFAULT 0 NOT NULL,
  unanswered INTEGER DEFAULT 0 NOT NULL,
  last_asked_at INTEGER NOT NULL,
  last_unanswered_at INTEGER,
  answered_at INTEGER,
  answered_by TEXT,
  answer_source_id TEXT,
  PRIMARY KEY (chatbot_id, key)
);
CREATE INDEX IF NOT EXISTS analytics_questions_asked_idx ON analytics_questions (chatbot_id, asked);
CREATE INDEX IF NOT EXISTS analytics_questions_unanswered_idx ON analytics_questions (chatbot_id, unanswered) WHERE answered_at is null;
CREATE TABLE IF NOT EXISTS analytics_question_days (
  chatbot_id TEXT NOT NULL,
  day TEXT NOT NULL,
  key TEXT NOT NULL,
  asked INTEGER DEFAULT 0 NOT NULL,
  unanswered INTEGER DEFAULT 0 NOT NULL,
  PRIMARY KEY (chatbot_id, day, key)
);
CREATE INDEX IF NOT EXISTS analytics_question_days_key_idx ON analytics_question_days (chatbot_id, key, day, asked, unanswered);
CREATE TABLE IF NOT EXISTS analytics_question_moves (
  batch TEXT PRIMARY KEY NOT NULL,
  nonce TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tool_pending_calls (
  conversation_id TEXT PRIMARY KEY NOT NULL,
  chatbot_id TEXT NOT NULL,
  tool_id TEXT NOT NULL,
  stage TEXT NOT NULL,
  params TEXT DEFAULT '{}' NOT NULL,
  expires_at INTEGER NOT NULL
);
`;
