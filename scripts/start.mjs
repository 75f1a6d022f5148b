#!/usr/bin/env node
// `npm start`: install if needed → build → apply migrations → seed demo data → `wrangler dev`.
// Local data persists between runs in wrangler's default state dir (.wrangler/state).
// PORT (default 8787) chooses the port; IP (default localhost, i.e. 127.0.0.1) the address wrangler
// binds — IP=0.0.0.0 makes it reachable from other machines. The Worker runs without wrangler's
// DevTools inspector (scripts/lib/wrangler-dev-quiet.mjs, ADR 036), which costs more CPU per chat
// message than the Worker itself; INSPECTOR=1 runs the plain `wrangler dev` CLI, DevTools included.
import { performance } from "node:perf_hooks";
import {
  applyMigrations,
  bin,
  build,
  DEMO,
  ensureDependencies,
  forwardSignals,
  formatDuration,
  log,
  portIsFree,
  spawnInherited,
  StageError,
  waitForHealth,
  wranglerEnv,
} from "./lib/common.mjs";
import { tickOnClockMarks } from "./lib/clock-ticker.mjs";

const port = Number(process.env.PORT || 8787);
const host = process.env.IP || "localhost";
const url = `http://localhost:${port}`;

function banner() {
  const lines = [
    `Parley is starting on  ${url}`,
    "",
    `Demo login       ${DEMO.email}`,
    `Demo password    ${DEMO.password}`,
    `Organisation     ${DEMO.orgName}`,
    `Demo chatbot     ${DEMO.chatbotName}`,
    `Dev mail outbox  ${url}/dev/outbox`,
    `Health           ${url}/api/health`,
    "",
    "Stop with Ctrl+C. Data persists in .wrangler/state between runs.",
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const bar = "═".repeat(width + 2);
  return `\n╔${bar}╗\n${lines.map((l) => `║ ${l.padEnd(width)} ║`).join("\n")}\n╚${bar}╝\n`;
}

async function main() {
  forwardSignals();
  const started = performance.now();
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StageError(`PORT must be a port number, got "${process.env.PORT}"`);
  if (!(await portIsFree(port, host === "localhost" ? "127.0.0.1" : host))) {
    throw new StageError(`Port ${port} is already in use on ${host}. Stop what is using it, or choose another: PORT=8788 npm start`);
  }

  await ensureDependencies();
  await build();
  log("Applying database migrations to the local D1 (.wrangler/state)…");
  await applyMigrations({ quiet: true });
  log("Seeding demo data…");
  const { seed } = await import("./seed.mjs");
  await seed();
  log(`Ready to serve after ${formatDuration(performance.now() - started)}.`);
  process.stdout.write(banner());

  const wrangler = bin("wrangler");
  // Without wrangler's DevTools inspector unless INSPECTOR=1: with it, every D1 and Durable Object
  // call of the Worker is relayed and logged by wrangler, more CPU per chat message than the Worker's
  // own (ADR 036) — and people try Parley with many visitors at once.
  const quiet = process.env.INSPECTOR !== "1";
  const child = spawnInherited(
    quiet ? process.execPath : wrangler.cmd,
    // --test-scheduled exposes /__scheduled so the ingestion sweep can be run right away below.
    [
      ...(quiet ? ["scripts/lib/wrangler-dev-quiet.mjs"] : [...wrangler.pre, "dev"]),
      "--port",
      String(port),
      "--ip",
      host,
      "--var",
      "ENVIRONMENT:development",
      "--test-scheduled",
    ],
    { env: wranglerEnv() },
  );
  const probe = ["localhost", "0.0.0.0", "::", "127.0.0.1"].includes(host) ? "127.0.0.1" : host;
  waitForHealth(`http://${probe}:${port}`, { timeoutMs: 120_000, child }).then(
    async () => {
      log(`Parley is up: ${url}  (login ${DEMO.email} / ${DEMO.password})`);
      // `wrangler dev` never fires cron triggers by itself, so this process does, as Cloudflare would
      // (wrangler.toml: every 5 minutes): once now, which queues the demo chatbot's knowledge (seeded
      // as "queued" sources), then on every 5-minute mark. Without it, a local run would never resume
      // an ingestion cut short (e.g. by wrangler reloading on a file change), start a scheduled
      // re-sync, move knowledge and messages into their shards or send a daily digest.
      tickOnClockMarks(5 * 60_000, () => fetch(`http://${probe}:${port}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).catch(() => {}));
    },
    (err) => log(`Still waiting for ${url}/api/health: ${err.message}`),
  );
  child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGINT" ? 130 : signal ? 143 : 1)));
}

main().catch((err) => {
  console.error(`\n[parley] npm start failed: ${err.message}`);
  process.exit(1);
});
