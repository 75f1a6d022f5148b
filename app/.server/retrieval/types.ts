// Shared shapes of the knowledge pipeline: ingestion produces ChunkInput, indexing stores them,
// retrieval returns Passages that the answer engine cites.

/** One chunk ready to index; `position` orders chunks within their source. */
export type ChunkInput = {
  title: string;
  heading: string | null;
  url: string | null;
  text: string;
  position: number;
};

export type ChatbotRef = { orgId: string; chatbotId: string };

export type Passage = {
  chunkId: number;
  sourceId: string;
  title: string;
  heading: string | null;
  url: string | null;
  text: string;
  /** Fused relevance, higher is better (comparable within one query only). */
  score: number;
};

export type RetrievalResult = {
  passages: Passage[];
  /** False when nothing clears the relevance floor: the bot should not answer from knowledge. */
  answerable: boolean;
  /** The best chunk's share of the question it covers (what the relevance floor compares), 0–1. */
  relevance?: number;
  /** The best chunk's hashed n-gram similarity to the question (the floor's second signal), 0–1. */
  similarity?: number;
  /** The share `relevance` was compared with (the floor for this question and knowledge base). */
  floor?: number;
  /**
   * Which rule refuses the question whatever its relevance (ADR 018, 050): it asks after a thing, a
   * name or a means of payment the knowledge never names. Set whether or not the floor refuses it
   * too (compare `relevance` with `floor`); absent when no rule does, or a Q&A pair answers.
   */
  refusedBy?: "missing-object" | "missing-name" | "missing-means";
  /**
   * A Q&A pair whose question matches the question asked closely (ADR 022): its answer is the reply,
   * and it is passages[0]. Absent when no pair matches closely enough.
   */
  qa?: { chunkId: number; sourceId: string; question: string; answer: string; closeness: number };
  /** The best closeness of any Q&A pair among the candidates (0–1), whether or not it won. */
  qaCloseness?: number;
  /** With RetrieveOptions.explainQa: the best Q&A candidates and the parts of their closeness. */
  qaCandidates?: { chunkId: number; sourceId: string; question: string; closeness: number; forward: number; backward: number; similarity: number }[];
};

/** Where chunk embeddings live: Vectorize in production, D1 (exact cosine) offline. */
export interface VectorStore {
  readonly kind: "vectorize" | "d1";
  upsert(items: { chunkId: number; chatbotId: string; vector: Float32Array }[], model: string): Promise<void>;
  query(chatbotId: string, vector: Float32Array, topK: number): Promise<{ chunkId: number; score: number }[]>;
  remove(chunkIds: number[]): Promise<void>;
}
