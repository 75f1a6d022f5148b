// The test files that run again with the tests' chatbots keeping their messages or their conversation
// index in the other store (STORE_MODES below): every test file that reads or writes messages or
// conversation rows through the test helpers (tests/integration/stored-messages.ts,
// conversation-rows.ts) or creates its chatbots with `testMessageStore` / `testConversationStore`,
// and the ones below that reach them only through the product's pages and APIs. The default run
// keeps messages and the conversation index in each chatbot's shard, as every chatbot created now
// does; the modes are the paths of chatbots created before and not yet moved: messages and index in
// D1 (ADR 040), or messages moved and the index still in D1 (ADR 044, ADR 051).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { bin, log, ROOT, run } from "./common.mjs";

/** Files that reach messages only through the product (transcripts, inbox search, REST API, the turn's D1 budget), which the scan below does not see. */
export const D1_MESSAGE_READERS = [
  "tests/integration/api-v1.test.ts",
  "tests/integration/chat-screens.test.ts",
  "tests/integration/conversation-list.test.ts",
  "tests/integration/transcript-annotations.test.ts",
];

const MARKER = /stored-messages|conversation-rows|testMessageStore|testConversationStore/;

function testFiles(dir) {
  const out = [];
  for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules") out.push(...testFiles(rel));
    } else if (e.name.endsWith(".test.ts")) out.push(rel);
  }
  return out;
}

/** Repository-relative paths of the test files of the store modes' runs, sorted. */
export function storeTestFiles() {
  for (const f of D1_MESSAGE_READERS) if (!existsSync(path.join(ROOT, f))) throw new Error(`${f} (scripts/lib/message-store-tests.mjs) does not exist`);
  const scanned = ["app", "workers", "tests/integration"].flatMap(testFiles).filter((f) => MARKER.test(readFileSync(path.join(ROOT, f), "utf8")));
  return [...new Set([...scanned, ...D1_MESSAGE_READERS])].sort();
}

/**
 * Test files that run again with the tests' chatbots' knowledge in their shards (TEST_KNOWLEDGE_STORE=shard),
 * as every chatbot created now keeps it (ADR 034, ADR 075): those that reach knowledge through the
 * product (sources, ingestion, the chat, the widget, tools), and those that seed or read it through
 * tests/knowledge-rows.ts, which goes wherever the chatbot's row says. The default run keeps it in D1.
 * Not here: retrieval's own unit tests (they work on D1's tables by design), the tests of D1 itself
 * and of the move from it (knowledge-move, its sweep, pre-shard-upgrade, reindex's D1 case, the
 * slices' D1 reads, chat-round-trips' count of D1 trips); kb-shard, knowledge-shard and
 * knowledge-move test the shard on purpose in every run.
 */
export const KNOWLEDGE_SHARD_FILES = [
  "app/.server/ai/tools/shop-tools.test.ts",
  "app/.server/analytics/analytics.test.ts",
  "app/.server/chatbots/chatbots.test.ts",
  "app/.server/content/samples.test.ts",
  "app/.server/integrations/woocommerce/woocommerce.test.ts",
  "app/.server/kb/ingest.test.ts",
  "app/.server/retrieval/qa-match.test.ts",
  "tests/integration/analytics.test.ts",
  "tests/integration/api-body-limit.test.ts",
  "tests/integration/api-v1.test.ts",
  "tests/integration/bug-reports.test.ts",
  "tests/integration/chat-api.test.ts",
  "tests/integration/chat-enforcement.test.ts",
  "tests/integration/chat-idempotency.test.ts",
  "tests/integration/chat-known-chatbot.test.ts",
  "tests/integration/chat-screens.test.ts",
  "tests/integration/chat-turn.test.ts",
  "tests/integration/collect-lead.test.ts",
  "tests/integration/conversation-list.test.ts",
  "tests/integration/custom-tools.test.ts",
  "tests/integration/docs-samples.test.ts",
  "tests/integration/kb-retrieval-preview.test.ts",
  "tests/integration/kb.test.ts",
  "tests/integration/leads.test.ts",
  "tests/integration/live-agent.test.ts",
  "tests/integration/live-analytics.test.ts",
  "tests/integration/live-promises.test.ts",
  "tests/integration/live-typing.test.ts",
  "tests/integration/live-visitor-send.test.ts",
  "tests/integration/notes-and-pending-calls-shard.test.ts",
  "tests/integration/phone.test.ts",
  "tests/integration/plans.test.ts",
  "tests/integration/setup-checklist.test.ts",
  "tests/integration/shard-index-turn.test.ts",
  "tests/integration/shop-tool-switches.test.ts",
  "tests/integration/site-activity.test.ts",
  "tests/integration/studio.test.ts",
  "tests/integration/tenant-independence.test.ts",
  "tests/integration/transcript-annotations.test.ts",
  "tests/integration/voice-access.test.ts",
  "tests/integration/widget-api.test.ts",
];

/**
 * The runs of storeTestFiles() in another store, each a stage of `npm test` (scripts/test.mjs) and an
 * npm script of its own (scripts/test-store-mode.mjs): `env` is what vitest.config.ts passes on to
 * tests/factories.ts.
 */
export const STORE_MODES = {
  d1: {
    stage: "messages in D1",
    what: "with the chatbots' messages and conversation index in D1 (TEST_MESSAGE_STORE=d1)",
    env: { TEST_MESSAGE_STORE: "d1" },
  },
  "d1-index": {
    stage: "conversation index in D1",
    what: "with the chatbots' conversation index in D1, their messages in their shards (TEST_CONVERSATION_STORE=d1)",
    env: { TEST_CONVERSATION_STORE: "d1" },
  },
  "knowledge-shard": {
    stage: "knowledge in shards",
    tests: "The knowledge tests",
    what: "with the chatbots' knowledge in their shards (TEST_KNOWLEDGE_STORE=shard)",
    env: { TEST_KNOWLEDGE_STORE: "shard" },
    files: () => KNOWLEDGE_SHARD_FILES,
  },
};

/** The test files of a store mode: its own list, or storeTestFiles(). */
export function modeTestFiles(mode) {
  return mode.files ? mode.files() : storeTestFiles();
}

/** vitest over storeTestFiles() in the store mode `key`, with `args` after the files; resolves the exit code. */
export async function runStoreMode(key, args = [], { env = process.env, check = false } = {}) {
  const mode = STORE_MODES[key];
  if (!mode) throw new Error(`no store mode ${key} (one of ${Object.keys(STORE_MODES).join(", ")})`);
  const files = modeTestFiles(mode);
  log(`${files.length} test files ${mode.what}…`);
  const v = bin("vitest");
  const { code } = await run(v.cmd, [...v.pre, "run", ...files, ...args], {
    check,
    env: { ...env, WRANGLER_SEND_METRICS: "false", ...mode.env },
  });
  return code ?? 1;
}
