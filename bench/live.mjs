#!/usr/bin/env node
// `npm run bench:live`: many live conversations at once on one local `wrangler dev` (issue 16, ADR 026).
// Starts the built Worker on a fresh database (the same start-up as the e2e tests), signs in as the
// demo owner ONCE (the per-email sign-in limit is 10 per 15 minutes), and for each of N conversations:
// a visitor asks for a person through the public widget API (POST /api/widget/{bot}/handoff), the
// visitor's WebSocket and an agent's WebSocket connect to the conversation's Durable Object, and the
// agent takes it. Then every conversation exchanges messages both ways at a chat's pace:
//   agent → visitor: a `send` frame on the agent's socket; latency = send → the visitor's socket receives it
//   visitor → agent: a `send` frame on the visitor's socket, as the widget sends a held conversation's
//     messages since ADR 033 (BENCH_VISITOR=http: POST /api/chat through the conversation core, the
//     path before it); latency = send (or POST start) → the agent's socket receives it
// Each side keeps every frame; at the end a message the sender had acknowledged (ack frame / HTTP 200)
// that the other side never received counts as lost, and each socket's seqs must rise without a gap.
// Reports fan-out latency p50/p95/p99 (both directions, and each), errors by kind, lost messages,
// setup times and the wrangler/workerd processes' peak resident memory; writes bench/results/live.json.
//   npm run bench:live
//   BENCH_CONVERSATIONS=100 BENCH_MESSAGES=6 BENCH_SKIP_BUILD=1 npm run bench:live
//   BENCH_CPU_PROFILE=path.cpuprofile: a V8 CPU profile of the Worker isolate during the exchange (bench/profile-summary.mjs reads it)
//   BENCH_VISITOR=socket (default) | http · BENCH_NETWORK_EVENTS=1: leave the devtools Network events on (as before 2026-11-26)
//   BENCH_PORT=8851 (default; its devtools on the next port) · BENCH_GAP_S=8-16 (pause between one conversation's messages: a person reading and typing) · BENCH_OUT=path
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build, ROOT } from "../scripts/lib/common.mjs";
import { DEMO } from "../scripts/lib/demo.mjs";
import { startDevWorker } from "../scripts/lib/dev-worker.mjs";
import { agentPath, handOff, LiveSocket, signIn, visitorPath, visitorSays } from "../scripts/lib/live-client.mjs";
import { groupCpu, groupRss, heapSampler } from "./isolate-inspector.mjs";
import { mulberry32 as prng } from "./prng.mjs";

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 500);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 6); // per conversation, alternating agent / visitor
const PORT = Number(process.env.BENCH_PORT ?? 8851);
const [GAP_MIN_MS, GAP_MAX_MS] = (process.env.BENCH_GAP_S ?? "8-16").split("-").map((x) => Number(x) * 1000);
const SETUP_CONCURRENCY = Number(process.env.BENCH_SETUP_CONCURRENCY ?? 25);
const DELIVERY_WAIT_MS = 15_000;
const OUT = process.env.BENCH_OUT ?? path.join(ROOT, "bench", "results", "live.json");
const BOT = "cb_live_bench";
const VISITOR_VIA = process.env.BENCH_VISITOR === "http" ? "http" : "socket";

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const r = (x) => (x === null ? null : Math.round(x * 10) / 10);
  return { n: s.length, p50: r(pct(s, 50)), p95: r(pct(s, 95)), p99: r(pct(s, 99)), max: r(s.at(-1) ?? null) };
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` over `items`, at most `n` at a time. */
async function pool(items, n, fn) {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (i < items.length) {
        const k = i++;
        await fn(items[k], k);
      }
    }),
  );
}

function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverageAtStart: os.loadavg().map((x) => +x.toFixed(1)),
  };
}

async function main() {
  let worker = null;
  const dir = path.join(ROOT, ".bench");
  mkdirSync(dir, { recursive: true });
  if (process.env.BENCH_SKIP_BUILD !== "1") await build();
  const startedLoad = machine();
  worker = await startDevWorker({
    stateDir: path.join(dir, "live-state"),
    logFile: path.join(dir, "live-wrangler.log"),
    port: PORT,
    strictPort: true,
    inspectorPort: PORT + 1,
    sql: [
      "UPDATE organisations SET plan = 'scale' WHERE id = 'org_demo'",
      `INSERT INTO chatbots (id, org_id, name, visibility, settings) VALUES ('${BOT}', '${DEMO.orgId}', 'Live bench', 'public', '${JSON.stringify({ ui: { humanHandoff: true, leadForm: { timing: "off" } } })}')`,
    ].join("; "),
  });
  const base = worker.baseURL;
  // Let the demo knowledge's start-up ingestion (queued by the cron kick) finish first.
  await sleep(Number(process.env.BENCH_SETTLE_S ?? 15) * 1000);
  const wsBase = base.replace(/^http/, "ws");
  // The devtools Network events are off unless BENCH_NETWORK_EVENTS=1 (the runs before 2026-11-26 had them on).
  const NETWORK_EVENTS = process.env.BENCH_NETWORK_EVENTS === "1";
  const heap = await heapSampler(PORT + 1, { networkEvents: NETWORK_EVENTS }).catch(() => null);
  const peakRss = {};
  const rssTimer = setInterval(() => {
    for (const [k, v] of Object.entries(groupRss(worker.pid))) peakRss[k] = Math.max(peakRss[k] ?? 0, Math.round(v));
  }, 500);
  const errors = {};
  const err = (kind) => (errors[kind] = (errors[kind] ?? 0) + 1);
  const sent = new Map(); // text → { at, dir, conv, acked }
  const latency = { agentToVisitor: [], visitorToAgent: [] };
  const received = new Set();
  const onFrame = (side) => (f, at) => {
    if (f.type === "error") err(`error frame (${side}): ${f.code}`);
    if (f.type !== "message") return;
    const s = sent.get(f.message.text);
    if (!s || received.has(`${side}:${f.message.text}`)) return;
    if ((s.dir === "a2v" && side === "visitor") || (s.dir === "v2a" && side === "agent")) {
      received.add(`${side}:${f.message.text}`);
      (s.dir === "a2v" ? latency.agentToVisitor : latency.visitorToAgent).push(at - s.at);
    }
  };

  let result;
  try {
    const cookie = await signIn(base);
    const convs = Array.from({ length: CONVERSATIONS }, (_, i) => ({
      i,
      visitorId: `v_bench_${i.toString(36).padStart(4, "0")}_${Date.now().toString(36)}`,
      ip: `10.${80 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`,
    }));

    // Setup: hand each conversation to a person, connect both sides, take it.
    const t0 = performance.now();
    await pool(convs, SETUP_CONCURRENCY, async (c) => {
      // (Setup, not measured: a 503 "worker restarted mid-request" or a dropped connection from
      // wrangler's dev proxy under load is retried, as the widget would.)
      for (let attempt = 0; ; attempt++) {
        try {
          c.id = await handOff(base, BOT, c.visitorId, c.ip);
          break;
        } catch (e) {
          const dropped = /fetch failed/.test(e.message);
          if (attempt >= 3 || !(dropped || /503/.test(e.message))) throw e;
          err(`setup: handoff retried after ${dropped ? "a dropped connection" : "a 503"}`);
          await sleep(1000);
        }
      }
    });
    const handoffS = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    await pool(convs, SETUP_CONCURRENCY, async (c) => {
      c.visitor = await LiveSocket.open(wsBase + visitorPath(BOT, c.visitorId, c.id), { "CF-Connecting-IP": c.ip }, { onFrame: onFrame("visitor") });
      c.agent = await LiveSocket.open(wsBase + agentPath(DEMO.orgId, BOT, c.id), { Cookie: cookie, Origin: base }, { onFrame: onFrame("agent") });
      c.agent.send({ type: "take" });
      await c.visitor.next("status", (f) => f.status === "human", { timeoutMs: 60_000 });
    });
    const connectS = (performance.now() - t1) / 1000;
    console.error(
      `[bench:live] ${CONVERSATIONS} conversations handed over in ${handoffS.toFixed(1)} s, ${CONVERSATIONS * 2} sockets connected and taken in ${connectS.toFixed(1)} s`,
    );

    // The exchange: every conversation at once, alternating sides, a pause between messages.
    heap?.reset();
    if (process.env.BENCH_CPU_PROFILE && heap) await heap.startProfile();
    const cpuBefore = groupCpu(worker.pid);
    const t2 = performance.now();
    await Promise.all(
      convs.map(async (c) => {
        const rand = prng(c.i + 1);
        await sleep(rand() * (GAP_MAX_MS - GAP_MIN_MS)); // spread the starts
        for (let m = 0; m < MESSAGES; m++) {
          await sleep(GAP_MIN_MS + rand() * (GAP_MAX_MS - GAP_MIN_MS));
          if (m % 2 === 0) {
            const text = `Agent reply ${m} in conversation ${c.i}`;
            const clientId = `c_b${c.i}_${m}_bench`; // ids need 8+ characters
            const s = { at: performance.now(), dir: "a2v", conv: c.i, acked: false };
            sent.set(text, s);
            c.agent.send({ type: "send", clientId, text });
            try {
              await c.agent.next("ack", (f) => f.clientId === clientId, { timeoutMs: 30_000 });
              s.acked = true;
            } catch {
              err("agent send not acknowledged in 30 s");
            }
          } else {
            const text = `Visitor message ${m} in conversation ${c.i}`;
            const s = { at: performance.now(), dir: "v2a", conv: c.i, acked: false };
            sent.set(text, s);
            if (VISITOR_VIA === "socket") {
              const clientId = `c_v${c.i}_${m}_bench`;
              c.visitor.send({ type: "send", clientId, text });
              try {
                await c.visitor.next("ack", (f) => f.clientId === clientId, { timeoutMs: 30_000 });
                s.acked = true;
              } catch {
                err("visitor send not acknowledged in 30 s");
              }
              continue;
            }
            try {
              const r = await visitorSays(base, BOT, { visitorId: c.visitorId, conversationId: c.id, text, clientMessageId: `c_v${c.i}_${m}_bench`, ip: c.ip });
              if (r.message !== null) err("visitor message answered by the bot (conversation not held)");
              s.acked = true;
            } catch (e) {
              err(`visitor send: ${String(e.message).slice(0, 60)}`);
            }
          }
        }
      }),
    );
    const exchangeS = (performance.now() - t2) / 1000;
    const cpuAfter = groupCpu(worker.pid);
    // Share of one core each process used during the exchange.
    const cpuDuringExchange = Object.fromEntries(
      Object.entries(cpuAfter).map(([k, v]) => [k, `${Math.round(((v - (cpuBefore[k] ?? 0)) / exchangeS) * 100)} %`]),
    );
    if (process.env.BENCH_CPU_PROFILE && heap) {
      const profile = await heap.stopProfile();
      if (profile) writeFileSync(process.env.BENCH_CPU_PROFILE, JSON.stringify(profile));
      console.error(`[bench:live] CPU profile → ${process.env.BENCH_CPU_PROFILE} (summary: node bench/profile-summary.mjs ${process.env.BENCH_CPU_PROFILE})`);
    }

    // Everything acknowledged must arrive; wait for stragglers, then count.
    const deadline = Date.now() + DELIVERY_WAIT_MS;
    const missing = () => [...sent].filter(([text, s]) => s.acked && !received.has(`${s.dir === "a2v" ? "visitor" : "agent"}:${text}`));
    while (missing().length && Date.now() < deadline) await sleep(250);
    const lost = missing().length;
    // Per socket: seqs rise by one, nothing skipped or repeated.
    let gaps = 0;
    for (const c of convs) {
      for (const s of [c.visitor, c.agent]) {
        const seqs = s.messages().map((m) => m.seq);
        if (seqs.some((q, k) => k > 0 && q !== seqs[k - 1] + 1)) gaps++;
        if (s.closed) err("socket closed during the run");
      }
    }
    for (const c of convs) (c.visitor.close(), c.agent.close());

    const all = [...latency.agentToVisitor, ...latency.visitorToAgent];
    const acked = [...sent.values()].filter((s) => s.acked).length;
    result = {
      date: new Date().toISOString(),
      target: "wrangler dev (scripts/lib/dev-worker.mjs), one local workerd process",
      conversations: CONVERSATIONS,
      sockets: CONVERSATIONS * 2,
      messagesPerConversation: MESSAGES,
      visitorSendsVia: VISITOR_VIA,
      gapS: [GAP_MIN_MS / 1000, GAP_MAX_MS / 1000],
      sent: sent.size,
      acknowledged: acked,
      lost,
      socketsWithSeqGaps: gaps,
      errors,
      messagesPerS: +(sent.size / exchangeS).toFixed(1),
      fanOutMs: { all: stats(all), agentToVisitor: stats(latency.agentToVisitor), visitorToAgent: stats(latency.visitorToAgent) },
      setupS: { handoffs: +handoffS.toFixed(1), connectAndTake: +connectS.toFixed(1) },
      exchangeS: +exchangeS.toFixed(1),
      peakRssMb: peakRss,
      cpuDuringExchange,
      devtoolsNetworkEvents: NETWORK_EVENTS,
      isolateHeapMb: heap?.summary() ?? null,
      machine: { ...startedLoad, loadAverageAtEnd: os.loadavg().map((x) => +x.toFixed(1)) },
    };
  } finally {
    clearInterval(rssTimer);
    heap?.close();
    await worker?.stop();
  }
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(result, null, 2) + "\n");
  const f = result.fanOutMs;
  console.log(
    `\n| conversations (sockets) | messages sent / acknowledged | lost | errors | msgs/s | fan-out p50 / p95 / p99 (all) | agent→visitor p50 / p95 / p99 | visitor→agent p50 / p95 / p99 | peak RSS (MB) |`,
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${result.conversations} (${result.sockets}) | ${result.sent} / ${result.acknowledged} | ${result.lost} | ${
      Object.entries(result.errors)
        .map(([k, v]) => `${k}: ${v}`)
        .join("; ") || "none"
    } | ${result.messagesPerS} | ${f.all.p50} / ${f.all.p95} / ${f.all.p99} ms | ${f.agentToVisitor.p50} / ${f.agentToVisitor.p95} / ${f.agentToVisitor.p99} ms | ${f.visitorToAgent.p50} / ${f.visitorToAgent.p95} / ${f.visitorToAgent.p99} ms | ${Object.entries(
      result.peakRssMb,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")} |`,
  );
  console.log(`\nCPU during the exchange (share of one core): ${JSON.stringify(result.cpuDuringExchange)}`);
  console.log(`\nwrote ${path.relative(ROOT, OUT)}`);
  process.exit(result.lost || result.socketsWithSeqGaps || Object.keys(result.errors).length ? 1 : 0);
}

main().catch((e) => {
  console.error(`[bench:live] ${e.stack ?? e.message}`);
  process.exit(1);
});
