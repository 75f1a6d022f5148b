import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { LOCAL_EMBEDDING_MODEL_ID, embedTexts, getEmbeddingModel, hashEmbed } from "../ai/embeddings";
import { chunkFeatures, type ChunkFeatures } from "./chunk-features";
import type { ServiceContext } from "../context";
import { QUESTION_FILLERS, STOP_WORDS, stem, terms, words } from "./text";
import type { ChatbotRef, Passage, RetrievalResult } from "./types";
import { createVectorStore } from "./vector-store";
import { ByteLru, stringBytes } from "../cache/byte-lru";

/**
 * Knobs of the hybrid ranker. Defaults are the tuned values (bench/README.md has the ablation);
 * the benchmark overrides them to measure what each idea adds.
 */
export type RetrievalTuning = {
  /** bm25() column weights (chatbot_id always 0). */
  wTitle: number;
  wHeading: number;
  wText: number;
  wUrl: number;
  /** How many FTS candidates to re-rank. */
  ftsLimit: number;
  /** Weight of the IDF-weighted share of query terms a chunk contains (title+heading+url+text). */
  coverage: number;
  /** Weight of the best single sentence's IDF-weighted share of query terms (proximity evidence). */
  sentence: number;
  /** Share of the best score of a sibling section (same page, other #anchor) added to a source. */
  sibling: number;
  /** Weight of the IDF-weighted share of the query's adjacent word pairs found adjacent in the chunk. */
  phrase: number;
  /** Greedy top-k selection: weight of query terms a candidate adds beyond those already covered. */
  novelty: number;
  /** Novelty counts terms of the section's title/heading/URL ("topic") or of its whole text. */
  noveltyOn: "topic" | "text";
  /** Greedy top-k selection: bonus per passage already picked from the same page (URL without #anchor);
   *  sections of one page tend to answer a question together. */
  samePage: number;
  /** Share of the second-best chunk of the same source added to a source's best chunk. */
  sourceSecond: number;
  /** Re-ranking by the local hashed embedding computed on the fly for the FTS candidates: similarity
   *  of the question to the chunk's text, and to its topic (title, heading, URL slug). */
  hashedText: number;
  hashedTopic: number;
  /**
   * Vector similarity from the VectorStore: "off", reciprocal-rank fusion, a weighted sum of
   * normalised scores, or "auto": weighted with a real (remote) embedding model; with the local
   * hashed embedder (whose similarity is already computed on the lexical candidates, see
   * hashedText) only as a fallback when full-text search finds fewer than k candidates.
   */
  vector: "off" | "rrf" | "weighted" | "auto";
  wVector: number;
  rrfK: number;
  vectorTopK: number;
};

export const DEFAULT_TUNING: RetrievalTuning = {
  wTitle: 4,
  wHeading: 3,
  wText: 1,
  wUrl: 1.5,
  ftsLimit: 150,
  coverage: 0.5,
  sentence: 0.3,
  sibling: 0.1,
  phrase: 0.3,
  hashedText: 1.5,
  hashedTopic: 0.5,
  novelty: 0.6,
  noveltyOn: "topic",
  sourceSecond: 0,
  samePage: 0.1,
  vector: "auto",
  wVector: 0.5,
  rrfK: 60,
  vectorTopK: 40,
};

export type RetrieveOptions = {
  /** Passages to return (default 5). */
  k?: number;
  /** Most passages from one source (default 2); extra slots are only filled when nothing else qualifies. */
  maxPerSource?: number;
  embeddingModel?: EmbeddingModelV3;
  tuning?: Partial<RetrievalTuning>;
};

type Ctx = Pick<ServiceContext, "env" | "db">;

type Row = { id: number; source_id: string; title: string; heading: string | null; url: string | null; text: string; position: number; features: string | null };
type Candidate = Row & {
  bm25: number;
  cosine: number;
  f: ChunkFeatures;
  score: number;
  page: string;
};

/** The relevance floor: a chunk must share enough rare query words, or be very close in meaning. */
const FLOOR_COVERAGE = 0.34;
const FLOOR_COSINE = 0.55;
const MAX_QUERY_TERMS = 24;
/** A word in this many chunks or more is "common" (see chooseMatchWords). */
const COMMON_DF = 1_000;
/** Most postings the FTS MATCH may touch with single words (see chooseMatchWords). */
const MATCH_BUDGET = 2_000;
/** The rarest word left out of the MATCH is searched in pairs with the next ones, up to this many words. */
const PAIRED_WORDS = 3;
/**
 * FTS candidates to re-rank: computing a candidate's features is most of a query's CPU, so a large
 * knowledge base (where each query meets mostly unseen chunks) re-ranks fewer.
 */
const LARGE_KB = 5_000;
const LARGE_KB_FTS_LIMIT = 60;
const ftsLimitFor = (chunkCount: number, configured: number) => (chunkCount > LARGE_KB ? Math.min(configured, LARGE_KB_FTS_LIMIT) : configured);

/** Query words worth searching for: no stop words or fillers, one per stem, letters/digits only. */
export function queryTerms(query: string): { word: string; stem: string }[] {
  const seen = new Set<string>();
  const out: { word: string; stem: string }[] = [];
  for (const w of words(query)) {
    if (STOP_WORDS.has(w) || QUESTION_FILLERS.has(w) || w.length < 2 && !/\d/.test(w)) continue;
    const s = stem(w);
    if (seen.has(s)) continue;
    seen.add(s);
    out.push({ word: w, stem: s });
    if (out.length >= MAX_QUERY_TERMS) break;
  }
  return out;
}

/** FTS5 string literal: double quotes doubled, so user text can never become query syntax. */
const ftsString = (s: string) => `"${s.replaceAll('"', '""')}"`;

/**
 * How chunks_fts indexes a chatbot id (migration 0007): the hex of its UTF-8 bytes, lowercased, so
 * the id is one token whatever characters it has ("cb_x1" would otherwise be the phrase "cb x1",
 * whose "cb" is in every chunk of every chatbot).
 */
export function ftsChatbotToken(chatbotId: string): string {
  let hex = "";
  for (const b of new TextEncoder().encode(chatbotId)) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/**
 * MATCH expression confined to one chatbot. Every term is a quoted string (terms are already
 * letters/digits only, quoting is the second fence) and the terms are confined to the content
 * columns, so neither a term nor an operator can reach chatbot_id or widen the search.
 */
export function ftsMatch(chatbotId: string, words: string[], pairs: [string, string][] = []): string {
  const any = [...words.map(ftsString), ...pairs.map(([a, b]) => `(${ftsString(a)} AND ${ftsString(b)})`)];
  return `chatbot_id:${ftsString(ftsChatbotToken(chatbotId))} AND {title heading text url}:(${any.join(" OR ")})`;
}

const pageOf = (url: string | null, sourceId: string) => (url ? url.split("#")[0] : `source:${sourceId}`);

/**
 * Hybrid retrieval for one chatbot: BM25 over FTS5 (title/heading/text/url-slug fields), re-ranked
 * with IDF-weighted query-term coverage and sentence-level evidence, optionally fused with vector
 * similarity; then a greedy, coverage-aware pick of the top k that prefers distinct sources and
 * drops near-duplicates. `answerable` is false when nothing clears the relevance floor.
 */
export async function retrieve(ctx: Ctx, ref: ChatbotRef, query: string, opts: RetrieveOptions = {}): Promise<RetrievalResult> {
  const t = { ...DEFAULT_TUNING, ...opts.tuning };
  const k = Math.max(1, Math.min(opts.k ?? 5, 20));
  const maxPerSource = Math.max(1, opts.maxPerSource ?? 2);
  const d1 = ctx.env.DB;
  const qTerms = queryTerms(query);
  if (qTerms.length === 0 && t.vector === "off") return { passages: [], answerable: false };
  if (qTerms.length === 0 && words(query).every((w) => STOP_WORDS.has(w) || QUESTION_FILLERS.has(w))) return { passages: [], answerable: false };

  // 1. Term statistics: how many of the chatbot's chunks contain each query term, and how many
  //    chunks it has — one indexed read of term_stats, which triggers keep exact (migration 0007).
  //    Memoised per isolate as well (a minute-old count ranks just as well), so a warm query may
  //    skip the round trip.
  const now = Date.now();
  const dfKey = (stem: string) => `${ref.chatbotId}\u0000${stem}`;
  const totalKey = `${ref.chatbotId}\u0000${CHUNK_COUNT_TERM}`;
  const unknown = qTerms.filter((q) => freshStat(dfKey(q.stem), now) === undefined).map((q) => q.stem);
  const cachedTotal = freshStat(totalKey, now);
  if (cachedTotal === undefined) unknown.push(CHUNK_COUNT_TERM);
  const statStatements: D1PreparedStatement[] = unknown.length
    ? [d1.prepare(`SELECT term, df FROM term_stats WHERE chatbot_id = ? AND term IN (${unknown.map(() => "?").join(", ")})`).bind(ref.chatbotId, ...unknown)]
    : [];
  const ftsStatement = (searchWords: string[], limit: number, pairs: [string, string][] = []) =>
    d1
      .prepare(
        `SELECT c.id, c.source_id, c.title, c.heading, c.url, c.text, c.position, c.features, f.score
         FROM (SELECT rowid AS id, bm25(chunks_fts, 0, ?, ?, ?, ?) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?) f
         JOIN chunks c ON c.id = f.id
         WHERE c.chatbot_id = ? AND c.org_id = ? ORDER BY f.score`,
      )
      .bind(t.wTitle, t.wHeading, t.wText, t.wUrl, ftsMatch(ref.chatbotId, searchWords, pairs), limit, ref.chatbotId, ref.orgId);
  // A knowledge base known to be small searches every word (step 2), so the candidates and the
  // missing counts come back in one round trip; otherwise the counts decide what is searched.
  const oneTrip = qTerms.length > 0 && cachedTotal !== undefined && cachedTotal <= MATCH_BUDGET;
  const model = t.vector === "off" ? null : (opts.embeddingModel ?? getEmbeddingModel(ctx.env));
  const vectorSearch = () => embedTexts(model!, [query]).then(([v]) => createVectorStore(ctx.env, ctx.db).query(ref.chatbotId, v, t.vectorTopK));
  const localModel = model?.modelId === LOCAL_EMBEDDING_MODEL_ID;
  const eager = model !== null && (t.vector !== "auto" || !localModel);
  const eagerVector = eager ? vectorSearch() : Promise.resolve(null);
  let ftsRows: (Row & { score: number })[] = [];
  if (oneTrip) statStatements.unshift(ftsStatement(qTerms.map((q) => q.word), ftsLimitFor(cachedTotal, t.ftsLimit)));
  if (statStatements.length) {
    const results = await d1.batch(statStatements);
    if (oneTrip) ftsRows = results.shift()!.results as (Row & { score: number })[];
    const found = new Map((results[0]?.results as { term: string; df: number }[] | undefined)?.map((r) => [r.term, r.df]));
    for (const term of unknown) {
      const n = found.get(term) ?? 0;
      // An empty chatbot is never remembered as empty: knowledge added a second later must count.
      if (term !== CHUNK_COUNT_TERM || n > 0) rememberStat(term === CHUNK_COUNT_TERM ? totalKey : dfKey(term), n, now);
    }
  }
  const counted = freshStat(totalKey, now) ?? 0;
  const dfs = qTerms.map((q) => Math.min(freshStat(dfKey(q.stem), now) ?? 0, counted));

  // 2. FTS candidates. bm25() scores every row the MATCH finds, so in a large knowledge base a few
  //    common words would make it score tens of thousands of rows. The words go into the MATCH
  //    rarest first while their postings fit MATCH_BUDGET; the rest still count in the
  //    re-ranking below. Below MATCH_BUDGET chunks nothing is ever left out.
  if (!oneTrip && qTerms.length && counted > 0) {
    const chosen = chooseMatchWords(qTerms.map((q, i) => ({ word: q.word, df: dfs[i] })), counted);
    ftsRows = (await ftsStatement(chosen.words, ftsLimitFor(counted, t.ftsLimit), chosen.pairs).all<Row & { score: number }>()).results;
  }
  const eagerHits = await eagerVector;
  let vectorHits = eagerHits ?? [];
  let mode: "off" | "rrf" | "weighted" = t.vector === "auto" ? "weighted" : t.vector;
  if (!eager && model && ftsRows.length < k) vectorHits = await vectorSearch(); // auto + local model: fallback only
  if (vectorHits.length === 0) mode = "off";
  const total = Math.max(counted, ftsRows.length);
  if (total === 0) return { passages: [], answerable: false };
  const idf = new Map<string, number>();
  qTerms.forEach((q, i) => idf.set(q.stem, Math.log(1 + (total - dfs[i] + 0.5) / (dfs[i] + 0.5))));
  const idfSum = [...idf.values()].reduce((a, b) => a + b, 0) || 1;

  // 3. Candidates: FTS hits plus vector hits that FTS missed (fetched in one query).
  const cands = new Map<number, Candidate>();
  const toCandidate = (r: Row, bm25: number, cosine: number): Candidate => ({ ...r, bm25, cosine, f: chunkFeatures(r), score: 0, page: pageOf(r.url, r.source_id) });
  for (const r of ftsRows) cands.set(r.id, toCandidate(r, -r.score, 0));
  const cosineById = new Map(vectorHits.map((h) => [h.chunkId, h.score]));
  for (const [id, cos] of cosineById) {
    const c = cands.get(id);
    if (c) c.cosine = cos;
  }
  const missing = vectorHits.filter((h) => !cands.has(h.chunkId)).map((h) => h.chunkId).slice(0, 90);
  if (missing.length) {
    const { results } = await d1
      .prepare(`SELECT id, source_id, title, heading, url, text, position, features FROM chunks WHERE chatbot_id = ? AND org_id = ? AND id IN (${missing.map(() => "?").join(",")})`)
      .bind(ref.chatbotId, ref.orgId, ...missing)
      .all<Row>();
    for (const r of results) cands.set(r.id, toCandidate(r, 0, cosineById.get(r.id) ?? 0));
  }
  if (cands.size === 0) return { passages: [], answerable: false };

  // 4. Per-chunk score.
  const list = [...cands.values()];
  const maxBm25 = Math.max(1e-9, ...list.map((c) => c.bm25));
  const weightOf = (terms: Set<string> | string[]) => {
    let w = 0;
    if (Array.isArray(terms)) {
      for (const [s, v] of idf) if (terms.includes(s)) w += v;
    } else for (const [s, v] of idf) if (terms.has(s)) w += v;
    return w / idfSum;
  };
  // Adjacent pairs of query content words ("time to first token" → time·first, first·token).
  const qSeq = terms(query);
  const qBigrams = new Map<string, number>();
  for (let i = 1; i < qSeq.length; i++) if (qSeq[i] !== qSeq[i - 1]) qBigrams.set(`${qSeq[i - 1]} ${qSeq[i]}`, (idf.get(qSeq[i - 1]) ?? 0) + (idf.get(qSeq[i]) ?? 0));
  const bigramSum = [...qBigrams.values()].reduce((a, b) => a + b, 0) || 1;
  const qVec = t.hashedText > 0 || t.hashedTopic > 0 ? hashEmbed(query) : null;
  const coverageOf = new Map<number, number>();
  for (const c of list) {
    const cov = weightOf(c.f.termSet);
    coverageOf.set(c.id, cov);
    const f = c.f;
    let best = 0;
    if (t.sentence > 0 && idf.size > 1) {
      for (const sentence of f.sentences) {
        const w = weightOf(sentence);
        if (w > best) best = w;
      }
    }
    let phrase = 0;
    if (t.phrase > 0) for (const [b, w] of qBigrams) if (f.bigrams.has(b)) phrase += w;
    let hashed = 0;
    if (qVec && t.hashedText > 0) hashed += t.hashedText * dot(qVec, f.textVec);
    if (qVec && t.hashedTopic > 0) hashed += t.hashedTopic * dot(qVec, f.topicVec);
    c.score = c.bm25 / maxBm25 + t.coverage * cov + t.sentence * best + (t.phrase * phrase) / bigramSum + hashed;
  }
  if (mode !== "off") {
    if (mode === "rrf") {
      const lexRank = [...list].sort((a, b) => b.score - a.score);
      const lexPos = new Map(lexRank.map((c, i) => [c.id, i]));
      const vecPos = new Map(vectorHits.map((h, i) => [h.chunkId, i]));
      for (const c of list) {
        const l = lexPos.get(c.id);
        const v = vecPos.get(c.id);
        c.score = (l === undefined ? 0 : 1 / (t.rrfK + l + 1)) + t.wVector * (v === undefined ? 0 : 1 / (t.rrfK + v + 1));
      }
    } else {
      const maxLex = Math.max(1e-9, ...list.map((c) => c.score));
      const cosines = vectorHits.map((h) => h.score);
      const lo = Math.min(...cosines);
      const hi = Math.max(...cosines);
      for (const c of list) c.score = c.score / maxLex + t.wVector * (hi > lo && cosineById.has(c.id) ? (c.cosine - lo) / (hi - lo) : 0);
    }
  }

  // 5. Page prior: a section whose sibling sections (same page) also match is more likely on topic.
  if (t.sibling > 0) {
    const bestByPage = new Map<string, number[]>();
    for (const c of list) {
      const arr = bestByPage.get(c.page) ?? [];
      arr.push(c.score);
      bestByPage.set(c.page, arr);
    }
    for (const c of list) {
      const others = bestByPage.get(c.page)!.filter((s) => s !== c.score);
      if (others.length) c.score += t.sibling * Math.max(...others);
    }
  }

  // 5b. Source evidence: a second matching chunk of the same source adds a little.
  if (t.sourceSecond > 0) {
    const bySource = new Map<string, number[]>();
    for (const c of list) (bySource.get(c.source_id) ?? bySource.set(c.source_id, []).get(c.source_id)!).push(c.score);
    const bonus = new Map<string, number>();
    for (const [sid, arr] of bySource) if (arr.length > 1) bonus.set(sid, t.sourceSecond * arr.sort((a, b) => b - a)[1]);
    for (const c of list) c.score += bonus.get(c.source_id) ?? 0;
  }

  // 6. Relevance floor.
  const answerable = list.some((c) => (c.bm25 > 0 && coverageOf.get(c.id)! >= FLOOR_COVERAGE) || c.cosine >= FLOOR_COSINE);

  // 7. Greedy selection: score + novelty of query terms not yet covered; distinct sources first;
  //    near-identical chunks (same words) are dropped.
  list.sort((a, b) => b.score - a.score || a.id - b.id);
  const pool = list.slice(0, Math.max(k * 8, 40));
  const maxScore = pool[0].score || 1;
  const picked: Candidate[] = [];
  const perSource = new Map<string, number>();
  const perPage = new Map<string, number>();
  const covered = new Set<string>();
  const remaining = new Set(pool);
  while (picked.length < k && remaining.size) {
    let best: Candidate | null = null;
    let bestValue = -Infinity;
    for (const c of remaining) {
      const n = perSource.get(c.source_id) ?? 0;
      if (n >= maxPerSource) continue;
      let gain = 0;
      const about = t.noveltyOn === "topic" ? c.f.topicSet : c.f.termSet;
      if (t.novelty > 0) for (const [s, v] of idf) if (about.has(s) && !covered.has(s)) gain += v;
      // A second chunk from an already picked source must beat fresh sources clearly.
      const value = c.score / maxScore + (t.novelty * gain) / idfSum - (n > 0 ? 0.25 : 0) + t.samePage * (perPage.get(c.page) ?? 0);
      if (value > bestValue) {
        bestValue = value;
        best = c;
      }
    }
    if (!best) break;
    remaining.delete(best);
    if (picked.some((p) => nearDuplicate(p.f.termSet, best!.f.termSet))) continue;
    picked.push(best);
    perSource.set(best.source_id, (perSource.get(best.source_id) ?? 0) + 1);
    perPage.set(best.page, (perPage.get(best.page) ?? 0) + 1);
    const about = t.noveltyOn === "topic" ? best.f.topicSet : best.f.termSet;
    for (const s of idf.keys()) if (about.has(s)) covered.add(s);
  }

  const passages: Passage[] = picked.map((c) => ({
    chunkId: c.id,
    sourceId: c.source_id,
    title: c.title,
    heading: c.heading,
    url: c.url,
    text: c.text,
    score: Math.round((c.score / maxScore) * 1e4) / 1e4,
  }));
  return { passages, answerable: answerable && passages.length > 0 };
}

/**
 * What the FTS MATCH searches for (retrieve, step 2): every query word in a knowledge base of at
 * most MATCH_BUDGET chunks. In a larger one, the rarest words first while their document
 * frequencies add up to MATCH_BUDGET (at least one word, and a second one unless it is common);
 * the rarest word left out is searched only in pairs with the next ones (both words in one chunk),
 * which finds the chunks about a question made of common words without scoring every chunk that has
 * any one of them. A word the statistics do not know (df 0) costs nothing to search and is kept:
 * chunks indexed before the statistics existed are only counted in the chunk total.
 */
export function chooseMatchWords(candidates: { word: string; df: number }[], chunkCount: number): { words: string[]; pairs: [string, string][] } {
  const order = candidates.filter((x) => x.df > 0).sort((a, b) => a.df - b.df || b.word.length - a.word.length);
  const words: string[] = [];
  let postings = 0;
  let i = 0;
  for (; i < order.length; i++) {
    const x = order[i];
    if (chunkCount > MATCH_BUDGET && postings + x.df > MATCH_BUDGET && words.length >= (x.df >= COMMON_DF ? 1 : 2)) break;
    words.push(x.word);
    postings += x.df;
  }
  const left = order.slice(i, i + PAIRED_WORDS).map((x) => x.word);
  const pairs: [string, string][] = [];
  for (let b = 1; b < left.length; b++) pairs.push([left[0], left[b]]);
  const unknown = candidates.filter((x) => x.df <= 0).map((x) => x.word);
  return { words: [...words, ...unknown], pairs };
}

/** Jaccard similarity of term sets ≥ 0.9: the same text twice (re-crawled page, pasted twice). */
function nearDuplicate(a: Set<string>, b: Set<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  if (small.size / large.size < 0.9) return false;
  let inter = 0;
  for (const x of small) if (large.has(x)) inter++;
  return inter / (a.size + b.size - inter) >= 0.9;
}

/** The term_stats row holding a chatbot's chunk count (terms are letters and digits only). */
const CHUNK_COUNT_TERM = "#chunks";
const STAT_TTL_MS = 60_000;
const STAT_CACHE_MAX = 20_000;
// Byte-bounded (~2 MB) as well as by entries (app/.server/cache/byte-lru.ts).
const statCache = new ByteLru<string, { n: number; at: number }>({ maxBytes: 2 * 1024 * 1024, maxEntries: STAT_CACHE_MAX, sizeOf: (key) => stringBytes(key) + 32 });
/** Drops a chatbot's memoised statistics in this isolate (its knowledge just changed here). */
export function forgetChatbotStats(chatbotId: string) {
  const prefix = `${chatbotId}\u0000`;
  for (const key of [...statCache.keys()]) if (key.startsWith(prefix)) statCache.delete(key);
}
function freshStat(key: string, now: number): number | undefined {
  const hit = statCache.get(key);
  return hit && now - hit.at < STAT_TTL_MS ? hit.n : undefined;
}
function rememberStat(key: string, n: number, now: number) {
  statCache.set(key, { n, at: now });
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
