import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Idempotent: applies only migrations not yet recorded, once per test file's storage.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// TEST_MESSAGE_STORE=shard: every chatbot a test creates keeps its messages in its shard (ADR 040),
// so the same tests check both stores. A trigger, because drizzle writes the column's default
// ('d1') into every insert. (A row a test got back from its insert still says 'd1'.)
if ((env as { TEST_MESSAGE_STORE?: string }).TEST_MESSAGE_STORE === "shard") {
  await env.DB.prepare(
    "CREATE TRIGGER IF NOT EXISTS test_messages_in_shards AFTER INSERT ON chatbots BEGIN UPDATE chatbots SET message_store = 'shard' WHERE id = new.id; END",
  ).run();
}
