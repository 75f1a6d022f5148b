import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { PASSAGES_K } from "~/.server/chat/answer";
import { takeTurn } from "~/.server/chat/turn";
import { chatbotLoadStatement, loadedChatbot, type ChatbotWithOrg } from "~/.server/chatbots/find-chatbot";
import { createServiceContext } from "~/.server/context";
import type { Env } from "~/.server/env";
import { chunkDocument } from "~/.server/kb/chunking";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { createSiteSource } from "~/.server/kb/sources";
import { knowledgeStore } from "~/.server/retrieval/knowledge-store";
import type { ChunkInput } from "~/.server/retrieval/types";
import { originalUrl, replica, summary, makeBenchOrgAndBot } from "./bench-support";

// Chat latency and ingestion-throughput benchmark (see bench/README.md). Run with
// `npm run bench:chat`, never by `npm test`. Everything is the product's own code with the local
// engine (no API key, no network): the chatbot's knowledge store (D1, or its shard with
// BENCH_STORE=shard) with the local hashed embedder, answerMessage with
// the built-in local model, the crawler + ingestion with an injected fetcher.
type Doc = { chunk_link: string; chunk_heading: string; text: string };
type Question = { id: string; question: string; correct_chunks: string[] };
type BenchEnv = Env & {
  BENCH_CORPUS: string;
  BENCH_EVAL: string;
  BENCH_SIZES: string;
  BENCH_QUESTIONS: string;
  BENCH_WARMUP: string;
  BENCH_PAGES: string;
  BENCH_MAX_BUILD_S: string;
  BENCH_STORE: string;
};
const benv = env as unknown as BenchEnv;
const pending: Promise<unknown>[] = [];
// Ingestion runs its steps inline here, so the queue only has to accept messages.
const queue = { async send() {}, async sendBatch() {} } as unknown as Queue;
const ctx = createServiceContext({ ...benv, INGEST_QUEUE: queue }, (p) => void pending.push(p), "http://localhost");
const db = ctx.db;

// Where the grown chatbot's knowledge is kept (issue #20): "d1", or "shard" (its KnowledgeShard).
const store = benv.BENCH_STORE === "shard" ? "shard" : "d1";
const makeOrgAndBot = (suffix: string) => makeBenchOrgAndBot(benv.DB, "chatbench", suffix, store);

/**
 * One question as `POST /api/chat` asks it once the visitor gate has found the chatbot: takeTurn (the
 * turn's opening batch with the reply's credit, then answerMessage) with the target the chat look-up
 * returns, the UI message stream read to its end.
 */
async function ask(target: ChatbotWithOrg, text: string, visitorId: string) {
  const t0 = performance.now();
  const res = await takeTurn(ctx, { target, channel: "test", visitorId, text, startedAt: Date.now() });
  const streamMs = performance.now() - t0;
  const reader = res.stream.getReader();
  let firstMs: number | null = null;
  let chars = 0;
  let kind: string | undefined;
  let error: string | null = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === "text-delta") {
      if (firstMs === null && value.delta.length > 0) firstMs = performance.now() - t0;
      chars += value.delta.length;
    } else if (value.type === "error") error = value.errorText;
    else if (value.type === "finish" && value.messageMetadata) kind = (value.messageMetadata as { kind?: string }).kind;
  }
  const fullMs = performance.now() - t0;
  await res.done;
  return { firstMs: firstMs ?? fullMs, fullMs, streamMs, chars, kind, error };
}

/** The chatbot as the chat API's look-up returns it (with whether a shop is connected, so the shop tools skip their own query). */
async function loadBot(ref: { orgId: string; chatbotId: string }): Promise<ChatbotWithOrg> {
  const { results } = await chatbotLoadStatement(benv.DB, ref.chatbotId).all<Record<string, unknown>>();
  return loadedChatbot(ref.chatbotId, results)!;
}

// ——— crawler + ingestion from a generated local site ———
const SITE = "https://bench-site.example.test";
function benchSite(corpus: Doc[], pages: number) {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const html = (title: string, body: string, links: string[]) => `<!doctype html>
<html><head><title>${esc(title)} · Bench Docs</title><script>var t = 1;</script></head>
<body><nav><a href="/">Home</a> · <a href="/p/0">Start</a></nav>
<main><h1>${esc(title)}</h1>${body}<ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join("")}</ul></main>
<footer>© Bench Docs</footer></body></html>`;
  const routes = new Map<string, string>();
  routes.set(
    "/",
    html(
      "Bench Docs",
      "<p>Documentation index.</p>",
      Array.from({ length: pages - 1 }, (_, i) => `/p/${i}`),
    ),
  );
  for (let i = 0; i < pages - 1; i++) {
    const d = corpus[i % corpus.length];
    const paras = d.text.split(/\n{2,}|(?<=\.)\s+(?=[A-Z])/).filter(Boolean);
    const body = paras.map((p, k) => (k > 0 && k % 6 === 0 ? `<h2>${esc(p.slice(0, 60))}</h2>` : `<p>${esc(p)}</p>`)).join("\n");
    routes.set(`/p/${i}`, html(d.chunk_heading, body, [`/p/${(i + 1) % (pages - 1)}`, `/p/${(i + 7) % (pages - 1)}`, "/"]));
  }
  let fetched = 0;
  let bytes = 0;
  const fetcher = async (req: Request) => {
    const url = new URL(req.url);
    if (url.origin !== SITE) throw new Error(`bench site: off-site request to ${req.url}`);
    const body = routes.get(url.pathname);
    if (body === undefined) return new Response("not found", { status: 404, headers: { "Content-Type": "text/plain" } });
    fetched++;
    bytes += body.length;
    return new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  };
  return { fetcher, stats: () => ({ fetched, bytes }) };
}

it("chat latency and ingestion throughput", async () => {
  const corpus = JSON.parse(benv.BENCH_CORPUS) as Doc[];
  const allQuestions = JSON.parse(benv.BENCH_EVAL) as Question[];
  const sizes = benv.BENCH_SIZES.split(",")
    .map(Number)
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
  const nQuestions = Math.min(Number(benv.BENCH_QUESTIONS), allQuestions.length);
  const nWarmup = Number(benv.BENCH_WARMUP);
  const maxBuildS = Number(benv.BENCH_MAX_BUILD_S);
  const suffix = Date.now().toString(36);

  // 1. Crawler + ingestion pages/s.
  const pagesWanted = Number(benv.BENCH_PAGES);
  const crawlRef = await makeOrgAndBot(`${suffix}_crawl`);
  const site = benchSite(corpus, pagesWanted);
  const created = await createSiteSource(ctx, crawlRef, { url: SITE, pageCap: pagesWanted + 10 });
  if (!created.ok) throw new Error(created.message);
  const tc = performance.now();
  const crawled = await runIngestionUntilIdle(ctx, created.source.id, { fetcher: site.fetcher });
  const crawlMs = performance.now() - tc;
  expect(crawled.source?.status).toBe("ready");
  const crawlPages = (crawled.source!.config as { lastCrawl?: { pages: number } }).lastCrawl?.pages ?? site.stats().fetched;
  const crawlChunks = await (await knowledgeStore(ctx, crawlRef)).countChunks();
  const crawl = {
    pages: crawlPages,
    fetched: site.stats().fetched,
    htmlBytes: site.stats().bytes,
    chunks: crawlChunks,
    steps: crawled.steps,
    ms: crawlMs,
    pagesPerSec: crawlPages / (crawlMs / 1000),
    chunksPerSec: crawlChunks / (crawlMs / 1000),
  };
  console.log("BENCH_PROGRESS " + JSON.stringify({ crawl }));

  // 2. One chatbot grown to each size through indexChunks; questions asked at each size.
  const base: ChunkInput[] = [];
  const docsChunks = corpus.map((d) => chunkDocument({ title: d.chunk_heading, text: d.text, url: d.chunk_link, format: "text" }));
  for (const cs of docsChunks) for (const c of cs) base.push(c);
  const ref = await makeOrgAndBot(suffix);
  const target = await loadBot(ref);
  const knowledge = await knowledgeStore(ctx, ref);
  let round = 0; // replica round: 0 = the original chunks, r ≥ 1 = perturbed copies
  let inRound = 0; // chunks of the current round already indexed
  let total = 0;
  let buildMsTotal = 0;
  let chunksPerSecLast = 0;
  const rows: unknown[] = [];
  const skipped: { size: number; reason: string }[] = [];
  const questions = allQuestions.slice(0, nQuestions);
  const warmups = allQuestions.slice(allQuestions.length - nWarmup);
  let visitor = 0;

  for (const size of sizes) {
    const projectedS = chunksPerSecLast > 0 ? (size - total) / chunksPerSecLast : 0;
    if (projectedS > maxBuildS) {
      skipped.push({
        size,
        reason: `building ${size - total} more chunks projected at ${projectedS.toFixed(0)} s (at ${chunksPerSecLast.toFixed(0)} chunks/s) > BENCH_MAX_BUILD_S=${maxBuildS}`,
      });
      console.log("BENCH_PROGRESS " + JSON.stringify({ skipped: skipped.at(-1) }));
      continue;
    }
    const tb = performance.now();
    let added = 0;
    while (total < size) {
      // One knowledge source per replica round (like one crawled site), indexed in pieces of ≤ 1000 chunks.
      const sourceId = `ks_chatbench_${suffix}_${round}`;
      if (inRound === 0)
        await benv.DB.prepare("INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title, location, status) VALUES (?, ?, ?, 'site', ?, ?, 'ready')")
          .bind(sourceId, ref.orgId, ref.chatbotId, `docs replica ${round}`, `https://docs.example/replica-${round}`)
          .run();
      const n = Math.min(1000, size - total, base.length - inRound);
      const piece = base.slice(inRound, inRound + n).map((c, k) => {
        const position = inRound + k;
        return round === 0 ? { ...c, position } : { ...replica(c, round, position), position };
      });
      await knowledge.indexChunks({ sourceId, type: "site" }, piece);
      inRound += n;
      total += n;
      added += n;
      if (inRound >= base.length) {
        round++;
        inRound = 0;
      }
    }
    const buildMs = performance.now() - tb;
    buildMsTotal += buildMs;
    chunksPerSecLast = added / (buildMs / 1000);
    expect(await knowledge.countChunks()).toBe(size);

    for (const q of warmups) await ask(target, q.question, `v_bench_${visitor++}`);
    const first: number[] = [];
    const full: number[] = [];
    const untilStream: number[] = [];
    const kinds: Record<string, number> = {};
    let errors = 0;
    let chars = 0;
    for (const q of questions) {
      const r = await ask(target, q.question, `v_bench_${visitor++}`);
      first.push(r.firstMs);
      full.push(r.fullMs);
      untilStream.push(r.streamMs);
      chars += r.chars;
      if (r.error) errors++;
      kinds[r.kind ?? "none"] = (kinds[r.kind ?? "none"] ?? 0) + 1;
    }
    // Breakdown: the retrieval step alone (same call answerMessage makes), per question.
    // Also what it found: the documents of its passages (a replica counts as its original), scored
    // against eval.json's correct chunks at k=3 — how retrieval quality holds as the knowledge grows.
    const retrieveMs: number[] = [];
    let recall = 0;
    let mrr = 0;
    for (const q of questions) {
      const t = performance.now();
      const res = await knowledge.retrieve(q.question, { k: PASSAGES_K });
      retrieveMs.push(performance.now() - t);
      const docs = [...new Set(res.passages.map((p) => originalUrl(p.url)))].slice(0, 3);
      recall += docs.filter((d) => q.correct_chunks.includes(d)).length / q.correct_chunks.length;
      const first = docs.findIndex((d) => q.correct_chunks.includes(d));
      mrr += first < 0 ? 0 : 1 / (first + 1);
    }
    const row = {
      chunks: size,
      replicaRounds: round + (inRound > 0 ? 1 : 0),
      build: { addedChunks: added, ms: buildMs, chunksPerSec: chunksPerSecLast },
      questions: questions.length,
      warmup: warmups.length,
      firstByteMs: summary(first),
      fullAnswerMs: summary(full),
      // Where the first byte's time goes: the conversation lookup/creation, then answerMessage until
      // it returns the stream (quota, history, retrieval); the rest is the model's first delta.
      untilStreamMs: summary(untilStream),
      retrieveOnlyMs: summary(retrieveMs),
      quality: { recallAt3: recall / questions.length, mrrAt3: mrr / questions.length },
      meanAnswerChars: chars / questions.length,
      kinds,
      errors,
    };
    rows.push(row);
    console.log("BENCH_PROGRESS " + JSON.stringify(row));
  }
  await Promise.allSettled(pending);
  console.log(
    "BENCH_RESULT " +
      JSON.stringify({
        store,
        documents: corpus.length,
        baseChunks: base.length,
        questionsInSet: allQuestions.length,
        crawl,
        sizes: rows,
        skipped,
        buildMsTotal,
      }),
  );
});
