import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { createDb } from "~/.server/db/client";
import { chunkDocument } from "~/.server/kb/chunking";
import { knowledgeStore } from "~/.server/retrieval/knowledge-store";
import { DEFAULT_TUNING, type RetrievalTuning } from "~/.server/retrieval/search";

// Retrieval benchmark (see bench/README.md). Run with `npm run bench:retrieval`, never by `npm test`.
type Doc = { chunk_link: string; chunk_heading: string; text: string };
type Question = { id: string; question: string; correct_chunks: string[] };
type Env = {
  DB: D1Database;
  BENCH_CORPUS: string;
  BENCH_EVAL: string;
  BENCH_ABLATION: string;
  BENCH_CONFIGS: string;
  BENCH_DEBUG?: string;
  BENCH_RECALL10?: string;
  BENCH_TARGET?: string;
  BENCH_STORE?: string;
};
const benv = env as unknown as Env;
const K = 3;

// Cumulative ablation: each row adds one idea to the row above; the last cumulative row is the
// product default (DEFAULT_TUNING). Then leave-one-out rows and the vector-store alternatives.
const NONE: Partial<RetrievalTuning> = {
  wTitle: 1,
  wHeading: 1,
  wText: 1,
  wUrl: 0,
  ftsLimit: 80,
  coverage: 0,
  sentence: 0,
  phrase: 0,
  hashedText: 0,
  hashedTopic: 0,
  sibling: 0,
  novelty: 0,
  samePage: 0,
  vector: "off",
};
const STEPS: [string, Partial<RetrievalTuning>][] = [
  ["BM25 title+text, equal weights", {}],
  ["+ field weights (title 4, heading 3, URL slug 1.5)", { wTitle: DEFAULT_TUNING.wTitle, wHeading: DEFAULT_TUNING.wHeading, wUrl: DEFAULT_TUNING.wUrl }],
  ["+ IDF-weighted query-term coverage", { coverage: DEFAULT_TUNING.coverage }],
  ["+ sentence-level evidence", { sentence: DEFAULT_TUNING.sentence }],
  ["+ adjacent word pairs (phrase)", { phrase: DEFAULT_TUNING.phrase }],
  ["+ hashed n-gram similarity to text", { hashedText: DEFAULT_TUNING.hashedText }],
  ["+ hashed similarity to title/heading/URL", { hashedTopic: DEFAULT_TUNING.hashedTopic }],
  ["+ sibling-section prior", { sibling: DEFAULT_TUNING.sibling }],
  ["+ coverage-aware top-k (novelty)", { novelty: DEFAULT_TUNING.novelty }],
  ["+ same-page bonus in top-k", { samePage: DEFAULT_TUNING.samePage }],
  ["+ 150 FTS candidates = DEFAULT", { ftsLimit: DEFAULT_TUNING.ftsLimit, vector: DEFAULT_TUNING.vector }],
];
const ABLATION: { name: string; tuning: Partial<RetrievalTuning> }[] = [];
{
  let acc: Partial<RetrievalTuning> = { ...NONE };
  for (const [name, step] of STEPS) {
    acc = { ...acc, ...step };
    ABLATION.push({ name, tuning: { ...acc } });
  }
  const off: [string, Partial<RetrievalTuning>][] = [
    ["default − field weights", { wTitle: 1, wHeading: 1, wUrl: 0 }],
    ["default − coverage", { coverage: 0 }],
    ["default − sentence evidence", { sentence: 0 }],
    ["default − phrase", { phrase: 0 }],
    ["default − hashed text", { hashedText: 0 }],
    ["default − hashed topic", { hashedTopic: 0 }],
    ["default − sibling prior", { sibling: 0 }],
    ["default − novelty", { novelty: 0 }],
    ["default, novelty over whole text", { noveltyOn: "text" }],
    ["default − same-page bonus", { samePage: 0 }],
    ["default + vector store, weighted 0.5", { vector: "weighted", wVector: 0.5 }],
    ["default + vector store, RRF (k=60)", { vector: "rrf", wVector: 1 }],
    ["vector store only (hashed, no lexical)", { ...NONE, wTitle: 0.0001, wHeading: 0.0001, wText: 0.0001, vector: "weighted", wVector: 1000 }],
  ];
  for (const [name, change] of off) ABLATION.push({ name, tuning: change });
}

function score(retrieved: string[], correct: string[]) {
  const top = retrieved.slice(0, K);
  const hits = top.filter((d) => correct.includes(d)).length;
  const first = top.findIndex((d) => correct.includes(d));
  return { precision: hits / K, recall: hits / correct.length, mrr: first < 0 ? 0 : 1 / (first + 1) };
}

it("retrieval benchmark", async () => {
  const corpus = JSON.parse(benv.BENCH_CORPUS) as Doc[];
  const questions = JSON.parse(benv.BENCH_EVAL) as Question[];
  const db = createDb(benv.DB);
  const ctx = { env: benv as never, db };
  // Where the knowledge is kept (issue #20): "d1", or "shard" (the chatbot's KnowledgeShard).
  const storeKind = benv.BENCH_STORE === "shard" ? "shard" : "d1";
  const suffix = Date.now().toString(36);
  const orgId = `org_bench_${suffix}`;
  const chatbotId = `cb_bench_${suffix}`;
  const ref = { orgId, chatbotId };
  await benv.DB.batch([
    benv.DB.prepare("INSERT INTO organisations (id, name, slug, period_start) VALUES (?, 'Bench', ?, ?)").bind(orgId, `bench-${suffix}`, Date.now()),
    benv.DB.prepare("INSERT INTO chatbots (id, org_id, name, knowledge_store) VALUES (?, ?, 'Bench bot', ?)").bind(chatbotId, orgId, storeKind),
  ]);
  const store = await knowledgeStore(ctx, ref);

  // Ingest: one knowledge source per corpus entry, chunked and indexed by the product's code.
  const t0 = performance.now();
  const docOfSource = new Map<string, string>();
  const sourceRows = corpus.map((d, i) => ({ id: `ks_bench_${suffix}_${i}`, doc: d }));
  for (let i = 0; i < sourceRows.length; i += 20) {
    await benv.DB.batch(
      sourceRows
        .slice(i, i + 20)
        .map((s) =>
          benv.DB.prepare("INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title, location, status) VALUES (?, ?, ?, 'url', ?, ?, 'ready')").bind(
            s.id,
            orgId,
            chatbotId,
            s.doc.chunk_heading,
            s.doc.chunk_link,
          ),
        ),
    );
  }
  let chunkCount = 0;
  for (const s of sourceRows) {
    docOfSource.set(s.id, s.doc.chunk_link);
    const chunks = chunkDocument(
      { title: s.doc.chunk_heading, text: s.doc.text, url: s.doc.chunk_link, format: "text" },
      benv.BENCH_TARGET ? { targetChars: Number(benv.BENCH_TARGET) } : {},
    );
    chunkCount += chunks.length;
    await store.indexChunks({ sourceId: s.id, type: "url" }, chunks);
  }
  const ingestMs = performance.now() - t0;
  expect(await store.countChunks()).toBe(chunkCount);

  const configs: { name: string; tuning: Partial<RetrievalTuning> }[] = benv.BENCH_CONFIGS
    ? JSON.parse(benv.BENCH_CONFIGS)
    : benv.BENCH_ABLATION === "0"
      ? [{ name: "default", tuning: {} }]
      : [...ABLATION];
  const rows = [];
  for (const cfg of configs) {
    let p = 0,
      r = 0,
      m = 0,
      unanswerable = 0,
      r10 = 0;
    const t1 = performance.now();
    for (const q of questions) {
      const res = await store.retrieve(q.question, { k: K, maxPerSource: 1, tuning: cfg.tuning });
      if (!res.answerable) unanswerable++;
      const docs: string[] = [];
      for (const ps of res.passages) {
        const d = docOfSource.get(ps.sourceId)!;
        if (!docs.includes(d)) docs.push(d);
      }
      const s = score(docs, q.correct_chunks);
      p += s.precision;
      r += s.recall;
      m += s.mrr;
      if (benv.BENCH_DEBUG === "1")
        console.log(
          "Q",
          JSON.stringify({
            q: q.question,
            got: docs,
            want: q.correct_chunks,
            mrr: s.mrr,
            recall: s.recall,
            answerable: res.answerable,
            relevance: res.relevance,
            similarity: res.similarity,
            floor: res.floor,
          }),
        );
    }
    const ms = (performance.now() - t1) / questions.length;
    // Diagnostic: recall@10 shows whether misses are candidate generation or ranking.
    for (const q of benv.BENCH_RECALL10 === "1" ? questions : []) {
      const res = await store.retrieve(q.question, { k: 10, maxPerSource: 1, tuning: cfg.tuning });
      const docs = res.passages.map((ps) => docOfSource.get(ps.sourceId)!);
      r10 += docs.filter((d) => q.correct_chunks.includes(d)).length / q.correct_chunks.length;
    }
    const n = questions.length;
    rows.push({
      name: cfg.name,
      precision: p / n,
      recall: r / n,
      mrr: m / n,
      msPerQuery: ms,
      unanswerable,
      ...(benv.BENCH_RECALL10 === "1" ? { recallAt10: r10 / questions.length } : {}),
    });
  }
  // The relevance floor on questions the corpus cannot answer (generic, written before looking at results).
  const offTopic = [
    "What is the capital of France?",
    "How do I bake sourdough bread at home?",
    "Who won the football world cup in 1998?",
    "What will the weather be like in Paris tomorrow?",
    "How do I fix a flat tyre on my bicycle?",
    "How many calories are in a banana?",
    "Can you recommend a hiking trail near Denver?",
    "What is the boiling point of water on Mount Everest?",
    "How do I renew my passport?",
    "Which houseplants are safe for cats?",
  ];
  let offTopicUnanswerable = 0;
  const offTopicRelevance: Record<string, number | undefined> = {};
  for (const q of offTopic) {
    const r = await store.retrieve(q, { k: K, maxPerSource: 1 });
    offTopicRelevance[q] = r.relevance;
    if (benv.BENCH_DEBUG === "1")
      console.log("OFF", JSON.stringify({ q, answerable: r.answerable, relevance: r.relevance, similarity: r.similarity, floor: r.floor }));
    if (!r.answerable) offTopicUnanswerable++;
  }
  console.log(
    "BENCH_RESULT " +
      JSON.stringify({
        k: K,
        documents: corpus.length,
        chunks: chunkCount,
        questions: questions.length,
        ingestMs,
        defaults: DEFAULT_TUNING,
        offTopic: { questions: offTopic.length, unanswerable: offTopicUnanswerable, relevance: offTopicRelevance },
        rows,
      }),
  );
});
