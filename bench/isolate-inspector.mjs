// Measurements of the local runtime shared by bench:load and bench:live: the resident memory of
// wrangler's process group, and the Worker isolate's V8 heap and CPU profile through wrangler's
// devtools endpoint.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);

/** Sum of the resident memory (kB → MB) of a process group's members, per command name. */
export function groupRss(pgid) {
  const out = {};
  if (!pgid) return out;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue; // field 5 (pgrp)
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      out[name] = (out[name] ?? 0) + rssKb / 1024;
    } catch {
      /* gone */
    }
  }
  return out;
}

/**
 * CPU seconds (user + system) used so far by a process group's members, per role: wrangler's two
 * workerd processes are told apart by the runtime's `--inspector-addr` (the other one runs
 * wrangler's dev proxy, ProxyWorker and InspectorProxyWorker, in front of every request and socket).
 */
export function groupCpu(pgid) {
  const out = {};
  if (!pgid) return out;
  const tick = 100; // USER_HZ on Linux
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      let name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (name === "workerd") name = readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--inspector-addr") ? "workerd (runtime)" : "workerd (dev proxy)";
      out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / tick;
    } catch {
      /* gone */
    }
  }
  return out;
}

/**
 * The Worker isolate's V8 heap, sampled through wrangler's devtools endpoint (Runtime.getHeapUsage
 * every 250 ms): what Cloudflare's 128 MB per isolate limit is about, unlike the RSS of the whole
 * workerd process (which also holds SQLite, the proxy and the runtime itself). Needs the `ws`
 * package (installed with wrangler); without it, heap figures are left out.
 */
export async function heapSampler(inspectorPort, { networkEvents = true } = {}) {
  let WebSocket;
  try {
    WebSocket = createRequire(import.meta.url)("ws");
  } catch {
    return null;
  }
  let target;
  for (let i = 0; i < 20 && !target; i++) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
      target = list.find((t) => t.webSocketDebuggerUrl);
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  if (!target) return null;
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
  let id = 0;
  let used = [];
  let total = 0;
  const pending = new Map();
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data));
    if (pending.has(msg.id)) {
      pending.get(msg.id)(msg.result ?? msg.error);
      pending.delete(msg.id);
    }
    if (msg.result && typeof msg.result.usedSize === "number") {
      used.push(msg.result.usedSize / 2 ** 20);
      total = Math.max(total, msg.result.totalSize / 2 ** 20);
    }
  });
  // wrangler 4.86's inspector proxy turns the runtime's Network domain on whatever is attached: every
  // subrequest (each D1 query, each object call) then sends ~4 events through the dev proxy's workerd
  // to this client, which reads none of them. `networkEvents: false` turns them off for the session
  // (workers-sdk issue 14191; bench/README.md "Live chat").
  if (!networkEvents) await call("Network.disable");
  const timer = setInterval(() => ws.readyState === 1 && ws.send(JSON.stringify({ id: ++id, method: "Runtime.getHeapUsage" })), 250);
  // `usedSize` counts garbage not yet collected, and V8 lets it grow when the heap has no limit (local
  // workerd sets none). What a 128 MB limit is about is what stays reachable: `liveSampling` forces a
  // full collection every so often and records the heap right after it. A full GC stops the isolate,
  // so only measurements of memory use it, never those of time.
  let live = [];
  let liveTimer = null;
  return {
    /** From now on, every `everyMs`, the heap right after a forced full GC (0: stop). */
    liveSampling(everyMs) {
      if (liveTimer) clearInterval(liveTimer);
      liveTimer =
        everyMs > 0
          ? setInterval(async () => {
              if (ws.readyState !== 1) return;
              await call("HeapProfiler.collectGarbage");
              const r = await call("Runtime.getHeapUsage");
              if (typeof r?.usedSize === "number") live.push(r.usedSize / 2 ** 20);
            }, everyMs)
          : null;
    },
    reset() {
      used = [];
      live = [];
      total = 0;
    },
    summary() {
      if (!used.length) return null;
      const sorted = [...used].sort((a, b) => a - b);
      const liveSorted = [...live].sort((a, b) => a - b);
      return {
        samples: used.length,
        usedP50: +pct(sorted, 50).toFixed(1),
        usedMax: +sorted.at(-1).toFixed(1),
        heapTotalMax: +total.toFixed(1),
        ...(liveSorted.length ? { liveSamples: liveSorted.length, liveP50: +pct(liveSorted, 50).toFixed(1), liveMax: +liveSorted.at(-1).toFixed(1) } : {}),
      };
    },
    /** A V8 CPU profile of the Worker isolate (BENCH_CPU_PROFILE): where its time goes under load. */
    async startProfile() {
      await call("Profiler.enable");
      await call("Profiler.setSamplingInterval", { interval: 500 });
      await call("Profiler.start");
    },
    async stopProfile() {
      return (await call("Profiler.stop"))?.profile ?? null;
    },
    close() {
      clearInterval(timer);
      if (liveTimer) clearInterval(liveTimer);
      ws.close();
    },
  };
}
