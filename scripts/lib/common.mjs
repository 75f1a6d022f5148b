// Shared helpers for the project scripts (start, test, e2e, seed, check-bundle).
// Only node: built-ins here: these run before `npm install` may have happened.
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export { DEMO } from "./demo.mjs";

/** Environment for every wrangler child: no metrics, no prompts about them. */
export function wranglerEnv(extra = {}) {
  return { ...process.env, WRANGLER_SEND_METRICS: "false", ...extra };
}

/** Path of a binary installed by npm in this project, falling back to npx. */
export function bin(name) {
  const local = path.join(ROOT, "node_modules", ".bin", name);
  return existsSync(local) ? { cmd: local, pre: [] } : { cmd: "npx", pre: ["--no-install", name] };
}

export function log(message) {
  const tag = process.stdout.isTTY ? "\x1b[1m[parley]\x1b[0m" : "[parley]";
  process.stdout.write(`\n${tag} ${message}\n`);
}

export class StageError extends Error {
  constructor(message, output = "") {
    super(message);
    this.output = output;
  }
}

/** Children currently running, so a SIGINT/SIGTERM to this script reaches them too. */
const children = new Set();
let forwarding = false;

/** Forward SIGINT/SIGTERM to the running children; exit once they have gone. */
export function forwardSignals() {
  if (forwarding) return;
  forwarding = true;
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (children.size === 0) process.exit(signal === "SIGINT" ? 130 : 143);
      for (const child of children) {
        try {
          child.kill(signal);
        } catch {
          /* already gone */
        }
      }
    });
  }
}

/**
 * Run a command. `quiet` captures output (shown only when it fails); otherwise stdio is inherited.
 * Resolves { code, signal, output }; with `check` (default) a non-zero exit rejects with StageError.
 */
export function run(cmd, args, { env = process.env, cwd = ROOT, quiet = false, check = true, label } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: quiet ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"] });
    children.add(child);
    let output = "";
    if (quiet) {
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
    }
    child.on("error", (err) => {
      children.delete(child);
      reject(new StageError(`${label ?? cmd}: could not start (${err.message})`));
    });
    child.on("close", (code, signal) => {
      children.delete(child);
      if (check && code !== 0) {
        if (quiet && output) process.stderr.write(output);
        reject(new StageError(`${label ?? [cmd, ...args].join(" ")} failed (${signal ?? `exit ${code}`})`, output));
      } else resolve({ code, signal, output });
    });
  });
}

/** Like run() but stdin is inherited too and the child is tracked for signal forwarding (long-running). */
export function spawnInherited(cmd, args, { env = process.env, cwd = ROOT } = {}) {
  const child = spawn(cmd, args, { cwd, env, stdio: "inherit" });
  children.add(child);
  child.on("close", () => children.delete(child));
  return child;
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

/** npm install when node_modules is missing or package-lock.json is newer than the installed tree. */
export async function ensureDependencies() {
  const installed = path.join(ROOT, "node_modules", ".package-lock.json");
  const lock = path.join(ROOT, "package-lock.json");
  let reason = "";
  if (!existsSync(path.join(ROOT, "node_modules"))) reason = "node_modules is missing";
  else if (!existsSync(installed)) reason = "node_modules/.package-lock.json is missing";
  else if (mtime(lock) > mtime(installed)) reason = "package-lock.json is newer than node_modules";
  if (!reason) return false;
  log(`Installing dependencies (${reason})…`);
  await run("npm", ["install", "--no-audit", "--no-fund"], { label: "npm install", env: { ...process.env, npm_config_update_notifier: "false" } });
  return true;
}

/** remix vite:build → build/client + build/server, then the widget (scripts/build-widget.mjs). */
export async function build() {
  log("Building (remix vite:build)…");
  const remix = bin("remix");
  await run(remix.cmd, [...remix.pre, "vite:build"], { label: "remix vite:build" });
  log("Building the widget (scripts/build-widget.mjs)…");
  await run(process.execPath, [path.join(ROOT, "scripts", "build-widget.mjs")], { label: "build-widget" });
}

/**
 * wrangler d1 migrations apply DB --local [--persist-to DIR] (non-interactive).
 * @param {{ persistTo?: string, quiet?: boolean }} [options]
 */
export async function applyMigrations({ persistTo, quiet = false } = {}) {
  const wrangler = bin("wrangler");
  const args = [...wrangler.pre, "d1", "migrations", "apply", "DB", "--local"];
  if (persistTo) args.push("--persist-to", persistTo);
  await run(wrangler.cmd, args, { env: wranglerEnv({ CI: "true" }), quiet, label: "wrangler d1 migrations apply DB --local" });
}

/** True when nothing listens on host:port (we can bind it). */
export function portIsFree(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.once("listening", () => server.close(() => resolve(true)));
    server.listen(port, host);
  });
}

/** A port the OS says is free right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Poll `${baseURL}/api/health` until it answers {"status":"ok"}.
 * Rejects after timeoutMs, or as soon as `child` exits.
 * @param {string} baseURL
 * @param {{ timeoutMs?: number, child?: import("node:child_process").ChildProcess }} [options]
 */
export async function waitForHealth(baseURL, { timeoutMs = 60_000, child } = {}) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  let lastError = "no answer yet";
  const onExit = () => (exited = true);
  child?.once("exit", onExit);
  try {
    while (Date.now() < deadline) {
      if (exited) throw new StageError(`wrangler dev exited before ${baseURL}/api/health answered`);
      try {
        const res = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(5_000) });
        const body = await res.text();
        if (res.ok && JSON.parse(body).status === "ok") return;
        lastError = `HTTP ${res.status}: ${body.slice(0, 200)}`;
      } catch (err) {
        lastError = err.cause?.code ?? err.message;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new StageError(`${baseURL}/api/health did not answer ok within ${timeoutMs / 1000}s (last: ${lastError})`);
  } finally {
    child?.off("exit", onExit);
  }
}

/** Parse "--flag value" / "--flag=value" from argv. */
export function argValue(argv, flag) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === flag) return argv[i + 1];
    if (argv[i].startsWith(`${flag}=`)) return argv[i].slice(flag.length + 1);
  }
  return undefined;
}

export function formatDuration(ms) {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}
