import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { EMBEDDING_DIMENSIONS, hashEmbedTerms } from "../ai/embeddings";
import { terms } from "./text";

// What the re-ranker needs to know about a chunk (retrieval/search.ts): its terms per sentence,
// title/heading/URL terms, adjacent term pairs and two hashed vectors. Tokenising and stemming a
// chunk is most of a query's CPU, so indexing computes the terms and the text vector once and stores
// them in chunks.features; a query only parses them. Rows indexed before that column existed are
// computed on the fly. Either way the result is memoised per isolate.

export type ChunkFeatures = {
  textVec: Float32Array;
  topicVec: Float32Array;
  /** Content terms of each sentence of ≥ 8 characters. */
  sentences: Set<string>[];
  /** Terms of title, heading, URL slug and text; of title, heading and URL slug only. */
  termSet: Set<string>;
  topicSet: Set<string>;
  /** Adjacent term pairs of the title+heading and of the text. */
  bigrams: Set<string>;
};

type ChunkLike = { title: string; heading: string | null; url: string | null; text: string };

export const urlWords = (url: string | null) => (url ? url.replace(/^[a-z]+:\/\/[^/]+/i, "").replace(/[-_/#.?=&]+/g, " ") : "");
const SENTENCE_SPLIT = /(?<=[.!?])\s+|\n+/;
const MIN_SENTENCE_CHARS = 8;

/**
 * Stored form, version 1: the int16-quantised text and topic vectors (with their scales), the stems
 * of the title+heading, of the URL slug and of each sentence.
 */
type StoredV1 = { v: 1; q: number; e: string; tq: number; te: string; h: string; u: string; b: string[]; x?: number[] };

type Parts = { heading: string[]; url: string[]; sentences: string[][]; short: number[]; textVec: Float32Array; topicVec: Float32Array };

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

function assemble(p: Parts): ChunkFeatures {
  const topic = [...p.heading, ...p.url];
  const body = p.sentences.flat();
  const bigrams = new Set<string>();
  for (const seq of [p.heading, body]) for (let i = 1; i < seq.length; i++) bigrams.add(`${seq[i - 1]} ${seq[i]}`);
  const short = new Set(p.short);
  return {
    textVec: p.textVec,
    topicVec: p.topicVec,
    sentences: p.sentences.filter((_, i) => !short.has(i)).map((s) => new Set(s)),
    termSet: new Set([...topic, ...body]),
    topicSet: new Set(topic),
    bigrams,
  };
}

/** The stored form of a chunk's features (chunks.features), computed at indexing time. */
export function serializeChunkFeatures(c: ChunkLike): string {
  const p = analyse(c);
  const [q, e] = quantise(p.textVec);
  const [tq, te] = quantise(p.topicVec);
  const stored: StoredV1 = { v: 1, q, e, tq, te, h: p.heading.join(" "), u: p.url.join(" "), b: p.sentences.map((s) => s.join(" ")) };
  if (p.short.length) stored.x = p.short;
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

function dequantise(scale: number, b64: string): Float32Array | null {
  const bytes = decodeBase64(b64);
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
    return { heading: split(s.h), url: split(s.u), sentences: s.b.map(split), short: s.x ?? [], textVec, topicVec };
  } catch {
    return null;
  }
}

const FEATURE_CACHE_MAX = 3000;
const featureCache = new Map<string, ChunkFeatures>();

/**
 * A chunk's features, memoised (least recently used out, ~10 KB each). Chunk rows are immutable — a
 * re-sync writes new rows and AUTOINCREMENT ids are never reused — and the key also carries the
 * title and text length, so a database recreated under a live isolate cannot serve another chunk's.
 */
export function chunkFeatures(c: ChunkLike & { id: number; features?: string | null }): ChunkFeatures {
  const key = `${c.id}:${c.text.length}:${c.title}`;
  const hit = featureCache.get(key);
  if (hit) {
    featureCache.delete(key);
    featureCache.set(key, hit);
    return hit;
  }
  const f = assemble((c.features ? parseStored(c.features) : null) ?? analyse(c));
  featureCache.set(key, f);
  if (featureCache.size > FEATURE_CACHE_MAX) featureCache.delete(featureCache.keys().next().value!);
  return f;
}
