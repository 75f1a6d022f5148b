import path from "node:path";
import type { TestProject } from "vitest/node";
import { ROOT } from "../../../scripts/lib/common.mjs";
import { startDevWorker } from "../../../scripts/lib/dev-worker.mjs";
import { fakeTwilioPort } from "./fake-twilio";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

const E2E_DIR = path.join(ROOT, ".e2e");
const STATE_DIR = path.join(E2E_DIR, "state");
const LOG_FILE = path.join(E2E_DIR, "wrangler.log");
const HEALTH_TIMEOUT_MS = 60_000;

/**
 * Starts the built Worker under `wrangler dev` on a fresh database (.e2e/state: migrations + demo
 * seed), waits for /api/health and provides its URL as inject("baseURL") and E2E_BASE_URL.
 */
export default async function setup(project: TestProject) {
  const explicitPort = process.env.E2E_PORT;
  const worker = await startDevWorker({
    stateDir: STATE_DIR,
    logFile: LOG_FILE,
    port: Number(explicitPort || 8799),
    strictPort: Boolean(explicitPort),
    healthTimeoutMs: HEALTH_TIMEOUT_MS,
    // As `npm start` runs it (ADR 036): without wrangler's inspector, which relays every D1 and
    // Durable Object call as DevTools events; on CI's two cores the runtime stalled for 30+ s under it
    // (a page's GET took 37 s in notifications.e2e.ts, a link's navigation in custom-tools.e2e.ts;
    // the first at least was wrangler's proxy parking a GET, ADR 079, below).
    inspector: false,
    // A GET whose upstream connection dropped is parked by wrangler's proxy until the next request
    // (ADR 079: the 30 s "stalls" of a page GET): a HEAD every second releases it.
    unstickMs: 1000,
    // Notification retries after 1 s and 2 s instead of minutes to hours (development only; tests/e2e/notifications.e2e.ts).
    // Twilio's API is a local fake started by tests/e2e/phone.e2e.ts (support/fake-twilio.ts).
    // TOOLS_ALLOW_PRIVATE_NETWORK: custom tools may call the spec's local test API (tests/e2e/custom-tools.e2e.ts; development only, ADR 031).
    vars: { NOTIFY_RETRY_SCHEDULE: "1,2", TWILIO_API_BASE: `http://127.0.0.1:${fakeTwilioPort()}`, TOOLS_ALLOW_PRIVATE_NETWORK: "1" },
  });
  process.env.E2E_BASE_URL = worker.baseURL;
  project.provide("baseURL", worker.baseURL);
  console.log(`[e2e] Worker ready at ${worker.baseURL} (state: ${path.relative(ROOT, STATE_DIR)}, log: ${path.relative(ROOT, LOG_FILE)})`);
  return () => worker.stop();
}
