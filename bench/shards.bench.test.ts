import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { PASSAGES_K } from "~/.server/chat/answer";
import { d1ConversationIndex, shardConversationIndex, type ConversationIndex } from "~/.server/chat/conversation-index";
import type { ConversationListParams } from "~/lib/schemas/conversation-list";
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
  Record<
    | "BENCH_CORPUS"
    | "BENCH_EVAL"
    | "BENCH_SIZES"
    | "BENCH_QUESTIONS"
    | "BENCH_WARMUP"
    | "BENCH_BOTS"
    | "BENCH_BOT_CHUNKS"
    | "BENCH_ROUNDS"
    | "BENCH_INDEX_SIZES"
    | "BENCH_INDEX_CALLS",
    string
  >;
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
  // BENCH_BOTS=0 leaves this part out (e.g. to run only the conversation index below).
  for (const kind of nBots > 0 ? (["d1", "shard"] as const) : []) {
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

// ——— a busy chatbot's conversation index (ADR 044, 051, 054) ———
// One chatbot's conversations (two messages each) in D1 and in its ConversationShard, grown to each
// size; the chatbot home's list (first page, the "unanswered" filter, the next page) and the live
// inbox's lists asked of both through the one implementation (conversation-index.ts): D1's with its
// messages in D1, the shard's with its messages in the shard (one RPC). Rows are written by SQL
// generated inside each database (the same statements on both), not through the turn.

const T0 = 1_760_000_000_000;
const SERIES = "WITH RECURSIVE n(i) AS (SELECT ?3 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?4)";
/** Binds ?1 organisation, ?2 chatbot, ?3 first row, ?4 end, ?5 start time. Statuses, badges and leads spread over the rows. */
const FILL_SQL = [
  `${SERIES} INSERT INTO conversations (id, org_id, chatbot_id, visitor_id, channel, status, title, message_count, created_at, last_message_at,
     unanswered, rating, has_lead, lead_name, lead_email)
   SELECT printf('cv_%07d', i), ?1, ?2, printf('v_%07d', i / 2), CASE WHEN i % 5 = 0 THEN 'phone' ELSE 'widget' END,
     CASE WHEN i % 997 = 0 THEN 'waiting' WHEN i % 991 = 0 THEN 'human' WHEN i % 3 = 0 THEN 'closed' ELSE 'bot' END,
     'Where is my parcel number ' || (i % 1000), 2, ?5 + i * 60000, ?5 + i * 60000 + 30000,
     i % 7 = 0, CASE WHEN i % 11 = 0 THEN -1 END, i % 13 = 0, CASE WHEN i % 13 = 0 THEN 'Lead ' || i END,
     CASE WHEN i % 13 = 0 THEN printf('lead%d@example.com', i) END
   FROM n`,
  `${SERIES} INSERT INTO messages (id, conversation_id, org_id, chatbot_id, role, content, created_at)
   SELECT printf('msg_%07d_%d', i, k), printf('cv_%07d', i), ?1, ?2, CASE k WHEN 0 THEN 'visitor' ELSE 'bot' END,
     CASE k WHEN 0 THEN 'Where is my parcel number ' || (i % 1000) || '?' ELSE 'It left the warehouse yesterday and arrives tomorrow.' END,
     ?5 + i * 60000 + k * 30000
   FROM n, (SELECT 0 AS k UNION ALL SELECT 1)`,
  `${SERIES} INSERT INTO conversation_agents (conversation_id, org_id, chatbot_id, user_id, agent_name, taken_at, closed_at)
   SELECT printf('cv_%07d', i), ?1, ?2, NULL, 'Bench Agent', ?5 + i * 60000, CASE WHEN i % 991 = 0 THEN NULL ELSE ?5 + i * 60000 + 90000 END
   FROM n WHERE i % 991 = 0 OR (i % 3 = 0 AND i % 997 <> 0 AND i % 30 = 0)`,
];

type IndexStore = { name: "d1" | "shard"; fill(from: number, to: number): Promise<void>; index: ConversationIndex };

it("storage shards: a busy chatbot's conversation index in its shard next to D1", async () => {
  const sizes = benv.BENCH_INDEX_SIZES.split(",")
    .map(Number)
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
  if (!sizes.length) return;
  const calls = Number(benv.BENCH_INDEX_CALLS);
  const suffix = Date.now().toString(36);
  const d1Ref = await makeOrgAndBot(`${suffix}_index_d1`);
  const shardRef = await makeOrgAndBot(`${suffix}_index_shard`);
  const shardIndex = shardConversationIndex(benv, shardRef);
  await shardIndex.get("cv_none"); // the object creates its tables and learns its chatbot
  const stub = benv.CONVERSATION_SHARD.get(benv.CONVERSATION_SHARD.idFromName(shardRef.chatbotId));
  const STEP = 10_000;
  const stores: IndexStore[] = [
    {
      name: "d1",
      index: d1ConversationIndex(ctx, d1Ref),
      async fill(from, to) {
        for (let i = from; i < to; i += STEP)
          for (const q of FILL_SQL)
            await benv.DB.prepare(q)
              .bind(d1Ref.orgId, d1Ref.chatbotId, i, Math.min(to, i + STEP), T0)
              .run();
      },
    },
    {
      name: "shard",
      index: shardIndex,
      async fill(from, to) {
        for (let i = from; i < to; i += STEP)
          await runInDurableObject(stub, async (_o, state) => {
            for (const q of FILL_SQL) state.storage.sql.exec(q, shardRef.orgId, shardRef.chatbotId, i, Math.min(to, i + STEP), T0);
          });
      },
    },
  ];
  const first = { q: "", filters: [], older: null, newer: null } satisfies ConversationListParams;
  const rows: unknown[] = [];
  let have = 0;
  for (const size of sizes) {
    const row: Record<string, unknown> = { conversations: size, messages: size * 2 };
    for (const s of stores) {
      const t = performance.now();
      await s.fill(have, size);
      const fillMs = performance.now() - t;
      const page = await s.index.list(first);
      expect(page.total).toBe(size);
      const older = page.older;
      const ops: Record<string, () => Promise<unknown>> = {
        firstPage: () => s.index.list(first),
        unanswered: () => s.index.list({ ...first, filters: ["unanswered"] }),
        nextPage: () => s.index.list({ ...first, older }),
        inboxLists: () => s.index.inboxLists("usr_bench"),
      };
      const out: Record<string, unknown> = { fillMs };
      for (const [name, op] of Object.entries(ops)) {
        for (let w = 0; w < 5; w++) await op();
        const times: number[] = [];
        for (let c = 0; c < calls; c++) {
          const tc = performance.now();
          await op();
          times.push(performance.now() - tc);
        }
        out[name] = summary(times);
      }
      row[s.name] = out;
    }
    // The same rows, the same code: both must list the same page.
    const [a, b] = await Promise.all(stores.map((s) => s.index.list(first)));
    row.samePage =
      JSON.stringify(a.rows.map((r) => [r.id.slice(-7), r.lastMessageAt])) === JSON.stringify(b.rows.map((r) => [r.id.slice(-7), r.lastMessageAt]));
    have = size;
    rows.push(row);
    console.log("BENCH_PROGRESS " + JSON.stringify(row));
  }
  console.log("BENCH_INDEX_RESULT " + JSON.stringify({ calls, sizes: rows }));
});
