import { describe, expect, it } from "vitest";
import { shardVectorize } from "./shard-vectorize";

// Chunk ids repeat across shards, Vectorize ids may not: a shard's own chunks are stored under
// "<chatbot>:<id>", chunks moved from D1 keep the plain id their vectors already have.
function fakeIndex() {
  const stored = new Map<string, VectorizeVector>();
  const index = {
    upsert: async (vs: VectorizeVector[]) => {
      for (const v of vs) stored.set(v.id, v);
      return { mutationId: "m" };
    },
    deleteByIds: async (ids: string[]) => {
      for (const id of ids) stored.delete(id);
      return { mutationId: "m" };
    },
    query: async () => ({ count: stored.size, matches: [...stored.keys()].map((id) => ({ id, score: 0.5 })) }),
  } as unknown as VectorizeIndex;
  return { index, stored };
}

describe("a shard's Vectorize ids", () => {
  it("prefixes chunks born in the shard, keeps moved ones plain, and maps query matches back to chunk ids", async () => {
    const { index, stored } = fakeIndex();
    const view = shardVectorize(index, "shard-a", () => 100);
    await view.upsert([
      { id: "7", values: [1] },
      { id: "101", values: [1] },
    ]);
    expect([...stored.keys()].sort()).toEqual(["7", "shard-a:101"]);
    const res = await view.query([1], { topK: 5 });
    expect(res.matches.map((m) => m.id).sort()).toEqual(["101", "7"]);
    await view.deleteByIds(["101", "7"]);
    expect(stored.size).toBe(0);
  });

  it("keeps two shards' chunks with the same id apart", async () => {
    const { index, stored } = fakeIndex();
    await shardVectorize(index, "shard-a", () => 0).upsert([{ id: "1", values: [1] }]);
    await shardVectorize(index, "shard-b", () => 0).upsert([{ id: "1", values: [2] }]);
    expect([...stored.keys()].sort()).toEqual(["shard-a:1", "shard-b:1"]);
  });
});
