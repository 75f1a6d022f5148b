// Summarises a V8 CPU profile (.cpuprofile JSON, e.g. from BENCH_CPU_PROFILE in bench:load): self time
// by function and by source file, and inclusive time of named functions, so the hot spots of the
// Worker under load can be read without DevTools.
//   node bench/profile-summary.mjs bench/results/load.cpuprofile [top=30]
import { readFileSync } from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: node bench/profile-summary.mjs <profile.cpuprofile> [top]");
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// Sample time: timeDeltas[i] belongs to samples[i].
const self = new Map();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
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
const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)} %`;
const print = (title, m) => {
  console.log(`\n${title}`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${(t / 1000).toFixed(0).padStart(7)} ms  ${k}`);
};
console.log(`profile: ${(total / 1e6).toFixed(2)} s sampled`);
print("self time by file", selfByFile);
print("self time by function", selfByFn);
print("inclusive time by function", inclusive);
