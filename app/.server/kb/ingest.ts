import { and, eq, gt, inArray, isNull, lt, lte, ne, or } from "drizzle-orm";
import { randomToken } from "../auth/crypto";
import { knowledgeSources } from "../db/schema";
import { knowledgeStore, type KnowledgeStore } from "../retrieval/knowledge-store";
import type { ChunkInput } from "../retrieval/types";
import { Chunker, chunkDocument, type ChunkerDocument, type ChunkerState } from "./chunking";
import { crawlStep, fetchUrl, startCrawl, type CrawlOptions, type CrawlState, type Fetcher } from "./crawl";
import { adoptD1Content, contentBounds, dropStagedText, readSlice, stageText, type SourceTexts, type TextStore } from "./document-text";
import { ExtractError, extractFile, extractHtml, type ExtractedDocument, type FileKind } from "./extract";
import { enqueueIngest } from "./queue";
import { dropProductsNotSeenSince } from "../integrations/woocommerce/products";
import { syncProductPage, WooSyncError } from "../integrations/woocommerce/sync";
import { WooError } from "../integrations/woocommerce/client";
import { charLimitMessage, knowledgeUsage, nextSyncFrom, type KbContext, type KnowledgeSource, type QaPair } from "./sources";

// Ingestion as small resumable steps. Each queue message runs one step: a bounded amount of work
// (≤ PAGES_PER_STEP pages or about CHUNKS_PER_STEP chunks), saves its cursor in `jobState`, touches
// `heartbeatAt`, and re-enqueues itself. A document (text, file, page) is chunked as a stream: its
// first step extracts it (files and pages, staged in R2), counts its chunks and characters reading
// it a slice at a time, and every step then reads only the next slices and continues the chunker
// from the state the step before stored (ADR 043) — a step's memory is bounded by its slice, not by
// the document, and the chunks are exactly those of chunking the whole text at once. A re-sync
// indexes the new chunks first and deletes the old ones (ids ≤ oldMaxChunkId) only once the new set
// is complete, so the bot never sees half a source.
// The sweeper (cron, every 5 minutes) resumes jobs whose message was lost and fails them after
// MAX_ATTEMPTS, and starts scheduled re-syncs.

const PAGES_PER_STEP = 10;
/** Chunks one step indexes: it stops reading at the first slice end at or past this many. */
const CHUNKS_PER_STEP = 200;
/** Q&A pairs read at once while counting a Q&A source's characters. */
const QA_PAGE = 500;
export const STALE_AFTER_MS = 2 * 60 * 1000;
export const MAX_ATTEMPTS = 5;
/** A step holds the job for at most this long; the sweeper releases it sooner when the heartbeat is stale. */
const LEASE_MS = 10 * 60 * 1000;
const PAGE_TIMEOUT_MS = 10_000;

export type IngestOptions = {
  /** How url/site sources reach the web (tests serve a site from a function). Default: global fetch. */
  fetcher?: Fetcher;
  /** Re-enqueue after a step that left work (default true; runIngestionUntilIdle runs steps inline instead). */
  enqueue?: boolean;
  /** How much of a document one read brings (default SLICE, document-text.ts; tests use less). */
  slice?: number;
};

type SkippedRecord = { url: string; reason: string };

/** A document being indexed a slice at a time: where its text is, and where the chunker stands in it. */
type DocumentPlan = ChunkerDocument & {
  /** "content": a text source's own content where its chatbot's knowledge is (offsets in characters); "staged": the extracted text in R2 (bytes). */
  from: TextStore;
  /** The next slice starts here; the (trimmed) text ends at `end`. */
  offset: number;
  end: number;
  /** The chunker as it stood after the last completed step (plain JSON). */
  chunker: ChunkerState | null;
};

type JobState = {
  v: 1;
  /** Chunks of this source with an id ≤ this belong to the previous sync and are deleted at the end. */
  oldMaxChunkId: number;
  phase: "start" | "index" | "crawl";
  /** Documents and Q&A: chunks (Q&A: pairs) indexed so far. */
  cursor: number;
  totalChunks: number;
  /** Next chunk position (sites: across pages). */
  position: number;
  chars: number;
  /** In memory only: the crawl state lives in R2 (crawlStateKey), a big site's frontier does not fit D1's 1 MB row. */
  crawl?: CrawlState;
  lease?: { id: string; until: number } | null;
  /** WooCommerce sources: when this full sync started (products not seen since then are dropped at the end). */
  startedAt?: number;
  /** Text, file and page sources, once counted. */
  doc?: DocumentPlan;
  /** Documents and Q&A: the highest chunk id the completed steps indexed; chunks above it were left by a step that died before saving. */
  indexedTo?: number;
};

/** Sources read as one document, a slice at a time. */
const DOCUMENT_TYPES: readonly KnowledgeSource["type"][] = ["text", "file", "url"];

export type StepResult = { sourceId: string; status: KnowledgeSource["status"] | "missing"; done: boolean; busy?: boolean };

/** A problem to show on the source in plain words (the job fails instead of being retried). */
class IngestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IngestError";
  }
}

const nextUpdatedAt = (row: { updatedAt: number }) => Math.max(Date.now(), row.updatedAt + 1);

async function loadRow(ctx: KbContext, sourceId: string) {
  return (await ctx.db.select().from(knowledgeSources).where(eq(knowledgeSources.id, sourceId)).get()) ?? null;
}

// ——— crawl state in R2 ———

export const crawlStateKey = (row: Pick<KnowledgeSource, "orgId" | "chatbotId" | "id">) => `org/${row.orgId}/${row.chatbotId}/${row.id}/crawl-state.json`;

async function loadCrawlState(ctx: KbContext, row: KnowledgeSource): Promise<CrawlState | null> {
  const obj = await ctx.env.FILES.get(crawlStateKey(row));
  return obj ? ((await obj.json()) as CrawlState) : null;
}

async function storeCrawlState(ctx: KbContext, row: KnowledgeSource, state: CrawlState) {
  await ctx.env.FILES.put(crawlStateKey(row), JSON.stringify(state), { httpMetadata: { contentType: "application/json" } });
}

/** jobState as stored: without the crawl state (kept in R2). */
const stored = (js: JobState): JobState => {
  const { crawl: _crawl, ...rest } = js;
  return rest;
};

// ——— documents of the non-crawl types ———

/**
 * A file or page: fetched and extracted once (the one step that holds the whole document, as
 * extraction needs it), its text staged in R2 for the steps that index it.
 */
async function extractAndStage(ctx: KbContext, row: KnowledgeSource, opts: IngestOptions) {
  let doc: ExtractedDocument & { url: string | null };
  if (row.type === "file") {
    if (!row.location) throw new IngestError("The uploaded file is missing; delete this source and upload the file again.");
    const obj = await ctx.env.FILES.get(row.location);
    if (!obj) throw new IngestError("The uploaded file is missing; delete this source and upload the file again.");
    const bytes = new Uint8Array(await obj.arrayBuffer());
    const cfg = row.config as { filename?: string; kind?: FileKind };
    doc = { ...(await extractFile(bytes, cfg.filename ?? row.title, cfg.kind ?? "txt")), url: null };
  } else {
    const url = row.location!;
    const res = await fetchUrl(url, { fetcher: opts.fetcher, host: new URL(url).host, timeoutMs: PAGE_TIMEOUT_MS });
    if (!res.ok) throw new IngestError(`The page could not be read: ${res.reason}.`);
    const page = extractHtml(res.body, res.url);
    if (!page.text) throw new IngestError("The page has no readable text.");
    doc = { ...page, url: res.url };
  }
  if (!doc.text.trim()) throw new IngestError("No text was found to learn from.");
  const end = await stageText(ctx, row, doc.text);
  return { title: doc.title, url: doc.url, format: doc.format, chars: doc.text.length, end };
}

/** Runs a chunker over a document's text from `offset`, a slice at a time, counting its chunks. */
async function countChunks(
  ctx: KbContext,
  texts: SourceTexts,
  row: KnowledgeSource,
  plan: DocumentPlan,
  opts: IngestOptions,
): Promise<{ chunks: number; unclosed: boolean }> {
  const chunker = new Chunker(plan);
  let chunks = 0;
  for (let offset = plan.offset; offset < plan.end;) {
    const slice = await readSlice(ctx, texts, row, plan.from, offset, plan.end, opts.slice);
    chunks += chunker.write(slice.text).length;
    offset = slice.next;
  }
  chunks += chunker.end().length;
  return { chunks, unclosed: chunker.unclosedFrontMatter };
}

/**
 * The first step of a document: where its text is, its characters and how many chunks it makes
 * (the progress total; none means there is nothing to learn), reading it a slice at a time.
 */
async function planDocument(
  ctx: KbContext,
  texts: SourceTexts,
  row: KnowledgeSource,
  opts: IngestOptions,
): Promise<{ doc: DocumentPlan; chars: number; totalChunks: number }> {
  let doc: DocumentPlan;
  let chars: number;
  if (row.type === "text") {
    const bounds = await contentBounds(texts, row.id, opts.slice);
    if (!bounds) throw new IngestError("This text source is empty.");
    doc = { from: "content", title: row.title, url: null, format: "markdown", offset: bounds.start, end: bounds.end, chunker: null };
    chars = bounds.chars;
  } else {
    const staged = await extractAndStage(ctx, row, opts);
    doc = { from: "staged", title: staged.title, url: staged.url, format: staged.format, offset: 0, end: staged.end, chunker: null };
    chars = staged.chars;
  }
  let count = await countChunks(ctx, texts, row, { ...doc, frontMatter: true }, opts);
  // A first `---` line that is never closed is not front matter (chunkDocument reads it as text too).
  if (count.unclosed) count = await countChunks(ctx, texts, row, { ...doc, frontMatter: false }, opts);
  return { doc: { ...doc, frontMatter: !count.unclosed }, chars, totalChunks: count.chunks };
}

/** A Q&A pair as the section it counts as ("## question", a blank line, the answer). */
const qaSectionLength = (p: QaPair) => `## ${p.question.replace(/\s+/g, " ").trim()}\n\n${p.answer.trim()}`.length;

/**
 * A Q&A source's chunks: one per pair, whatever its length, with the question as the heading and the
 * answer as the text. Retrieval recognises a chunk of a Q&A source as a pair (retrieval/search.ts,
 * qaMatch): a question asked in close words gets the pair's answer as it was written (ADR 022).
 * Chunking them as a document would merge short pairs into one chunk and split long answers.
 */
export function qaChunks(title: string, pairs: QaPair[]): ChunkInput[] {
  return pairs.map((p, i) => ({ title, heading: p.question.replace(/\s+/g, " ").trim(), url: null, text: p.answer.trim(), position: i }));
}

function chunksOf(docs: (ExtractedDocument & { url: string | null })[], startPosition = 0): ChunkInput[] {
  const out: ChunkInput[] = [];
  for (const d of docs) {
    for (const c of chunkDocument({ title: d.title, text: d.text, url: d.url, format: d.format })) out.push({ ...c, position: startPosition + out.length });
  }
  return out;
}

// ——— one step ———

/**
 * Chunks above `indexedTo` were indexed by a step that died (the isolate restarted) before saving
 * its cursor: they go, and this step indexes that slice again, so a chunk is never there twice.
 */
async function dropOrphans(store: KnowledgeStore, sourceId: string, js: JobState, stepFloor: number) {
  if (js.indexedTo !== undefined && stepFloor > js.indexedTo) await store.deleteChunks(sourceId, { above: js.indexedTo });
}

async function indexStep(store: KnowledgeStore, source: { sourceId: string; type: KnowledgeSource["type"] }, js: JobState, chunks: ChunkInput[]) {
  const { chunkIds } = await store.indexChunks(source, chunks);
  js.cursor += chunks.length;
  for (const id of chunkIds) js.indexedTo = Math.max(js.indexedTo ?? 0, id);
}

async function save(ctx: KbContext, row: KnowledgeSource, leaseId: string, patch: Partial<typeof knowledgeSources.$inferInsert>) {
  // Compare-and-set on updatedAt: a step that lost its job (deleted, retried, taken over) writes nothing.
  const updated = await ctx.db
    .update(knowledgeSources)
    .set({ ...patch, updatedAt: nextUpdatedAt(row) })
    .where(and(eq(knowledgeSources.id, row.id), eq(knowledgeSources.updatedAt, row.updatedAt)))
    .returning()
    .get();
  if (!updated) throw new LostJob();
  void leaseId;
  return updated;
}

class LostJob extends Error {}

async function fail(ctx: KbContext, store: KnowledgeStore, row: KnowledgeSource, js: JobState | null, message: string) {
  // A failed re-sync drops only what it added: the previous chunks keep serving.
  await store.deleteChunks(row.id, { above: js?.oldMaxChunkId ?? 0 });
  if (row.type === "site") await ctx.env.FILES.delete(crawlStateKey(row));
  if (row.type === "file" || row.type === "url") await dropStagedText(ctx, row);
  const chunkCount = await store.countChunks(row.id);
  return save(ctx, row, "", {
    status: "failed",
    error: message,
    jobState: null,
    heartbeatAt: null,
    chunkCount,
    nextSyncAt: nextSyncFrom(row.schedule, Date.now()),
  });
}

/**
 * Runs one bounded step of a source's ingestion. Safe to call twice for the same source at once
 * (the second sees the lease and does nothing) and after the source was deleted (nothing to do).
 */
export async function runIngestStep(ctx: KbContext, sourceId: string, opts: IngestOptions = {}): Promise<StepResult> {
  let row = await loadRow(ctx, sourceId);
  if (!row) return { sourceId, status: "missing", done: true };
  if (row.status !== "queued" && row.status !== "processing") return { sourceId, status: row.status, done: true };
  const now = Date.now();
  const prev = row.jobState as JobState | null;
  if (prev?.lease && prev.lease.until > now) return { sourceId, status: row.status, done: false, busy: true };

  // A document job saved before documents streamed (no plan) starts again.
  const fresh = row.status === "queued" || !prev || prev.v !== 1 || (DOCUMENT_TYPES.includes(row.type) && prev.phase === "index" && !prev.doc);
  const leaseId = randomToken(8);
  // Where the chatbot's chunks live: D1 or its knowledge shard (ADR 034).
  const store = await knowledgeStore(ctx, { orgId: row.orgId, chatbotId: row.chatbotId });
  const source = { sourceId: row.id, type: row.type };
  const js: JobState = fresh
    ? { v: 1, oldMaxChunkId: await store.maxChunkId(row.id), phase: "start", cursor: 0, totalChunks: 0, position: 0, chars: 0 }
    : { ...prev };
  js.lease = { id: leaseId, until: now + LEASE_MS };
  try {
    row = await save(ctx, row, leaseId, {
      status: "processing",
      jobState: stored(js),
      heartbeatAt: now,
      ...(fresh ? { error: null, progressDone: 0, progressTotal: 0 } : {}),
    });
  } catch (e) {
    if (e instanceof LostJob) return { sourceId, status: row.status, done: false, busy: true };
    throw e;
  }

  // Chunks above this id were added by this step: if it dies unexpectedly they go, since its cursor was not saved.
  const stepFloor = await store.maxChunkId(row.id);
  try {
    if (store.kind === "shard" && js.phase === "start" && (row.type === "text" || row.type === "qa")) await adoptD1Content(ctx.env.DB, store, source);
    let finished = false;
    if (row.type === "site") {
      const cfg = row.config as { pageCap?: number; include?: string[]; exclude?: string[] };
      const crawlOpts: CrawlOptions = {
        fetcher: opts.fetcher,
        maxPages: cfg.pageCap ?? 50,
        include: cfg.include,
        exclude: cfg.exclude,
        timeoutMs: PAGE_TIMEOUT_MS,
      };
      if (js.phase === "crawl") {
        const saved = await loadCrawlState(ctx, row);
        if (!saved) {
          // The saved crawl is gone: start the crawl again without what this run had added.
          await store.deleteChunks(row.id, { above: js.oldMaxChunkId });
          Object.assign(js, { phase: "start", position: 0, chars: 0 });
        } else js.crawl = saved;
      }
      if (js.phase === "start") {
        js.crawl = await startCrawl(row.location!, crawlOpts);
        js.phase = "crawl";
      } else {
        const usage = await knowledgeUsage(ctx, row.orgId, row.id);
        const current = row;
        js.crawl = await crawlStep(js.crawl!, crawlOpts, PAGES_PER_STEP, async (page) => {
          const doc = extractHtml(page.html, page.url);
          if (!doc.text) return;
          if (usage.used + js.chars + doc.text.length > usage.limit)
            throw new IngestError(charLimitMessage({ ...usage, used: usage.used + js.chars }, doc.text.length));
          const chunks = chunksOf([{ ...doc, url: page.url }], js.position);
          await store.indexChunks(source, chunks);
          js.position += chunks.length;
          js.chars += doc.text.length;
          // A page can take seconds: keep the heartbeat fresh so the sweeper leaves this step alone.
          await ctx.db.update(knowledgeSources).set({ heartbeatAt: Date.now() }).where(eq(knowledgeSources.id, current.id));
        });
      }
      const c = js.crawl!;
      const cap = (row.config as { pageCap?: number }).pageCap ?? 50;
      await storeCrawlState(ctx, row, c);
      row = await save(ctx, row, leaseId, {
        jobState: stored(js),
        heartbeatAt: Date.now(),
        progressDone: c.pagesDone,
        progressTotal: Math.max(c.pagesDone, Math.min(cap, c.pagesDone + c.frontier.length)),
      });
      if (c.done) {
        if (c.pagesDone === 0) {
          const why = c.skipped[0] ? `${c.skipped[0].url}: ${c.skipped[0].reason}` : "the site has no pages matching the include/exclude patterns";
          throw new IngestError(`No page could be read (${why}).`);
        }
        finished = true;
      }
    } else if (row.type === "woocommerce") {
      // A store's products, one page per step (integrations/woocommerce/sync.ts); `cursor` is the next page.
      if (js.phase === "start") Object.assign(js, { phase: "index", cursor: 1, startedAt: Date.now() });
      let page;
      try {
        page = await syncProductPage(ctx, row, js.cursor, { fetcher: opts.fetcher });
      } catch (e) {
        if (e instanceof WooError || e instanceof WooSyncError) throw new IngestError(`The store's products could not be read: ${e.message}`);
        throw e;
      }
      const usage = await knowledgeUsage(ctx, row.orgId, row.id);
      if (usage.used + js.chars + page.chars > usage.limit) throw new IngestError(charLimitMessage({ ...usage, used: usage.used + js.chars }, page.chars));
      await store.indexChunks(source, page.chunks);
      js.chars += page.chars;
      js.totalChunks += page.products;
      finished = js.cursor >= page.totalPages;
      row = await save(ctx, row, leaseId, { jobState: stored(js), heartbeatAt: Date.now(), progressDone: js.cursor, progressTotal: page.totalPages });
      js.cursor += 1;
      if (finished) await dropProductsNotSeenSince(ctx, row.chatbotId, js.startedAt ?? 0);
    } else if (row.type === "qa") {
      // One chunk per pair, read a page at a time from the stored JSON; `cursor` is the next pair.
      if (js.phase === "start") {
        const count = await store.qaPairCount(row.id);
        if (count === "invalid") throw new IngestError("The questions and answers of this source could not be read.");
        if (!count) throw new IngestError("This source has no questions and answers.");
        // The characters of the pairs as sections, two line breaks between.
        let chars = 2 * (count - 1);
        for (let i = 0; i < count; i += QA_PAGE) for (const p of await store.qaPairs(row.id, i, QA_PAGE)) chars += qaSectionLength(p);
        const usage = await knowledgeUsage(ctx, row.orgId, row.id);
        if (usage.used + chars > usage.limit) throw new IngestError(charLimitMessage(usage, chars));
        Object.assign(js, { phase: "index", totalChunks: count, chars, indexedTo: js.oldMaxChunkId });
      }
      await dropOrphans(store, row.id, js, stepFloor);
      const chunks = qaChunks(row.title, await store.qaPairs(row.id, js.cursor, CHUNKS_PER_STEP)).map((c) => ({ ...c, position: c.position + js.cursor }));
      await indexStep(store, source, js, chunks);
      finished = js.cursor >= js.totalChunks || chunks.length === 0;
      row = await save(ctx, row, leaseId, { jobState: stored(js), heartbeatAt: Date.now(), progressDone: js.cursor, progressTotal: js.totalChunks });
    } else {
      // A document (text, file, page): counted once, then indexed a few slices per step.
      if (js.phase === "start") {
        const plan = await planDocument(ctx, store, row, opts);
        if (!plan.totalChunks) throw new IngestError("No text was found to learn from.");
        const usage = await knowledgeUsage(ctx, row.orgId, row.id);
        if (usage.used + plan.chars > usage.limit) throw new IngestError(charLimitMessage(usage, plan.chars));
        Object.assign(js, { phase: "index", doc: plan.doc, totalChunks: plan.totalChunks, chars: plan.chars, indexedTo: js.oldMaxChunkId });
      }
      await dropOrphans(store, row.id, js, stepFloor);
      const doc = js.doc!;
      const chunker = new Chunker(doc, {}, doc.chunker ?? undefined);
      const chunks: ChunkInput[] = [];
      let offset = doc.offset;
      while (chunks.length < CHUNKS_PER_STEP && offset < doc.end) {
        const slice = await readSlice(ctx, store, row, doc.from, offset, doc.end, opts.slice);
        for (const c of chunker.write(slice.text)) chunks.push(c);
        offset = slice.next;
      }
      finished = offset >= doc.end;
      if (finished) for (const c of chunker.end()) chunks.push(c);
      await indexStep(store, source, js, chunks);
      js.doc = { ...doc, offset, chunker: chunker.state };
      row = await save(ctx, row, leaseId, {
        jobState: stored(js),
        heartbeatAt: Date.now(),
        progressDone: js.cursor,
        progressTotal: js.totalChunks,
        // Extracted title of a file or page (a text/Q&A title is the user's).
        ...(row.type === "file" || row.type === "url" ? { title: doc.title.slice(0, 200) } : {}),
      });
    }

    if (!finished) {
      // Release the lease, then hand the rest to the next message.
      row = await save(ctx, row, leaseId, { jobState: { ...stored(js), lease: null } });
      if (opts.enqueue !== false) await enqueueIngest(ctx.env, row.id);
      return { sourceId, status: row.status, done: false };
    }

    // Complete: now (and only now) the previous sync's chunks go.
    if (js.oldMaxChunkId > 0) await store.deleteChunks(row.id, { upTo: js.oldMaxChunkId });
    if (row.type === "site") await ctx.env.FILES.delete(crawlStateKey(row));
    if (js.doc?.from === "staged") await dropStagedText(ctx, row);
    const chunkCount = await store.countChunks(row.id);
    const syncedAt = Date.now();
    const config =
      row.type === "site" && js.crawl
        ? {
            ...row.config,
            lastCrawl: { pages: js.crawl.pagesDone, skippedCount: js.crawl.skippedCount, skipped: js.crawl.skipped.slice(0, 20) as SkippedRecord[] },
          }
        : row.type === "woocommerce"
          ? { ...row.config, products: js.totalChunks }
          : row.config;
    row = await save(ctx, row, leaseId, {
      status: "ready",
      error: null,
      jobState: null,
      heartbeatAt: null,
      attempts: 0,
      charCount: js.chars,
      chunkCount,
      progressDone: row.type === "site" ? (js.crawl?.pagesDone ?? 0) : row.type === "woocommerce" ? row.progressTotal : js.totalChunks,
      progressTotal: row.type === "site" ? (js.crawl?.pagesDone ?? 0) : row.type === "woocommerce" ? row.progressTotal : js.totalChunks,
      lastSyncedAt: syncedAt,
      nextSyncAt: nextSyncFrom(row.schedule, syncedAt),
      config,
    });
    return { sourceId, status: "ready", done: true };
  } catch (e) {
    const current = (await loadRow(ctx, sourceId)) ?? null;
    // Deleted while this step ran: D1's cascade took its chunks; a shard has no cascade from D1.
    if (!current && store.kind === "shard") await store.deleteChunks(sourceId, { all: true });
    if (e instanceof LostJob) return { sourceId, status: row.status, done: true };
    if (!current) return { sourceId, status: "missing", done: true };
    if (e instanceof IngestError || e instanceof ExtractError) {
      await fail(ctx, store, current, js, e.message).catch((err) => {
        if (!(err instanceof LostJob)) throw err;
      });
      return { sourceId, status: "failed", done: true };
    }
    // Unexpected (a bug or a platform hiccup): never shown raw; retried a few times, then failed.
    console.error(`[ingest] step of ${sourceId} failed`, e);
    await store.deleteChunks(current.id, { above: Math.max(stepFloor, js.oldMaxChunkId) });
    const attempts = current.attempts + 1;
    if (attempts >= MAX_ATTEMPTS) {
      await fail(
        ctx,
        store,
        current,
        js,
        `Something went wrong while processing this source (${attempts} attempts). Retry, and contact support if it keeps failing.`,
      );
      return { sourceId, status: "failed", done: true };
    }
    await ctx.db
      .update(knowledgeSources)
      .set({ attempts, jobState: { ...(current.jobState as JobState), lease: null }, heartbeatAt: Date.now(), updatedAt: nextUpdatedAt(current) })
      .where(and(eq(knowledgeSources.id, current.id), eq(knowledgeSources.updatedAt, current.updatedAt)));
    if (opts.enqueue !== false) await enqueueIngest(ctx.env, sourceId, 30);
    return { sourceId, status: "processing", done: false };
  }
}

/** Runs steps inline until the source is ready, failed or gone (tests, the demo seed). */
export async function runIngestionUntilIdle(ctx: KbContext, sourceId: string, opts: Omit<IngestOptions, "enqueue"> & { maxSteps?: number } = {}) {
  const maxSteps = opts.maxSteps ?? 10_000;
  let steps = 0;
  let last: StepResult = { sourceId, status: "queued", done: false };
  while (steps < maxSteps) {
    last = await runIngestStep(ctx, sourceId, { ...opts, enqueue: false });
    steps++;
    if (last.done || last.busy) break;
  }
  return { ...last, steps, source: await loadRow(ctx, sourceId) };
}

// ——— the sweeper ———

export type SweepResult = { resumed: string[]; failed: string[]; scheduled: string[] };

/**
 * Resumes jobs whose message was lost (processing with a stale heartbeat, or queued for longer than
 * STALE_AFTER_MS), fails them after MAX_ATTEMPTS with a visible error, and queues sources whose
 * scheduled re-sync is due. Run by the cron trigger every 5 minutes.
 */
export async function sweepIngestion(ctx: KbContext, opts: { now?: number; limit?: number; enqueue?: boolean } = {}): Promise<SweepResult> {
  const now = opts.now ?? Date.now();
  const limit = opts.limit ?? 100;
  const out: SweepResult = { resumed: [], failed: [], scheduled: [] };
  const stale = await ctx.db
    .select()
    .from(knowledgeSources)
    .where(
      and(
        inArray(knowledgeSources.status, ["queued", "processing"]),
        or(isNull(knowledgeSources.heartbeatAt), lt(knowledgeSources.heartbeatAt, now - STALE_AFTER_MS)),
      ),
    )
    .limit(limit)
    .all();
  for (const row of stale) {
    const attempts = row.attempts + 1;
    const js = row.jobState as JobState | null;
    try {
      if (attempts > MAX_ATTEMPTS) {
        await fail(
          ctx,
          await knowledgeStore(ctx, { orgId: row.orgId, chatbotId: row.chatbotId }),
          row,
          js,
          `Processing stopped responding ${MAX_ATTEMPTS} times, so it was stopped. Retry to start again; contact support if it keeps happening.`,
        );
        out.failed.push(row.id);
        continue;
      }
      // The heartbeat is stale, so whoever held the lease is gone: release it.
      const updated = await ctx.db
        .update(knowledgeSources)
        .set({ attempts, heartbeatAt: now, jobState: js ? { ...js, lease: null } : null, updatedAt: nextUpdatedAt(row) })
        .where(and(eq(knowledgeSources.id, row.id), eq(knowledgeSources.updatedAt, row.updatedAt)))
        .returning({ id: knowledgeSources.id })
        .get();
      if (!updated) continue;
      if (opts.enqueue !== false) await enqueueIngest(ctx.env, row.id);
      out.resumed.push(row.id);
    } catch (e) {
      if (!(e instanceof LostJob)) console.error(`[ingest] sweeping ${row.id} failed`, e);
    }
  }

  const due = await ctx.db
    .select()
    .from(knowledgeSources)
    .where(
      and(
        inArray(knowledgeSources.status, ["ready", "failed"]),
        ne(knowledgeSources.schedule, "off"),
        lte(knowledgeSources.nextSyncAt, now),
        gt(knowledgeSources.nextSyncAt, 0),
      ),
    )
    .limit(limit)
    .all();
  for (const row of due) {
    const updated = await ctx.db
      .update(knowledgeSources)
      .set({ status: "queued", error: null, progressDone: 0, progressTotal: 0, jobState: null, attempts: 0, heartbeatAt: now, updatedAt: nextUpdatedAt(row) })
      .where(and(eq(knowledgeSources.id, row.id), eq(knowledgeSources.updatedAt, row.updatedAt)))
      .returning({ id: knowledgeSources.id })
      .get();
    if (!updated) continue;
    if (opts.enqueue !== false) await enqueueIngest(ctx.env, row.id);
    out.scheduled.push(row.id);
  }
  return out;
}
