import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { SiteEventKind } from "../../lib/widget-sites";

// Times are stored as integer milliseconds since the epoch (Date.now()).
const createdAt = () =>
  integer("created_at")
    .notNull()
    .default(sql`(unixepoch() * 1000)`);

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    emailVerifiedAt: integer("email_verified_at"),
    lastOrgId: text("last_org_id"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

// Lucia design: the id is the SHA-256 of the token the browser holds.
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const emailTokens = sqliteTable(
  "email_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["verify", "reset"] }).notNull(),
    // SHA-256 of the link token and of the 6-digit code (verify only); the raw values are never stored.
    tokenHash: text("token_hash").notNull(),
    codeHash: text("code_hash"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("email_tokens_hash_unique").on(t.tokenHash), index("email_tokens_user_idx").on(t.userId, t.purpose)],
);

export const organisations = sqliteTable(
  "organisations",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    plan: text("plan", { enum: ["free", "starter", "growth", "scale"] })
      .notNull()
      .default("free"),
    periodStart: integer("period_start").notNull(),
    /** Stripe ids once the organisation has paid through Checkout (app/.server/billing/stripe.ts). */
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    /** `created` (ms) of the last Stripe event applied to the plan: an older event arriving late changes nothing. */
    billingEventAt: integer("billing_event_at"),
    createdAt: createdAt(),
    /** IANA time zone of the organisation's days (analytics, digests); validated by app/lib/time-zone.ts. */
    timeZone: text("time_zone").notNull().default("UTC"),
  },
  (t) => [uniqueIndex("organisations_slug_unique").on(t.slug)],
);

// Stripe webhook events already handled: a redelivered event (same id) is acknowledged and skipped.
export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  orgId: text("org_id"),
  receivedAt: integer("received_at")
    .notNull()
    .default(sql`(unixepoch() * 1000)`),
});

export const ROLES = ["owner", "admin", "editor", "agent"] as const;
export type Role = (typeof ROLES)[number];

export const memberships = sqliteTable(
  "memberships",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("invitations_token_unique").on(t.tokenHash), index("invitations_org_idx").on(t.orgId)],
);

export const chatbots = sqliteTable(
  "chatbots",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    visibility: text("visibility", { enum: ["public", "private"] })
      .notNull()
      .default("public"),
    // One JSON document per settings section (general, ui, access, notifications, voice…);
    // each section is validated by its own zod schema in app/lib.
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    /** Identity-verification secret, encrypted at rest (app/.server/crypto/secret-box.ts); null until generated. */
    identitySecret: text("identity_secret"),
    /** Where the chatbot's knowledge lives (ADR 034): D1's shared tables, on its way to its shard (D1 still serves), or its own knowledge shard. */
    knowledgeStore: text("knowledge_store", { enum: ["d1", "moving", "shard"] })
      .notNull()
      .default("d1"),
    /** Where the chatbot's messages live (ADR 040): D1's messages table, on their way to its conversation shard (D1 still serves), or the shard. */
    messageStore: text("message_store", { enum: ["d1", "moving", "shard"] })
      .notNull()
      .default("d1"),
    /** Where the chatbot's conversation rows (the inbox's index) live (ADR 044): D1, on their way to its conversation shard (D1 still serves), or the shard — only with messageStore 'shard'. */
    conversationStore: text("conversation_store", { enum: ["d1", "moving", "shard"] })
      .notNull()
      .default("d1"),
    /**
     * Whether D1's `analytics_visitors` may still hold rows of this chatbot whose index is in its shard
     * (ADR 076): set when the index switches (and for those in the shard before), cleared by the
     * cron's sweep once it has moved them all (analytics/visitors.ts).
     */
    visitorsInD1: integer("visitors_in_d1", { mode: "boolean" }).notNull().default(false),
    /**
     * Whether D1's question groups (`analytics_questions`, `analytics_question_days`) may still hold
     * rows of this chatbot whose index is in its shard (ADR 077): set like `visitorsInD1`, cleared by
     * the cron's sweep once it has moved them all (analytics/question-groups.ts).
     */
    questionsInD1: integer("questions_in_d1", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at")
      .notNull()
      .default(sql`(unixepoch() * 1000)`),
  },
  // The knowledge-move and message-move sweeps (ADR 034, 042) read chatbots still in D1, oldest first, a few per run.
  (t) => [
    index("chatbots_org_idx").on(t.orgId),
    index("chatbots_knowledge_store_idx").on(t.knowledgeStore, t.createdAt),
    index("chatbots_message_store_idx").on(t.messageStore, t.createdAt),
    // The stray-visitor sweep reads the few flagged ones.
    index("chatbots_visitors_in_d1_idx")
      .on(t.id)
      .where(sql`visitors_in_d1 = 1`),
    index("chatbots_questions_in_d1_idx")
      .on(t.id)
      .where(sql`questions_in_d1 = 1`),
  ],
);

/**
 * The move of one chatbot's knowledge from D1 into its shard (ADR 034, app/.server/retrieval/knowledge-move.ts):
 * resumable, one bounded step per queue message. `cursor` is the last chunk id copied; `signature`
 * the D1 side's "count:max id" the last verification saw, so the switch happens only if nothing changed.
 */
export const knowledgeMoves = sqliteTable(
  "knowledge_moves",
  {
    chatbotId: text("chatbot_id")
      .primaryKey()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    phase: text("phase", { enum: ["copy", "texts", "verify", "switch", "cleanup", "done", "failed"] }).notNull(),
    cursor: integer("cursor").notNull().default(0),
    /** Phase 'texts': the last source content part copied, as JSON [sourceId, start] (ADR 075). */
    textCursor: text("text_cursor"),
    copied: integer("copied").notNull().default(0),
    total: integer("total").notNull().default(0),
    signature: text("signature"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    startedAt: integer("started_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  // The sweep counts running moves and finds stalled ones by phase and last step.
  (t) => [index("knowledge_moves_phase_idx").on(t.phase, t.updatedAt)],
);

/**
 * The move of one chatbot's messages from D1 into its conversation shard (ADR 042,
 * app/.server/chat/message-move.ts): resumable, one bounded step per queue message. The passes go
 * through the chatbot's conversations in (last activity, id) order; `cursor` is where the current
 * pass is ("<last_message_at>|<id>", empty at its start) and `roundFrom` where it started (0: all of
 * them). `signature` is D1's "conversations:messages:last activity" when the last check began, so
 * the switch happens only if nothing was written since; `switchedAt` starts the grace period in
 * which a request that read 'moving' may still write to D1 (its rows are copied before they go).
 */
export const messageMoves = sqliteTable(
  "message_moves",
  {
    chatbotId: text("chatbot_id")
      .primaryKey()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    phase: text("phase", { enum: ["copy", "verify", "switch", "cleanup", "done", "failed"] }).notNull(),
    cursor: text("cursor").notNull().default(""),
    roundFrom: integer("round_from").notNull().default(0),
    /** Messages copied (copy), checked (verify) and removed from D1 (cleanup), for the owner's progress line. */
    copied: integer("copied").notNull().default(0),
    checked: integer("checked").notNull().default(0),
    removed: integer("removed").notNull().default(0),
    total: integer("total").notNull().default(0),
    signature: text("signature"),
    /** Checks after the first: each one re-checks what was written during the one before. */
    rounds: integer("rounds").notNull().default(0),
    /** Steps that failed in a row (the queue retries them); the move fails at five before the switch. */
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    startedAt: integer("started_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    switchedAt: integer("switched_at"),
    finishedAt: integer("finished_at"),
  },
  // The sweep counts running moves and finds stalled ones by phase and last step.
  (t) => [index("message_moves_phase_idx").on(t.phase, t.updatedAt)],
);

/**
 * The move of one chatbot's conversation index (its conversation rows, their live agents, analytics'
 * counted-once marks and its visitors' contacts) from D1 into its conversation shard (ADR 051,
 * app/.server/chat/conversation-move.ts): resumable, one bounded step per queue message.
 * `cursor` is where the current pass is ("<visitor_id>|<id>" for conversations, a visitor id for
 * leads; empty at its start). Writes to D1 while the move runs are noted, per conversation, in
 * `conversation_move_dirty` by triggers (migration 0034), so the switch waits for an exact "nothing
 * changed since it was checked" rather than a signature.
 */
export const conversationMoves = sqliteTable(
  "conversation_moves",
  {
    chatbotId: text("chatbot_id")
      .primaryKey()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    phase: text("phase", { enum: ["copy", "leads", "switch", "cleanup", "done", "failed"] }).notNull(),
    cursor: text("cursor").notNull().default(""),
    /** Conversations copied and checked (copy), removed from D1 (cleanup), of the total when the move started. */
    copied: integer("copied").notNull().default(0),
    removed: integer("removed").notNull().default(0),
    total: integer("total").notNull().default(0),
    /** Switch attempts that found conversations written since they were checked. */
    rounds: integer("rounds").notNull().default(0),
    /** Steps that failed in a row (the queue retries them); the move fails at five before the switch. */
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    startedAt: integer("started_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    switchedAt: integer("switched_at"),
    finishedAt: integer("finished_at"),
  },
  // The sweep counts running moves and finds stalled ones by phase and last step.
  (t) => [index("conversation_moves_phase_idx").on(t.phase, t.updatedAt)],
);

/**
 * Conversations written in D1 while their chatbot's conversation move runs (triggers of migration
 * 0034 on `conversations`, `conversation_agents`, `analytics_conversations`; an empty id: the
 * chatbot's `leads` changed). The move copies them again before it switches and after.
 */
export const conversationMoveDirty = sqliteTable(
  "conversation_move_dirty",
  {
    // No foreign key: deleting a chatbot deletes its leads, whose trigger may note the chatbot here
    // after its row is gone (a foreign key would then fail the delete). The move removes its rows.
    chatbotId: text("chatbot_id").notNull(),
    conversationId: text("conversation_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.conversationId] })],
);

// Fixed-window counters for throttling (login, signup, reset…) that hold across Worker instances.
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

// Development mail outbox (only written when ENVIRONMENT=development).
export const devOutbox = sqliteTable("dev_outbox", {
  id: text("id").primaryKey(),
  to: text("to_address").notNull(),
  subject: text("subject").notNull(),
  text: text("text_body").notNull(),
  createdAt: createdAt(),
});

// ——— Knowledge, conversations and usage (answer engine) ———

export const SOURCE_TYPES = ["text", "qa", "file", "url", "site", "woocommerce"] as const;
export const SOURCE_STATUSES = ["queued", "processing", "ready", "failed"] as const;

export const knowledgeSources = sqliteTable(
  "knowledge_sources",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    type: text("type", { enum: SOURCE_TYPES }).notNull(),
    title: text("title").notNull(),
    /** URL for url/site, R2 key for file, null for text/qa (their content is in knowledge_source_contents). */
    location: text("location"),
    /** Type-specific options as JSON (file name/size/mime; crawl include/exclude/page cap). */
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    status: text("status", { enum: SOURCE_STATUSES }).notNull().default("queued"),
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total").notNull().default(0),
    /** Plain-words reason when status is failed. */
    error: text("error"),
    charCount: integer("char_count").notNull().default(0),
    chunkCount: integer("chunk_count").notNull().default(0),
    schedule: text("schedule", { enum: ["off", "daily", "weekly"] })
      .notNull()
      .default("off"),
    lastSyncedAt: integer("last_synced_at"),
    nextSyncAt: integer("next_sync_at"),
    /** Resumable ingestion state (JSON): which step, cursor, pending URLs… */
    jobState: text("job_state", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Last time a worker touched the job: a stale heartbeat means the job died and is resumed. */
    heartbeatAt: integer("heartbeat_at"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer("updated_at")
      .notNull()
      .default(sql`(unixepoch() * 1000)`),
  },
  (t) => [index("knowledge_sources_chatbot_idx").on(t.chatbotId), index("knowledge_sources_status_idx").on(t.status, t.heartbeatAt)],
);

/**
 * What a text or Q&A source says, in parts (text sources: the text; Q&A sources: each part a JSON
 * array [{question, answer}]). Apart from `knowledge_sources` because that row is read and rewritten
 * at every ingestion step and listed on every knowledge page. In parts because D1 refuses a string
 * or row over 2,000,000 bytes while the plans count characters: 2 M characters of non-Latin text
 * are up to 6 MB of UTF-8 (ADR 045). `start` is where the part begins: for text, in characters
 * (code points, as SQLite's substr() counts them); for Q&A, the index of its first pair.
 */
export const knowledgeSourceContents = sqliteTable(
  "knowledge_source_contents",
  {
    sourceId: text("source_id")
      .notNull()
      .references(() => knowledgeSources.id, { onDelete: "cascade" }),
    start: integer("start").notNull().default(0),
    content: text("content").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.start] })],
);

// Integer rowid so the FTS5 index (migrations/0002) can use it as its content rowid.
export const chunks = sqliteTable(
  "chunks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sourceId: text("source_id")
      .notNull()
      .references(() => knowledgeSources.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id").notNull(),
    orgId: text("org_id").notNull(),
    position: integer("position").notNull(),
    title: text("title").notNull(),
    heading: text("heading"),
    url: text("url"),
    text: text("text").notNull(),
    /** Re-ranking features computed at indexing (retrieval/chunk-features.ts); null on older rows. */
    features: text("features"),
    createdAt: createdAt(),
  },
  (t) => [index("chunks_source_idx").on(t.sourceId, t.position), index("chunks_chatbot_idx").on(t.chatbotId)],
);

/**
 * Document frequencies per chatbot: how many of its chunks contain each term (a stem of
 * retrieval/text.ts, from the chunk's stored features), plus the term `#chunks` holding its chunk
 * count. Kept exact by triggers on `chunks` (migration 0007), so a query reads the statistics it
 * needs in one indexed lookup instead of counting FTS postings (retrieval/search.ts).
 */
export const termStats = sqliteTable(
  "term_stats",
  {
    chatbotId: text("chatbot_id").notNull(),
    term: text("term").notNull(),
    df: integer("df").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.term] })],
);

/** The local vector store (used when no Vectorize binding is reachable): Float32 little-endian blobs. */
export const chunkVectors = sqliteTable(
  "chunk_vectors",
  {
    chunkId: integer("chunk_id")
      .primaryKey()
      .references(() => chunks.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id").notNull(),
    model: text("model").notNull(),
    vector: blob("vector", { mode: "buffer" }).notNull(),
  },
  (t) => [index("chunk_vectors_chatbot_idx").on(t.chatbotId)],
);

export const CHANNELS = ["widget", "test", "api", "voice", "phone", "playground"] as const;
export const CONVERSATION_STATUSES = ["bot", "waiting", "human", "closed"] as const;

export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    visitorId: text("visitor_id").notNull(),
    channel: text("channel", { enum: CHANNELS }).notNull(),
    status: text("status", { enum: CONVERSATION_STATUSES }).notNull().default("bot"),
    verified: integer("verified", { mode: "boolean" }).notNull().default(false),
    country: text("country"),
    rating: integer("rating"),
    title: text("title"),
    messageCount: integer("message_count").notNull().default(0),
    createdAt: createdAt(),
    lastMessageAt: integer("last_message_at")
      .notNull()
      .default(sql`(unixepoch() * 1000)`),
    // What the conversation list shows and filters on, kept up to date where messages, leads and
    // reports are written (chat/conversations.ts, leads/leads.ts, widget/visitor-actions.ts), so
    // each filter is a range scan of its own partial index. "Rated down" is `rating = -1` and
    // "waiting for a human" is `status = 'waiting'`: those columns already say it.
    /** A bot reply fell back, hit the reply limit or failed (chat/answer.ts); stays set. */
    unanswered: integer("unanswered", { mode: "boolean" }).notNull().default(false),
    /** Someone reported a problem in this conversation; stays set. */
    reported: integer("reported", { mode: "boolean" }).notNull().default(false),
    /** The visitor left contact details in this conversation or elsewhere on this chatbot. */
    hasLead: integer("has_lead", { mode: "boolean" }).notNull().default(false),
    /** The newest name and email among those leads (lowercased email, searched by prefix). */
    leadName: text("lead_name"),
    leadEmail: text("lead_email"),
    /** The page of the customer's site the visitor last wrote from (origin and path, sent by the widget). */
    pageUrl: text("page_url"),
  },
  (t) => {
    // Keyset order of the list: newest activity first, id breaks ties. One partial index per filter,
    // each with the list's own condition; message_count rides along so that counting a filter reads
    // only its index (SQLite re-checks a range term like `> 0` from the index, equalities it omits).
    const order = [t.orgId, t.chatbotId, t.lastMessageAt, t.id, t.messageCount] as const;
    return [
      index("conversations_list_idx")
        .on(...order)
        .where(sql`${t.messageCount} > 0`),
      index("conversations_unanswered_idx")
        .on(...order)
        .where(sql`${t.messageCount} > 0 and ${t.unanswered} = 1`),
      index("conversations_rated_down_idx")
        .on(...order)
        .where(sql`${t.messageCount} > 0 and ${t.rating} = -1`),
      index("conversations_reported_idx")
        .on(...order)
        .where(sql`${t.messageCount} > 0 and ${t.reported} = 1`),
      index("conversations_waiting_idx")
        .on(...order)
        .where(sql`${t.messageCount} > 0 and ${t.status} = 'waiting'`),
      index("conversations_lead_idx")
        .on(...order)
        .where(sql`${t.messageCount} > 0 and ${t.hasLead} = 1`),
      index("conversations_lead_email_idx")
        .on(t.chatbotId, t.leadEmail)
        .where(sql`${t.leadEmail} is not null`),
      index("conversations_visitor_idx").on(t.chatbotId, t.visitorId),
      // The live-chat inbox's "waiting" and "live" lists (migration 0016).
      index("conversations_live_idx")
        .on(t.orgId, t.chatbotId, t.status, t.lastMessageAt)
        .where(sql`${t.status} in ('waiting', 'human')`),
    ];
  },
);

export const MESSAGE_ROLES = ["visitor", "bot", "human", "tool", "system"] as const;

export type MessageSource = { sourceId: string; chunkId: number; title: string; url: string | null; snippet: string; score: number };

export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    chatbotId: text("chatbot_id").notNull(),
    role: text("role", { enum: MESSAGE_ROLES }).notNull(),
    content: text("content").notNull(),
    sources: text("sources", { mode: "json" }).$type<MessageSource[]>().notNull().default([]),
    /** Whether the bot answered from knowledge (false: fallback / small talk). */
    answered: integer("answered", { mode: "boolean" }),
    model: text("model"),
    latencyMs: integer("latency_ms"),
    firstTokenMs: integer("first_token_ms"),
    credits: integer("credits").notNull().default(0),
    feedback: integer("feedback"),
    /** The widget's id for a visitor message, so a retried send is stored (and counted) once. */
    clientMessageId: text("client_message_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("messages_conversation_idx").on(t.conversationId, t.createdAt),
    uniqueIndex("messages_client_message_unique").on(t.conversationId, t.clientMessageId),
  ],
);

/** Per-organisation usage in a billing period (period = the period's start, ms). */
export const usageCounters = sqliteTable(
  "usage_counters",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    period: integer("period").notNull(),
    replies: integer("replies").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.period] })],
);

// ——— Widget, leads and the public API ———

/** REST API keys, one chatbot each. The key is shown once; only its SHA-256 and a prefix are kept. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The first characters of the key ("pk_live_ab12…"), to recognise it in the list. */
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_unique").on(t.keyHash), index("api_keys_chatbot_idx").on(t.chatbotId)],
);

import { LEAD_STATUSES } from "../../lib/schemas/leads";
export { LEAD_STATUSES };

export const leads = sqliteTable(
  "leads",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id"),
    visitorId: text("visitor_id"),
    name: text("name"),
    email: text("email"),
    phone: text("phone"),
    custom: text("custom", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
    status: text("status", { enum: LEAD_STATUSES }).notNull().default("new"),
    notes: text("notes"),
    /** widget | api | … — where the lead was captured. */
    source: text("source").notNull().default("widget"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at")
      .notNull()
      .default(sql`(unixepoch() * 1000)`),
  },
  // The leads screen pages newest first in (created_at, id) order: one index for the whole list and
  // date ranges, one per status filter; the email index finds a repeat lead (de-duplication).
  (t) => [
    index("leads_list_idx").on(t.chatbotId, t.createdAt, t.id),
    index("leads_status_idx").on(t.chatbotId, t.status, t.createdAt, t.id),
    index("leads_email_idx")
      .on(t.chatbotId, t.email)
      .where(sql`${t.email} is not null`),
    index("leads_visitor_idx").on(t.chatbotId, t.visitorId),
  ],
);

/** Every conversation a lead came from (a repeat lead links its new conversation here). */
export const leadConversations = sqliteTable(
  "lead_conversations",
  {
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.conversationId] }), index("lead_conversations_conversation_idx").on(t.conversationId)],
);

export const LEAD_EVENT_KINDS = ["created", "updated", "status", "notes", "conversation"] as const;

/** Who changed what on a lead and when (the detail's history). */
export const leadEvents = sqliteTable(
  "lead_events",
  {
    id: text("id").primaryKey(),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    /** Null when the visitor or the API did it (see `source`) or the member has since been deleted. */
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The actor's name when it happened, or "Visitor" / "API". */
    actorLabel: text("actor_label").notNull(),
    kind: text("kind", { enum: LEAD_EVENT_KINDS }).notNull(),
    fromValue: text("from_value"),
    toValue: text("to_value"),
    createdAt: createdAt(),
  },
  (t) => [index("lead_events_lead_idx").on(t.leadId, t.createdAt)],
);

export const BUG_REPORT_STATUSES = ["open", "fixed", "dismissed"] as const;

export const bugReports = sqliteTable(
  "bug_reports",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id"),
    /** The reported message while it is a row of D1's messages (set null when that row goes, e.g. moved to its shard). */
    messageId: text("message_id").references(() => messages.id, { onDelete: "set null" }),
    /** The reported message's id wherever its chatbot's messages are (ADR 040): no foreign key, a shard's message has no D1 row. */
    messageRef: text("message_ref"),
    /** visitor | member */
    reporter: text("reporter").notNull().default("visitor"),
    visitorId: text("visitor_id"),
    comment: text("comment").notNull(),
    status: text("status", { enum: BUG_REPORT_STATUSES }).notNull().default("open"),
    createdAt: createdAt(),
    // Migration 0015 (settings/bug): what the answer should have been, who reported it from the
    // dashboard, and the fix (the Q&A source it created) or dismissal.
    expectedAnswer: text("expected_answer"),
    reporterUserId: text("reporter_user_id").references(() => users.id, { onDelete: "set null" }),
    fixSourceId: text("fix_source_id").references(() => knowledgeSources.id, { onDelete: "set null" }),
    resolvedAt: integer("resolved_at"),
    resolvedBy: text("resolved_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("bug_reports_chatbot_idx").on(t.chatbotId, t.createdAt),
    index("bug_reports_status_idx").on(t.chatbotId, t.status, t.createdAt, t.id),
    // Deleting a D1 message sets its reports' message_id null (the foreign key): found by this index, not a scan (ADR 042's cleanup).
    index("bug_reports_message_idx").on(t.messageId),
  ],
);

// The websites a chatbot's widget is used from: one row per (chatbot, site origin, kind), counted.
// "loaded" is the loader's successful config request; the other kinds are refusals (see
// app/lib/widget-sites.ts). Written off the hot path (waitUntil) and capped per chatbot
// (app/.server/widget/site-activity.ts).
export const widgetSites = sqliteTable(
  "widget_sites",
  {
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    origin: text("origin").notNull(),
    kind: text("kind").$type<SiteEventKind>().notNull(),
    count: integer("count").notNull().default(1),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.origin, t.kind] })],
);

// ——— Notifications (app/.server/notifications; migration 0014) ———

import { NOTIFICATION_EVENT_TYPES, type NotificationEventType } from "../../lib/notifications";
export { NOTIFICATION_EVENT_TYPES };
export const NOTIFICATION_KINDS = ["email", "webhook", "slack"] as const;
export const DELIVERY_STATUSES = ["pending", "retrying", "delivered", "failed", "skipped"] as const;

/**
 * Where a chatbot's events go. Email: `email` (+ `user_id` for a member), confirmed by a link when
 * it is an outside address. Webhook: `url` and a signing secret (sealed; the previous one keeps
 * signing until `previous_secret_until` after a rotation). Slack: the incoming-webhook URL is itself
 * the credential, so it is sealed and `label` shows it masked.
 */
export const notificationDestinations = sqliteTable(
  "notification_destinations",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    label: text("label").notNull(),
    email: text("email"),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    url: text("url"),
    urlSealed: text("url_sealed"),
    secretSealed: text("secret_sealed"),
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretUntil: integer("previous_secret_until"),
    events: text("events", { mode: "json" }).$type<NotificationEventType[]>().notNull().default([]),
    confirmedAt: integer("confirmed_at"),
    confirmTokenHash: text("confirm_token_hash"),
    confirmExpiresAt: integer("confirm_expires_at"),
    /** First failed attempt of the current run of failures (cleared by a success). */
    failingSince: integer("failing_since"),
    pausedAt: integer("paused_at"),
    pauseReason: text("pause_reason"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("notification_destinations_chatbot_idx").on(t.chatbotId),
    index("notification_destinations_org_idx").on(t.orgId),
    uniqueIndex("notification_destinations_token_unique").on(t.confirmTokenHash),
  ],
);

/** One event for one destination: the JSON event as sent, its state, and the last attempt's outcome. */
export const notificationDeliveries = sqliteTable(
  "notification_deliveries",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    destinationId: text("destination_id")
      .notNull()
      .references(() => notificationDestinations.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: text("payload").notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Attempts since the delivery was (re)sent: the index into the backoff schedule. */
    runAttempts: integer("run_attempts").notNull().default(0),
    responseCode: integer("response_code"),
    durationMs: integer("duration_ms"),
    error: text("error"),
    nextAttemptAt: integer("next_attempt_at"),
    lastAttemptAt: integer("last_attempt_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("notification_deliveries_chatbot_idx").on(t.chatbotId, t.createdAt),
    index("notification_deliveries_destination_idx").on(t.destinationId, t.createdAt),
    index("notification_deliveries_created_idx").on(t.createdAt),
  ],
);

export const notificationAttempts = sqliteTable(
  "notification_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => notificationDeliveries.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    ok: integer("ok", { mode: "boolean" }).notNull(),
    responseCode: integer("response_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("notification_attempts_delivery_idx").on(t.deliveryId, t.number)],
);

/** Things that happen once: "usage:{org}:{period}:{80|100}", "digest:{chatbot}:{YYYY-MM-DD}". */
export const notificationMarks = sqliteTable("notification_marks", {
  key: text("key").primaryKey(),
  createdAt: createdAt(),
});

// ——— Live chat (migration 0016, ADR 025) ———

// Who holds a live conversation: one row per conversation an agent took (updated when another
// takes it). `closed_at` is set when an agent closes it (the inbox's "closed" list); the live
// messages themselves are in the conversation's Durable Object and mirrored to `messages`.
export const conversationAgents = sqliteTable(
  "conversation_agents",
  {
    conversationId: text("conversation_id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    agentName: text("agent_name").notNull(),
    takenAt: integer("taken_at").notNull(),
    closedAt: integer("closed_at"),
  },
  (t) => [
    index("conversation_agents_user_idx").on(t.chatbotId, t.userId),
    index("conversation_agents_closed_idx")
      .on(t.chatbotId, t.closedAt)
      .where(sql`${t.closedAt} is not null`),
  ],
);

// ——— Analytics (migration 0013, ADR 020) ———
// Daily aggregate rows per chatbot, kept up to date as messages, leads, thumbs, reports and handoffs
// arrive (app/.server/analytics/record.ts). `day` is YYYY-MM-DD in the organisation's time zone at
// the time the thing was counted.

export const analyticsDaily = sqliteTable(
  "analytics_daily",
  {
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    orgId: text("org_id").notNull(),
    /** Conversations started that day (their first message or handoff request). */
    conversations: integer("conversations").notNull().default(0),
    /** Visitor messages and replies (bot or person). */
    messages: integer("messages").notNull().default(0),
    /** Visitor messages the bot answered or could not answer (small talk left out). */
    questions: integer("questions").notNull().default(0),
    /** Questions the knowledge did not answer (fallback, or retrieval below the floor). */
    unanswered: integer("unanswered").notNull().default(0),
    /** Conversations started that day that have since had a fallback, a thumbs-down, a report or a handoff. */
    unresolved: integer("unresolved").notNull().default(0),
    leads: integer("leads").notNull().default(0),
    handoffs: integer("handoffs").notNull().default(0),
    reports: integer("reports").notNull().default(0),
    /** Current thumbs on replies given that day (a changed thumb moves). */
    thumbsUp: integer("thumbs_up").notNull().default(0),
    thumbsDown: integer("thumbs_down").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.day] })],
);

/** Per-day splits: `channel` and `country` count conversations, `latency` counts replies per answer-time bucket. */
export const analyticsSplits = sqliteTable(
  "analytics_splits",
  {
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    dim: text("dim", { enum: ["channel", "country", "latency"] }).notNull(),
    key: text("key").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.day, t.dim, t.key] })],
);

/** One row per visitor per day they wrote: unique visitors of a range are exact, never counted twice. */
export const analyticsVisitors = sqliteTable(
  "analytics_visitors",
  {
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    visitorId: text("visitor_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.day, t.visitorId] })],
);

/** Each counted conversation's start day, and whether it has had a problem (it then counts as unresolved once). */
export const analyticsConversations = sqliteTable(
  "analytics_conversations",
  {
    conversationId: text("conversation_id").primaryKey(),
    // Deleting the chatbot removes these rows (they went with their conversations' cascade before migration 0033).
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    problem: integer("problem", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("analytics_conversations_chatbot_idx").on(t.chatbotId)],
);

/** Questions grouped by their content terms (analytics/questions.ts): a sample text and whether someone answered the group. */
export const analyticsQuestions = sqliteTable(
  "analytics_questions",
  {
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    orgId: text("org_id").notNull(),
    text: text("text").notNull(),
    asked: integer("asked").notNull().default(0),
    /** All-time unanswered asks: with `asked`, the totals long ranges start from (analytics/report.ts). */
    unanswered: integer("unanswered").notNull().default(0),
    lastAskedAt: integer("last_asked_at").notNull(),
    lastUnansweredAt: integer("last_unanswered_at"),
    /** Set by "add an answer"; cleared when the question goes unanswered again afterwards. */
    answeredAt: integer("answered_at"),
    answeredBy: text("answered_by"),
    answerSourceId: text("answer_source_id"),
  },
  (t) => [
    primaryKey({ columns: [t.chatbotId, t.key] }),
    index("analytics_questions_asked_idx").on(t.chatbotId, t.asked),
    index("analytics_questions_unanswered_idx")
      .on(t.chatbotId, t.unanswered)
      .where(sql`${t.answeredAt} is null`),
  ],
);

export const analyticsQuestionDays = sqliteTable(
  "analytics_question_days",
  {
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    key: text("key").notNull(),
    asked: integer("asked").notNull().default(0),
    unanswered: integer("unanswered").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.day, t.key] }), index("analytics_question_days_key_idx").on(t.chatbotId, t.key, t.day, t.asked, t.unanswered)],
);

// ——— Phone (Twilio), migration 0020, ADR 029 ———

/** An organisation's connected Twilio account. `credentials` is sealed (crypto/secret-box.ts): the SID and auth token never sit in D1 in plain text. */
export const phoneAccounts = sqliteTable(
  "phone_accounts",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["twilio"] })
      .notNull()
      .default("twilio"),
    credentials: text("credentials").notNull(),
    /** What the screen shows of the Account SID: "AC…" and its last four characters. */
    accountHint: text("account_hint").notNull(),
    accountName: text("account_name"),
    connectedBy: text("connected_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("phone_accounts_org_idx").on(t.orgId)],
);

/** A number of the connected account whose calls a chatbot answers (its VoiceUrl points at /api/phone/twilio/voice/{id}). */
export const phoneNumbers = sqliteTable(
  "phone_numbers",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => phoneAccounts.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    /** Twilio's IncomingPhoneNumber sid (PN…). */
    providerSid: text("provider_sid").notNull(),
    number: text("number").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("phone_numbers_sid_idx").on(t.accountId, t.providerSid), index("phone_numbers_chatbot_idx").on(t.orgId, t.chatbotId)],
);

export const CALL_OUTCOMES = ["answered", "transferred", "max_length", "no_input", "caller_hung_up"] as const;

/** One phone call: its conversation (channel "phone") and where the call flow stands. */
export const calls = sqliteTable(
  "calls",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    phoneNumberId: text("phone_number_id").references(() => phoneNumbers.id, { onDelete: "set null" }),
    conversationId: text("conversation_id"),
    callSid: text("call_sid").notNull(),
    caller: text("caller"),
    called: text("called"),
    status: text("status", { enum: ["in-progress", "ended"] })
      .notNull()
      .default("in-progress"),
    outcome: text("outcome", { enum: CALL_OUTCOMES }),
    /** The sequence number the next action URL carries; a request with any other is refused (replay). */
    step: integer("step").notNull().default(1),
    /** Unanswered questions in a row, and prompts without speech in a row. */
    missed: integer("missed").notNull().default(0),
    silent: integer("silent").notNull().default(0),
    turns: integer("turns").notNull().default(0),
    startedAt: integer("started_at").notNull(),
    endedAt: integer("ended_at"),
    durationS: integer("duration_s"),
  },
  (t) => [uniqueIndex("calls_sid_idx").on(t.callSid), index("calls_org_idx").on(t.orgId, t.startedAt)],
);

// ——— WooCommerce (migration 0021, ADR 030) ———

/** One connected store per chatbot. Keys and the webhook secret are sealed (crypto/secret-box.ts). */
export const wooConnections = sqliteTable(
  "woo_connections",
  {
    chatbotId: text("chatbot_id")
      .primaryKey()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    storeUrl: text("store_url").notNull(),
    consumerKey: text("consumer_key").notNull(),
    consumerSecret: text("consumer_secret").notNull(),
    webhookSecret: text("webhook_secret").notNull(),
    /** Ids of the webhooks Parley registered in the store (deleted through the API on disconnect). */
    webhookIds: text("webhook_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    /** The knowledge source (type "woocommerce") holding one document per product. */
    sourceId: text("source_id"),
    currency: text("currency").notNull().default("USD"),
    currencySymbol: text("currency_symbol").notNull().default("$"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at")
      .notNull()
      .default(sql`(unixepoch() * 1000)`),
  },
  (t) => [index("woo_connections_org_idx").on(t.orgId)],
);

/** The store's products as the shop tools search them (price filters, stock, cards). */
export const wooProducts = sqliteTable(
  "woo_products",
  {
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    productId: integer("product_id").notNull(),
    orgId: text("org_id").notNull(),
    name: text("name").notNull(),
    type: text("type").notNull(),
    /** What a visitor pays now (the sale price when on sale; a variable product's lowest). */
    price: real("price"),
    regularPrice: real("regular_price"),
    salePrice: real("sale_price"),
    stockStatus: text("stock_status").notNull(),
    stockQuantity: integer("stock_quantity"),
    categories: text("categories").notNull().default(""),
    /** Lowercased name, categories, attributes and short description: what product search matches. */
    searchText: text("search_text").notNull().default(""),
    permalink: text("permalink"),
    image: text("image"),
    syncedAt: integer("synced_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.productId] }), index("woo_products_price_idx").on(t.chatbotId, t.price)],
);

/** Webhook deliveries already applied: a redelivery with the same id is acknowledged and ignored. */
export const wooWebhookDeliveries = sqliteTable(
  "woo_webhook_deliveries",
  {
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    deliveryId: text("delivery_id").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.deliveryId] })],
);

// ——— Live chat: the agent workflow (migration 0018, ADR 027) ———

/** An agent's internal note on a conversation: shown to the organisation's members only, never to the visitor. */
export const conversationNotes = sqliteTable(
  "conversation_notes",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  // By chatbot: the conversation move's count (ADR 054) and the chatbot's deletion cascade.
  (t) => [index("conversation_notes_conversation_idx").on(t.conversationId, t.createdAt), index("conversation_notes_chatbot_idx").on(t.chatbotId)],
);

// ——— Custom HTTP tools (app/.server/tools; migration 0022) ———

import type { ToolHeader, ToolParameters } from "../../lib/schemas/custom-tools";
export const TOOL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export const TOOL_CALL_OUTCOMES = ["ok", "http_error", "timeout", "blocked", "too_large", "error"] as const;

/** A chatbot's HTTP tool. Header values marked secret are sealed (crypto/secret-box.ts) and never read back to a screen. */
export const customTools = sqliteTable(
  "custom_tools",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull(),
    examples: text("examples", { mode: "json" }).$type<string[]>().notNull().default([]),
    method: text("method", { enum: TOOL_METHODS }).notNull(),
    urlTemplate: text("url_template").notNull(),
    headers: text("headers", { mode: "json" }).$type<ToolHeader[]>().notNull().default([]),
    parameters: text("parameters", { mode: "json" }).$type<ToolParameters>().notNull(),
    timeoutMs: integer("timeout_ms").notNull().default(5000),
    confirm: integer("confirm", { mode: "boolean" }).notNull().default(false),
    resultTemplate: text("result_template").notNull().default(""),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: integer("updated_at")
      .notNull()
      .default(sql`(unixepoch() * 1000)`),
  },
  (t) => [uniqueIndex("custom_tools_name_unique").on(t.chatbotId, t.name), index("custom_tools_org_idx").on(t.orgId)],
);

/** The call log: what was called, when and how it went — never parameters, bodies or headers. */
export const toolCalls = sqliteTable(
  "tool_calls",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    toolId: text("tool_id").references(() => customTools.id, { onDelete: "set null" }),
    toolName: text("tool_name").notNull(),
    conversationId: text("conversation_id"),
    source: text("source", { enum: ["chat", "test"] }).notNull(),
    outcome: text("outcome", { enum: TOOL_CALL_OUTCOMES }).notNull(),
    httpStatus: integer("http_status"),
    durationMs: integer("duration_ms").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("tool_calls_chatbot_idx").on(t.chatbotId, t.createdAt)],
);

/** A call the built-in engine is preparing across turns: collecting parameters, or waiting for the visitor's yes. */
export const toolPendingCalls = sqliteTable("tool_pending_calls", {
  conversationId: text("conversation_id").primaryKey(),
  chatbotId: text("chatbot_id")
    .notNull()
    .references(() => chatbots.id, { onDelete: "cascade" }),
  toolId: text("tool_id")
    .notNull()
    .references(() => customTools.id, { onDelete: "cascade" }),
  stage: text("stage", { enum: ["collect", "confirm"] }).notNull(),
  params: text("params", { mode: "json" }).$type<Record<string, string | number | boolean>>().notNull().default({}),
  expiresAt: integer("expires_at").notNull(),
});
