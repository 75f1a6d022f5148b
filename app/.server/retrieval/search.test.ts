import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { chunkDocument } from "../kb/chunking";
import { countChatbotChunks, indexChunks } from "./indexing";
import { chunkFeatures } from "./chunk-features";
import { bm25Scorer, chooseMatchWords, DEFAULT_TUNING, ftsChatbotToken, ftsMatch, queryTerms, retrieve } from "./search";
import { makeBot } from "../../../tests/factories";

const RETURNS = `# Returns
## Refunds
Customers may return any unused item within 30 days of delivery for a full refund to the original payment method. Refunds are processed within five business days after the parcel reaches our warehouse.
## Exchanges
Items can be exchanged for another size or colour free of charge. Start an exchange from the order page.`;
const SHIPPING = `# Shipping
## Delivery times
Orders ship from Rotterdam. Delivery to the Netherlands takes one to two business days, to the rest of the European Union three to five business days.
## Costs
Shipping is free for orders above 50 euros; below that a flat fee of 4.95 euros applies.`;
const PRICING = `# Plans
## Annual plans
Paying yearly saves two months compared with monthly billing. Annual subscriptions renew automatically.`;

async function kb() {
  const bot = await makeBot({ sources: ["returns", "shipping", "pricing", "copy"] });
  const other = await makeBot({ sources: ["secret"] });
  const add = async (b: typeof bot, i: number, title: string, text: string) =>
    (
      await indexChunks(
        b.ctx,
        { ...b.ref, sourceId: b.sourceIds[i] },
        chunkDocument({ title, text, url: `https://shop.test/${title.toLowerCase()}`, format: "markdown" }),
      )
    ).chunkIds;
  const ids = {
    returns: await add(bot, 0, "Returns", RETURNS),
    shipping: await add(bot, 1, "Shipping", SHIPPING),
    pricing: await add(bot, 2, "Plans", PRICING),
    copy: await add(bot, 3, "Returns", RETURNS), // the same page added twice
    secret: await add(
      other,
      0,
      "Flamingo",
      "# Flamingo\n## Feeding\nOur flamingo colony eats brine shrimp and algae. Refunds are never possible for flamingo adoption.",
    ),
  };
  return { bot, other, ids };
}

describe("retrieve", () => {
  it("finds the passage that answers, with heading and source, and marks it answerable", async () => {
    const { bot, ids } = await kb();
    const res = await retrieve(bot.ctx, bot.ref, "How long do I have to return an item for a refund?", { k: 3 });
    expect(res.answerable).toBe(true);
    expect(res.passages[0].heading).toBe("Refunds");
    expect([...ids.returns, ...ids.copy]).toContain(res.passages[0].chunkId);
    expect(res.passages[0].score).toBeGreaterThanOrEqual(res.passages[res.passages.length - 1].score);
    const ship = await retrieve(bot.ctx, bot.ref, "how much does delivery cost", { k: 2 });
    expect(ship.passages[0].sourceId).toBe(bot.sourceIds[1]);
  });

  it("reads its statistics from term_stats, and still finds chunks indexed before features existed", async () => {
    const { bot } = await kb();
    const df = (term: string) =>
      env.DB.prepare("SELECT df FROM term_stats WHERE chatbot_id = ? AND term = ?")
        .bind(bot.ref.chatbotId, term)
        .first<{ df: number }>()
        .then((r) => r?.df);
    expect(await df("refund")).toBe(2); // the Refunds section of the page added twice
    expect(await df("#chunks")).toBe(await countChatbotChunks(bot.ctx, bot.ref));
    // A row as migrations before 0005 left it: no features, so no term counts (only #chunks).
    const legacy = await makeBot({ sources: ["old", "new"] });
    await env.DB.prepare(
      "INSERT INTO chunks (source_id, chatbot_id, org_id, position, title, heading, url, text) VALUES (?, ?, ?, 0, 'Guarantee', NULL, NULL, ?)",
    )
      .bind(
        legacy.sourceIds[0],
        legacy.ref.chatbotId,
        legacy.ref.orgId,
        "Every product carries a two-year warranty against defects in materials and workmanship.",
      )
      .run();
    await indexChunks(legacy.ctx, { ...legacy.ref, sourceId: legacy.sourceIds[1] }, [
      { title: "Kettles", heading: null, url: null, text: "Our kettle boils a litre of water in two minutes.", position: 0 },
    ]);
    // "warranty" is in no counted chunk (df 0), "kettle" in one: both are searched.
    const res = await retrieve(legacy.ctx, legacy.ref, "What warranty does the kettle have?", { k: 3 });
    expect(res.passages.map((p) => p.title).sort()).toEqual(["Guarantee", "Kettles"]);
  });

  it("never returns another chatbot's chunks", async () => {
    const { bot, other, ids } = await kb();
    for (const q of ["flamingo brine shrimp algae", "refunds flamingo adoption", "Feeding"]) {
      const res = await retrieve(bot.ctx, bot.ref, q, { k: 10 });
      for (const p of res.passages) expect(ids.secret).not.toContain(p.chunkId);
    }
    expect((await retrieve(bot.ctx, bot.ref, "flamingo brine shrimp algae")).answerable).toBe(false);
    // …and the other chatbot sees its own
    const mine = await retrieve(other.ctx, other.ref, "what do flamingos eat");
    expect(mine.passages.map((p) => p.chunkId)).toEqual(ids.secret);
  });

  it("treats FTS syntax in the question as plain words: it can neither break nor widen the search", async () => {
    const { bot, other, ids } = await kb();
    const hostile = [
      `refund" OR chatbot_id:${other.ref.chatbotId} OR "`,
      `chatbot_id:* OR flamingo`,
      `{chatbot_id title}: ${other.ref.chatbotId}`,
      `(refund OR) AND (NOT shipping`,
      `NEAR(refund flamingo, 1) ^refund refund* -shipping`,
      `"""'; DROP TABLE chunks; --`,
      `* : ( ) " ^ + - {} [] \\`,
    ];
    for (const q of hostile) {
      const res = await retrieve(bot.ctx, bot.ref, q, { k: 10 });
      for (const p of res.passages) expect(ids.secret).not.toContain(p.chunkId);
      for (const p of res.passages) expect(bot.sourceIds).toContain(p.sourceId);
    }
    // operators are dropped or quoted: the expression only ever ORs quoted words inside content columns
    const m = ftsMatch(
      "cb_x",
      queryTerms(`refund" OR chatbot_id:cb_y NEAR(a b) *`).map((t) => t.word),
    );
    expect(m).toBe(`chatbot_id:"63625f78" AND {title heading text url}:("refund" OR "chatbot" OR "id" OR "cb" OR "near")`);
    // the chatbot id is one hex token, whatever it contains
    expect(ftsMatch('cb"x', ["a"])).toBe(`chatbot_id:"63622278" AND {title heading text url}:("a")`);
    expect(ftsChatbotToken("cb_é")).toBe("63625fc3a9");
  });

  it("marks an off-topic question unanswerable and an empty one too", async () => {
    const { bot } = await kb();
    expect((await retrieve(bot.ctx, bot.ref, "What is the capital of France?")).answerable).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "Who won the football world cup in 1998?")).answerable).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "the of and?")).answerable).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "Do annual plans renew automatically?")).answerable).toBe(true);
  });

  it("drops near-identical chunks contributed by a duplicate source and respects k", async () => {
    const { bot } = await kb();
    const res = await retrieve(bot.ctx, bot.ref, "refund return item within 30 days", { k: 4 });
    expect(res.passages.length).toBeLessThanOrEqual(4);
    const texts = res.passages.map((p) => p.text);
    expect(new Set(texts).size).toBe(texts.length);
    expect((await retrieve(bot.ctx, bot.ref, "refund shipping exchange annual", { k: 1 })).passages).toHaveLength(1);
  });

  it("fills k from the sources already picked when fewer sources qualify (one text source of many chunks)", async () => {
    // Before: with the default two passages per source, a knowledge base of one source handed the
    // answer engine 2 of its chunks whatever k asked for, and the chunk that answers was often third.
    const bot = await makeBot({ sources: ["policy"] });
    const sections = ["Returns", "Refunds", "Exchanges", "Damaged items", "Payment"].map(
      (h, i) =>
        `## ${h}\n${"Our returns team reads every message about an order. ".repeat(12)}Section ${i} says what happens to returns of kind ${h.toLowerCase()}.`,
    );
    await indexChunks(
      bot.ctx,
      { ...bot.ref, sourceId: bot.sourceIds[0] },
      chunkDocument({ title: "Policy", text: `# Policy\n${sections.join("\n")}`, format: "markdown" }),
    );
    expect(await countChatbotChunks(bot.ctx, bot.ref)).toBeGreaterThanOrEqual(4);
    const res = await retrieve(bot.ctx, bot.ref, "returns", { k: 4 });
    expect(res.passages).toHaveLength(4);
    expect(new Set(res.passages.map((p) => p.chunkId)).size).toBe(4);
    const scores = res.passages.map((p) => p.score);
    expect(scores[2]).toBeLessThanOrEqual(scores[1]);
  });

  it("picks by novelty of the topic: a section about a term not yet covered passes a stronger one about covered terms", async () => {
    // Pins the greedy selection's novelty gain (step 7): the engraving page scores below the second
    // gift-wrapping page, and only the gain for its uncovered topic term puts it second.
    const bot = await makeBot({ sources: ["a", "b", "c", "d"] });
    const docs = [
      [
        "Gift wrapping",
        "We gift wrap any order in recycled paper with a ribbon. Gift wrapping costs 3 euros per parcel, and a wrapped parcel can also hold an engraving card. Wrapping is done by hand in our Utrecht workshop.",
      ],
      [
        "Gift wrapping for businesses",
        "Companies can order gift wrapping in their own colours for twenty parcels or more. Wrapping with a printed logo takes an extra week; engraving of the logo on pens is quoted separately.",
      ],
      ["Engraving", "Most watches can be engraved with up to twenty letters in two working days."],
      ["Opening hours", "Our Utrecht shop is open Tuesday to Saturday from ten to six. We are closed on public holidays."],
    ];
    for (const [i, [title, text]] of docs.entries())
      await indexChunks(bot.ctx, { ...bot.ref, sourceId: bot.sourceIds[i] }, chunkDocument({ title, text, url: `https://shop.test/${i}`, format: "text" }));
    const order = async (tuning: Partial<typeof DEFAULT_TUNING>) =>
      (await retrieve(bot.ctx, bot.ref, "gift wrapping and engraving", { k: 3, tuning })).passages.map((p) => [bot.sourceIds.indexOf(p.sourceId), p.score]);
    expect(await order({ novelty: 2 })).toEqual([
      [0, 1],
      [2, 0.6051],
      [1, 0.9579],
    ]);
    const byScore = [
      [0, 1],
      [1, 0.9579],
      [2, 0.6051],
    ];
    expect(await order({ novelty: 0 })).toEqual(byScore);
    // Novelty of the whole text: the first page's text already names engraving.
    expect(await order({ novelty: 2, noveltyOn: "text" })).toEqual(byScore);
  });

  it("falls back to vector similarity when full-text search finds nothing (typos)", async () => {
    const { bot, ids } = await kb();
    const res = await retrieve(bot.ctx, bot.ref, "refundz retrned itemz", { k: 2 });
    expect(res.passages.length).toBeGreaterThan(0);
    expect([...ids.returns, ...ids.copy]).toContain(res.passages[0].chunkId);
  });

  it("works with vector fusion on (D1 vector store)", async () => {
    const { bot, ids } = await kb();
    const res = await retrieve(bot.ctx, bot.ref, "refunds for returned items", { k: 3, tuning: { vector: "weighted", wVector: 0.8 } });
    expect([...ids.returns, ...ids.copy]).toContain(res.passages[0].chunkId);
    const rrf = await retrieve(bot.ctx, bot.ref, "refunds for returned items", { k: 3, tuning: { vector: "rrf" } });
    expect([...ids.returns, ...ids.copy]).toContain(rrf.passages[0].chunkId);
  });
});

describe("bm25Scorer (BM25 from one chatbot's statistics, ADR 024)", () => {
  let id = 1e9;
  const features = (title: string, heading: string | null, text: string) => chunkFeatures({ id: id++, title, heading, url: null, text });
  const score = bm25Scorer([{ stem: "refund", idf: 2 }], DEFAULT_TUNING);

  it("weighs a word by its field as FTS5's column weights do, and saturates repeats", () => {
    const inTitle = score(features("Refunds", null, "Money goes back to your card."), 1);
    const inText = score(features("Payments", null, "A refund goes back to your card."), 1);
    const twice = score(features("Payments", null, "A refund goes back to your card. Each refund takes five days."), 1);
    expect(inTitle).toBeGreaterThan(inText);
    expect(twice).toBeGreaterThan(inText);
    expect(twice).toBeLessThan(2 * inText);
    // Exactly FTS5's formula for one occurrence in the text (weight 1) at average length.
    expect(inText).toBeCloseTo((2 * 1 * 2.2) / (1 + 1.2), 10);
  });

  it("scores from the idf and length it is given only, and a longer chunk a little lower", () => {
    const f = features("Payments", null, "A refund goes back to your card.");
    expect(score(f, 2)).toBeLessThan(score(f, 1));
    expect(bm25Scorer([{ stem: "refund", idf: 1e-6 }], DEFAULT_TUNING)(f, 1)).toBeLessThan(1e-5);
    expect(score(features("Payments", null, "We never charge twice."), 1)).toBe(0);
  });
});

describe("chooseMatchWords", () => {
  const words = [
    { word: "claude", df: 20_000 },
    { word: "prompt", df: 4_000 },
    { word: "caching", df: 300 },
    { word: "ttl", df: 40 },
    { word: "absent", df: 0 },
  ];
  it("searches every word in a knowledge base of up to 2k chunks", () => {
    const chosen = chooseMatchWords(words, 2_000);
    expect(chosen.words.sort()).toEqual(["absent", "caching", "claude", "prompt", "ttl"]);
    expect(chosen.pairs).toEqual([]);
  });
  it("searches a large knowledge base for its rarest words alone and the common ones in pairs", () => {
    expect(chooseMatchWords(words, 100_000)).toEqual({ words: ["ttl", "caching", "absent"], pairs: [["prompt", "claude"]] });
    expect(chooseMatchWords([...words, { word: "expiry", df: 900 }], 100_000).words).toEqual(["ttl", "caching", "expiry", "absent"]);
    expect(chooseMatchWords(words.slice(0, 2), 100_000)).toEqual({ words: ["prompt"], pairs: [] });
    const common = ["claude", "models", "api", "prompt"].map((word, i) => ({ word, df: 20_000 + i }));
    expect(chooseMatchWords(common, 100_000)).toEqual({
      words: ["claude"],
      pairs: [
        ["models", "api"],
        ["models", "prompt"],
      ],
    });
  });
  it("keeps words the statistics do not know (they cost nothing to search)", () => {
    expect(chooseMatchWords([{ word: "zzz", df: 0 }], 100_000)).toEqual({ words: ["zzz"], pairs: [] });
  });
  it("builds a MATCH whose pairs need both words", () => {
    expect(ftsMatch("cb_1", ["ttl"], [["prompt", "claude"]])).toBe('chatbot_id:"63625f31" AND {title heading text url}:("ttl" OR ("prompt" AND "claude"))');
  });
  it("leaves the chatbot out of the MATCH only in a database that is its own (a shard)", () => {
    expect(ftsMatch("cb_1", ["ttl"], [["prompt", "claude"]], { ownDatabase: true })).toBe('{title heading text url}:("ttl" OR ("prompt" AND "claude"))');
    expect(ftsMatch("cb_1", ["ttl"], [], { ownDatabase: false })).toBe('chatbot_id:"63625f31" AND {title heading text url}:("ttl")');
  });
});
