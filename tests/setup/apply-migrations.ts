import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Idempotent: applies only migrations not yet recorded, once per test file's storage.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Where the tests' chatbots keep their messages (tests/factories.ts, ADR 040): their shards unless
// TEST_MESSAGE_STORE=d1. Any other value is a typo that would silently run the default.
if (!["", "d1", "shard"].includes(env.TEST_MESSAGE_STORE ?? "")) {
  throw new Error(`TEST_MESSAGE_STORE=${env.TEST_MESSAGE_STORE}: use d1 (messages in D1) or leave it unset (in the chatbots' shards)`);
}
