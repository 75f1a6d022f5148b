#!/usr/bin/env node
// `npm run bench:site`: Lighthouse (mobile preset: emulated phone, simulated slow 4G and 4× CPU
// slowdown) on the public site's key pages, served by the real built Worker under `wrangler dev`,
// in Debian's Chromium. Prints the four category scores and the JavaScript bytes each page loads,
// and writes bench/results/site.json. Not part of `npm test` (scores are timings, not assertions).
//   npm run bench:site                 # /, /pricing, a comparison page, a blog post, a docs page; 3 runs each (median)
//   BENCH_RUNS=1 npm run bench:site    # one run each
//   node bench/site.mjs /company /docs # other paths
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { build, ROOT } from "../scripts/lib/common.mjs";
import { startDevWorker } from "../scripts/lib/dev-worker.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

/** The first link on `page` whose path matches `pattern` (a post, a doc page). */
async function firstLink(baseURL, page, pattern) {
  const html = await (await fetch(baseURL + page)).text();
  const m = html.match(new RegExp(`href="(${pattern})"`));
  if (!m) throw new Error(`no link matching ${pattern} on ${page}`);
  return m[1];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== "1") await build();
  const dir = path.join(ROOT, ".bench");
  mkdirSync(dir, { recursive: true });
  const worker = await startDevWorker({
    stateDir: path.join(dir, "site-state"),
    logFile: path.join(dir, "site-wrangler.log"),
    port: Number(process.env.BENCH_PORT ?? 8797),
  });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const rows = [];
  try {
    const paths = process.argv.slice(2).length
      ? process.argv.slice(2)
      : [
          "/",
          "/pricing",
          "/product/zendesk-alternative",
          await firstLink(worker.baseURL, "/blog", "/blog/[a-z0-9-]+"),
          await firstLink(worker.baseURL, "/docs", "/docs/[a-z0-9-]+/[a-z0-9-]+"),
        ];
    for (const p of paths) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const { lhr } = await lighthouse(worker.baseURL + p, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES });
        const requests = lhr.audits["network-requests"]?.details?.items ?? [];
        const scripts = requests.filter((r) => r.resourceType === "Script");
        runs.push({
          scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
          lcpMs: Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? 0),
          tbtMs: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? 0),
          cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0,
          jsRequests: scripts.length,
          jsTransferBytes: scripts.reduce((n, r) => n + (r.transferSize ?? 0), 0),
          jsResourceBytes: scripts.reduce((n, r) => n + (r.resourceSize ?? 0), 0),
          totalTransferBytes: requests.reduce((n, r) => n + (r.transferSize ?? 0), 0),
          failing: Object.values(lhr.audits)
            .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
            .map((a) => a.id),
        });
      }
      const pick = (f) => median(runs.map(f));
      const row = {
        path: p,
        runs: RUNS,
        scores: Object.fromEntries(CATEGORIES.map((c) => [c, pick((r) => r.scores[c])])),
        lcpMs: pick((r) => r.lcpMs),
        tbtMs: pick((r) => r.tbtMs),
        cls: pick((r) => r.cls),
        jsRequests: runs[0].jsRequests,
        jsTransferBytes: runs[0].jsTransferBytes,
        jsResourceBytes: runs[0].jsResourceBytes,
        totalTransferBytes: runs[0].totalTransferBytes,
        failingAudits: [...new Set(runs.flatMap((r) => r.failing))],
      };
      rows.push(row);
      console.error(`[bench:site] ${p}: ${JSON.stringify(row.scores)} JS ${row.jsTransferBytes} B`);
    }
  } finally {
    await chrome.kill();
    await worker.stop();
  }
  console.log("\npage                                   perf  a11y  best-pr  seo   LCP ms  TBT ms  JS requests  JS bytes (transfer)");
  for (const r of rows)
    console.log(
      `${r.path.padEnd(38)} ${String(r.scores.performance).padStart(4)}  ${String(r.scores.accessibility).padStart(4)}  ${String(r.scores["best-practices"]).padStart(7)}  ${String(r.scores.seo).padStart(3)}  ${String(r.lcpMs).padStart(6)}  ${String(r.tbtMs).padStart(6)}  ${String(r.jsRequests).padStart(11)}  ${String(r.jsTransferBytes).padStart(8)}`,
    );
  for (const r of rows) if (r.failingAudits.length) console.log(`${r.path}: failing audits: ${r.failingAudits.join(", ")}`);
  const out = path.join(ROOT, "bench", "results", "site.json");
  writeFileSync(
    out,
    JSON.stringify({ date: new Date().toISOString(), machine: { cpus: os.cpus().length, node: process.version }, chromium: CHROMIUM, rows }, null, 2) + "\n",
  );
  console.log(`\nwrote ${path.relative(ROOT, out)}`);
}

main().catch((err) => {
  console.error(`bench:site failed: ${err.stack ?? err}`);
  process.exit(1);
});
