/** Bindings and variables the Worker receives (wrangler.toml, .dev.vars, secrets). */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  ASSETS: Fetcher;
  /** One live conversation per object (workers/durable-objects/chat-session.ts). */
  CHAT_SESSION: DurableObjectNamespace;
  /** One chatbot's live inbox per object: presence and "conversation changed" (workers/durable-objects/chatbot-inbox.ts). */
  CHATBOT_INBOX: DurableObjectNamespace;
  /** One chatbot's knowledge per object: chunks, FTS5, term statistics, offline vectors (workers/durable-objects/knowledge-shard.ts). */
  KNOWLEDGE_SHARD: DurableObjectNamespace;
  /** One chatbot's messages per object: message rows and their FTS5 search index (workers/durable-objects/conversation-shard.ts, ADR 040). */
  CONVERSATION_SHARD: DurableObjectNamespace;
  INGEST_QUEUE: Queue;
  /** Notification deliveries (app/.server/notifications/queue.ts). */
  NOTIFY_QUEUE: Queue;
  VECTORIZE?: VectorizeIndex;
  ENVIRONMENT: "development" | "production" | "test";
  APP_NAME: string;
  MAIL_FROM: string;
  /** Public origin used in emailed links when the request's own origin should not be trusted. */
  APP_URL?: string;
  /** HTTP email API (Resend-compatible JSON POST); both required in production to send mail. */
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  /** OpenAI (or any OpenAI-compatible server via OPENAI_BASE_URL); without a key the local engine is used. */
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  /** Chat model name on the OPENAI_BASE_URL server (Ollama, vLLM, LM Studio…); offered as the "compat" model. */
  OPENAI_COMPAT_MODEL?: string;
  OPENAI_EMBEDDING_MODEL?: string;
  /** Optional public contact address for privacy and other requests, shown on /privacy and /company when set. */
  CONTACT_EMAIL?: string;
  /** 32 random bytes, base64: encrypts secrets stored in D1 (app/.server/crypto/secret-box.ts). Required in production. */
  SECRETS_KEY?: string;
  /** Base URL of "edit this page" on docs pages; the file's repository path is appended. Empty: no link. */
  DOCS_EDIT_URL?: string;
  /** Stripe billing (app/.server/billing): without the secret key, plans change directly in development only. */
  STRIPE_SECRET_KEY?: string;
  /** Signing secret of the webhook endpoint /api/stripe/webhook (whsec_…). */
  STRIPE_WEBHOOK_SECRET?: string;
  /** Stripe Price ids (recurring, monthly) of the paid plans. */
  STRIPE_PRICE_STARTER?: string;
  STRIPE_PRICE_GROWTH?: string;
  STRIPE_PRICE_SCALE?: string;
  /** Stripe API origin; default https://api.stripe.com (tests point it at a local stub). */
  STRIPE_API_BASE?: string;
  /** Twilio REST API origin; default https://api.twilio.com (tests point it at a local fake). */
  TWILIO_API_BASE?: string;
  /** Outside production: visitor chat requests one isolate works on at once (workers/admission.ts); default 8. */
  LOCAL_CHAT_CONCURRENCY?: string;
  /** Outside production only: seconds between notification retries, e.g. "1,2" (the e2e tests); production uses the built-in schedule. */
  NOTIFY_RETRY_SCHEDULE?: string;
  /** Outside production only: "1" lets custom HTTP tools call private and local addresses (development, tests); ADR 031. */
  TOOLS_ALLOW_PRIVATE_NETWORK?: string;
}

export const isDevelopment = (env: Pick<Env, "ENVIRONMENT">) => env.ENVIRONMENT !== "production";
