import { encodeBase64 } from "@oslojs/encoding";
import { EMBEDDING_DIMENSIONS, hashEmbedTerms } from "../ai/embeddings";
import { terms, words } from "./text";
import { ByteLru, stringBytes } from "../cache/byte-lru";

// What the re-ranker needs to know about a chunk (retrieval/search.ts): its terms per sentence,
// title/heading/URL terms, adjacent term pairs and two hashed vectors. Tokenising and stemming a
// chunk is most of a query's CPU, so indexing computes the terms and the text vector once and stores
// them in chunks.features; a query only parses them. Rows indexed before that column existed are
// computed on the fly. Either way the result is memoised per isolate.

export type ChunkFeatures = {
  textVec: Float32Array;
  topicVec: Float32Array;
  /**
   * Content terms of each sentence of ≥ 8 characters. Arrays, not Sets: a query only asks whether
   * each of its few terms occurs, and building a Set per sentence of ~60 candidates cost more.
   */
  sentences: string[][];
  /** Terms of title, heading, URL slug and text; of title, heading and URL slug only. */
  termSet: Set<string>;
  topicSet: Set<string>;
  /** Adjacent term pairs of the title+heading and of the text ("a b"). */
  bigrams: { has(pair: string): boolean };
  /**
   * The terms of each field, for BM25 (retrieval/search.ts, ADR 024): title and heading (the first
   * `titleTerms` of `heading` are the title's), URL slug, and the short sentences left out of
   * `sentences` (the text is `sentences` and `short` together); `tokens`, the words of all the
   * fields full-text search indexes, stop words included (its row length).
   */
  fields: { heading: string[]; titleTerms: number; url: string[]; short: string[][]; tokens: number };
};

type ChunkLike = { title: string; heading: string | null; url: string | null; text: string };

export const urlWords = (url: string | null) => (url ? url.replace(/^[a-z]+:\/\/[^/]+/i, "").replace(/[-_/#.?=&]+/g, " ") : "");
const SENTENCE_SPLIT = /(?<=[.!?])\s+|\n+/;
const MIN_SENTENCE_CHARS = 8;

/**
 * Stored form, version 1: the int16-quantised text and topic vectors (with their scales), the stems
 * of the title+heading, of the URL slug and of each sentence. SQL reads `h`, `u` and `b` too: the
 * triggers of migration 0007 count a chunk's stems into term_stats (ADR 012) — change them together.
 * `t` and `n` (added later, absent from older rows): the title's term count and the row's token
 * count, which a query would otherwise get by tokenising the whole chunk again (ADR 057).
 */
type StoredV1 = { v: 1; q: number; e: string; tq: number; te: string; h: string; u: string; b: string[]; x?: number[]; t?: number; n?: number };

type Parts = {
  heading: string[];
  url: string[];
  sentences: string[][];
  short: number[];
  textVec: Float32Array;
  topicVec: Float32Array;
  /** titleTerms and tokens when the stored form holds them. */
  counts?: { titleTerms: number; tokens: number };
};

/** How many of the title+heading terms are the title's, and the row's length as full-text search counts it (+1: the chatbot id column). */
const titleTermCount = (c: ChunkLike) => terms(c.title).length;
const tokenCount = (c: ChunkLike) => words(`${c.title} ${c.heading ?? ""} ${c.text} ${urlWords(c.url)}`).length + 1;

function analyse(c: ChunkLike): Parts {
  // Sentence splits fall on whitespace, so the sentences' terms concatenated are the text's terms.
  const heading = terms(`${c.title} ${c.heading ?? ""}`);
  const sentences: string[][] = [];
  const short: number[] = [];
  for (const s of c.text.split(SENTENCE_SPLIT)) {
    if (s.length < MIN_SENTENCE_CHARS) short.push(sentences.length);
    sentences.push(terms(s));
  }
  const url = terms(urlWords(c.url));
  return { heading, url, sentences, short, textVec: hashEmbedTerms([...heading, ...sentences.flat()]), topicVec: hashEmbedTerms([...heading, ...url]) };
}

/**
 * Adjacent pairs as a substring test on the space-joined sequences (terms never contain spaces, so
 * " a b " occurs exactly when a is followed by b). A query checks a handful of pairs against ~60
 * candidates: building a Set of every pair of every candidate cost more than the checks.
 */
function pairLookup(seqs: string[][]): ChunkFeatures["bigrams"] {
  const joined = seqs.map((seq) => ` ${seq.join(" ")} `);
  return { has: (pair) => pair.includes(" ") && joined.some((j) => j.includes(` ${pair} `)) };
}

function assemble(p: Parts, titleTerms: number, tokens: number): ChunkFeatures {
  const topic = [...p.heading, ...p.url];
  // Plain loops instead of sentences.flat() and Sets built from spread arrays: the same terms in
  // the same order, at a fraction of the cost for ~60 unseen candidates a query.
  const body: string[] = [];
  for (const s of p.sentences) for (const x of s) body.push(x);
  const bigrams = pairLookup([p.heading, body]);
  const short = new Set(p.short);
  const topicSet = new Set(topic);
  const termSet = new Set(topic);
  for (const x of body) termSet.add(x);
  return {
    textVec: p.textVec,
    topicVec: p.topicVec,
    sentences: p.sentences.filter((_, i) => !short.has(i)),
    termSet,
    topicSet,
    bigrams,
    fields: { heading: p.heading, titleTerms: Math.min(titleTerms, p.heading.length), url: p.url, short: p.sentences.filter((_, i) => short.has(i)), tokens },
  };
}

/** The stored form of a chunk's features (chunks.features), computed at indexing time. */
export function serializeChunkFeatures(c: ChunkLike): string {
  const p = analyse(c);
  const [q, e] = quantise(p.textVec);
  const [tq, te] = quantise(p.topicVec);
  const stored: StoredV1 = { v: 1, q, e, tq, te, h: p.heading.join(" "), u: p.url.join(" "), b: p.sentences.map((s) => s.join(" ")) };
  if (p.short.length) stored.x = p.short;
  stored.t = titleTermCount(c);
  stored.n = tokenCount(c);
  return JSON.stringify(stored);
}

/** [scale, base64 of int16 little-endian] — int16 keeps cosines within 1e-4 of the exact vector. */
function quantise(v: Float32Array): [number, string] {
  let max = 0;
  for (const x of v) max = Math.max(max, Math.abs(x));
  const q = new Int16Array(v.length); // little-endian on every platform Workers run on
  if (max > 0) for (let i = 0; i < q.length; i++) q[i] = Math.round((v[i] / max) * 32767);
  return [max, encodeBase64(new Uint8Array(q.buffer))];
}

// Table-driven base64 decoding: a cold query decodes two 768-byte vectors for each of ~60
// candidates, and the generic decoder took about half of a candidate's parse time.
const B64 = new Uint8Array(128).fill(255);
for (let i = 0; i < 64; i++) B64["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(i)] = i;

/** Standard padded base64 → bytes; null when the text is not that. */
export function decodeBase64Fast(b64: string): Uint8Array | null {
  if (b64.length % 4 !== 0) return null;
  const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((b64.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < b64.length; i += 4) {
    const a = B64[b64.charCodeAt(i) & 127];
    const b = B64[b64.charCodeAt(i + 1) & 127];
    const c = i + 2 < b64.length - pad ? B64[b64.charCodeAt(i + 2) & 127] : 0;
    const d = i + 3 < b64.length - pad ? B64[b64.charCodeAt(i + 3) & 127] : 0;
    if ((a | b | c | d) === 255 || b64.charCodeAt(i) > 127 || b64.charCodeAt(i + 1) > 127) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

function dequantise(scale: number, b64: string): Float32Array | null {
  const bytes = decodeBase64Fast(b64);
  if (!bytes) return null;
  if (bytes.byteLength !== EMBEDDING_DIMENSIONS * 2) return null;
  const q = new Int16Array(bytes.buffer, bytes.byteOffset, EMBEDDING_DIMENSIONS);
  const v = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) v[i] = (q[i] / 32767) * scale;
  return v;
}

function parseStored(raw: string): Parts | null {
  try {
    const s = JSON.parse(raw) as StoredV1;
    if (s.v !== 1 || !Array.isArray(s.b) || typeof s.te !== "string") return null;
    const textVec = dequantise(s.q, s.e);
    const topicVec = dequantise(s.tq, s.te);
    if (!textVec || !topicVec) return null;
    const split = (x: string) => (x ? x.split(" ") : []);
    const counts = Number.isInteger(s.t) && Number.isInteger(s.n) ? { titleTerms: s.t!, tokens: s.n! } : undefined;
    return { heading: split(s.h), url: split(s.u), sentences: s.b.map(split), short: s.x ?? [], textVec, topicVec, counts };
  } catch {
    return null;
  }
}

const FEATURE_CACHE_MAX = 3000;
/** Estimated bytes of one chunk's features: its vectors, its sentences' terms and its term sets. */
export function featureBytes(f: ChunkFeatures): number {
  let n = f.textVec.byteLength + f.topicVec.byteLength;
  for (const s of f.sentences) for (const t of s) n += stringBytes(t) + 8;
  for (const t of f.termSet) n += stringBytes(t) + 40;
  for (const t of f.topicSet) n += stringBytes(t) + 40;
  for (const t of [...f.fields.heading, ...f.fields.url, ...f.fields.short.flat()]) n += stringBytes(t) + 8;
  // The pairs are checked against the joined term sequence: about as big as the sentences' terms.
  return n * 1.5;
}
// ~16 MB at most per isolate (byte-bounded, app/.server/cache/byte-lru.ts), and FEATURE_CACHE_MAX chunks.
const featureCache = new ByteLru<string, ChunkFeatures>({
  maxBytes: 16 * 1024 * 1024,
  maxEntries: FEATURE_CACHE_MAX,
  sizeOf: (key, f) => stringBytes(key) + featureBytes(f),
});

/**
 * A chunk's features, memoised (least recently used out, ~10 KB each). Chunk rows are immutable — a
 * re-sync writes new rows and AUTOINCREMENT ids are never reused — and the key also carries the
 * title and text length, so a database recreated under a live isolate cannot serve another chunk's.
 */
export function chunkFeatures(c: ChunkLike & { id: number; features?: string | null }): ChunkFeatures {
  const key = `${c.id}:${c.text.length}:${c.title}`;
  const hit = featureCache.get(key);
  if (hit) return hit;
  // The title's terms lead the stored title+heading terms (analyse), so their count splits the two;
  // the token count is FTS5's row length (+1: the chatbot id column). Both are stored with the
  // features since ADR 057; older rows count them here.
  const p = (c.features ? parseStored(c.features) : null) ?? analyse(c);
  const f = assemble(p, p.counts?.titleTerms ?? titleTermCount(c), p.counts?.tokens ?? tokenCount(c));
  featureCache.set(key, f);
  return f;
}
