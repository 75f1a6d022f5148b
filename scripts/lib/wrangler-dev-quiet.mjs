#!/usr/bin/env node
// `wrangler dev` without its inspector (ADR 036): the Worker on the local runtime, started through
// wrangler's API with `dev.inspector: false`. The CLI always connects its inspector proxy to the
// runtime and turns on the DevTools Network domain, so every subrequest of the Worker (each D1 call,
// each Durable Object call) becomes inspector events that wrangler's proxy workerd relays and its
// node process writes to its debug log file: per chat message that is more CPU than the Worker's own
// (bench:cpu). Without it there are no DevTools and no isolate heap figures; everything else is the
// same runtime, bindings and request log.
//   node scripts/lib/wrangler-dev-quiet.mjs --port 8787 [--ip 127.0.0.1] [--persist-to DIR] [--var NAME:VALUE]... [--test-scheduled]
import { unstable_startWorker } from "wrangler";

const argv = process.argv.slice(2);
const value = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
const vars = Object.fromEntries(
  argv
    .flatMap((a, i) => (a === "--var" ? [argv[i + 1]] : []))
    .map((v) => [v.slice(0, v.indexOf(":")), { type: "plain_text", value: v.slice(v.indexOf(":") + 1) }]),
);
const worker = await unstable_startWorker({
  config: "wrangler.toml",
  bindings: vars,
  dev: {
    inspector: false,
    persist: value("--persist-to"),
    server: { hostname: value("--ip") ?? "127.0.0.1", port: Number(value("--port") ?? 8787) },
    testScheduled: argv.includes("--test-scheduled"),
    watch: false,
  },
});
await worker.ready;
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await worker.dispose().catch(() => {});
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
