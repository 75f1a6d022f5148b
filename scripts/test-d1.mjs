#!/usr/bin/env node
// `npm run test:d1`: the message tests with the tests' chatbots keeping their messages in D1
// (TEST_MESSAGE_STORE=d1, ADR 040) — the stage `npm test` runs after the whole suite (which keeps
// them in the chatbots' shards). The files: scripts/lib/message-store-tests.mjs. Extra arguments
// go to vitest (e.g. `npm run test:d1 -- --reporter=verbose`).
import { bin, forwardSignals, log, run } from "./lib/common.mjs";
import { d1MessageTestFiles } from "./lib/message-store-tests.mjs";

forwardSignals();
const files = d1MessageTestFiles();
log(`${files.length} test files with the chatbots' messages in D1 (TEST_MESSAGE_STORE=d1)…`);
const v = bin("vitest");
const { code } = await run(v.cmd, [...v.pre, "run", ...files, ...process.argv.slice(2)], {
  check: false,
  env: { ...process.env, TEST_MESSAGE_STORE: "d1", WRANGLER_SEND_METRICS: "false" },
});
process.exit(code ?? 1);
