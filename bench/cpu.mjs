#!/usr/bin/env node
// `node bench/cpu.mjs`: CPU time per chat message on the local runtime (issue #21), measured so that
// machine load does not distort it. Starts the built Worker under `wrangler dev` on a fresh database
// (the same start-up as bench:load), then sends a FIXED batch of messages ONE AT A TIME and reads the
// CPU time (utime + stime, /proc/<pid>/stat) of every process of wrangler's group before and after:
// the workerd that runs the Worker, D1's SQLite and the Durable Objects is the one that matters.
// Sequential sends mean no queueing, so the figure is CPU per message, not a throughput.
//   bot:  N messages to the demo bot (POST /api/chat/cb_demo, streamed), bench:load's mix and order
//         (50 % questions, 25 % small talk, 25 % fallbacks; visitors of 3 messages each)
//   held: N visitor messages in conversations a person holds (bench:live's visitor → agent path:
//         POST /api/chat, stream: false, the message goes to the conversation's live object)
// BENCH_INSPECTOR=0: wrangler dev without its DevTools inspector (what the inspector costs: ADR 036).
// BENCH_CPU_PROFILE=prefix: also a V8 CPU profile of the Worker isolate per path, over a second,
// identical batch (prefix-bot.cpuprofile, prefix-held.cpuprofile, and the Worker bundle they refer to,
// prefix-app.js): node bench/profile-summary.mjs prefix-bot.cpuprofile 30 --bundle prefix-app.js
//   npm run bench:cpu
//   BENCH_SKIP_BUILD=1 BENCH_PORT=8861 BENCH_MESSAGES=150 BENCH_HELD=60 node bench/cpu.mjs
import { copyFileSync, existsSync, readFileSync, readdirSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build, ROOT } from "../scripts/lib/common.mjs";
import { DEMO } from "../scripts/lib/demo.mjs";
import { startDevWorker } from "../scripts/lib/dev-worker.mjs";
import { agentPath, handOff, LiveSocket, signIn, visitorPath, visitorSays } from "../scripts/lib/live-client.mjs";
import { heapSampler } from "./isolate-inspector.mjs";
import { KINDS, MESSAGES, prng } from "./load-messages.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8861);
const N = Number(process.env.BENCH_MESSAGES ?? 150);
const HELD = Number(process.env.BENCH_HELD ?? 60);
// BENCH_INSPECTOR=0: wrangler dev without its inspector (scripts/lib/wrangler-dev-quiet.mjs); no profile then.
const INSPECTOR = process.env.BENCH_INSPECTOR !== "0";
const PROFILE = INSPECTOR ? process.env.BENCH_CPU_PROFILE : undefined;
const OUT = process.env.BENCH_OUT ?? path.join(ROOT, "bench", "results", "cpu.json");
const BOT = "cb_demo";
const HELD_BOT = "cb_cpu_bench";
const TICK_MS = 1000 / 100; // USER_HZ
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A /proc stat line: its command name, process group and CPU ms (user + system). */
function readStat(file) {
  const stat = readFileSync(file, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), pgrp: Number(f[2]), ms: (Number(f[11]) + Number(f[12])) * TICK_MS };
}

/** CPU ms (user + system, all threads) of every process in the group, by pid, with its threads' by name. */
function groupCpu(pgid) {
  const out = {};
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const p = readStat(`/proc/${pid}/stat`);
      if (p.pgrp !== pgid) continue;
      const threads = {};
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const t = readStat(`/proc/${pid}/task/${tid}/stat`);
        threads[t.name] = (threads[t.name] ?? 0) + t.ms;
      }
      // wrangler's proxy workerd listens on the bench's port; the runtime's entry socket is on a random one.
      const role = p.name === "workerd" ? (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`:${PORT}\0`) ? "proxy" : "runtime") : undefined;
      out[pid] = { name: role ? `workerd (${role})` : p.name, ms: p.ms, threads };
    } catch {
      /* gone */
    }
  }
  return out;
}

function cpuDelta(before, after, messages) {
  const rows = Object.entries(after)
    .map(([pid, a]) => ({
      pid: Number(pid),
      name: a.name,
      ms: a.ms - (before[pid]?.ms ?? 0),
      // Threads by name, ms per message (threads that ran only briefly count too).
      threads: Object.fromEntries(
        Object.entries(a.threads)
          .map(([t, ms]) => [t, +((ms - (before[pid]?.threads[t] ?? 0)) / messages).toFixed(2)])
          .filter(([, ms]) => ms > 0),
      ),
    }))
    .filter((r) => r.ms > 0)
    .sort((a, b) => b.ms - a.ms);
  const total = rows.reduce((s, r) => s + r.ms, 0);
  return {
    messages,
    processes: rows.map((r) => ({ ...r, msPerMessage: +(r.ms / messages).toFixed(2) })),
    // The runtime workerd runs the Worker, D1 and the Durable Objects; wrangler's proxy and node only relay.
    runtimeMsPerMessage: +((rows.find((r) => r.name === "workerd (runtime)")?.ms ?? 0) / messages).toFixed(2),
    totalMsPerMessage: +(total / messages).toFixed(2),
  };
}

/** The bench:load mix, sent one at a time: visitors of 3 messages (new conversation, then continuing). */
async function botBatch(base, n, tag) {
  const random = prng(4242);
  let conversationId;
  let visitor;
  let answered = 0;
  for (let i = 0; i < n; i++) {
    if (i % 3 === 0) {
      visitor = { id: `cpu_${tag}_${i}`, ip: `10.77.${(i >> 8) & 255}.${i & 255}` };
      conversationId = undefined;
    }
    const pool = MESSAGES[KINDS[Math.floor(random() * KINDS.length)]];
    const text = pool[Math.floor(random() * pool.length)];
    const res = await fetch(`${base}/api/chat/${BOT}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": visitor.ip },
      body: JSON.stringify({ visitorId: visitor.id, message: text, conversationId, newConversation: i % 3 === 0, clientMessageId: `c_${tag}_${i}_cpu` }),
    });
    const body = await res.text();
    if (!res.ok || !/"type":"finish"/.test(body)) throw new Error(`message ${i}: ${res.status} ${body.slice(0, 300)}`);
    conversationId = /"conversationId":"([^"]+)"/.exec(body)?.[1];
    if (/"answered":true/.test(body)) answered++;
  }
  return { answered };
}

async function main() {
  const dir = path.join(ROOT, ".bench");
  mkdirSync(dir, { recursive: true });
  if (process.env.BENCH_SKIP_BUILD !== "1") await build();
  const worker = await startDevWorker({
    stateDir: path.join(dir, "cpu-state"),
    logFile: path.join(dir, "cpu-wrangler.log"),
    port: PORT,
    strictPort: true,
    inspectorPort: PORT + 1,
    inspector: INSPECTOR,
    sql: [
      "UPDATE organisations SET plan = 'scale' WHERE id = 'org_demo'",
      `INSERT INTO chatbots (id, org_id, name, visibility, settings) VALUES ('${HELD_BOT}', '${DEMO.orgId}', 'CPU bench', 'public', '${JSON.stringify({ ui: { humanHandoff: true, leadForm: { timing: "off" } } })}')`,
    ].join("; "),
  });
  const base = worker.baseURL;
  const result = {
    date: new Date().toISOString(),
    loadAverageAtStart: os.loadavg().map((x) => +x.toFixed(2)),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model },
  };
  try {
    // The demo knowledge's start-up ingestion (queued by the cron kick) must be over before measuring.
    await sleep(Number(process.env.BENCH_SETTLE_S ?? 15) * 1000);
    const idle0 = groupCpu(worker.pid);
    await sleep(2000);
    result.idleMsPerS = cpuDelta(idle0, groupCpu(worker.pid), 2).totalMsPerMessage;
    await botBatch(base, 15, "warm");
    const heap = PROFILE ? await heapSampler(PORT + 1) : null;
    if (PROFILE) {
      // The bundle the profile's line numbers refer to (wrangler deletes it when it stops).
      const tmp = path.join(ROOT, ".wrangler", "tmp");
      const dev = readdirSync(tmp).find((d) => d.startsWith("dev-") && existsSync(path.join(tmp, d, "app.js")));
      if (dev) copyFileSync(path.join(tmp, dev, "app.js"), `${PROFILE}-app.js`);
    }

    const b0 = groupCpu(worker.pid);
    const t0 = performance.now();
    const { answered } = await botBatch(base, N, "bot");
    result.bot = { ...cpuDelta(b0, groupCpu(worker.pid), N), answered, wallMsPerMessage: +((performance.now() - t0) / N).toFixed(1) };
    console.error(`[bench:cpu] bot: ${JSON.stringify(result.bot)}`);
    if (heap) {
      await heap.startProfile();
      await botBatch(base, N, "prof");
      writeFileSync(`${PROFILE}-bot.cpuprofile`, JSON.stringify(await heap.stopProfile()));
    }

    if (HELD > 0) {
      // Conversations a person holds (bench:live's set-up), then visitor messages to them one at a time.
      const cookie = await signIn(base);
      const convs = [];
      for (let i = 0; i < Math.min(HELD, 20); i++) {
        const c = { visitorId: `v_cpu_${i}_${Date.now().toString(36)}`, ip: `10.78.0.${i}` };
        c.id = await handOff(base, HELD_BOT, c.visitorId, c.ip);
        c.visitor = await LiveSocket.open(base.replace(/^http/, "ws") + visitorPath(HELD_BOT, c.visitorId, c.id));
        c.agent = await LiveSocket.open(base.replace(/^http/, "ws") + agentPath(DEMO.orgId, HELD_BOT, c.id), { Cookie: cookie, Origin: base });
        c.agent.send({ type: "take" });
        await c.visitor.next("status", (f) => f.status === "human", { timeoutMs: 30_000 });
        convs.push(c);
      }
      const say = async (i, tag) => {
        const c = convs[i % convs.length];
        const r = await visitorSays(base, HELD_BOT, {
          visitorId: c.visitorId,
          conversationId: c.id,
          text: `Visitor message ${tag} ${i}`,
          clientMessageId: `c_${tag}_${i}_cpu`,
          ip: c.ip,
        });
        if (r.message !== null) throw new Error("held conversation answered by the bot");
      };
      for (let i = 0; i < 5; i++) await say(i, "hwarm");
      await sleep(500);
      const h0 = groupCpu(worker.pid);
      const t1 = performance.now();
      for (let i = 0; i < HELD; i++) await say(i, "held");
      await sleep(300); // fan-out to the sockets finishes
      result.held = { ...cpuDelta(h0, groupCpu(worker.pid), HELD), wallMsPerMessage: +((performance.now() - t1 - 300) / HELD).toFixed(1) };
      console.error(`[bench:cpu] held: ${JSON.stringify(result.held)}`);
      if (heap) {
        await heap.startProfile();
        for (let i = 0; i < HELD; i++) await say(i, "hprof");
        writeFileSync(`${PROFILE}-held.cpuprofile`, JSON.stringify(await heap.stopProfile()));
      }
      for (const c of convs) (c.visitor.close(), c.agent.close());
    }
    heap?.close();
  } finally {
    await worker.stop();
  }
  result.loadAverageAtEnd = os.loadavg().map((x) => +x.toFixed(2));
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(result, null, 2) + "\n");
  console.log(JSON.stringify(result, null, 2));
}

main().catch((err) => {
  console.error(`[bench:cpu] ${err.stack ?? err.message}`);
  process.exit(1);
});
