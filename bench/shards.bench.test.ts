import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { PASSAGES_K } from "~/.server/chat/answer";
import { createServiceContext } from "~/.server/context";
import type { Env } from "~/.server/env";
import { chunkDocument } from "~/.server/kb/chunking";
import { countChatbotChunks, indexChunks } from "~/.server/retrieval/indexing";
import { retrieve } from "~/.server/retrieval/search";
import { shardKnowledgeStub } from "~/.server/retrieval/knowledge-store";
import type { ChatbotRef, ChunkInput, RetrievalResult } from "~/.server/retrieval/types";
import { originalUrl, replica, summary, makeBenchOrgAndBot } from "./bench-support";

// Storage-shards benchmark (issue #20, bench/README.md): the same chunks in D1 and in a chatbot's
// knowledge shard (a SQLite-backed Durable Object), the same questions asked of both — retrieval
// time, what it found, ingestion chunks/s — and then many chatbots' shards queried at once. Run with
// `npm run bench:shards`, never by `npm test`.
type Doc = { chunk_link: string; chunk_heading: string; text: string };
type Question = { id: string; question: string; correct_chunks: string[] };
type BenchEnv = Env &
  Record<"BENCH_CORPUS" | "BENCH_EVAL" | "BENCH_SIZES" | "BENCH_QUESTIONS" | "BENCH_WARMUP" | "BENCH_BOTS" | "BENCH_BOT_CHUNKS" | "BENCH_ROUNDS", string>;
const benv = env as unknown as BenchEnv;
const ctx = createServiceContext(benv, () => undefined, "http://localhost");
const shardOf = (ref: ChatbotRef) => shardKnowledgeStub(benv, ref);

const makeOrgAndBot = (suffix: string) => makeBenchOrgAndBot(benv.DB, "shardbench", suffix);

/** Where the chunks go: D1 (today) or the chatbot's shard. Both index the same pieces and answer the same questions. */
type Store = {
  name: "d1" | "shard";
  ref: ChatbotRef;
  index(sourceId: string, piece: ChunkInput[]): Promise<void>;
  retrieve(q: string): Promise<RetrievalResult>;
  count(): Promise<number>;
};

async function d1Store(ref: ChatbotRef): Promise<Store> {
  const sources = new Set<string>();
  return {
    name: "d1",
    ref,
    async index(sourceId, piece) {
      if (!sources.has(sourceId)) {
        sources.add(sourceId);
        await benv.DB.prepare("INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title, location, status) VALUES (?, ?, ?, 'site', ?, ?, 'ready')")
          .bind(sourceId, ref.orgId, ref.chatbotId, sourceId, `https://docs.example/${sourceId}`)
          .run();
      }
      await indexChunks(ctx, { ...ref, sourceId }, piece);
    },
    retrieve: (q) => retrieve(ctx, ref, q, { k: PASSAGES_K }),
    count: () => countChatbotChunks(ctx, ref),
  };
}

function shardStore(ref: ChatbotRef): Store {
  const shard = shardOf(ref);
  return {
    name: "shard",
    ref,
    async index(sourceId, piece) {
      await shard.indexChunks(ref, { sourceId, type: "site" }, piece);
    },
    retrieve: (q) => shard.retrieve(ref, q, { k: PASSAGES_K }),
    count: () => shard.countChunks(ref),
  };
}

/** Grows `store` from `from` to `to` chunks: round r ≥ 1 of the corpus is a seeded replica, one source per round, pieces of ≤ 1000. */
async function grow(store: Store, base: ChunkInput[], from: number, to: number, tag: string) {
  for (let i = from; i < to;) {
    const round = Math.floor(i / base.length);
    const inRound = i % base.length;
    const n = Math.min(1000, to - i, base.length - inRound);
    const piece = base.slice(inRound, inRound + n).map((c, k) => {
      const position = inRound + k;
      return round === 0 ? { ...c, position } : { ...replica(c, round, position), position };
    });
    await store.index(`ks_${tag}_${round}`, piece);
    i += n;
  }
}

const passageKey = (r: RetrievalResult) => JSON.stringify([r.answerable, r.passages.map((p) => [p.text, p.score])]);

it("storage shards: retrieval and ingestion in a chatbot's shard next to D1", async () => {
  const corpus = JSON.parse(benv.BENCH_CORPUS) as Doc[];
  const allQuestions = JSON.parse(benv.BENCH_EVAL) as Question[];
  const sizes = benv.BENCH_SIZES.split(",")
    .map(Number)
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
  const questions = allQuestions.slice(0, Math.min(Number(benv.BENCH_QUESTIONS), allQuestions.length));
  const warmups = allQuestions.slice(allQuestions.length - Number(benv.BENCH_WARMUP));
  const base = corpus.flatMap((d) => chunkDocument({ title: d.chunk_heading, text: d.text, url: d.chunk_link, format: "text" }));
  const suffix = Date.now().toString(36);

  // 1. One chatbot per store grown to each size; the same questions asked of both.
  const stores = [await d1Store(await makeOrgAndBot(`${suffix}_d1`)), shardStore(await makeOrgAndBot(`${suffix}_shard`))];
  const rows: unknown[] = [];
  let have = 0;
  for (const size of sizes) {
    const row: Record<string, unknown> = { chunks: size };
    for (const s of stores) {
      const t = performance.now();
      await grow(s, base, have, size, `${s.name}_${suffix}`);
      const ms = performance.now() - t;
      expect(await s.count()).toBe(size);
      row[s.name] = { build: { addedChunks: size - have, ms, chunksPerSec: (size - have) / (ms / 1000) } };
    }
    have = size;
    const found: Record<string, string[]> = { d1: [], shard: [] };
    for (const s of stores) {
      for (const q of warmups) await s.retrieve(q.question);
      const times: number[] = [];
      let recall = 0;
      let mrr = 0;
      for (const q of questions) {
        const t = performance.now();
        const res = await s.retrieve(q.question);
        times.push(performance.now() - t);
        found[s.name].push(passageKey(res));
        const docs = [...new Set(res.passages.map((p) => originalUrl(p.url)))].slice(0, 3);
        recall += docs.filter((d) => q.correct_chunks.includes(d)).length / q.correct_chunks.length;
        const first = docs.findIndex((d) => q.correct_chunks.includes(d));
        mrr += first < 0 ? 0 : 1 / (first + 1);
      }
      Object.assign(row[s.name] as object, { retrieveMs: summary(times), quality: { recallAt3: recall / questions.length, mrrAt3: mrr / questions.length } });
    }
    // Identical knowledge, identical code: the shard must find exactly what D1 finds.
    row.differentResults = found.d1.filter((k, i) => k !== found.shard[i]).length;
    rows.push(row);
    console.log("BENCH_PROGRESS " + JSON.stringify(row));
  }

  // 2. Many chatbots at once: each its own knowledge (a slice of the corpus), every chatbot asked one
  //    question at the same moment, several rounds — shards against the same chatbots in D1.
  const nBots = Number(benv.BENCH_BOTS);
  const botChunks = Number(benv.BENCH_BOT_CHUNKS);
  const rounds = Number(benv.BENCH_ROUNDS);
  const concurrent: Record<string, unknown> = { chatbots: nBots, chunksEach: botChunks, rounds };
  for (const kind of ["d1", "shard"] as const) {
    const bots: Store[] = [];
    const tb = performance.now();
    for (let b = 0; b < nBots; b++) {
      const ref = await makeOrgAndBot(`${suffix}_${kind}_${b}`);
      const store = kind === "d1" ? await d1Store(ref) : shardStore(ref);
      const start = (b * 37) % base.length;
      const slice = [...base.slice(start), ...base.slice(0, start)].slice(0, botChunks).map((c, position) => ({ ...c, position }));
      await store.index(`ks_bot_${kind}_${suffix}_${b}`, slice);
      bots.push(store);
    }
    const buildMs = performance.now() - tb;
    const each: number[] = [];
    const walls: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const tr = performance.now();
      await Promise.all(
        bots.map(async (s, b) => {
          const t = performance.now();
          await s.retrieve(questions[(b + r * 7) % questions.length].question);
          each.push(performance.now() - t);
        }),
      );
      walls.push(performance.now() - tr);
    }
    concurrent[kind] = {
      buildMs,
      perQueryMs: summary(each),
      roundWallMs: summary(walls),
      queriesPerSec: (nBots * rounds) / (walls.reduce((a, b) => a + b, 0) / 1000),
    };
    console.log("BENCH_PROGRESS " + JSON.stringify({ concurrent: { kind, ...(concurrent[kind] as object) } }));
  }
  console.log("BENCH_RESULT " + JSON.stringify({ documents: corpus.length, baseChunks: base.length, questions: questions.length, sizes: rows, concurrent }));
});
