// A knowledge shard's view of the shared Vectorize index (ADR 034).

/**
 * Vectorize ids are unique across the whole index, and chunk ids are only unique within a shard:
 * chunks born in a shard are stored as `<chatbot id>:<chunk id>`; chunks moved from D1 keep their
 * plain id (their vectors were written under it), up to `plainUpTo`, the largest id moved.
 */
export function shardVectorize(index: VectorizeIndex, chatbotId: string, plainUpTo: () => number): VectorizeIndex {
  const toVector = (chunkId: string | number) => (Number(chunkId) <= plainUpTo() ? String(chunkId) : `${chatbotId}:${chunkId}`);
  const toChunk = (id: string) => id.slice(id.lastIndexOf(":") + 1);
  return {
    ...index,
    upsert: (vectors: VectorizeVector[]) => index.upsert(vectors.map((v) => ({ ...v, id: toVector(v.id) }))),
    deleteByIds: (ids: string[]) => index.deleteByIds(ids.map(toVector)),
    query: async (vector: VectorFloatArray | number[], options?: VectorizeQueryOptions) => {
      const res = await index.query(vector, options);
      return { ...res, matches: res.matches.map((m) => ({ ...m, id: toChunk(m.id) })) };
    },
  } as VectorizeIndex;
}
