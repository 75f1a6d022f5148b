/** Bindings and variables the Worker receives (wrangler.toml, .dev.vars, secrets). */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  ASSETS: Fetcher;
  CHAT_SESSION: DurableObjectNamespace;
  INGEST_QUEUE: Queue;
  VECTORIZE?: VectorizeIndex;
  ENVIRONMENT: "development" | "production" | "test";
  APP_NAME: string;
  MAIL_FROM: string;
  /** Public origin used in emailed links when the request's own origin should not be trusted. */
  APP_URL?: string;
  /** HTTP email API (Resend-compatible JSON POST); both required in production to send mail. */
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
}

export const isDevelopment = (env: Pick<Env, "ENVIRONMENT">) => env.ENVIRONMENT !== "production";
