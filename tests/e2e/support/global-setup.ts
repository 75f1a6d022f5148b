import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyMigrations, bin, freePort, portIsFree, ROOT, waitForHealth, wranglerEnv } from "../../../scripts/lib/common.mjs";
import { seed } from "../../../scripts/seed.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

const E2E_DIR = path.join(ROOT, ".e2e");
const STATE_DIR = path.join(E2E_DIR, "state");
const LOG_FILE = path.join(E2E_DIR, "wrangler.log");
const HEALTH_TIMEOUT_MS = 60_000;

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal); // the process group we created (detached): wrangler + its workerd
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    kill("SIGTERM");
  });
}

/**
 * Starts the built Worker under `wrangler dev` on a fresh database (.e2e/state: migrations + demo
 * seed), waits for /api/health and provides its URL as inject("baseURL") and E2E_BASE_URL.
 */
export default async function setup(project: TestProject) {
  const explicitPort = process.env.E2E_PORT;
  let port = Number(explicitPort || 8799);
  if (!(await portIsFree(port))) {
    if (explicitPort) throw new Error(`E2E_PORT ${port} is already in use; choose another (E2E_PORT=8796 npm run test:e2e).`);
    port = await freePort();
  }
  const baseURL = `http://127.0.0.1:${port}`;

  rmSync(STATE_DIR, { recursive: true, force: true });
  mkdirSync(STATE_DIR, { recursive: true });
  await applyMigrations({ persistTo: STATE_DIR, quiet: true });
  await seed({ persistTo: STATE_DIR, quiet: true });

  const logStream = createWriteStream(LOG_FILE);
  let recent = "";
  const wrangler = bin("wrangler");
  const child = spawn(
    wrangler.cmd,
    [
      ...wrangler.pre,
      "dev",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      STATE_DIR,
      "--var",
      "ENVIRONMENT:development",
      "--show-interactive-dev-session=false",
      "--test-scheduled",
    ],
    { cwd: ROOT, env: wranglerEnv({ CI: "true", NO_COLOR: "1", FORCE_COLOR: "0" }), stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on("data", (chunk: Buffer) => {
      logStream.write(chunk);
      recent = (recent + chunk.toString()).slice(-20_000);
    });
  }
  // If vitest is interrupted, do not leave wrangler running.
  const onExit = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  process.once("exit", onExit);

  try {
    await waitForHealth(baseURL, { timeoutMs: HEALTH_TIMEOUT_MS, child });
  } catch (err) {
    await stopGroup(child);
    console.error(`\n[e2e] wrangler dev did not become healthy. Its output (${path.relative(ROOT, LOG_FILE)}):\n${recent}\n`);
    throw err;
  }

  // Kick the cron's ingestion sweep so the demo chatbot's seeded knowledge gets indexed.
  await fetch(`${baseURL}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).catch(() => {});
  process.env.E2E_BASE_URL = baseURL;
  project.provide("baseURL", baseURL);
  console.log(`[e2e] Worker ready at ${baseURL} (state: ${path.relative(ROOT, STATE_DIR)}, log: ${path.relative(ROOT, LOG_FILE)})`);

  return async () => {
    process.off("exit", onExit);
    await stopGroup(child);
    logStream.end();
  };
}
