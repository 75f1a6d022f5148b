import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { LOCAL_EMBEDDING_MODEL_ID, embedTexts, getEmbeddingModel, hashEmbed } from "../ai/embeddings";
import { chunkFeatures, type ChunkFeatures } from "./chunk-features";
import type { ServiceContext } from "../context";
import { isLightWord, lexicalSlots, questionWords } from "./lexicon";
import { isGeneralRequest } from "./general-requests";
import { hyphenatedWords, QUESTION_FILLERS, questionClauses, STOP_WORDS, stem, terms, words } from "./text";
import type { ChatbotRef, Passage, RetrievalResult } from "./types";
import { createVectorStore } from "./vector-store";
import { askedValues, DAY_NAMES, MONTH_NAMES, rangeCover } from "./ranges";
import { isPlaceName } from "./places";
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
  /**
   * The relevance floor: the share of the question (weighted, see step 6) the best chunk must cover.
   * `floor` holds from FLOOR_LARGE_KB chunks up; below FLOOR_SMALL_KB it is `floorSmall`, or
   * `floorSmallImpersonal` for a question that addresses nobody (no I/my/you/your/we: a
   * general-knowledge question); in between it moves linearly in log(chunks). ADR 013.
   */
  floor: number;
  floorSmall: number;
  floorSmallImpersonal: number;
  /** The floor's IDF treats a smaller knowledge base as if it had this many chunks. */
  floorPseudoChunks: number;
  /**
   * A question with more content words than this carries context besides its point ("I'm a college
   * student so I can't really afford office365, are google docs an ok alternative?"): the share it
   * must cover shrinks with √(this / words). 0 turns it off. ADR 018.
   */
  floorLongWords: number;
  /**
   * The floor's second signal: a question whose best chunk covers at least `floorSimilarityShare`
   * of the floor is answerable when that chunk's hashed n-gram similarity to the question is at
   * least `floorSimilarity` (0 turns it off). ADR 019.
   */
  floorSimilarity: number;
  floorSimilarityShare: number;
  /**
   * How closely the question asked must match a Q&A pair's question (0–1, see questionCloseness)
   * for the pair's answer to win over passages. ADR 022.
   */
  qaCloseness: number;
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
  floor: 0.34,
  floorSmall: 0.37,
  floorSmallImpersonal: 0.55,
  floorPseudoChunks: 200,
  floorLongWords: 4,
  floorSimilarity: 0.3,
  floorSimilarityShare: 0.7,
  qaCloseness: 0.75,
};

export type RetrieveOptions = {
  /** Passages to return (default 5). */
  k?: number;
  /** Most passages from one source (default 2); extra slots are only filled when nothing else qualifies. */
  maxPerSource?: number;
  embeddingModel?: EmbeddingModelV3;
  tuning?: Partial<RetrievalTuning>;
  /** Adds the best Q&A candidates with their closeness parts to the result (benchmarks, tests). */
  explainQa?: boolean;
  /**
   * Every chunk in this database is the chatbot's (its knowledge shard, issue #20): the full-text
   * MATCH need not name the chatbot, a term every row holds, which FTS5 would intersect with the
   * question's words (most of a shard's MATCH time at 100k chunks). Same candidates, same bm25()
   * (that column weighs 0). Set only by the shard itself (knowledge-store.ts), never for D1. ADR 057.
   */
  ownDatabase?: boolean;
};

type Ctx = Pick<ServiceContext, "env" | "db">;

type Row = {
  id: number;
  source_id: string;
  title: string;
  heading: string | null;
  url: string | null;
  text: string;
  position: number;
  features: string | null;
  /** 1 when the chunk is a pair of a Q&A source (heading = the question, text = the answer). */
  qa: number | null;
};
type Candidate = Row & {
  /** Full-text search found it (it holds a searched word), as against only the vector store. */
  lexical: boolean;
  /** BM25 over the searched words with this chatbot's own statistics (bm25Scorer); 0 when not lexical. */
  bm25: number;
  cosine: number;
  f: ChunkFeatures;
  score: number;
  page: string;
};

/** The relevance floor (besides tuning.floor): or a chunk very close in meaning. */
const FLOOR_COSINE = 0.55;
const MAX_QUERY_TERMS = 24;
/** Most lexicon alternatives searched per query word. */
const MAX_ALTERNATIVES = 12;
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

/** A word of the question worth searching for, with the words that may stand for it in the knowledge. */
export type QueryTerm = {
  word: string;
  stem: string;
  /** `compound`: the head of a closed compound split at query time ("highchair" → "chair"), a guess. */
  alts: { word: string; stem: string; strength?: number; compound?: boolean; head?: boolean; general?: boolean }[];
  /** Stems of the phrase the term was read from ("northern ireland"): its own word alone counts half. */
  phrase?: string[];
  /** That phrase's words as the question writes them. */
  phraseWords?: string[];
  /**
   * Multi-word synonyms as written ("gift card" for "vouchers"); an alt marked `head` is only such a
   * phrase's last word ("card"), which alone does not name the thing.
   */
  synonymPhrases?: string[][];
};
/** How much a broader term (England → United Kingdom) counts, against 1 for the word or a synonym. */
const BROADER_STRENGTH = 0.5;
/** How much a general-thesaurus synonym counts (ADR 041): the lexicon's own words are surer. */
const THESAURUS_STRENGTH = 0.5;
/** Whether a general-thesaurus synonym counts in the relevance floor and names a thing asked about. */
const THESAURUS_IN_FLOOR = false;

const isQueryStop = (w: string) => STOP_WORDS.has(w) || QUESTION_FILLERS.has(w) || (w.length < 2 && !/\d/.test(w));

/**
 * Query words worth searching for: no stop words or fillers, one per stem, letters/digits only; each
 * with its alternatives from the support lexicon (lexicon.ts: synonyms, broader terms such as
 * England → United Kingdom, British/American spellings). A chunk that has any of a term's words
 * counts as having the term.
 */
export function queryTerms(query: string): QueryTerm[] {
  const seen = new Set<string>();
  const out: QueryTerm[] = [];
  for (const slot of lexicalSlots(query, isQueryStop)) {
    const s = stem(slot.word);
    if (seen.has(s)) continue;
    seen.add(s);
    const alts: QueryTerm["alts"] = [];
    const broader = new Set(slot.broader ?? []);
    const heads = new Set(slot.phraseHeads ?? []);
    const general = new Set(slot.thesaurus ?? []);
    const altSeen = new Set([s]);
    for (const a of slot.alternatives) {
      if (isQueryStop(a)) continue;
      const as = stem(a);
      if (altSeen.has(as)) continue;
      altSeen.add(as);
      const strength = general.has(a) ? THESAURUS_STRENGTH : broader.has(a) ? BROADER_STRENGTH : 1;
      alts.push({
        word: a,
        stem: as,
        ...(strength < 1 ? { strength } : {}),
        ...(heads.has(a) ? { head: true } : {}),
        ...(general.has(a) ? { general: true } : {}),
      });
    }
    out.push({
      word: slot.word,
      stem: s,
      alts: alts.slice(0, MAX_ALTERNATIVES),
      ...(slot.phrase ? { phrase: slot.phrase.map(stem), phraseWords: slot.phrase } : {}),
      ...(slot.synonymPhrases?.length ? { synonymPhrases: slot.synonymPhrases } : {}),
    });
    if (out.length >= MAX_QUERY_TERMS) break;
  }
  return out;
}

/**
 * A term's alternatives once its own word's count in the knowledge is known: a place the knowledge
 * names itself keeps none of its broader ones (its region and country, places.ts). ADR 061.
 */
export function placeAlternatives(q: QueryTerm, ownDf: number): QueryTerm["alts"] {
  return ownDf > 0 && isPlaceName((q.phraseWords ?? [q.word]).join(" ")) ? q.alts.filter((a) => (a.strength ?? 1) >= 1) : q.alts;
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
 * columns, so neither a term nor an operator can reach chatbot_id or widen the search. With
 * `ownDatabase` (a chatbot's shard holds only its own chunks, see RetrieveOptions) the chatbot is
 * not named: only the content part.
 */
export function ftsMatch(chatbotId: string, words: string[], pairs: [string, string][] = [], opts: { ownDatabase?: boolean } = {}): string {
  const any = [...words.map(ftsString), ...pairs.map(([a, b]) => `(${ftsString(a)} AND ${ftsString(b)})`)];
  const content = `{title heading text url}:(${any.join(" OR ")})`;
  return opts.ownDatabase ? content : `chatbot_id:${ftsString(ftsChatbotToken(chatbotId))} AND ${content}`;
}

/** SQL: whether chunk `c` belongs to a Q&A source (one primary-key look-up per candidate). */
const QA_FLAG = "(SELECT s.type = 'qa' FROM knowledge_sources s WHERE s.id = c.source_id)";

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
  if (isArithmetic(query) || asksForecast(query) || isGeneralRequest(query)) return { passages: [], answerable: false };

  // 1. Term statistics: how many of the chatbot's chunks contain each query term, and how many
  //    chunks it has — one indexed read of term_stats, which triggers keep exact (migration 0007).
  //    Memoised per isolate as well (a minute-old count ranks just as well), so a warm query may
  //    skip the round trip.
  const now = Date.now();
  const dfKey = (stem: string) => `${ref.chatbotId}\u0000${stem}`;
  const totalKey = `${ref.chatbotId}\u0000${CHUNK_COUNT_TERM}`;
  // The question's own words first, then their alternatives (D1 binds at most 100 parameters).
  const allStems = [...new Set([...qTerms.map((q) => q.stem), ...qTerms.flatMap((q) => q.alts.map((a) => a.stem))])].slice(0, 96);
  const unknown = allStems.filter((st) => freshStat(dfKey(st), now) === undefined);
  const cachedTotal = freshStat(totalKey, now);
  if (cachedTotal === undefined) unknown.push(CHUNK_COUNT_TERM);
  const statStatements: D1PreparedStatement[] = unknown.length
    ? [d1.prepare(`SELECT term, df FROM term_stats WHERE chatbot_id = ? AND term IN (${unknown.map(() => "?").join(", ")})`).bind(ref.chatbotId, ...unknown)]
    : [];
  const ftsStatement = (searchWords: string[], limit: number, pairs: [string, string][] = []) =>
    d1
      .prepare(
        `SELECT c.id, c.source_id, c.title, c.heading, c.url, c.text, c.position, c.features, ${QA_FLAG} AS qa, f.score
         FROM (SELECT rowid AS id, bm25(chunks_fts, 0, ?, ?, ?, ?) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?) f
         JOIN chunks c ON c.id = f.id
         WHERE c.chatbot_id = ? AND c.org_id = ? ORDER BY f.score`,
      )
      .bind(
        t.wTitle,
        t.wHeading,
        t.wText,
        t.wUrl,
        ftsMatch(ref.chatbotId, searchWords, pairs, { ownDatabase: opts.ownDatabase }),
        limit,
        ref.chatbotId,
        ref.orgId,
      );
  // A knowledge base known to be small searches every word (step 2), so the candidates and the
  // missing counts come back in one round trip; otherwise the counts decide what is searched.
  const oneTrip = qTerms.length > 0 && cachedTotal !== undefined && cachedTotal <= MATCH_BUDGET;
  const model = t.vector === "off" ? null : (opts.embeddingModel ?? getEmbeddingModel(ctx.env));
  const vectorSearch = () => embedTexts(model!, [query]).then(([v]) => createVectorStore(ctx.env, ctx.db).query(ref.chatbotId, v, t.vectorTopK));
  const localModel = model?.modelId === LOCAL_EMBEDDING_MODEL_ID;
  const eager = model !== null && (t.vector !== "auto" || !localModel);
  const eagerVector = eager ? vectorSearch() : Promise.resolve(null);
  let ftsRows: (Row & { score: number })[] = [];
  // A thesaurus word (ADR 041) ranks the candidates the other words find; it is not searched for.
  const searchWords = [...new Set(qTerms.flatMap((q) => [q.word, ...q.alts.filter((a) => !a.general).map((a) => a.word)]))];
  if (oneTrip) statStatements.unshift(ftsStatement(searchWords, ftsLimitFor(cachedTotal, t.ftsLimit)));
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
  const typoDf = new Map<string, number>();
  const dfOf = (st: string) => Math.min(freshStat(dfKey(st), now) ?? typoDf.get(st) ?? 0, counted);
  // A place the knowledge names itself ("… at 7 Bridge Street, Cardiff") is asked about by that name:
  // its region and country (places.ts) would only find other lines (ADR 061).
  for (const q of qTerms) q.alts = placeAlternatives(q, dfOf(q.stem));

  // 2. FTS candidates. bm25() scores every row the MATCH finds, so in a large knowledge base a few
  //    common words would make it score tens of thousands of rows. The words go into the MATCH
  //    rarest first while their postings fit MATCH_BUDGET; the rest still count in the
  //    re-ranking below. Below MATCH_BUDGET chunks nothing is ever left out.
  let searched = searchWords;
  if (!oneTrip && qTerms.length && counted > 0) {
    // A small knowledge base searches every word and alternative, as the one-trip path above does:
    // what is searched must not depend on whether this isolate had the chunk count memoised. In a
    // larger one the question's own words compete for the budget; a lexicon alternative is searched
    // only for a word the knowledge never uses (rare alternatives would otherwise crowd out the
    // question's words).
    const forms = qTerms.flatMap((q) => [
      { word: q.word, df: dfOf(q.stem) },
      ...(dfOf(q.stem) > 0 ? [] : q.alts.filter((a) => !a.general).map((a) => ({ word: a.word, df: dfOf(a.stem) }))),
    ]);
    const chosen =
      counted <= MATCH_BUDGET
        ? { words: searchWords, pairs: [] }
        : chooseMatchWords(
            forms.filter((x, i) => forms.findIndex((y) => y.word === x.word) === i),
            counted,
          );
    searched = [...new Set([...chosen.words, ...chosen.pairs.flat()])];
    ftsRows = (await ftsStatement(chosen.words, ftsLimitFor(counted, t.ftsLimit), chosen.pairs).all<Row & { score: number }>()).results;
  }
  const eagerHits = await eagerVector;
  let vectorHits = eagerHits ?? [];
  let mode: "off" | "rrf" | "weighted" = t.vector === "auto" ? "weighted" : t.vector;
  if (!eager && model && ftsRows.length < k) vectorHits = await vectorSearch(); // auto + local model: fallback only
  if (vectorHits.length === 0) mode = "off";
  const total = Math.max(counted, ftsRows.length);
  if (total === 0) return { passages: [], answerable: false };
  // 3. Candidates: FTS hits plus vector hits that FTS missed (fetched in one query).
  const cands = new Map<number, Candidate>();
  const toCandidate = (r: Row, lexical: boolean, cosine: number): Candidate => ({
    ...r,
    lexical,
    bm25: 0,
    cosine,
    f: chunkFeatures(r),
    score: 0,
    page: pageOf(r.url, r.source_id),
  });
  // chunks_fts's bm25() ordered the rows above, but its value is not used: FTS5 weighs words with
  // statistics of the whole table, every chatbot's chunks, so another organisation's knowledge would
  // move this chatbot's scores (ADR 024). bm25Scorer below uses this chatbot's statistics only.
  for (const r of ftsRows) cands.set(r.id, toCandidate(r, true, 0));
  const cosineById = new Map(vectorHits.map((h) => [h.chunkId, h.score]));
  for (const [id, cos] of cosineById) {
    const c = cands.get(id);
    if (c) c.cosine = cos;
  }
  const missing = vectorHits
    .filter((h) => !cands.has(h.chunkId))
    .map((h) => h.chunkId)
    .slice(0, 90);
  if (missing.length) {
    const { results } = await d1
      .prepare(
        `SELECT c.id, c.source_id, c.title, c.heading, c.url, c.text, c.position, c.features, ${QA_FLAG} AS qa FROM chunks c WHERE c.chatbot_id = ? AND c.org_id = ? AND c.id IN (${missing.map(() => "?").join(",")})`,
      )
      .bind(ref.chatbotId, ref.orgId, ...missing)
      .all<Row>();
    for (const r of results) cands.set(r.id, toCandidate(r, false, cosineById.get(r.id) ?? 0));
  }
  if (cands.size === 0) return { passages: [], answerable: false };

  // Misspelt words: a query word the knowledge never uses (nor any alternative of it) that is one
  // edit (insertion, deletion, substitution, swap of neighbours) from a word of the candidates
  // counts as that word ("temprature" → temperature, "adress" → address). Only stems of six letters
  // or more, so short words are never bent into others ("mount" is not "amount"); a hyphenated
  // spelling is no guess, and is looked for from four.
  const candidateStems = new Map<string, number>();
  let hyphenated: Map<string, string> | null = null;
  for (const q of qTerms) {
    if (q.stem.length < 4 || dfOf(q.stem) > 0 || q.alts.some((a) => dfOf(a.stem) > 0)) continue;
    if (candidateStems.size === 0) for (const c of cands.values()) for (const st of c.f.termSet) candidateStems.set(st, (candidateStems.get(st) ?? 0) + 1);
    let best: [string, number] | null = null;
    let strength = 1;
    // A word the knowledge writes with a hyphen ("nearest ubahn?" ← "U-Bahn", "deshedding" ←
    // "de-shedding"): the same word, found by its longest part, which the index holds.
    hyphenated ??= hyphenatedWords([...cands.values()].map((c) => c.text));
    const part = hyphenated.get(q.word);
    if (part && candidateStems.has(stem(part))) best = [stem(part), candidateStems.get(stem(part))!];
    if (!best && q.stem.length >= 6)
      for (const [st, n] of candidateStems) if (Math.abs(st.length - q.stem.length) <= 1 && oneEdit(q.stem, st) && (!best || n > best[1])) best = [st, n];
    // A closed compound the knowledge writes as two words ("highchair" → "high chair"): its head.
    if (!best && q.stem.length >= 6 && q.word.length >= 7) {
      for (let i = 3; i <= q.word.length - 3 && !best; i++) {
        const head = stem(q.word.slice(i));
        if (candidateStems.has(stem(q.word.slice(0, i))) && candidateStems.has(head)) {
          best = [head, candidateStems.get(head)!];
          strength = BROADER_STRENGTH;
        }
      }
    }
    if (best) {
      q.alts.push({ word: best[0], stem: best[0], ...(strength < 1 ? { strength, compound: true } : {}) });
      typoDf.set(best[0], best[1]);
    }
  }

  // One entry per query term, keyed by its stem. A term's weight is the IDF of the question's own
  // word, or (when the knowledge never uses it) of its rarest lexicon alternative that it does use;
  // a chunk holding only a commoner alternative gets that alternative's IDF, at most the term's.
  // Light words ("really", "make", "policy") weigh a quarter.
  const idfOfDf = (df: number) => Math.log(1 + (total - df + 0.5) / (df + 0.5));
  const idf = new Map<string, number>();
  const formIdf = new Map<string, Map<string, number>>();
  for (const q of qTerms) {
    const own = dfOf(q.stem);
    const altDfs = q.alts.map((a) => dfOf(a.stem)).filter((d) => d > 0);
    const light = isLightWord(q.word) ? 0.25 : 1;
    const w = idfOfDf(own > 0 || altDfs.length === 0 ? own : Math.min(...altDfs));
    idf.set(q.stem, w * light);
    const forms = new Map<string, number>([[q.stem, w * light]]);
    for (const a of q.alts) if (!forms.has(a.stem)) forms.set(a.stem, Math.min(w, idfOfDf(dfOf(a.stem))) * light * (a.strength ?? 1));
    formIdf.set(q.stem, forms);
  }
  const idfSum = [...idf.values()].reduce((a, b) => a + b, 0) || 1;
  const termOf = new Map(qTerms.map((q) => [q.stem, q]));
  const holds = (terms: Set<string> | string[], f: string) => (Array.isArray(terms) ? terms.includes(f) : terms.has(f));
  /** A phrase's own word ("ireland" of "northern ireland") counts half unless the whole phrase is there. */
  const phraseShare = (terms: Set<string> | string[], s: string, f: string) => {
    const phrase = termOf.get(s)!.phrase;
    return f === s && phrase && !phrase.every((p) => holds(terms, p)) ? 0.5 : 1;
  };
  /** How much of term `s` a chunk's terms hold: the weight of its best form there (0 when none). */
  const termWeight = (terms: Set<string> | string[], s: string) => {
    let best = 0;
    for (const [f, v] of formIdf.get(s)!) if (v > best && holds(terms, f)) best = Math.max(best, v * phraseShare(terms, s, f));
    return best;
  };
  const hasTerm = (terms: Set<string> | string[], s: string) => termWeight(terms, s) > 0;
  // The relevance floor weighs terms against a knowledge base of at least FLOOR_PSEUDO_CHUNKS
  // chunks: in a small one every word is in many chunks and IDF says little, while a question word
  // the knowledge never uses still says the question is about something else (ADR 013).
  // A number the customer counts people or gives an age with ("we are 2 adults and 2 kids", "my 2
  // year old") is their own situation: the knowledge gives limits and ranges ("under 3 stay free"),
  // rarely the same number, so in the floor it weighs as a light word. ADR 050.
  const headcounts = new Set(headcountNumbers(query));
  const floorTotal = Math.max(total, t.floorPseudoChunks);
  const floorW = new Map<string, number>();
  for (const q of qTerms) {
    const light = isLightWord(q.word) || headcounts.has(q.word) || ASKS_WHETHER.has(q.word) || THE_USUAL.has(q.word) ? 0.25 : 1;
    // Only the word and its synonyms say how common the term is: "tomorrow" is not as common as "day".
    const known = [q.stem, ...q.alts.filter((a) => (a.strength ?? 1) >= 1).map((a) => a.stem)].map(dfOf).filter((d) => d > 0);
    const df = known.length ? Math.min(...known) : 0;
    // A word in (nearly) every chunk is what the whole knowledge is about ("dental" for a dental
    // practice): it says the question is on topic, not that any chunk answers it.
    const everywhere = 1 - (0.6 * df) / (total + 1);
    floorW.set(q.stem, light * everywhere * Math.log(1 + (floorTotal - df + 0.5) / (df + 0.5)));
  }
  const floorSum = [...floorW.values()].reduce((a, b) => a + b, 0) || 1;
  const discountTerms = new Set(qTerms.filter((q) => DISCOUNT_WORDS.has(q.word)).map((q) => q.stem));
  const strengthOf = new Map(
    qTerms.map((q) => [
      q.stem,
      new Map([[q.stem, 1], ...q.alts.filter((a) => THESAURUS_IN_FLOOR || !a.general).map((a): [string, number] => [a.stem, a.strength ?? 1])]),
    ]),
  );
  // A month, weekday, clock time or count the customer asks with, answered by a range the chunk
  // writes ("a Tuesday in January" → "November to March, Sunday to Thursday"). ADR 058.
  const asked = askedValues(questionWords(query), query).filter((a) => qTerms.some((q) => q.word === a.word));
  const rangeOf = new Map<string, Map<string, number>>();
  const rangeHeld = (text: string, s: string) => {
    if (!asked.length) return 0;
    let held = rangeOf.get(text);
    if (!held) rangeOf.set(text, (held = rangeCover(text, asked)));
    return held.get(termOf.get(s)!.word) ?? 0;
  };
  const floorCoverage = (terms: Set<string>, text: string, only?: Set<string>) => {
    let w = 0;
    let sum = 0;
    for (const [s, v] of floorW) {
      if (only && !only.has(s)) continue;
      sum += v;
      let best = rangeHeld(text, s);
      for (const [f, k] of strengthOf.get(s)!)
        if (k > best && terms.has(f) && !(f !== s && onlyOtherSense(text, f))) best = Math.max(best, k * phraseShare(terms, s, f));
      // A multi-word synonym written out in full ("Wi-Fi" for "wifi") is the word itself, as in the
      // built-in engine's sentence choice; its head alone stays weak. ADR 046.
      if (best > 0 && best < 1 && termOf.get(s)!.synonymPhrases?.some((p) => writesPhrase(text, p))) best = 1;
      // "10% off", "half price" is a discount however the knowledge words the rest (ADR 050).
      if (best < 1 && discountTerms.has(s) && REDUCTION.test(text)) best = 1;
      w += v * best;
    }
    return w / (only ? sum || 1 : floorSum);
  };

  // 4. Per-chunk score.
  const list = [...cands.values()];
  // BM25 with this chatbot's statistics: each searched word's IDF from its term_stats and chunk
  // count, a chunk's length against the average of the chunks full-text search found here.
  const bm25Of = bm25Scorer(
    searched.map((w) => {
      const st = stem(w);
      return { stem: st, idf: Math.max(1e-6, Math.log((total - dfOf(st) + 0.5) / (dfOf(st) + 0.5))) };
    }),
    t,
  );
  const lexical = list.filter((c) => c.lexical);
  const meanLength = lexical.reduce((n, c) => n + c.f.fields.tokens, 0) / Math.max(1, lexical.length);
  for (const c of lexical) c.bm25 = bm25Of(c.f, c.f.fields.tokens / Math.max(1, meanLength));
  const maxBm25 = Math.max(1e-9, ...list.map((c) => c.bm25));
  const weightOf = (terms: Set<string> | string[]) => {
    let w = 0;
    for (const s of idf.keys()) w += termWeight(terms, s);
    return w / idfSum;
  };
  // A sentence's weight from the few of its terms weightOf can ask about (every form of every term,
  // and the words of a term's phrase): the same value, without testing each form against the whole
  // sentence; most sentences hold none of them and weigh 0. ADR 057.
  const askable = new Set<string>();
  for (const q of qTerms) {
    for (const f of formIdf.get(q.stem)!.keys()) askable.add(f);
    for (const p of q.phrase ?? []) askable.add(p);
  }
  const sentenceWeight = (sentence: readonly string[]) => {
    let held: Set<string> | null = null;
    for (const x of sentence) if (askable.has(x)) (held ??= new Set()).add(x);
    return held ? weightOf(held) : 0;
  };
  // Adjacent pairs of query content words ("time to first token" → time·first, first·token).
  const qSeq = terms(questionWords(query).join(" "));
  const qBigrams = new Map<string, number>();
  for (let i = 1; i < qSeq.length; i++)
    if (qSeq[i] !== qSeq[i - 1]) qBigrams.set(`${qSeq[i - 1]} ${qSeq[i]}`, (idf.get(qSeq[i - 1]) ?? 0) + (idf.get(qSeq[i]) ?? 0));
  const bigramSum = [...qBigrams.values()].reduce((a, b) => a + b, 0) || 1;
  const qVec = t.hashedText > 0 || t.hashedTopic > 0 ? hashEmbed(query) : null;
  const coverageOf = new Map<number, number>();
  const similarityOf = new Map<number, number>();
  for (const c of list) {
    let cov = weightOf(c.f.termSet);
    if (asked.length) for (const [s, v] of idf) if (!hasTerm(c.f.termSet, s)) cov += (v * rangeHeld(c.text, s)) / idfSum;
    coverageOf.set(c.id, cov);
    const f = c.f;
    let best = 0;
    if (t.sentence > 0 && idf.size > 1) {
      for (const sentence of f.sentences) {
        const w = sentenceWeight(sentence);
        if (w > best) best = w;
      }
    }
    let phrase = 0;
    if (t.phrase > 0) for (const [b, w] of qBigrams) if (f.bigrams.has(b)) phrase += w;
    let hashed = 0;
    const sim = qVec ? dot(qVec, f.textVec) : 0;
    similarityOf.set(c.id, sim);
    if (qVec && t.hashedText > 0) hashed += t.hashedText * sim;
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

  // How closely a Q&A pair's question matches the question asked: the IDF-weighted share of the
  // asked question's terms the pair's question has (forward, lexicon alternatives count), and the
  // share of the pair question's own content words the asked question has (backward; light words a
  // quarter). Both must be high: "how do I delete my account" is not "how do I delete my photos".
  const askedStems = new Set(qTerms.flatMap((q) => [q.stem, ...q.alts.filter((a) => (a.strength ?? 1) >= 1).map((a) => a.stem)]));
  const askedVec = opts.explainQa ? (qVec ?? hashEmbed(query)) : null!;
  const questionCloseness = (question: string) => {
    // A synonym counts in full here (the ranking's weightOf caps it at its own, often lower, IDF:
    // "shipping" asked, "delivery" in the pair's question is the same question).
    const theirStems = new Set(terms(question));
    let forward = 0;
    for (const q of qTerms) {
      let present = theirStems.has(q.stem) ? 1 : 0;
      for (const a of q.alts) if (theirStems.has(a.stem)) present = Math.max(present, a.strength ?? 1);
      forward += (idf.get(q.stem) ?? 0) * present;
    }
    forward /= idfSum;
    let have = 0;
    let all = 0;
    for (const x of pairQuestionTerms(question)) {
      const w = isLightWord(x.word) ? 0.25 : 1;
      all += w;
      if (askedStems.has(x.stem) || x.alts.some((a) => (a.strength ?? 1) >= 1 && askedStems.has(a.stem))) have += w;
    }
    const backward = all ? have / all : 0;
    const similarity = opts.explainQa ? dot(askedVec, hashEmbed(question)) : 0;
    // The weaker direction decides: the harmonic mean let "how do i delete my account" win "How do
    // I delete my Facebook account?" (bench:qa). The bar (tuning.qaCloseness, 0.75) is above every
    // wrong pair's closeness on the StackFAQ dev half and for every question of the answer sets.
    const closeness = Math.min(forward, backward);
    return { forward, backward, similarity, closeness };
  };

  // 5c. Q&A pairs: how closely the question asked matches each candidate pair's question, in both
  //     directions (ADR 022). A pair that matches closely is the answer: it outranks every passage.
  const qaScored = list.filter((c) => c.qa && c.heading).map((c) => ({ c, ...questionCloseness(c.heading!) }));
  let qaBest: (typeof qaScored)[number] | null = null;
  for (const x of qaScored) if (!qaBest || x.closeness > qaBest.closeness || (x.closeness === qaBest.closeness && x.c.id > qaBest.c.id)) qaBest = x; // newest pair on a tie
  const qaWins = qaBest !== null && qaBest.closeness >= t.qaCloseness;

  // 6. Relevance floor.
  let relevance = 0;
  // The second signal: the best chunk's hashed n-gram similarity to the question (computed above
  // for the ranking, so the floor costs nothing more). ADR 019.
  let similarity = 0;
  // A question that tells a story and asks in another clause is also measured on the asking clause
  // alone, against a short question's floor: "cake was a bit dry, can i get a refund?" asks for a
  // refund, whatever the knowledge says of dry cake (ADR 064). It needs a content word of its own;
  // floorLongWords 0 turns this off with the long-question share.
  const askWords = t.floorLongWords > 0 ? askingClauseWords(query) : null;
  const askTerms = askWords ? qTerms.filter((q) => askWords.has(q.word)) : [];
  const askStems = askTerms.some((q) => !isLightWord(q.word)) ? new Set(askTerms.map((q) => q.stem)) : undefined;
  let askRelevance = 0;
  // Chunks full-text search found, and, when the question asks with a value, those the vector side
  // found: "can i get to my stuff at 11pm" shares no word with "Access: 6 am to 10 pm every day",
  // but its hour is held by that range (ADR 058), so that chunk is measured too.
  for (const c of list)
    if (c.lexical || asked.length) {
      if (askStems) askRelevance = Math.max(askRelevance, floorCoverage(c.f.termSet, c.text, askStems));
      relevance = Math.max(relevance, floorCoverage(c.f.termSet, c.text));
      if (c.lexical) similarity = Math.max(similarity, similarityOf.get(c.id) ?? 0);
    }
  const longShare = longQuestionShare(qTerms, t.floorLongWords, questionClauses(query).length);
  // "Do you offer dental implants?": asked whether the business has a thing the knowledge never
  // names (nor any word of the lexicon for it) — whatever else of the question it covers. Only in
  // knowledge bases below FLOOR_LARGE_KB chunks, like the raised floors: on StackFAQ (362 chunks of
  // how-to answers) it refused three answerable "is there any …" questions.
  // Whether the knowledge names what term q stands for: its word, or an alternative it uses. The head
  // of a multi-word synonym ("card" of "gift card" for "vouchers") counts only where a candidate
  // writes the whole phrase: "handwritten card" and "debit cards" are not gift vouchers.
  // Likewise a term read from a phrase ("home visits") is named where a candidate writes the phrase:
  // "home trays" and "hygienist visits" are not home visits.
  // A discount is named by "10% off" or "half price" however the rest is worded (ADR 050, 062).
  const namesTerm = (q: QueryTerm) =>
    (q.phraseWords ? list.some((c) => writesPhrase(c.text, q.phraseWords!)) : dfOf(q.stem) > 0) ||
    (discountTerms.has(q.stem) && list.some((c) => REDUCTION.test(c.text))) ||
    q.alts.some(
      (a) =>
        !a.compound &&
        (THESAURUS_IN_FLOOR || !a.general) &&
        dfOf(a.stem) > 0 &&
        (!a.head || (q.synonymPhrases ?? []).some((p) => p.at(-1) === a.word && list.some((c) => writesPhrase(c.text, p)))),
    );
  // A question after a price, a duration, an hour or an age reads as a customer's when the
  // knowledge names a thing it asks about besides the price ("how much is a normal consultation"),
  // not when it names none ("how much does a new kitchen cost" asked of a plumber). ADR 046.
  const personal = isPersonal(query) || (asksForTerms(query) && qTerms.some((q) => !isLightWord(q.word) && !PRICE_WORDS.has(q.word) && namesTerm(q)));
  const floor = relevanceFloor(t, total, personal) * longShare;
  // "What time does Cardiff Castle open?" asks another place's hours when the knowledge never names
  // it: the same rule as a thing (ADR 073).
  const missingObject =
    total < FLOOR_LARGE_KB &&
    [...availabilityObject(query), ...openingSubject(query)].some((w) => {
      const q = qTerms.find((x) => x.word === w || x.phrase?.includes(stem(w)));
      return q !== undefined && !isLightWord(q.word) && !namesTerm(q);
    }) &&
    // "Do you do a discount for students?" where the knowledge gives students' own price without the
    // word "discount": what the price is for, named, is the thing asked about. ADR 050.
    !priceFor(query).some((w) => {
      const q = qTerms.find((x) => x.word === w);
      return q !== undefined && !isLightWord(q.word) && namesTerm(q);
    });
  // "Can I pay with cash?": a means of payment none of whose words the knowledge names (nor any
  // word of the lexicon for them) is not one it accepts, however much else of the question matches
  // (paying, the reception). All of them, not any: "monthly instalments" is answered by "£12 a
  // month" (ADR 050).
  const means = total < FLOOR_LARGE_KB ? paymentMeans(query).filter((w) => !isLightWord(w)) : [];
  const missingMeans =
    means.length > 0 &&
    means.every((w) => {
      const q = qTerms.find((x) => x.word === w || x.phrase?.includes(stem(w)));
      return q === undefined || !namesTerm(q);
    });
  // "Are you DBS checked?": in a short question a name the customer capitalises (DBS, Botox, DHL) is
  // what the question is about; when the knowledge never uses it nor any word for it, the rest of
  // the question matching says nothing. In a long one names are mostly the customer's story ("my
  // aunt in Sydney…"). Same size limit as the availability rule.
  // A long question's own asking clause naming one ("we got new windows from another firm last
  // year, what's the number for Everest?") is about it as much as a short question is — unless the
  // name is a place or a month or day, which there frame what is asked ("in early December",
  // "a tourist tax like in Europe").
  const names =
    longShare === 1
      ? askedNames(query)
      : askWords
        ? askedNames(query).filter((w) => askWords.has(w) && !isPlaceName(w) && !CALENDAR_AND_CONTINENTS.has(w))
        : [];
  const missingName =
    total < FLOOR_LARGE_KB &&
    names.some((w) => {
      const q = qTerms.find((x) => x.word === w);
      return q !== undefined && !isLightWord(q.word) && !namesTerm(q);
    });
  // A question that falls a little short of the floor in words but whose wording is close to a
  // chunk's ("Are there legal problems with hosting a for profit web site on github?") is answered:
  // the two signals fail on different questions. Off-topic questions that share a few words with
  // the knowledge stay below the similarity bar on every set (ADR 019).
  const closeInWording = t.floorSimilarity > 0 && similarity >= t.floorSimilarity && relevance >= t.floorSimilarityShare * floor;
  const answerable =
    qaWins ||
    (!missingObject &&
      !missingName &&
      !missingMeans &&
      (relevance >= floor || askRelevance >= floor / longShare || closeInWording || list.some((c) => c.cosine >= FLOOR_COSINE)));

  // 7. Greedy selection: score + novelty of query terms not yet covered; distinct sources first;
  //    near-identical chunks (same words) are dropped.
  list.sort((a, b) => b.score - a.score || a.id - b.id);
  if (qaWins) {
    // The matching pair goes first, whatever the passages scored.
    const i = list.indexOf(qaBest!.c);
    list.splice(i, 1);
    list.unshift(qaBest!.c);
    qaBest!.c.score = Math.max(qaBest!.c.score, (list[1]?.score ?? 0) + 1e-6);
  }
  const pool = list.slice(0, Math.max(k * 8, 40));
  const maxScore = pool[0].score || 1;
  const picked: Candidate[] = [];
  const perSource = new Map<string, number>();
  const perPage = new Map<string, number>();
  const covered = new Set<string>();
  const remaining = new Set(pool);
  // The query terms each candidate's topic (or text) holds, in idf's order, found once per candidate:
  // the loop below meets every remaining candidate again after each pick (and after each
  // near-duplicate it skips), and testing every term's forms each time was most of its cost. The
  // gain adds the same weights in the same order as testing them in place.
  const novelTerms = new Map<Candidate, [string, number][]>();
  const novelTermsOf = (c: Candidate) => {
    let held = novelTerms.get(c);
    if (!held) {
      const about = t.noveltyOn === "topic" ? c.f.topicSet : c.f.termSet;
      held = [];
      for (const [s, v] of idf) if (hasTerm(about, s)) held.push([s, v]);
      novelTerms.set(c, held);
    }
    return held;
  };
  while (picked.length < k && remaining.size) {
    let best: Candidate | null = null;
    let bestValue = -Infinity;
    for (const c of remaining) {
      const n = perSource.get(c.source_id) ?? 0;
      if (n >= maxPerSource) continue;
      let gain = 0;
      if (t.novelty > 0) for (const [s, v] of novelTermsOf(c)) if (!covered.has(s)) gain += v;
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
    for (const [s] of novelTermsOf(best)) covered.add(s);
  }
  fillFromSameSources(picked, pool, k, nearDuplicate);

  const passages: Passage[] = picked.map((c) => ({
    chunkId: c.id,
    sourceId: c.source_id,
    title: c.title,
    heading: c.heading,
    url: c.url,
    text: c.text,
    score: Math.round((c.score / maxScore) * 1e4) / 1e4,
  }));
  return {
    passages,
    answerable: answerable && passages.length > 0,
    relevance: Math.round(relevance * 1000) / 1000,
    similarity: Math.round(similarity * 1000) / 1000,
    floor: Math.round(floor * 1000) / 1000,
    ...(!qaWins && (missingObject || missingName || missingMeans)
      ? { refusedBy: missingObject ? ("missing-object" as const) : missingName ? ("missing-name" as const) : ("missing-means" as const) }
      : {}),
    ...(qaWins
      ? {
          qa: {
            chunkId: qaBest!.c.id,
            sourceId: qaBest!.c.source_id,
            question: qaBest!.c.heading!,
            answer: qaBest!.c.text,
            closeness: round3(qaBest!.closeness),
          },
        }
      : {}),
    ...(qaBest ? { qaCloseness: round3(qaBest.closeness) } : {}),
    ...(opts.explainQa
      ? {
          qaCandidates: qaScored
            .sort((a, b) => b.closeness - a.closeness)
            .slice(0, 5)
            .map((x) => ({
              chunkId: x.c.id,
              sourceId: x.c.source_id,
              question: x.c.heading!,
              closeness: round3(x.closeness),
              forward: round3(x.forward),
              backward: round3(x.backward),
              similarity: round3(x.similarity),
            })),
        }
      : {}),
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Estimated size of a question's terms: each word and stem, its alternatives' and its phrases' words, plus object overhead. */
function termsBytes(found: QueryTerm[]): number {
  let n = 0;
  for (const t of found) {
    n += stringBytes(t.word) + stringBytes(t.stem) + 64;
    for (const a of t.alts) n += stringBytes(a.word) + stringBytes(a.stem) + 48;
    for (const w of [...(t.phrase ?? []), ...(t.phraseWords ?? []), ...(t.synonymPhrases ?? []).flat()]) n += stringBytes(w) + 8;
  }
  return n;
}
/**
 * queryTerms of a Q&A pair's question, memoised per isolate: the same pairs meet many questions.
 * The questions are owners' text, so the memo is bounded by bytes (issue #21), not by entries.
 */
export const pairTermsCache = new ByteLru<string, QueryTerm[]>({
  maxBytes: 1024 * 1024,
  sizeOf: (question, found) => stringBytes(question) + termsBytes(found),
});
export function pairQuestionTerms(question: string): QueryTerm[] {
  let hit = pairTermsCache.get(question);
  if (!hit) {
    hit = queryTerms(question);
    pairTermsCache.set(question, hit);
  }
  return hit;
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

/**
 * The per-source limit spreads the top k over sources; when fewer than k sources qualify (a small
 * business with one text source of eight chunks), the remaining slots go to further chunks of the
 * sources already picked, best score first, instead of staying empty. Without it the answer engine
 * saw 2 of such a knowledge base's chunks, and the one that answers was often the third.
 */
export function fillFromSameSources<C extends { score: number; f: { termSet: Set<string> } }>(
  picked: C[],
  pool: readonly C[],
  k: number,
  duplicate: (a: Set<string>, b: Set<string>) => boolean,
): void {
  for (const c of pool) {
    if (picked.length >= k) break;
    if (picked.includes(c) || picked.some((p) => duplicate(p.f.termSet, c.f.termSet))) continue;
    picked.push(c);
  }
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

/** FTS5's bm25() constants. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/**
 * BM25 of a chunk for the searched words, computed as FTS5's bm25() computes it — per word, IDF ×
 * saturated frequency, the frequency summed over the fields with their column weights — but from
 * one chatbot's data only (ADR 024): `idf` from its term_stats and chunk count, `relativeLength`
 * the chunk's length over the average of this question's candidates (FTS5 divides a row's tokens
 * by the average of the whole table; no per-chatbot statistic holds that).
 */
export function bm25Scorer(
  searched: { stem: string; idf: number }[],
  t: Pick<RetrievalTuning, "wTitle" | "wHeading" | "wText" | "wUrl">,
): (f: ChunkFeatures, relativeLength: number) => number {
  const want = new Map<string, number>();
  searched.forEach((s, i) => want.has(s.stem) || want.set(s.stem, i));
  return (f, relativeLength) => {
    const freq = new Float64Array(want.size);
    const count = (list: readonly string[], w: number, from = 0, to = list.length) => {
      for (let i = from; i < to; i++) {
        const at = want.get(list[i]);
        if (at !== undefined) freq[at] += w;
      }
    };
    count(f.fields.heading, t.wTitle, 0, f.fields.titleTerms);
    count(f.fields.heading, t.wHeading, f.fields.titleTerms);
    count(f.fields.url, t.wUrl);
    for (const s of f.sentences) count(s, t.wText);
    for (const s of f.fields.short) count(s, t.wText);
    const norm = BM25_K1 * (1 - BM25_B + BM25_B * relativeLength);
    let score = 0;
    // Every searched word counts, as every phrase of the MATCH did ("deliver" and "delivery" twice).
    for (const s of searched) {
      const x = freq[want.get(s.stem)!];
      if (x > 0) score += (s.idf * (x * (BM25_K1 + 1))) / (x + norm);
    }
    return score;
  };
}
const STAT_TTL_MS = 60_000;
const STAT_CACHE_MAX = 20_000;
// Byte-bounded (~2 MB) as well as by entries (app/.server/cache/byte-lru.ts).
const statCache = new ByteLru<string, { n: number; at: number }>({
  maxBytes: 2 * 1024 * 1024,
  maxEntries: STAT_CACHE_MAX,
  sizeOf: (key) => stringBytes(key) + 32,
});
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

/** Knowledge bases up to this many chunks get the small floors, from FLOOR_LARGE_KB up the large one. */
const FLOOR_SMALL_KB = 20;
const FLOOR_LARGE_KB = 300;

/**
 * The relevance floor for a knowledge base of `chunks` chunks. In a small one each chunk holds a
 * large share of all its words, so a question shares some with the best chunk by chance; and
 * general-knowledge questions ("what is the capital of Australia?") meet a shop's delivery
 * countries. Documentation-sized knowledge bases keep the floor tuned on them (0.34).
 */
export function relevanceFloor(t: Pick<RetrievalTuning, "floor" | "floorSmall" | "floorSmallImpersonal">, chunks: number, personal: boolean): number {
  const small = personal ? t.floorSmall : t.floorSmallImpersonal;
  const share = Math.min(1, Math.max(0, (Math.log(FLOOR_LARGE_KB) - Math.log(Math.max(1, chunks))) / (Math.log(FLOOR_LARGE_KB) - Math.log(FLOOR_SMALL_KB))));
  return t.floor + (small - t.floor) * share;
}

const AVAILABILITY =
  /^(?:(?:please|hi|hello|hey)\s+)?(?:do|does|will|would|can|could)\s+(?:you|u|ya|they|the\s+\w+)\s+(?:guys\s+)?(?:offer|sell|have|do|install|fit|provide|stock|carry|make|accept|take|serve|supply|repair|fix|support|allow|hire|rent|run|host|organise|organize|arrange|cater|cater\s+for)\s+(.+)$|^(?:is|are)\s+there\s+(?:a|an|any|some)?\s*(.+)$|^(?:can|could|may)\s+(?:i|we)\s+(?:get|buy|order|bring|hire|rent|have|use)\s+(.+)$|^(?:how|where)\s+(?:do|can|could|would|should)\s+(?:i|we)\s+(?:get|obtain|apply\s+for|buy|order)\s+(?:a|an|some|any)\s+(.+)$|^(?:(?:can|could|would|will)\s+(?:you|u|ya)\s+)?(?:please\s+)?(?:recommend|suggest)\s+(?:me\s+|us\s+)?(.+)$/;
// A subject pronoun starts a clause about the thing ("a van I can borrow"); "without" a condition.
const OBJECT_END = new Set(
  "to for at in on with without near nearby from by of into during before after when if while so as or and because about like than this next i we you u they he she not shes hes theyre im thats thru through via".split(
    " ",
  ),
);
/** Adjectives put after the thing say what it must be ("a bedroom suitable for a wheelchair user"). */
const AFTER_THING = new Set("suitable available ok okay possible allowed".split(" "));
/** Irregular past participles that end an availability question's thing ("get my nails done"). */
const PARTICIPLES = new Set("done made sent cut fit fitted built taken given shown brought put".split(" "));
/**
 * Words that ask for a reduction, and how knowledge writes one without naming it ("10% off", "half
 * price"). A deal, promo or coupon is one too: "20% off your first order" answers "any promo for new people?".
 */
const DISCOUNT_WORDS = new Set(
  "discount discounts discounted reduction reductions reduced concession concessions cheaper deal deals promo promos promotion promotions coupon coupons".split(
    " ",
  ),
);
/**
 * A synonym's other sense, by the words around it: "we deal with one team" is no deal (a discount).
 * Where the chunk uses the word only so, the synonym does not count in the floor.
 */
const OTHER_SENSE: Record<string, { word: RegExp; other: RegExp }> = {
  deal: { word: /\bdeal(?:s|t|ing)?\b/gi, other: /\bdeal(?:s|t|ing)?\s+with\b/gi },
};
function onlyOtherSense(text: string, stem: string): boolean {
  const sense = OTHER_SENSE[stem];
  if (!sense) return false;
  return (text.match(sense.word)?.length ?? 0) === (text.match(sense.other)?.length ?? 0);
}
const REDUCTION = /\d\s?%\s*off\b|\bhalf[- ]price\b|\b\d+\s?%\s+(?:less|cheaper|discount)\b/i;
/** Words for a price or a reduction: what they apply to is the object of an availability question. */
const PRICE_OBJECTS = new Set("discount discounts deal deals offer offers reduction reductions concession concessions price prices rate rates".split(" "));
/** "Is there a shorter follow-up?": a comparison with what the knowledge lists, not a thing it must name. */
const COMPARATIVES = new Set("shorter longer quicker faster slower bigger smaller larger earlier later newer older nicer".split(" "));
const DETERMINERS = new Set("a an any some my our your the their his her its".split(" "));

/**
 * The thing a yes/no availability question asks about ("do you offer dental implants" → dental,
 * implants; "is there a student discount" → student, discount; "can I bring my dog to…" → dog): the
 * words after the verb up to the first preposition or conjunction, without determiners.
 */
export function availabilityObject(query: string): string[] {
  // Only the first sentence or clause asks: "can I bring my dog? she's a little jack russell" asks
  // about the dog, not the breed, and "can u do an original screen, iphone 13" about the screen.
  const first = query.split(/[?!;,]|\.(?=\s|$)/)[0];
  // "Is there room for the buggy?" asks whether the buggy fits, not whether there is a room.
  const ws = questionWords(first)
    .join(" ")
    .replace(/^(is|are) there (?:any |enough |some )?(?:room|space) for /, "$1 there ");
  const m = AVAILABILITY.exec(ws);
  // "Can you recommend a good dentist?" asks for one of the things the knowledge names, or for none.
  const rest = m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4] ?? m?.[5];
  // A particle belongs to the verb ("can I bring back shampoo", "bring along a cake").
  return objectWords(rest?.replace(/^(?:back|along|over|round) /, ""), true);
}

const OPENING =
  /^(?:what time|what times|when|how late|how early|till what time|until what time)\s+(?:does|do|is|are|will)\s+(.+?)\s+(?:open|opens|close|closes|shut|shuts)\b|^(?:is|are)\s+(.+?)\s+(?:open|closed|shut)\b|^(?:what are|whats|what is)\s+the\s+(?:opening|closing)\s+(?:hours|times|time)\s+(?:of|for|at)\s+(.+)$/;
/** How a business speaks of itself and its parts ("what time does the office open"): never another place. */
const SELF_REFERENCE = new Set(
  "you u ya ye yous it they shop store office place practice clinic surgery salon studio gym restaurant cafe kitchen bar pub hotel reception desk branch showroom warehouse site centre center building door doors business team counter venue premises guys".split(
    " ",
  ),
);

/**
 * The place whose opening hours a question asks ("what time does cardiff castle open" → cardiff,
 * castle; "is barton springs pool open today" → barton, springs, pool), less the words a business
 * uses for itself and its parts ("the office", "reception", "you").
 */
export function openingSubject(query: string): string[] {
  const first = query.split(/[?!;,]|\.(?=\s|$)/)[0];
  const m = OPENING.exec(questionWords(first).join(" "));
  return objectWords(m?.[1] ?? m?.[2] ?? m?.[3]).filter((w) => !SELF_REFERENCE.has(w));
}

/** Containers and amounts: "bottles of prosecco" asks about prosecco, "a couple of dogs" about dogs. */
const AMOUNT_OF = new Set(
  "bottle bottles box boxes bag bags can cans crate crates case cases pack packs glass glasses bunch bunches piece pieces pair pairs couple lot lots load loads cup cups jar jars tub tubs slice slices plate plates bit bits kind kinds type types sort sorts".split(
    " ",
  ),
);

/**
 * The words of a question's object: up to the first preposition or conjunction, without determiners;
 * an amount before "of" gives way to what it is an amount of.
 */
function objectWords(rest: string | undefined, thing = false): string[] {
  if (!rest) return [];
  const out: string[] = [];
  const ws = rest.split(" ");
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i];
    if (AMOUNT_OF.has(w) && ws[i + 1] === "of") {
      out.length = 0;
      i++;
      continue;
    }
    if (OBJECT_END.has(w)) break;
    // After the thing, a past participle says what is done to it ("get fresh flowers dropped at my
    // cafe", "get a bike serviced"): the service is asked about, the thing is named already.
    if (thing && out.length > 0 && (/^[a-z]{3,}ed$/.test(w) || PARTICIPLES.has(w) || AFTER_THING.has(w))) break;
    if (!DETERMINERS.has(w) && !STOP_WORDS.has(w) && !COMPARATIVES.has(w)) out.push(w);
  }
  return out;
}

const PAY_WITH = /^(?:can|could|may|do|does)\s+(?:i|we|you|u)\s+(?:pay|paying|payment)\s+(?:with|by|in|using|via|through)\s+(.+)$/;
/**
 * The means a customer asks to pay with ("can I pay with cash at reception" → cash; "can I pay in
 * monthly instalments" → monthly, instalments): up to the first preposition, without determiners.
 */
export function paymentMeans(query: string): string[] {
  return objectWords(PAY_WITH.exec(questionWords(query).join(" "))?.[1]);
}

/** Words after a number that make it a count of people or an age. */
const HEADCOUNT_NOUNS = new Set(
  "adult adults kid kids child children people persons person guests guest of year years yr yrs month months week weeks yo".split(" "),
);
/**
 * Numbers a question counts people or gives an age with: followed by a word for people or by an age
 * ("2 adults", "4 of us", "my 2 year old", "a 10 month old"); for an age unit, only when "old" follows.
 */
export function headcountNumbers(query: string): string[] {
  const ws = questionWords(query);
  const out: string[] = [];
  ws.forEach((w, i) => {
    if (!/^\d{1,3}$/.test(w) || !HEADCOUNT_NOUNS.has(ws[i + 1] ?? "")) return;
    const unit = /^(year|years|yr|yrs|month|months|week|weeks)$/.test(ws[i + 1]);
    if (!unit || ws[i + 2] === "old" || ws[i + 1] === "yo") out.push(w);
  });
  return out;
}

/**
 * What a price asked about in an availability question is for: "do you do a discount for students"
 * → students. Only when the object is a price word alone; empty otherwise.
 */
export function priceFor(query: string): string[] {
  const object = availabilityObject(query);
  if (!object.length || !object.every((w) => PRICE_OBJECTS.has(w))) return [];
  const ws = questionWords(query);
  const at = ws.findIndex((w, i) => (w === "for" || w === "on") && PRICE_OBJECTS.has(ws[i - 1] ?? ""));
  return at < 0 ? [] : objectWords(ws.slice(at + 1).join(" "));
}

/**
 * How much of the floor a long question must meet: 1 up to `words` content words (light words count
 * a quarter), then √(words / n). A customer who explains their situation ("my friend wrote stupid
 * stuff on my github feed, how do I get rid of it?") uses many words the knowledge has no reason to
 * hold; the point of the question is a few of them. Off-topic questions are short and keep the floor.
 * A question told in more than one clause ("lost a button on my blazer, do u charge to sew one on")
 * gets words / n: its story or its second question adds words in proportion, not by a square root
 * (ADR 064).
 */
export function longQuestionShare(qTerms: { word: string }[], words: number, clauseCount = 1): number {
  if (words <= 0) return 1;
  const n = qTerms.reduce((a, q) => a + (isLightWord(q.word) ? 0.25 : 1), 0);
  if (n <= words) return 1;
  return clauseCount > 1 ? words / n : Math.sqrt(words / n);
}

const ASKING_OPENERS = new Set([
  "can",
  "could",
  "do",
  "does",
  "did",
  "is",
  "are",
  "am",
  "will",
  "would",
  "should",
  "have",
  "has",
  "what",
  "how",
  "when",
  "where",
  "which",
  "who",
  "why",
  "any",
]);

/**
 * The words of the clauses that ask, when a question also tells ("cake was a bit dry, can i get a
 * refund? we ate most of it tbh" → can i get a refund): a clause ending in "?" or opening with a
 * question word. Null when the question is one clause or every clause asks. ADR 064.
 */
export function askingClauseWords(query: string): Set<string> | null {
  const parts = questionClauses(query);
  if (parts.length < 2) return null;
  const asking = parts.filter((p) => /\?\s*$/.test(p) || ASKING_OPENERS.has(questionWords(p)[0] ?? ""));
  if (!asking.length || asking.length === parts.length) return null;
  return new Set(asking.flatMap((p) => questionWords(p)));
}

/**
 * Words the question capitalises although they do not start a sentence ("Spanish", "Botox", "DBS"):
 * names of things, lowercased as query terms. "I" and words after sentence punctuation are not names.
 */
export function namedWords(query: string): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(/[\p{L}\p{N}'’]+/gu)) {
    const w = m[0];
    // A capital inside a lower-case word ("iPhone", "PayPal", "eBay") marks a name wherever it stands.
    const mixed = /^[\p{L}]+$/u.test(w) && /\p{Ll}/u.test(w) && /^.+\p{Lu}/u.test(w);
    if (!mixed) {
      if (!/^\p{Lu}/u.test(w) || w === "I" || /^I['’]/.test(w)) continue;
      const before = query.slice(0, m.index).trimEnd();
      if (!before || /[.!?:;"“(]$/.test(before)) continue;
    }
    out.push(w.toLowerCase().replace(/['’].*$/, ""));
  }
  return out;
}

/** A clause in which the customer says who or where they are: "i'm in LS6", "we are SC". */
const SELF_DESCRIPTION = /^\s*(i['’]?m|i am|we['’]re|we are|i live|we live)\b/i;

/**
 * The names a question asks about: namedWords, less those only in a clause that describes the
 * customer ("im a student at the TU, any discount?", "im in bradford BD3, do you come out this
 * way"). Those say who asks, not what is asked for, like the story of a long question (ADR 070).
 */
export function askedNames(query: string): string[] {
  const story = new Set<string>();
  const rest = new Set<string>();
  for (const c of questionClauses(query)) for (const w of c.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) (SELF_DESCRIPTION.test(c) ? story : rest).add(w);
  return namedWords(query).filter((w) => !story.has(w) || rest.has(w));
}

/** What a forecast question names; WEATHER is what each of its clauses may be about. */
// With the weather's common misspellings ("wats the wether like in galway this weekend").
const NAMES_WEATHER = /\b(weather|wether|wheather|weahter|forecast|rain|raining|snow|snowing)\b/i;
const WEATHER =
  /\b(weather|wether|wheather|weahter|forecast|rain|raining|rainy|snow|snowing|sunny|sun|windy|gale|storm|stormy|cold|hot|warm|wet|dry|degrees|temperature|umbrella|jacket|coat)\b/i;
const NEAR_TIME =
  /\b(tomorrow|tmrw|tmr|today|tonight|this (weekend|week|morning|afternoon|evening)|the weekend|next week|right now|on (mon|tues|wednes|thurs|fri|satur|sun)day)\b/i;
const CONDITION = /\b(if|in case|incase|when it)\b/i;

/**
 * "Will it rain in Cork tomorrow?": tomorrow's weather is a forecast, which no business's knowledge
 * holds, however many of its words the knowledge shares (a wet-weather plan, a town's name). Every
 * clause must be about the weather, and a condition ("what if it rains on the day?") asks the
 * business's policy, not a forecast.
 */
export function asksForecast(query: string): boolean {
  if (!NAMES_WEATHER.test(query) || !NEAR_TIME.test(query) || CONDITION.test(query)) return false;
  return questionClauses(query).every((c) => WEATHER.test(c));
}

const ARITHMETIC_WORDS = new Set("times plus minus multiplied divided squared cubed percent x add added subtract subtracted calculate equals equal".split(" "));
/**
 * Sums ("whats 7 times 13", "what is 15% of 240"): numbers and operators only, at least two numbers
 * and one operator. No knowledge base answers them, however often its prices share the numbers.
 */
export function isArithmetic(query: string): boolean {
  // Most questions hold fewer than two numbers: no need to read their words (this runs on every question).
  if (!/\d\D+\d/.test(query)) return false;
  const ws = questionWords(query).filter((w) => !STOP_WORDS.has(w) && !QUESTION_FILLERS.has(w));
  const numbers = ws.filter((w) => /^\d+$/.test(w)).length;
  const operators = ws.filter((w) => ARITHMETIC_WORDS.has(w)).length + (/\d\s*(?:[+*/×÷^]|%\s*of)\s*\d/.test(query) ? 1 : 0);
  return numbers >= 2 && operators >= 1 && ws.every((w) => /^\d+$/.test(w) || ARITHMETIC_WORDS.has(w));
}

const PERSON = new Set("i me my mine myself we us our ours you your yours yourself".split(" "));
/**
 * Whether a question addresses the business or the asker ("do you…", "can I…", "my order"):
 * customers' questions mostly do, general-knowledge questions ("who invented the telephone?")
 * do not, so those must match the knowledge more closely before the bot answers them.
 */
export function isPersonal(query: string): boolean {
  return questionWords(query).some((w) => PERSON.has(w));
}

// "how long should an email be" asks for a length, not a duration (as in lexicon.ts's question shapes).
const ASKS_FOR_TERMS =
  /\bhow (much|long(?! (can|could|should|may|must)\b)|soon|quick|quickly|fast|late|early|many)\b|\bwhat (age|time)\b|\bhow old\b|^(cost|price|prices) (for|of)\b|\b(cost|costs|price|prices)$/;
/**
 * Words that ask whether a thing is to be had ("highchair available?"), not what it is: light in the
 * floor only. In the ranking they still count: documentation says what is "available" where (making
 * the word light everywhere lowered Anthropic recall@3 from .801 to .796).
 */
const ASKS_WHETHER = new Set(["available"]);
/**
 * "a normal member", "a normal check-up": the customer's word for the standard thing, which the
 * knowledge names without it. Light in the floor only: where the knowledge does say it ("A trial
 * lesson costs the normal lesson price"), the sentence that does still leads the reply.
 */
const THE_USUAL = new Set(["normal"]);
/** Names that frame a question in time or on the map rather than say what it is about. */
const CALENDAR_AND_CONTINENTS = new Set([...MONTH_NAMES, ...DAY_NAMES, ..."europe asia africa america americas australia oceania antarctica".split(" ")]);
/** What a question after a price asks for, not about. */
const PRICE_WORDS = new Set("cost costs price prices priced fee fees charge charges rate rates pay paid".split(" "));
/**
 * "How much is a normal consultation?", "at what age do kittens get their first injections?": a
 * question after a price, a duration, an hour or an age asks about the business's own terms even
 * without "I" or "you" (customers drop them), while general-knowledge questions ask who, which or
 * what is ("who invented…", "what is the capital of…"). Such a question gets the floor of a
 * personal one when the knowledge names something it asks about (retrieve). ADR 046.
 */
export function asksForTerms(query: string): boolean {
  return ASKS_FOR_TERMS.test(questionWords(query).join(" "));
}

/**
 * Whether `text` writes the phrase's words consecutively ("gift card", "Gift-cards"), each word
 * possibly inflected.
 */
export function writesPhrase(text: string, phrase: string[]): boolean {
  const key = phrase.join(" ");
  let re = PHRASE_PATTERNS.get(key);
  if (!re) {
    re = phrasePattern(phrase);
    PHRASE_PATTERNS.set(key, re);
  }
  return re.test(text);
}
/**
 * The floor checks each candidate for a phrase (ADR 046): each pattern is built once per isolate.
 * Phrases come from the lexicon and from visitors' questions, so the memo is bounded by bytes: the
 * key and the pattern's source at two bytes a character, plus ~1 KB for the compiled expression.
 */
export const PHRASE_PATTERNS = new ByteLru<string, RegExp>({
  maxBytes: 512 * 1024,
  sizeOf: (key, re) => stringBytes(key) + stringBytes(re.source) + 1024,
});
function phrasePattern(phrase: string[]): RegExp {
  // Each word from the part it shares with its stem on: "outs" → "out", "company" → "compan".
  const roots = phrase.map((w) => {
    const st = stem(w);
    let i = 0;
    while (i < w.length && w[i] === st[i]) i++;
    return w.slice(0, Math.max(i, Math.min(3, w.length)));
  });
  const esc = roots.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`(?<![\\p{L}\\p{N}])${esc.join("\\p{L}*[\\s-]+")}\\p{L}*`, "iu");
}

/** True when a and b differ by one insertion, deletion, substitution or swap of neighbours. */
export function oneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
