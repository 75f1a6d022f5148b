#!/usr/bin/env node
// `node bench/cpu-parts.mjs`: what the parts of a chat message cost on the local runtime (issue #21).
// bench:cpu gives the CPU of a whole message; this gives the CPU of requests that do less, sent one at
// a time, so the differences price the parts: a bare request through miniflare's entry worker and
// Hono (an unknown API path, no D1), one D1 round trip (GET /api/health runs `SELECT 1`), the chatbot
// look-up (a chatbot that does not exist: one drizzle-prepared D1 query), a visitor's history (the
// chatbot, the gate, the conversation look-up) and a chat POST refused by its schema (no D1).
// CPU time (user + system) of each process of wrangler's group from /proc, per request. Inspector off
// (scripts/lib/wrangler-dev-quiet.mjs), as `npm start` runs. The built Worker; run `npm run build` first.
//   BENCH_PORT=8877 BENCH_REQUESTS=300 BENCH_REPEATS=2 node bench/cpu-parts.mjs
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../scripts/lib/common.mjs";
import { startDevWorker } from "../scripts/lib/dev-worker.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8877);
const N = Number(process.env.BENCH_REQUESTS ?? 300);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** CPU ms so far of wrangler's group, by role: the runtime workerd, wrangler's proxy workerd, node, esbuild. */
function groupCpu(pgid) {
  const out = {};
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[2]) !== pgid) continue;
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const role = name === "workerd" ? (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`:${PORT}\0`) ? "proxy" : "runtime") : name;
      out[role] = (out[role] ?? 0) + (Number(f[11]) + Number(f[12])) * 10; // USER_HZ ticks → ms
    } catch {
      /* gone */
    }
  }
  return out;
}

const dir = path.join(ROOT, ".bench");
mkdirSync(dir, { recursive: true });
const worker = await startDevWorker({
  stateDir: path.join(dir, "cpu-parts-state"),
  logFile: path.join(dir, "cpu-parts-wrangler.log"),
  port: PORT,
  strictPort: true,
  inspector: false,
});
const base = worker.baseURL;
const kinds = {
  "bare request (unknown API path, no D1)": () => fetch(`${base}/api/no-such-endpoint`),
  "one D1 round trip (GET /api/health: SELECT 1)": () => fetch(`${base}/api/health`),
  "chatbot look-up (history of an unknown chatbot: 1 D1 query)": () => fetch(`${base}/api/chat/cb_no_such_bot/history?visitorId=v_parts_unknown`),
  "a new visitor's history on the demo bot": (i) => fetch(`${base}/api/chat/cb_demo/history?visitorId=v_parts_${i}`),
  "chat POST refused by its schema (400, no D1)": () =>
    fetch(`${base}/api/chat/cb_demo`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }),
};
const rows = [];
try {
  await sleep(15_000); // the demo knowledge's start-up ingestion
  const loadAtStart = os.loadavg()[0];
  for (let rep = 0; rep < REPEATS; rep++)
    for (const [kind, send] of Object.entries(kinds)) {
      for (let i = 0; i < 20; i++) await (await send(`w${rep}_${i}`)).text();
      const c0 = groupCpu(worker.pid);
      for (let i = 0; i < N; i++) await (await send(`${rep}_${i}`)).text();
      const c1 = groupCpu(worker.pid);
      const ms = Object.fromEntries(Object.keys(c1).map((p) => [p, +((c1[p] - (c0[p] ?? 0)) / N).toFixed(2)]));
      rows.push({ repeat: rep, kind, msPerRequest: ms });
      console.error(`[bench:cpu-parts] ${rep} ${kind}: ${JSON.stringify(ms)}`);
    }
  console.log(JSON.stringify({ date: new Date().toISOString(), loadAverage: [loadAtStart, os.loadavg()[0]], requests: N, rows }, null, 2));
} finally {
  await worker.stop();
}
