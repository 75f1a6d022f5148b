import { describe, expect, it } from "vitest";
import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { chunkFeatures, decodeBase64Fast, serializeChunkFeatures, urlWords } from "./chunk-features";
import { terms } from "./text";

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
    // Every adjacent pair of the heading and of the text is found, in both forms; pairs across the
    // heading/text boundary and non-adjacent pairs are not.
    const heading = terms(`${chunk.title} ${chunk.heading}`);
    const body = terms(chunk.text);
    for (const seq of [heading, body])
      for (let i = 1; i < seq.length; i++) {
        expect(computed.bigrams.has(`${seq[i - 1]} ${seq[i]}`)).toBe(true);
        expect(stored.bigrams.has(`${seq[i - 1]} ${seq[i]}`)).toBe(true);
      }
    expect(computed.bigrams.has(`${heading.at(-1)} ${body[0]}`)).toBe(false);
    expect(stored.bigrams.has(`${body[0]} ${body[2]}`)).toBe(false);
    expect(stored.bigrams.has(body[0])).toBe(false);
    expect(stored.sentences).toEqual(computed.sentences);
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

  it("stores the title's term count and the row's token count, read back as computing them gives (ADR 057)", () => {
    const computed = chunkFeatures({ ...chunk, id: 4 });
    const raw = serializeChunkFeatures(chunk);
    const stored = chunkFeatures({ ...chunk, id: 5, features: raw });
    expect(stored.fields).toEqual(computed.fields);
    expect(JSON.parse(raw)).toMatchObject({ t: terms(chunk.title).length, n: computed.fields.tokens });
    // A row stored before the counts existed computes them, with the same result.
    const { t: _t, n: _n, ...older } = JSON.parse(raw) as Record<string, unknown>;
    expect(chunkFeatures({ ...chunk, id: 6, features: JSON.stringify(older) }).fields).toEqual(computed.fields);
  });

  it("lists the terms in order: title and heading, URL, then the text (the typo match keeps the first of equals)", () => {
    const topic = [...terms(`${chunk.title} ${chunk.heading}`), ...terms(urlWords(chunk.url))];
    for (const f of [chunkFeatures({ ...chunk, id: 6 }), chunkFeatures({ ...chunk, id: 7, features: serializeChunkFeatures(chunk) })]) {
      expect([...f.termSet]).toEqual([...new Set([...topic, ...terms(chunk.text)])]);
      expect([...f.topicSet]).toEqual([...new Set(topic)]);
    }
  });

  it("decodes base64 exactly as the generic decoder, and refuses what is not base64", () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n === 39 ? 768 : n }, (_, i) => (i * 37 + n * 11) & 255);
      const text = encodeBase64(bytes);
      expect(decodeBase64Fast(text)).toEqual(decodeBase64(text));
    }
    expect(decodeBase64Fast("abc")).toBeNull();
    expect(decodeBase64Fast("ab$d")).toBeNull();
    expect(decodeBase64Fast("abcé===")).toBeNull();
  });

  it("falls back to computing when the stored form is unreadable", () => {
    const f = chunkFeatures({ ...chunk, id: 3, features: "{not json" });
    expect(f.termSet.has("refund")).toBe(true);
  });
});
