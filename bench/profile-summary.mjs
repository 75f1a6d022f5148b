// Summarises a V8 CPU profile (.cpuprofile JSON, e.g. from BENCH_CPU_PROFILE in bench:load): self time
// by function and by source file, and inclusive time of named functions, so the hot spots of the
// Worker under load can be read without DevTools.
// With --bundle, the Worker's bundle the profile was taken on (wrangler dev's .wrangler/tmp/dev-*/app.js,
// copied while it runs; bench/cpu.mjs keeps one), self time is also grouped by source module (esbuild's
// `// path` comments; a package counts as one) and by the concerns of the chat path.
//   node bench/profile-summary.mjs bench/results/load.cpuprofile [top=30] [--bundle app.js]
import { readFileSync } from "node:fs";

const argv = process.argv.slice(2);
const bundleAt = argv.indexOf("--bundle");
const bundleFile = bundleAt >= 0 ? argv.splice(bundleAt, 2)[1] : null;
const [file, topArg] = argv;
if (!file) throw new Error("usage: node bench/profile-summary.mjs <profile.cpuprofile> [top] [--bundle app.js]");
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// Sample time: timeDeltas[i] belongs to samples[i].
const self = new Map();
// On a busy machine the sampled thread is sometimes descheduled, and the next sample carries the whole
// gap (hundreds of ms on one function). Each sample's time is capped at 4× the median interval, so
// the shares say where the thread ran, not where it happened to be waiting for a core.
const sortedDeltas = [...profile.timeDeltas].sort((a, b) => a - b);
const cap = 4 * (sortedDeltas[Math.floor(sortedDeltas.length / 2)] || 500);
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + Math.min(cap, Math.max(0, profile.timeDeltas[i] ?? 0))));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const label = (n) => `${n.callFrame.functionName || "(anonymous)"} ${String(n.callFrame.url).split("/").slice(-2).join("/")}:${n.callFrame.lineNumber + 1}`;
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
const selfByFn = new Map();
const selfByFile = new Map();
const inclusive = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  add(selfByFn, label(n), t);
  add(selfByFile, String(n.callFrame.url).split("/").slice(-2).join("/") || n.callFrame.functionName, t);
  // Inclusive: every distinct function on the stack gets the sample once.
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = label(byId.get(cur));
    if (!seen.has(k)) (seen.add(k), add(inclusive, k, t));
  }
}
// Line → source module of the bundle (esbuild writes `// path` before each module's code).
const moduleStarts = [];
if (bundleFile) {
  readFileSync(bundleFile, "utf8")
    .split("\n")
    .forEach((line, i) => {
      const m = /^\/\/ ((?:node_modules\/|app\/|workers\/|build\/|\.\.\/)\S+)$/.exec(line);
      if (m) moduleStarts.push([i, m[1].replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, "$1")]);
    });
}
function moduleOf(n) {
  const url = String(n.callFrame.url);
  if (!url.endsWith("app.js") || !moduleStarts.length) return url || n.callFrame.functionName;
  let lo = 0;
  let hi = moduleStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (moduleStarts[mid][0] <= n.callFrame.lineNumber) lo = mid;
    else hi = mid - 1;
  }
  return moduleStarts[lo][0] <= n.callFrame.lineNumber ? moduleStarts[lo][1] : "app.js (start)";
}
const CONCERNS = [
  ["D1 client + drizzle", /^(cloudflare-internal:d1-api|drizzle-orm|app\/\.server\/db\/)/],
  ["retrieval", /^app\/\.server\/retrieval\//],
  ["local model", /^app\/\.server\/ai\/(local-model|prompts|small-talk|buying-intent|human-request)/],
  [
    "AI SDK + streams",
    /^(ai|@ai-sdk\/.*|eventsource-parser|@opentelemetry\/.*|TransformStream|ReadableStream|enqueue|pipeThrough|pipeTo|read|close|TextEncoderStream|tee|getReader)$/,
  ],
  ["zod", /^(zod|app\/lib\/schemas\/)/],
  ["Hono + Remix + entry", /^(hono|@remix-run\/.*|workers\/app\.ts|workers\/api\/(index|body-limit|errors)\.ts|Headers|URL|Response|fetch|text|get|set)$/],
  ["visitor gate + rate limits", /^(app\/\.server\/widget\/|workers\/api\/visitor-gate|workers\/admission)/],
  ["chat (turn, answer, conversations, usage)", /^(app\/\.server\/chat\/|workers\/api\/chat\.ts|app\/\.server\/chatbots\/)/],
  ["analytics", /analytics|site-activity/],
  ["tools", /^app\/\.server\/(ai\/tools|tools|integrations)\//],
  ["live chat / inbox", /^(app\/\.server\/inbox\/|workers\/durable-objects\/)/],
  ["GC", /garbage collector/],
  ["native / unattributed", /^(\(program\)|\(anonymous\)|)$/],
];
const selfByModule = new Map();
const selfByConcern = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  if (n.callFrame.functionName === "(idle)") continue;
  // A native frame (no script: a builtin, a runtime API) counts for the nearest caller that has one.
  let owner = id;
  while (!byId.get(owner).callFrame.url && parent.has(owner) && byId.get(parent.get(owner)).callFrame.functionName !== "(root)") owner = parent.get(owner);
  const mod = byId.get(owner).callFrame.url ? moduleOf(byId.get(owner)) : moduleOf(n);
  add(selfByModule, mod, t);
  add(selfByConcern, CONCERNS.find(([, re]) => re.test(mod))?.[0] ?? `other (${mod})`, t);
}
const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)} %`;
const print = (title, m) => {
  console.log(`\n${title}`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${(t / 1000).toFixed(0).padStart(7)} ms  ${k}`);
};
console.log(`profile: ${(total / 1e6).toFixed(2)} s sampled`);
print("self time by file", selfByFile);
if (bundleFile) {
  const busy = [...selfByConcern.values()].reduce((a, b) => a + b, 0);
  console.log(`\nbusy (not idle): ${(busy / 1e6).toFixed(2)} s`);
  print("self time by concern (native frames count for their nearest scripted caller; % of the whole profile)", selfByConcern);
  print("self time by source module", selfByModule);
}
print("self time by function", selfByFn);
print("inclusive time by function", inclusive);
