import { describe, expect, it } from "vitest";
import { applyChunk, emptyReply, paragraphs, readReply, readSseChunks, splitCitations, visibleSources } from "./chat-stream";

function body(parts: string[]) {
  const enc = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
}

describe("chat stream reader", () => {
  it("parses SSE events split across network chunks and stops at [DONE]", async () => {
    const chunks = [];
    for await (const c of readSseChunks(
      body([
        'data: {"type":"start"}\n\nda',
        'ta: {"type":"text-delta","id":"t","delta":"Hi"}\r\n\r\n: keep-alive\n\n',
        'data: [DONE]\n\ndata: {"type":"x"}\n\n',
      ]),
    ))
      chunks.push(c);
    expect(chunks.map((c) => c.type)).toEqual(["start", "text-delta"]);
  });

  it("builds the reply: text, sources, metadata, errors", async () => {
    const sse = [
      `data: ${JSON.stringify({ type: "start", messageId: "m1", messageMetadata: { conversationId: "c1", messageId: "m1" } })}\n\n`,
      `data: ${JSON.stringify({ type: "data-sources", id: "sources", data: [{ n: 1, title: "T", url: null, snippet: "s", sourceId: "ks", chunkId: 1 }] })}\n\n`,
      `data: ${JSON.stringify({ type: "text-delta", id: "t", delta: "Yes " })}\n\n`,
      `data: ${JSON.stringify({ type: "text-delta", id: "t", delta: "[1]." })}\n\n`,
      `data: ${JSON.stringify({ type: "finish", messageMetadata: { answered: true } })}\n\n`,
      "data: [DONE]\n\n",
    ];
    const updates: string[] = [];
    const reply = await readReply(body(sse), (s) => updates.push(s.text));
    expect(reply).toMatchObject({ text: "Yes [1].", finished: true, metadata: { conversationId: "c1", messageId: "m1", answered: true } });
    expect(reply.sources[0].title).toBe("T");
    expect(updates).toContain("Yes ");
    expect(applyChunk(emptyReply(), { type: "error", errorText: "boom" }).error).toBe("boom");
  });

  it("reads a tool's confirmation question (the widget's Yes / No)", () => {
    const asked = applyChunk(emptyReply(), { type: "data-tool-confirm", id: "tool-confirm", data: { question: "Shall I book table?", yes: "Yes", no: "No" } });
    expect(asked.confirm).toEqual({ question: "Shall I book table?" });
    expect(applyChunk(emptyReply(), { type: "data-tool-confirm", id: "x", data: { question: 3 } }).confirm).toBeNull();
  });

  it("keeps the product cards of data-products parts, once each, with only http(s) links and images", () => {
    const card = {
      id: 1,
      name: "Beanie",
      price: "€18",
      regularPrice: "€20",
      stock: "in stock",
      inStock: true,
      url: "https://shop.example/p/beanie/",
      image: "https://shop.example/b.jpg",
    };
    let s = applyChunk(emptyReply(), {
      type: "data-products",
      id: "p1",
      data: { products: [card, { ...card, id: 2, name: "Cap", url: "javascript:alert(1)", image: "data:image/png;base64,AA", regularPrice: null }] },
    });
    // A second search (a model may call the tool twice) adds only what is new; malformed cards are dropped.
    s = applyChunk(s, { type: "data-products", id: "p2", data: { products: [card, { id: 3, name: "Belt" }, "x", { ...card, id: 4, name: "Hoodie" }] } });
    expect(s.products.map((p) => p.name)).toEqual(["Beanie", "Cap", "Hoodie"]);
    expect(s.products[0]).toEqual(card);
    expect(s.products[1]).toMatchObject({ url: null, image: null, regularPrice: null });
    expect(applyChunk(emptyReply(), { type: "data-products", data: "nope" }).products).toEqual([]);
  });

  it("splits citations and paragraphs for plain-text rendering", () => {
    expect(splitCitations("Ships in 3 days [1][2]. Free [3]")).toEqual([
      { type: "text", text: "Ships in 3 days" },
      { type: "cite", n: 1 },
      { type: "cite", n: 2 },
      { type: "text", text: ". Free" },
      { type: "cite", n: 3 },
    ]);
    expect(paragraphs("a\n\n b \n\n\n c")).toEqual(["a", "b", "c"]);
    const sources = [1, 2, 3].map((n) => ({ n, title: `S${n}`, url: null, snippet: "", sourceId: "s", chunkId: n }));
    expect(visibleSources("x [2]", sources).map((s) => s.n)).toEqual([2]);
    expect(visibleSources("no cites", sources)).toHaveLength(3);
  });
});
