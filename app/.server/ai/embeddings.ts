import { createOpenAI } from "@ai-sdk/openai";
import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { embedMany } from "ai";
import type { Env } from "../env";
import { terms } from "../retrieval/text";

/** Dimensions of every embedding Parley stores (the Vectorize index is created with 384). */
export const EMBEDDING_DIMENSIONS = 384;
export const LOCAL_EMBEDDING_MODEL_ID = "parley-hash-384";

/** 32-bit FNV-1a over UTF-16 code units, with a seed folded into the offset basis. */
export function fnv1a(s: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // final avalanche (murmur3 fmix32) so low bits are well mixed for the modulo
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const WORD_WEIGHT = 1;
const NGRAM_WEIGHT = 0.35;

/**
 * Deterministic local embedding: word unigrams plus character 3–5-grams of the stemmed, lowercased
 * content words, signed feature hashing into `dims` buckets, sublinear tf (1 + ln tf), L2-normalised.
 * No network, no randomness: the same text always gives the same vector.
 */
export function hashEmbed(text: string, dims = EMBEDDING_DIMENSIONS): Float32Array {
  return hashEmbedTerms(terms(text), dims);
}

/** hashEmbed of a text whose content terms (retrieval/text.ts `terms`) are already known. */
export function hashEmbedTerms(stems: readonly string[], dims = EMBEDDING_DIMENSIONS): Float32Array {
  const counts = new Map<string, number>();
  const add = (f: string) => counts.set(f, (counts.get(f) ?? 0) + 1);
  for (const t of stems) {
    add(`w:${t}`);
    const padded = `<${t}>`;
    for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= padded.length; i++) add(padded.slice(i, i + n));
  }
  const v = new Float32Array(dims);
  for (const [f, tf] of counts) {
    const h = fnv1a(f);
    const weight = (f.startsWith("w:") ? WORD_WEIGHT : NGRAM_WEIGHT) * (1 + Math.log(tf));
    v[h % dims] += h & 0x80000000 ? -weight : weight;
  }
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += v[i] * v[i];
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < dims; i++) v[i] /= norm;
  return v;
}

/** The built-in embedder as an AI SDK v6 embedding model (EmbeddingModelV3). */
export function createLocalEmbeddingModel(dims = EMBEDDING_DIMENSIONS): EmbeddingModelV3 {
  return {
    specificationVersion: "v3",
    provider: "parley.local",
    modelId: dims === EMBEDDING_DIMENSIONS ? LOCAL_EMBEDDING_MODEL_ID : `parley-hash-${dims}`,
    maxEmbeddingsPerCall: 2048,
    supportsParallelCalls: true,
    async doEmbed({ values, abortSignal }) {
      abortSignal?.throwIfAborted();
      let tokens = 0;
      const embeddings = values.map((text) => {
        tokens += Math.ceil(text.length / 4);
        return Array.from(hashEmbed(text, dims));
      });
      return { embeddings, usage: { tokens }, warnings: [] };
    },
  };
}

type EmbeddingEnv = Pick<Env, "OPENAI_API_KEY" | "OPENAI_BASE_URL" | "OPENAI_EMBEDDING_MODEL">;

/** OpenAI (or an OpenAI-compatible server) when a key is configured, else the local hashed embedder. */
export function getEmbeddingModel(env: EmbeddingEnv): EmbeddingModelV3 {
  if (env.OPENAI_API_KEY) {
    const openai = createOpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL || undefined });
    return openai.embedding(env.OPENAI_EMBEDDING_MODEL ?? "text-embedding-3-small");
  }
  return createLocalEmbeddingModel();
}

/** Models that accept a `dimensions` parameter (OpenAI's text-embedding-3 family). */
const supportsDimensions = (modelId: string) => modelId.startsWith("text-embedding-3");

/** Embeds texts (batched and parallelised by the AI SDK) into Float32 vectors, in input order. */
export async function embedTexts(model: EmbeddingModelV3, texts: string[], opts: { abortSignal?: AbortSignal } = {}): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const { embeddings } = await embedMany({
    model,
    values: texts,
    maxParallelCalls: 2,
    abortSignal: opts.abortSignal,
    providerOptions: supportsDimensions(model.modelId) ? { openai: { dimensions: EMBEDDING_DIMENSIONS } } : undefined,
  });
  return embeddings.map((e) => Float32Array.from(e));
}
