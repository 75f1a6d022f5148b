import { embedMany } from "ai";
import { describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS, createLocalEmbeddingModel, embedTexts, fnv1a, getEmbeddingModel, hashEmbed } from "./embeddings";

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe("local hashed embedder", () => {
  it("implements EmbeddingModelV3 as parley-hash-384", () => {
    const m = createLocalEmbeddingModel();
    expect(m.specificationVersion).toBe("v3");
    expect(m.modelId).toBe("parley-hash-384");
    expect(typeof m.doEmbed).toBe("function");
  });

  it("gives deterministic, L2-normalised 384-dim vectors", () => {
    const a = hashEmbed("Refunds are issued within 30 days of purchase.");
    const b = hashEmbed("Refunds are issued within 30 days of purchase.");
    expect(a).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(cosine(a, a)).toBeCloseTo(1, 5);
    expect(Array.from(hashEmbed("the of and"))).toEqual(new Array(EMBEDDING_DIMENSIONS).fill(0)); // stop words only
  });

  it("puts related texts closer than unrelated ones (stems and character n-grams)", () => {
    const q = hashEmbed("how do I get a refund for my order");
    const related = hashEmbed("Refunding orders: customers can request refunds for any order.");
    const unrelated = hashEmbed("Our office dog enjoys long walks in the park on sunny afternoons.");
    expect(cosine(q, related)).toBeGreaterThan(cosine(q, unrelated) + 0.2);
    // typo / morphology tolerance from character n-grams
    expect(cosine(hashEmbed("configuration"), hashEmbed("configurations"))).toBeGreaterThan(0.5);
  });

  it("uses a fast non-cryptographic 32-bit hash", () => {
    expect(fnv1a("abc")).toBe(fnv1a("abc"));
    expect(fnv1a("abc")).not.toBe(fnv1a("abd"));
    expect(fnv1a("abc")).toBeLessThan(2 ** 32);
  });

  it("works through the AI SDK's embedMany and embedTexts", async () => {
    const model = createLocalEmbeddingModel();
    const { embeddings } = await embedMany({ model, values: ["alpha beta", "gamma delta"] });
    expect(embeddings).toHaveLength(2);
    expect(embeddings[0]).toEqual(Array.from(hashEmbed("alpha beta")));
    const vectors = await embedTexts(model, ["alpha beta"]);
    expect(vectors[0]).toBeInstanceOf(Float32Array);
    expect(Array.from(vectors[0])).toEqual(Array.from(hashEmbed("alpha beta")));
    expect(await embedTexts(model, [])).toEqual([]);
  });
});

describe("getEmbeddingModel", () => {
  it("is the local model without a key", () => {
    expect(getEmbeddingModel({}).modelId).toBe("parley-hash-384");
  });
  it("is OpenAI's (or a compatible server's) model with a key, without calling it", () => {
    const m = getEmbeddingModel({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(m.modelId).toBe("text-embedding-3-small");
    expect(m.provider).toContain("openai");
    expect(getEmbeddingModel({ OPENAI_API_KEY: "sk-test", OPENAI_EMBEDDING_MODEL: "nomic-embed-text" }).modelId).toBe("nomic-embed-text");
  });
});
