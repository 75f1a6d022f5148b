import { describe, expect, it } from "vitest";
import { chunkFeatures, serializeChunkFeatures } from "./chunk-features";

const chunk = {
  title: "Returns policy",
  heading: "Refunds for damaged parcels",
  url: "https://shop.example/help/returns-policy#refunds",
  text: "Refunds are issued within 14 days. Ok. Send the parcel back with the returns label!\nDamaged items are refunded in full, shipping included.",
};

describe("chunk features", () => {
  it("parses the stored form into what computing them on the fly gives", () => {
    const computed = chunkFeatures({ ...chunk, id: 1 });
    const stored = chunkFeatures({ ...chunk, id: 2, features: serializeChunkFeatures(chunk) });
    expect([...stored.termSet].sort()).toEqual([...computed.termSet].sort());
    expect([...stored.topicSet].sort()).toEqual([...computed.topicSet].sort());
    expect([...stored.bigrams].sort()).toEqual([...computed.bigrams].sort());
    expect(stored.sentences.map((s) => [...s])).toEqual(computed.sentences.map((s) => [...s]));
    // "Ok." is shorter than a sentence worth scoring in both forms.
    expect(computed.sentences).toHaveLength(3);
    // The stored text vector is int16-quantised: within a rounding step of the exact one.
    let dot = 0;
    for (let i = 0; i < computed.textVec.length; i++) {
      expect(Math.abs(stored.textVec[i] - computed.textVec[i])).toBeLessThan(1e-4);
      dot += stored.textVec[i] * computed.textVec[i];
    }
    expect(dot).toBeGreaterThan(0.9999);
    for (let i = 0; i < computed.topicVec.length; i++) expect(Math.abs(stored.topicVec[i] - computed.topicVec[i])).toBeLessThan(1e-4);
  });

  it("falls back to computing when the stored form is unreadable", () => {
    const f = chunkFeatures({ ...chunk, id: 3, features: "{not json" });
    expect(f.termSet.has("refund")).toBe(true);
  });
});
