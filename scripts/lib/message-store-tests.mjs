// The test files that run a second time with the tests' chatbots keeping their messages in D1
// (TEST_MESSAGE_STORE=d1; ADR 040). The default run keeps them in each chatbot's shard, as every
// chatbot created now does; D1 is the path of chatbots created before, until their messages are
// moved. Selected: every test file that reads or writes messages through the test helpers
// (tests/integration/stored-messages.ts) or creates its chatbots with `testMessageStore`, and the
// ones below that reach messages only through the product's pages and APIs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./common.mjs";

/** Files that reach messages only through the product (transcripts, inbox search, REST API, the turn's D1 budget), which the scan below does not see. */
export const D1_MESSAGE_READERS = [
  "tests/integration/api-v1.test.ts",
  "tests/integration/chat-round-trips.test.ts",
  "tests/integration/chat-screens.test.ts",
  "tests/integration/conversation-list.test.ts",
  "tests/integration/transcript-annotations.test.ts",
];

const MARKER = /stored-messages|testMessageStore/;

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

/** Repository-relative paths of the test files of the D1 run, sorted. */
export function d1MessageTestFiles() {
  for (const f of D1_MESSAGE_READERS) if (!existsSync(path.join(ROOT, f))) throw new Error(`${f} (scripts/lib/message-store-tests.mjs) does not exist`);
  const scanned = ["app", "workers", "tests/integration"].flatMap(testFiles).filter((f) => MARKER.test(readFileSync(path.join(ROOT, f), "utf8")));
  return [...new Set([...scanned, ...D1_MESSAGE_READERS])].sort();
}
