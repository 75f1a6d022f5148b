import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createServiceContext, type ServiceContext } from "../context";
import { knowledgeSources } from "../db/schema";
import type { Env } from "../env";
import { makeBot, recordingContext } from "../../../tests/factories";
import { sourceCreateSchema } from "../../lib/api/v1/schemas";
import { codePoints, PART_BYTES, qaParts, stagedTextKey, textParts } from "./document-text";
import { extractFile } from "./extract";
import { referenceChunkDocument } from "./fixtures/chunking-reference";
import { chunkRows } from "../../../tests/knowledge-rows";
import { qaChunks, runIngestStep, runIngestionUntilIdle } from "./ingest";
import { createFileSource, createQaSource, createTextSource, type QaPair } from "./sources";

// Ingestion reads a document a slice at a time and continues the chunker from the state the step
// before stored (ADR 043): a step holds its slice, not the document, and the chunks are exactly those
// of chunking the whole text at once — the chunker this replaced (fixtures/chunking-reference.ts).

const MIXED_WORDS = ["refund", "policy", "delivery", "within", "days", "the", "of", "naïve", "über", "😀", "数据", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "warranty", "a"];
/** Mostly outside ASCII (2–4 bytes a character in UTF-8), as a Russian, Greek or Chinese knowledge base is. */
const NON_LATIN_WORDS = ["доставка", "возврат", "гарантия", "в", "течение", "дней", "παράδοση", "επιστροφή", "配送", "退款政策", "保修", "😀", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "a"];

/** A large markdown document: headings at every level, code fences, lists, long and tiny sections, characters outside the BMP. */
function bigDocument(sections: number, seed = 1, words = MIXED_WORDS): string {
  let a = seed;
  const r = () => (a = (a * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const sentence = () => {
    const n = 4 + Math.floor(r() * 18);
    const s = Array.from({ length: n }, () => words[Math.floor(r() * words.length)]).join(" ");
    return s[0].toUpperCase() + s.slice(1) + [".", "!", "?", ";", ""][Math.floor(r() * 5)];
  };
  const paragraph = (n: number) => Array.from({ length: n }, sentence).join(r() < 0.2 ? "\n" : " ");
  const out: string[] = ["---", "title: Big", "---", "  ", "# Big"];
  for (let i = 0; i < sections; i++) {
    const k = r();
    out.push(`${"#".repeat(2 + Math.floor(r() * 3))} Section ${i} ${sentence()}`);
    if (k < 0.15)
      out.push(sentence()); // tiny: merges with a neighbour
    else if (k < 0.2) out.push("```\n# not a heading\n" + paragraph(3) + "\n```");
    else if (k < 0.25) out.push(Array.from({ length: 6 }, () => `- ${sentence()}`).join("\n"));
    else out.push(...Array.from({ length: 1 + Math.floor(r() * 6) }, () => paragraph(2 + Math.floor(r() * 30))));
  }
  return out.join(r() < 0.5 ? "\n\n" : "\r\n\r\n");
}

/** The tests read in slices of 32k (the product's are 256k) to show a step reads slices of a document several times larger. */
const SLICE = 32 * 1024;
/** What one later step may read: about its 200 chunks of up to ~1,200 characters (plus headings and blank lines), and one slice. */
const STEP_READ = 200 * 1200 * 1.25 + SLICE;

/** What a step loaded of the document: every read of the text, in characters (D1, code points as SQLite counts) or bytes (R2). */
type Reads = { sizes: number[] };

/**
 * A context whose D1 and R2 count what ingestion reads of a source's text: D1 queries that read
 * knowledge_source_contents (the size of their results) and R2 reads of staged text.
 */
function measuringContext(reads: Reads, opts: { failRead?: number } = {}): ServiceContext {
  const base = recordingContext().ctx.env;
  let n = 0;
  const wrap = (st: D1PreparedStatement): D1PreparedStatement =>
    ({
      bind: (...args: unknown[]) => wrap(st.bind(...args)),
      first: async (col?: string) => {
        if (opts.failRead && ++n === opts.failRead) throw new Error("a platform hiccup");
        const row = await (col ? st.first(col) : st.first());
        const text = row && (row as { s?: unknown }).s;
        reads.sizes.push(typeof text === "string" ? codePoints(text) : JSON.stringify(row ?? null).length);
        return row;
      },
      all: async () => {
        const res = await st.all();
        // A text slice comes as one row per part it spans: its size is theirs together.
        const texts = res.results.map((r) => (r as { s?: unknown }).s);
        reads.sizes.push(texts.length && texts.every((t) => typeof t === "string") ? codePoints(texts.join("")) : JSON.stringify(res.results).length);
        return res;
      },
      run: () => st.run(),
      raw: (o?: { columnNames?: boolean }) => st.raw(o as { columnNames: true }),
    }) as unknown as D1PreparedStatement;
  const DB = new Proxy(base.DB, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => (sql.includes("knowledge_source_contents") ? wrap(target.prepare(sql)) : target.prepare(sql));
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const FILES = new Proxy(base.FILES, {
    get(target, prop) {
      if (prop === "get")
        return async (key: string, o?: R2GetOptions) => {
          const obj = await target.get(key, o);
          if (obj && key.endsWith("/_ingest-text.txt")) {
            const range = o?.range as { length?: number } | undefined;
            reads.sizes.push(range?.length ?? obj.size);
          }
          return obj;
        };
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return createServiceContext({ ...(base as Env), DB, FILES } as Env);
}

/** Runs a source's steps one at a time, recording what each read; the source's row at the end. */
async function stepByStep(sourceId: string, opts: { failRead?: number; afterStep?: (step: number) => Promise<void> } = {}) {
  const steps: Reads[] = [];
  for (let i = 0; i < 200; i++) {
    const reads: Reads = { sizes: [] };
    const r = await runIngestStep(measuringContext(reads, i === 1 ? { failRead: opts.failRead } : {}), sourceId, { enqueue: false, slice: SLICE });
    steps.push(reads);
    await opts.afterStep?.(i);
    if (r.done) break;
  }
  const { ctx } = recordingContext();
  const row = await ctx.db.select().from(knowledgeSources).where(eq(knowledgeSources.id, sourceId)).get();
  return { steps, row: row! };
}

const comparable = (chunks: { position: number; title: string; heading: string | null; url: string | null; text: string }[]) =>
  chunks.map(({ position, title, heading, url, text }) => ({ position, title, heading, url, text }));

async function shardRows<T extends Record<string, SqlStorageValue>>(chatbotId: string, query: string, ...values: SqlStorageValue[]) {
  const stub = env.KNOWLEDGE_SHARD.get(env.KNOWLEDGE_SHARD.idFromName(chatbotId));
  return runInDurableObject(stub, async (_o, state: DurableObjectState) => state.storage.sql.exec<T>(query, ...values).toArray());
}

async function shardChunks(chatbotId: string, sourceId: string) {
  const stub = env.KNOWLEDGE_SHARD.get(env.KNOWLEDGE_SHARD.idFromName(chatbotId));
  return runInDurableObject(stub, async (_o, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ id: number; position: number; title: string; heading: string | null; url: string | null; text: string }>(
        "SELECT id, position, title, heading, url, text FROM chunks WHERE source_id = ? ORDER BY position",
        sourceId,
      )
      .toArray(),
  );
}

describe("ingestion reads a document a slice per step", () => {
  for (const store of ["d1", "shard"] as const) {
    it(`${store}: a 700k-character text source, step by step, gives exactly the chunks of one pass; each step reads slices, not the document`, async () => {
      const { ctx } = recordingContext();
      const bot = await makeBot({ plan: "scale" });
      if (store === "shard") await env.DB.prepare("UPDATE chatbots SET knowledge_store = 'shard' WHERE id = ?").bind(bot.ref.chatbotId).run();
      const text = bigDocument(260);
      expect(text.length).toBeGreaterThan(700_000);
      const created = await createTextSource(ctx, bot.ref, { title: "Big", text });
      if (!created.ok) throw new Error(created.message);

      const { steps, row } = await stepByStep(created.source.id);
      const want = referenceChunkDocument({ title: "Big", text: text.trim(), format: "markdown" });
      const got = store === "d1" ? await chunkRows(created.source.id) : await shardChunks(bot.ref.chatbotId, created.source.id);
      expect(comparable(got)).toEqual(comparable(want));
      // Positions in id order: chunks were indexed in order, once each.
      expect(got.map((c) => c.id)).toEqual([...got.map((c) => c.id)].sort((x, y) => x - y));
      expect(row).toMatchObject({
        status: "ready",
        chunkCount: want.length,
        progressDone: want.length,
        progressTotal: want.length,
        charCount: text.trim().length,
      });

      // Every read of the text is one slice (a slice ends at a line break, so it is at most SLICE).
      const all = steps.flatMap((s) => s.sizes);
      expect(Math.max(...all)).toBeLessThanOrEqual(SLICE);
      // The first step streams the document through to count its chunks (still a slice at a time);
      // every later step reads only the slices its ~200 chunks come from, under half the document.
      expect(steps.length).toBeGreaterThanOrEqual(4);
      for (const s of steps.slice(1)) expect(s.sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(STEP_READ);
      expect(text.length).toBeGreaterThan(2 * STEP_READ);
    });
  }

  it("a step that dies after indexing and before saving (the isolate restarted) leaves no duplicate: the next step reads that slice again", async () => {
    const { ctx } = recordingContext();
    const bot = await makeBot({ plan: "scale" });
    const text = bigDocument(200, 7);
    const created = await createTextSource(ctx, bot.ref, { title: "Big", text });
    if (!created.ok) throw new Error(created.message);
    const id = created.source.id;
    let before: { jobState: Record<string, unknown> | null; updatedAt: number } | null = null;
    const { row } = await stepByStep(id, {
      afterStep: async (i) => {
        const cur = (await ctx.db.select().from(knowledgeSources).where(eq(knowledgeSources.id, id)).get())!;
        if (i === 0) before = { jobState: cur.jobState as Record<string, unknown> | null, updatedAt: cur.updatedAt };
        // Step 2 indexed its chunks; put the row back as it was before it, as if it never saved.
        if (i === 1)
          await ctx.db
            .update(knowledgeSources)
            .set({ jobState: before!.jobState, updatedAt: cur.updatedAt + 1 })
            .where(eq(knowledgeSources.id, id));
      },
    });
    expect(row.status).toBe("ready");
    const want = referenceChunkDocument({ title: "Big", text: text.trim(), format: "markdown" });
    expect(comparable(await chunkRows(id))).toEqual(comparable(want));
  });

  it("a step that fails mid-way is retried from the saved state with the same result", async () => {
    const { ctx } = recordingContext();
    const bot = await makeBot({ plan: "scale" });
    const text = bigDocument(200, 11);
    const created = await createTextSource(ctx, bot.ref, { title: "Big", text });
    if (!created.ok) throw new Error(created.message);
    // The second step's second read of the text throws (after the first slice's chunks exist).
    const { row } = await stepByStep(created.source.id, { failRead: 2 });
    expect(row).toMatchObject({ status: "ready", attempts: 0 });
    const want = referenceChunkDocument({ title: "Big", text: text.trim(), format: "markdown" });
    expect(comparable(await chunkRows(created.source.id))).toEqual(comparable(want));
  });

  it("text with blanks around it and lines longer than a slice: trimmed like text.trim(), the long line read whole", async () => {
    const { ctx } = recordingContext();
    const bot = await makeBot({ plan: "scale" });
    const long = Array.from({ length: 30_000 }, (_, i) => `w${i}${i % 17 === 0 ? "." : ""}`).join(" "); // ~200k characters, no line break
    const text = `\u00a0 \n\n# Doc\n\nIntro 😀.\n\n${long}\n\n## End\n\n${"😀".repeat(40_000)}\nlast line #\u3000 \n\n`;
    const created = await createTextSource(ctx, bot.ref, { title: "Doc", text: "placeholder" });
    if (!created.ok) throw new Error(created.message);
    // Stored as given (the seed stores text untrimmed too), re-queued.
    await env.DB.prepare("UPDATE knowledge_source_contents SET content = ? WHERE source_id = ?").bind(text, created.source.id).run();
    const { steps, row } = await stepByStep(created.source.id);
    const want = referenceChunkDocument({ title: "Doc", text: text.trim(), format: "markdown" });
    expect(comparable(await chunkRows(created.source.id))).toEqual(comparable(want));
    expect(row).toMatchObject({ status: "ready", charCount: text.trim().length, chunkCount: want.length });
    // Only a line longer than a slice makes a read longer than one.
    expect(Math.max(...steps.flatMap((s) => s.sizes))).toBeGreaterThan(SLICE);
  });

  it("a file's extracted text is staged in R2 once and read in byte ranges; the staged copy goes when done", async () => {
    const { ctx } = recordingContext();
    const bot = await makeBot({ plan: "scale" });
    const md = bigDocument(200, 3);
    const bytes = new TextEncoder().encode(md);
    const created = await createFileSource(ctx, bot.ref, { file: new File([bytes], "handbook.md") });
    if (!created.ok) throw new Error(created.message);
    const { steps, row } = await stepByStep(created.source.id);
    const doc = await extractFile(bytes, "handbook.md", "md");
    const want = referenceChunkDocument({ title: doc.title, text: doc.text, url: null, format: doc.format });
    expect(comparable(await chunkRows(created.source.id))).toEqual(comparable(want));
    expect(row).toMatchObject({ status: "ready", title: doc.title, charCount: doc.text.length, chunkCount: want.length });
    for (const s of steps.slice(1)) expect(s.sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(STEP_READ);
    expect(Math.max(...steps.flatMap((s) => s.sizes))).toBeLessThanOrEqual(SLICE);
    expect(await env.FILES.head(stagedTextKey(row))).toBeNull();
  });

  it("Q&A pairs are read a page per step: one chunk per pair, the same characters as before", async () => {
    const { ctx } = recordingContext();
    const bot = await makeBot({ plan: "scale" });
    const pairs: QaPair[] = Array.from({ length: 450 }, (_, i) => ({
      question: `Question ${i}:  do   you ship to country ${i}?`,
      answer: `Yes, in ${i % 9} days. 😀`,
    }));
    const created = await createQaSource(ctx, bot.ref, { pairs });
    if (!created.ok) throw new Error(created.message);
    const { steps, row } = await stepByStep(created.source.id);
    expect(steps.length).toBe(3);
    const want = qaChunks(created.source.title, pairs);
    expect(comparable(await chunkRows(created.source.id))).toEqual(comparable(want));
    const before = pairs.map((p) => `## ${p.question.replace(/\s+/g, " ").trim()}\n\n${p.answer.trim()}`).join("\n\n").length;
    expect(row).toMatchObject({ status: "ready", charCount: before, chunkCount: 450 });
  });

  it("a document job saved before documents streamed (no plan) starts again and finishes", async () => {
    const { ctx } = recordingContext();
    const bot = await makeBot({ plan: "scale" });
    const text = bigDocument(60, 5);
    const created = await createTextSource(ctx, bot.ref, { title: "Big", text });
    if (!created.ok) throw new Error(created.message);
    await ctx.db
      .update(knowledgeSources)
      .set({ status: "processing", jobState: { v: 1, oldMaxChunkId: 0, phase: "index", cursor: 200, totalChunks: 300, position: 0, chars: 1, lease: null } })
      .where(eq(knowledgeSources.id, created.source.id));
    const done = await runIngestionUntilIdle(ctx, created.source.id);
    expect(done.source?.status).toBe("ready");
    const want = referenceChunkDocument({ title: "Big", text: text.trim(), format: "markdown" });
    expect(comparable(await chunkRows(created.source.id))).toEqual(comparable(want));
  });
});

// D1 refuses a string or row over 2,000,000 bytes (SQLITE_TOOBIG) while the plans and the 2 M
// limit of a text source count characters: a source's content is stored in parts (ADR 045).
describe("a source's content in parts under D1's byte cap", () => {
  const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

  it("textParts: parts under the byte cap, cut between characters, starting at their offsets in code points", () => {
    const text = `a\u00e9😀数${"x".repeat(10)}\ud800z😀😀`; // a lone surrogate too (stored as U+FFFD, 3 bytes)
    for (const max of [1, 3, 4, 5, 8, 1000]) {
      const parts = textParts(text, max);
      expect(parts.map((p) => p.content).join("")).toBe(text);
      let at = 0;
      for (const p of parts) {
        expect(p.start).toBe(at);
        // Never inside a surrogate pair; at most `max` bytes unless one character is larger.
        expect(/^[\udc00-\udfff]/.test(p.content)).toBe(false);
        // (TextEncoder writes a lone surrogate as U+FFFD, as D1 stores it.)
        if (codePoints(p.content) > 1) expect(utf8Bytes(p.content)).toBeLessThanOrEqual(max);
        at += codePoints(p.content);
      }
    }
    expect(textParts("", 10)).toEqual([{ start: 0, content: "" }]);
  });

  it("qaParts: JSON arrays of whole pairs under the byte cap, `start` the first pair's index", () => {
    const pairs = Array.from({ length: 40 }, (_, i) => ({ question: `Вопрос ${i}?`, answer: "数".repeat(i * 3) }));
    const parts = qaParts(pairs, 400);
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.flatMap((p) => JSON.parse(p.content))).toEqual(pairs);
    for (const p of parts) expect(utf8Bytes(p.content)).toBeLessThanOrEqual(400);
    expect(parts.map((p) => p.start)).toEqual(parts.map((_, k) => parts.slice(0, k).reduce((n, q) => n + JSON.parse(q.content).length, 0)));
    expect(qaParts(pairs)).toEqual([{ start: 0, content: JSON.stringify(pairs) }]);
  });

  for (const store of ["d1", "shard"] as const) {
    it(`${store}: a 1.8 M-character non-Latin text source (over 2 MB of UTF-8) is saved and ingests to the chunks of the whole text`, async () => {
      const { ctx } = recordingContext();
      const bot = await makeBot({ plan: "scale" });
      if (store === "shard") await env.DB.prepare("UPDATE chatbots SET knowledge_store = 'shard' WHERE id = ?").bind(bot.ref.chatbotId).run();
      let text = bigDocument(700, 13, NON_LATIN_WORDS);
      while (text.length < 1_800_000) text += "\n\n" + bigDocument(50, text.length, NON_LATIN_WORDS);
      text = text.slice(0, 1_800_000);
      // What the API accepts: within the 2 M characters, and more bytes than one D1 row may hold.
      const input = sourceCreateSchema.parse({ type: "text", title: "Большой", text });
      if (input.type !== "text") throw new Error("not a text source");
      expect(utf8Bytes(input.text)).toBeGreaterThan(2_000_000);

      const created = await createTextSource(ctx, bot.ref, { title: input.title ?? "", text: input.text });
      if (!created.ok) throw new Error(created.message);
      // In the database that holds the chatbot's knowledge: D1, or its shard and not D1 (ADR 075).
      const query = "SELECT start, length(CAST(content AS BLOB)) AS bytes FROM knowledge_source_contents WHERE source_id = ? ORDER BY start";
      const { results: inD1 } = await env.DB.prepare(query).bind(created.source.id).all<{ start: number; bytes: number }>();
      const parts = store === "d1" ? inD1 : await shardRows<{ start: number; bytes: number }>(bot.ref.chatbotId, query, created.source.id);
      if (store === "shard") expect(inD1).toEqual([]);
      expect(parts.length).toBeGreaterThan(2);
      for (const p of parts) expect(p.bytes).toBeLessThanOrEqual(PART_BYTES);

      const done = await runIngestionUntilIdle(ctx, created.source.id);
      expect(done.source?.status).toBe("ready");
      const want = referenceChunkDocument({ title: "Большой", text: text.trim(), format: "markdown" });
      const got = store === "d1" ? await chunkRows(created.source.id) : await shardChunks(bot.ref.chatbotId, created.source.id);
      expect(comparable(got)).toEqual(comparable(want));
      const row = await ctx.db.select().from(knowledgeSources).where(eq(knowledgeSources.id, created.source.id)).get();
      expect(row).toMatchObject({ status: "ready", chunkCount: want.length, charCount: text.trim().length });
    }, 120_000);
  }

  it("slices that cross many part boundaries (parts of 3 kB, blanks around the text) give the chunks of the whole text", async () => {
    const { ctx } = recordingContext();
    const bot = await makeBot({ plan: "scale" });
    const text = `\u00a0 \n\n${bigDocument(120, 17, NON_LATIN_WORDS)}\n\u3000 \n`;
    const created = await createTextSource(ctx, bot.ref, { title: "Parts", text: "placeholder" });
    if (!created.ok) throw new Error(created.message);
    const parts = textParts(text, 3000);
    expect(parts.length).toBeGreaterThan(50);
    await env.DB.batch([
      env.DB.prepare("DELETE FROM knowledge_source_contents WHERE source_id = ?").bind(created.source.id),
      ...parts.map((p) =>
        env.DB.prepare("INSERT INTO knowledge_source_contents (source_id, start, content) VALUES (?, ?, ?)").bind(created.source.id, p.start, p.content),
      ),
    ]);
    const { row } = await stepByStep(created.source.id);
    const want = referenceChunkDocument({ title: "Parts", text: text.trim(), format: "markdown" });
    expect(comparable(await chunkRows(created.source.id))).toEqual(comparable(want));
    expect(row).toMatchObject({ status: "ready", charCount: text.trim().length, chunkCount: want.length });
  });

  it("a Q&A source of over 2 MB is saved in parts and ingests one chunk per pair, in order", async () => {
    const { ctx } = recordingContext();
    const bot = await makeBot({ plan: "scale" });
    const pairs: QaPair[] = Array.from({ length: 240 }, (_, i) => ({ question: `Вопрос ${i}: доставка?`, answer: `${i} ${"配送政策".repeat(800)}` }));
    const created = await createQaSource(ctx, bot.ref, { pairs });
    if (!created.ok) throw new Error(created.message);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM knowledge_source_contents WHERE source_id = ?").bind(created.source.id).first<number>("n");
    expect(n).toBeGreaterThan(2);
    const done = await runIngestionUntilIdle(ctx, created.source.id);
    expect(done.source?.status).toBe("ready");
    expect(comparable(await chunkRows(created.source.id))).toEqual(comparable(qaChunks(created.source.title, pairs)));
  }, 60_000);
});
