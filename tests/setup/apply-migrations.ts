import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Idempotent: applies only migrations not yet recorded, once per test file's storage.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Where the tests' chatbots keep their messages (tests/factories.ts, ADR 040): their shards unless
// TEST_MESSAGE_STORE=d1. Any other value is a typo that would silently run the default.
if (!["", "d1", "shard"].includes(env.TEST_MESSAGE_STORE ?? "")) {
  throw new Error(`TEST_MESSAGE_STORE=${env.TEST_MESSAGE_STORE}: use d1 (messages in D1) or leave it unset (in the chatbots' shards)`);
}

// Where the tests' chatbots keep their conversation index (ADR 044): their shards unless
// TEST_CONVERSATION_STORE=d1 or their messages are in D1 (a shard index lists its messages in the same object).
if (!["", "d1", "shard"].includes(env.TEST_CONVERSATION_STORE ?? "")) {
  throw new Error(`TEST_CONVERSATION_STORE=${env.TEST_CONVERSATION_STORE}: use d1 (index in D1) or leave it unset (in the chatbots' shards)`);
}
if (env.TEST_CONVERSATION_STORE === "shard" && env.TEST_MESSAGE_STORE === "d1") {
  throw new Error("TEST_CONVERSATION_STORE=shard needs the messages in the shards: leave TEST_MESSAGE_STORE unset");
}
