#!/usr/bin/env node
// `npm run check:bundle`: bundle the production Worker offline (`wrangler deploy --dry-run --env production`)
// into .e2e/bundle, gzip (level 9) every module it would upload (all files but source maps) and fail if
// the total is over the 3 MB budget (Workers' former free-plan limit; README "Other scripts"). Then the widget's
// budgets (ADR 009): /widget.js ≤ 3 KB gzip, loader + chat UI JavaScript ≤ 50 KB gzip, the live-chat
// part loaded later ≤ 12 KB gzip (ADR 026) and the voice part loaded when the microphone is pressed
// ≤ 8 KB gzip (ADR 028). Builds first when the build is missing.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { bin, build, ensureDependencies, log, ROOT, run, wranglerEnv } from "./lib/common.mjs";

const LIMIT = 3 * 1024 * 1024;
// The widget (ADR 009): the loader on the customer's page, and all JavaScript a visitor
// downloads before they can type (loader + the chat UI bundle), gzip level 9.
const LOADER_LIMIT = 3 * 1024;
const WIDGET_FIRST_LOAD_LIMIT = 50 * 1024;
// The live-chat part (workers/widget/chat/live.ts), loaded when a conversation goes live: what it
// adds to the first load (its chunk and any chunk it imports that the first load has not). It checks
// frames without zod (ADR 026); a zod import would put it near 90 KB.
const WIDGET_LIVE_LIMIT = 12 * 1024;
// The voice part (workers/widget/chat/voice.ts with app/lib/voice), loaded when the visitor first
// presses the microphone (ADR 028): what it adds to the first load, measured the same way.
const WIDGET_VOICE_LIMIT = 8 * 1024;
const OUT_DIR = path.join(ROOT, ".e2e", "bundle");

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

const fmt = (n) => `${n.toLocaleString("en")} bytes (${(n / 1024 / 1024).toFixed(2)} MiB)`;

async function main() {
  await ensureDependencies();
  if (!existsSync(path.join(ROOT, "build", "server", "index.js")) || !existsSync(path.join(ROOT, "build", "widget", "manifest.js"))) await build();
  log("Bundling the production Worker (wrangler deploy --dry-run --env production)…");
  rmSync(OUT_DIR, { recursive: true, force: true });
  const wrangler = bin("wrangler");
  const { output } = await run(wrangler.cmd, [...wrangler.pre, "deploy", "--dry-run", "--env", "production", "--outdir", OUT_DIR], {
    env: wranglerEnv({ CI: "true" }),
    quiet: true,
    label: "wrangler deploy --dry-run --env production",
  });
  const reported = output.match(/Total Upload:[^\n]*/)?.[0];

  const modules = files(OUT_DIR).filter((f) => !f.endsWith(".map") && path.basename(f) !== "README.md");
  if (!modules.some((f) => /\.m?js$/.test(f))) throw new Error(`no .js/.mjs module in ${path.relative(ROOT, OUT_DIR)}`);
  let raw = 0;
  let gzipped = 0;
  for (const file of modules) {
    const bytes = readFileSync(file);
    const gz = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzipped += gz;
    console.log(`  ${path.relative(ROOT, file)}: ${fmt(bytes.length)} raw, ${fmt(gz)} gzip`);
  }
  if (reported) console.log(`  wrangler: ${reported}`);
  const verdict = gzipped <= LIMIT ? "OK" : "OVER BUDGET";
  console.log(`bundle: ${gzipped} bytes gzip (${raw} raw) — budget ${LIMIT} bytes (3 MiB): ${verdict}`);
  if (gzipped > LIMIT) {
    console.error(`[parley] The Worker bundle is ${fmt(gzipped - LIMIT)} over the 3 MB gzip budget.`);
    process.exit(1);
  }

  const manifest = await import(pathToFileURL(path.join(ROOT, "build", "widget", "manifest.js")).href);
  const loaderGz = gzipSync(Buffer.from(manifest.loader), { level: 9 }).length;
  // The entry and the chunks it imports statically (code it shares with the lazily loaded live-chat
  // part); the live part itself loads only when a conversation goes live.
  const entry = readFileSync(path.join(ROOT, "build", "client", manifest.chatJs));
  const shared = [...entry.toString("utf8").matchAll(/from\s*"\.\/([\w.-]+\.js)"/g)].map((m) => path.join(path.dirname(manifest.chatJs), m[1]));
  const chatGz = [entry, ...shared.map((f) => readFileSync(path.join(ROOT, "build", "client", f)))].reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0);
  const cssGz = manifest.chatCss ? gzipSync(readFileSync(path.join(ROOT, "build", "client", manifest.chatCss)), { level: 9 }).length : 0;
  const firstLoad = loaderGz + chatGz;
  const chunkDir = path.join(ROOT, "build", "client", path.dirname(manifest.chatJs));
  const imports = (file) => [...readFileSync(path.join(chunkDir, file), "utf8").matchAll(/from\s*"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]);
  const loadedFirst = new Set(shared.map((f) => path.basename(f)));
  // A part the entry loads with a dynamic import: its chunk and the chunks it imports that the first load has not.
  const lazyPart = (name, what) => {
    const chunk = entry.toString("utf8").match(new RegExp(`import\\("\\./(${name}-[\\w.-]+\\.js)"\\)`))?.[1];
    if (!chunk) throw new Error(`no dynamic import of the ${what} chunk in ${manifest.chatJs}`);
    const parts = [chunk, ...imports(chunk).filter((f) => !loadedFirst.has(f))];
    return { files: parts, gz: parts.reduce((n, f) => n + gzipSync(readFileSync(path.join(chunkDir, f)), { level: 9 }).length, 0) };
  };
  const { files: liveFiles, gz: liveGz } = lazyPart("live", "live-chat");
  const { files: voiceFiles, gz: voiceGz } = lazyPart("voice", "voice");
  const over = [];
  console.log(`widget loader (/widget.js): ${loaderGz} bytes gzip — budget ${LOADER_LIMIT}: ${loaderGz <= LOADER_LIMIT ? "OK" : "OVER BUDGET"}`);
  console.log(
    `widget first-load JavaScript (loader + ${manifest.chatJs}): ${firstLoad} bytes gzip — budget ${WIDGET_FIRST_LOAD_LIMIT}: ${firstLoad <= WIDGET_FIRST_LOAD_LIMIT ? "OK" : "OVER BUDGET"}${cssGz ? ` (plus ${cssGz} bytes gzip of CSS)` : ""}`,
  );
  console.log(
    `widget live-chat part (${liveFiles.join(" + ")}): ${liveGz} bytes gzip — budget ${WIDGET_LIVE_LIMIT}: ${liveGz <= WIDGET_LIVE_LIMIT ? "OK" : "OVER BUDGET"}`,
  );
  console.log(
    `widget voice part (${voiceFiles.join(" + ")}): ${voiceGz} bytes gzip — budget ${WIDGET_VOICE_LIMIT}: ${voiceGz <= WIDGET_VOICE_LIMIT ? "OK" : "OVER BUDGET"}`,
  );
  if (voiceGz > WIDGET_VOICE_LIMIT) over.push(`the voice part is ${voiceGz - WIDGET_VOICE_LIMIT} bytes over its ${WIDGET_VOICE_LIMIT}-byte budget`);
  if (liveGz > WIDGET_LIVE_LIMIT) over.push(`the live-chat part is ${liveGz - WIDGET_LIVE_LIMIT} bytes over its ${WIDGET_LIVE_LIMIT}-byte budget`);
  if (loaderGz > LOADER_LIMIT) over.push(`the loader is ${loaderGz - LOADER_LIMIT} bytes over its ${LOADER_LIMIT}-byte budget`);
  if (firstLoad > WIDGET_FIRST_LOAD_LIMIT)
    over.push(`the widget's first-load JavaScript is ${firstLoad - WIDGET_FIRST_LOAD_LIMIT} bytes over its ${WIDGET_FIRST_LOAD_LIMIT}-byte budget`);
  if (over.length) {
    console.error(`[parley] Widget budget exceeded: ${over.join("; ")}.`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(`\n[parley] check:bundle failed: ${err.message}`);
  process.exit(1);
});
