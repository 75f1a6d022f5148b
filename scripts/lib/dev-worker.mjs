// Starts the built Worker under `wrangler dev` on a fresh database (migrations + demo seed) and
// waits for /api/health. Used by the end-to-end global setup and by `npm run bench:site`.
import { spawn } from "node:child_process";
import path from "node:path";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import { applyMigrations, bin, freePort, portIsFree, ROOT, run, waitForHealth, wranglerEnv } from "./common.mjs";
import { seed } from "../seed.mjs";

/** Ends a detached child's whole process group (wrangler + its workerd): TERM, then KILL after 5 s. */
export function stopGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = (signal) => {
      try {
        process.kill(-child.pid, signal);
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
 * `sql`: statements run on the local D1 after the seed (e.g. a bigger plan for the demo organisation).
 * `inspectorPort`: where wrangler's devtools endpoint listens (default: wrangler's choice, 9229 or the next free one).
 * `keepState`: start on the state dir as it is (a restart: no wipe, no migrations, no seed, no `sql`).
 * `unstickMs`: send a HEAD of a static file that often, so a GET parked by wrangler's proxy waits at most
 *   that long (ADR 079; the end-to-end tests use it). 0 (default): none.
 * `inspector: false`: no DevTools inspector (wrangler-dev-quiet.mjs, ADR 035): far less CPU per request
 *   on the machine, no isolate heap figures; `inspectorPort` is then ignored.
 * @param {{ stateDir: string, logFile: string, port?: number, strictPort?: boolean, healthTimeoutMs?: number, vars?: Record<string, string>, sql?: string, inspectorPort?: number, keepState?: boolean, inspector?: boolean, unstickMs?: number }} options
 * @returns {Promise<{ baseURL: string, pid: number, stop: () => Promise<void> }>}
 */
export async function startDevWorker({
  stateDir,
  logFile,
  port = 8799,
  strictPort = false,
  healthTimeoutMs = 60_000,
  vars = {},
  sql,
  inspectorPort,
  keepState = false,
  inspector = true,
  unstickMs = 0,
}) {
  if (!(await portIsFree(port))) {
    if (strictPort) throw new Error(`Port ${port} is already in use; choose another.`);
    port = await freePort();
  }
  const baseURL = `http://127.0.0.1:${port}`;
  if (!keepState) {
    rmSync(stateDir, { recursive: true, force: true });
    mkdirSync(stateDir, { recursive: true });
    await applyMigrations({ persistTo: stateDir, quiet: true });
    await seed({ persistTo: stateDir, quiet: true });
  }
  if (sql && !keepState) {
    const w = bin("wrangler");
    await run(w.cmd, [...w.pre, "d1", "execute", "DB", "--local", "--yes", "--persist-to", stateDir, "--command", sql], {
      env: wranglerEnv({ CI: "true" }),
      quiet: true,
      label: "wrangler d1 execute DB --local (extra sql)",
    });
  }

  const logStream = createWriteStream(logFile, { flags: keepState ? "a" : "w" });
  let recent = "";
  const wrangler = bin("wrangler");
  const varArgs = Object.entries({ ENVIRONMENT: "development", ...vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const [cmd, pre] = inspector ? [wrangler.cmd, [...wrangler.pre, "dev"]] : [process.execPath, [path.join(ROOT, "scripts/lib/wrangler-dev-quiet.mjs")]];
  const child = spawn(
    cmd,
    [
      ...pre,
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      stateDir,
      ...varArgs,
      "--show-interactive-dev-session=false",
      "--test-scheduled",
      ...(inspectorPort && inspector ? ["--inspector-port", String(inspectorPort)] : []),
    ],
    { cwd: ROOT, env: wranglerEnv({ CI: "true", NO_COLOR: "1", FORCE_COLOR: "0" }), stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  for (const stream of [child.stdout, child.stderr]) {
    stream.on("data", (chunk) => {
      logStream.write(chunk);
      recent = (recent + chunk.toString()).slice(-20_000);
    });
  }
  // If the parent is interrupted, do not leave wrangler running.
  const onExit = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  process.once("exit", onExit);
  try {
    await waitForHealth(baseURL, { timeoutMs: healthTimeoutMs, child });
  } catch (err) {
    await stopGroup(child);
    console.error(`\nwrangler dev did not become healthy. Its output (${logFile}):\n${recent}\n`);
    throw err;
  }
  // Kick the cron's ingestion sweep so the demo chatbot's seeded knowledge gets indexed.
  await fetch(`${baseURL}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).catch(() => {});
  // wrangler's proxy parks a GET whose connection to the runtime dropped until the next request
  // arrives (ADR 079); a quiet test would wait for it until its own timeout. A HEAD of a static file
  // every `unstickMs` is that next request.
  const ticker = unstickMs > 0 ? setInterval(() => fetch(`${baseURL}/favicon.svg`, { method: "HEAD" }).catch(() => {}), unstickMs) : null;
  ticker?.unref();
  return {
    baseURL,
    pid: child.pid,
    async stop() {
      if (ticker) clearInterval(ticker);
      process.off("exit", onExit);
      await stopGroup(child);
      logStream.end();
    },
  };
}
