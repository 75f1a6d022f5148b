#!/usr/bin/env node
// `npm run test:d1` / `npm run test:d1-index`: the message and conversation tests with the tests'
// chatbots keeping their messages (and so their index) in D1 (TEST_MESSAGE_STORE=d1, ADR 040) or only
// their conversation index in D1 (TEST_CONVERSATION_STORE=d1, ADR 044, 051) — the stages `npm test` runs after the
// whole suite. The files and the modes: scripts/lib/message-store-tests.mjs. Usage:
// `node scripts/test-store-mode.mjs <mode> [vitest arguments]` (e.g. `npm run test:d1 -- --reporter=verbose`).
import { forwardSignals } from "./lib/common.mjs";
import { runStoreMode, STORE_MODES } from "./lib/message-store-tests.mjs";

forwardSignals();
const [mode, ...args] = process.argv.slice(2);
if (!(mode in STORE_MODES)) {
  console.error(`usage: node scripts/test-store-mode.mjs <${Object.keys(STORE_MODES).join("|")}> [vitest arguments]`);
  process.exit(2);
}
process.exit(await runStoreMode(mode, args));
