// bench:load's BENCH_KNOWLEDGE_CHUNKS: grows the demo bot's knowledge before the levels, through the
// product's own REST API (POST /api/v1/sources, text sources) and its ingestion queue, so the levels
// and the isolate's heap are measured against a large knowledge base (issue #21: "memory per isolate
// under bench:chat at 100k chunks"). The text is bench:chat's corpus (the Anthropic docs) and seeded
// replicas of it, like bench:chat and bench:shards grow theirs: another title per replica and the
// sentences of each document in another order.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { corpus } from "./cli.mjs";
import { mulberry32, REPLICA_VARIANTS, shuffled } from "./prng.mjs";

const TEXT_SOURCE_MAX = 2_000_000; // app/lib/schemas/kb.ts

/** An API key for the demo chatbot, inserted as the product stores one (SHA-256 of the key). */
export function benchApiKey(orgId, chatbotId) {
  // The product's format (app/.server/api-keys): pk_ and 32 base32 characters.
  const key = `pk_${[...randomBytes(32)].map((b) => "abcdefghijklmnopqrstuvwxyz234567"[b & 31]).join("")}`;
  const hash = createHash("sha256").update(key).digest("hex");
  const sql =
    "INSERT INTO api_keys (id, org_id, chatbot_id, name, prefix, key_hash, created_at) " +
    `VALUES ('key_bench', '${orgId}', '${chatbotId}', 'bench:load', '${key.slice(0, 10)}', '${hash}', ${Date.now()})`;
  return { key, sql };
}

/** Markdown documents, replica after replica, cut into text sources of at most TEXT_SOURCE_MAX characters. */
function* textSources(totalChars) {
  const docs = JSON.parse(readFileSync(corpus, "utf8"));
  let made = 0;
  let text = "";
  let part = 0;
  for (let r = 0; made < totalChars; r++) {
    for (const [i, d] of docs.entries()) {
      const rnd = mulberry32(r * 1_000_003 + i);
      const sentences = d.text.split(/(?<=[.!?])\s+/);
      const body = (r > 0 ? shuffled(sentences, rnd) : sentences).join(" ");
      const doc = `# ${d.chunk_heading}${r > 0 ? ` — ${REPLICA_VARIANTS[r % REPLICA_VARIANTS.length]} ${r}` : ""}\n\n${body}\n\n`;
      if (text.length + doc.length > TEXT_SOURCE_MAX) {
        yield { title: `Docs part ${++part}`, text };
        text = "";
      }
      text += doc;
      made += doc.length;
      if (made >= totalChars) break;
    }
  }
  if (text) yield { title: `Docs part ${++part}`, text };
}

/**
 * Adds text sources until the chatbot holds about `chunks` chunks (959 chunks per 858k characters of
 * the corpus), then waits until every source is ready. Returns what it took.
 */
export async function growKnowledge(baseURL, key, chunks, { timeoutMs = 60 * 60_000, log = console.error } = {}) {
  const auth = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const charsPerChunk = 858_460 / 959;
  const started = performance.now();
  let sources = 0;
  const deadline = Date.now() + timeoutMs;
  for (const s of textSources(Math.ceil(chunks * charsPerChunk))) {
    // At most two sources ingesting at a time: with dozens queued at once, wrangler dev's local queue
    // stopped delivering (a consumer that also produces, workers-sdk issue 4639); Cloudflare's does not.
    await waitForSources(baseURL, auth, 2, deadline, log);
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${baseURL}/api/v1/sources`, { method: "POST", headers: auth, body: JSON.stringify({ type: "text", ...s }) }).catch((err) => err);
      if (res.status === 201) break;
      if (res.status === 429) {
        await new Promise((r) => setTimeout(r, Number(res.headers.get("Retry-After") ?? 5) * 1000));
        continue;
      }
      // While ingestion keeps the runtime busy, a kept-alive connection can be dropped before the
      // request is read (bench/README.md "What fails, and why"): the source was not created, so again.
      const body = res instanceof Error ? String(res.cause ?? res) : await res.text();
      if (attempt < 5 && (res instanceof Error || /restarted mid-request/.test(body))) {
        await new Promise((r) => setTimeout(r, 2000));
        continue;
      }
      throw new Error(`POST /api/v1/sources: ${res.status ?? "network"} ${body}`);
    }
    sources++;
  }
  log(`[bench:load] ${sources} text sources added; waiting for ingestion`);
  const total = await waitForSources(baseURL, auth, 0, deadline, log);
  return { sources, chunks: total, ingestS: +((performance.now() - started) / 1000).toFixed(1) };
}

/** Waits until at most `busy` sources are not ready yet; the chatbot's chunk count then. */
async function waitForSources(baseURL, auth, busy, deadline, log) {
  for (let n = 0; ; n++) {
    const res = await fetch(`${baseURL}/api/v1/sources`, { headers: auth }).catch(() => ({ status: 0 }));
    if (res.status !== 200) {
      await new Promise((r) => setTimeout(r, 5000));
      continue;
    }
    const list = (await res.json()).data;
    const failed = list.filter((x) => x.status === "failed");
    if (failed.length) throw new Error(`ingestion failed: ${failed.map((f) => `${f.title}: ${f.error}`).join("; ")}`);
    const total = list.reduce((a, x) => a + (x.chunkCount ?? 0), 0);
    const ready = list.filter((x) => x.status === "ready").length;
    if (list.length - ready <= busy) return total;
    if (Date.now() > deadline) throw new Error(`ingestion not finished in time (${total} chunks)`);
    if (n % 15 === 0) log(`[bench:load] ingesting: ${ready}/${list.length} sources ready, ${total} chunks`);
    await new Promise((r) => setTimeout(r, 2_000));
  }
}
