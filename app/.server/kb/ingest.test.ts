import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { knowledgeSources } from "../db/schema";
import { deleteChatbot } from "../chatbots/chatbots";
import { ftsChatbotToken } from "../retrieval/search";
import { bytes, CSV, HTML_DOC, JSON_DOC, MD_DOC, minimalDocx, minimalPdf, TXT_DOC } from "./fixtures/files";
import { recordingContext, makeBot, testKnowledgeStore } from "../../../tests/factories";
import { chunkRows, knowledgeRows, vectorCount } from "../../../tests/knowledge-rows";
import { SITE, testSite } from "./fixtures/test-site";
import { crawlStateKey, MAX_ATTEMPTS, runIngestStep, runIngestionUntilIdle, STALE_AFTER_MS, sweepIngestion } from "./ingest";
import {
  createFileSource,
  createQaSource,
  createSiteSource,
  createTextSource,
  createUrlSource,
  deleteSource,
  getSource,
  knowledgeUsage,
  listSources,
  resyncSource,
  retrySource,
  setSchedule,
} from "./sources";

const file = (name: string, data: Uint8Array<ArrayBuffer>, type = "") => new File([data], name, { type });

async function patchSource(id: string, patch: Partial<typeof knowledgeSources.$inferInsert>) {
  const { ctx } = recordingContext();
  await ctx.db.update(knowledgeSources).set(patch).where(eq(knowledgeSources.id, id));
}

describe("text and Q&A sources", () => {
  it("a text source is queued with a message, then ingested to ready with chunks and vectors", async () => {
    const { ctx, sent } = recordingContext();
    const ref = (await makeBot()).ref;
    const r = await createTextSource(ctx, ref, { title: "Returns", text: "# Returns\n\nItems can be returned within 30 days for a full refund." });
    if (!r.ok) throw new Error(r.message);
    expect(r.source).toMatchObject({ status: "queued", type: "text", title: "Returns" });
    expect(sent).toEqual([{ kind: "ingest", sourceId: r.source.id }]);
    const done = await runIngestionUntilIdle(ctx, r.source.id);
    expect(done.source).toMatchObject({ status: "ready", error: null, jobState: null, charCount: r.source.charCount });
    const chunks = await chunkRows(r.source.id);
    expect(chunks.length).toBe(done.source!.chunkCount);
    expect(chunks[0].text).toContain("returned within 30 days");
    expect(
      await vectorCount(
        ref,
        chunks.map((c) => c.id),
      ),
    ).toBe(chunks.length);
    expect(done.source!.lastSyncedAt).toBeGreaterThan(0);
  });

  it("Q&A pairs become one section per question", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot()).ref;
    const r = await createQaSource(ctx, ref, {
      pairs: [
        { question: "Do you ship abroad?", answer: "Yes, to 30 countries." },
        { question: "How long is the warranty?", answer: "Two years on every device." },
      ],
    });
    if (!r.ok) throw new Error(r.message);
    expect(r.source.title).toBe("2 questions and answers");
    await runIngestionUntilIdle(ctx, r.source.id);
    const chunks = await chunkRows(r.source.id);
    const all = chunks.map((c) => `${c.heading} ${c.text}`).join("\n");
    expect(all).toContain("Do you ship abroad?");
    expect(all).toContain("Two years on every device.");
    expect((await getSource(ctx, ref, r.source.id))!.status).toBe("ready");
  });

  it("refuses an incomplete pair", async () => {
    const { ctx } = recordingContext();
    const r = await createQaSource(ctx, (await makeBot()).ref, { pairs: [{ question: "Only a question?", answer: "" }] });
    expect(r).toMatchObject({ ok: false, message: "Pair 1 needs both a question and an answer." });
  });
});

describe("file sources", () => {
  const cases: [string, Uint8Array<ArrayBuffer>, string][] = [
    ["policy.pdf", minimalPdf(["Refunds are paid within 14 days."]), "Refunds are paid within 14 days."],
    ["shipping.docx", minimalDocx(), "We ship to 30 countries & regions."],
    ["plans.csv", bytes(CSV), "name: Pro plan"],
    ["facts.json", bytes(JSON_DOC), "store.hours.weekdays: 9-17"],
    ["returns.html", bytes(HTML_DOC), "Return items within 30 days."],
    ["warranty.md", bytes(MD_DOC), "two-year"],
    ["hours.txt", bytes(TXT_DOC), "Closed on public holidays."],
  ];
  for (const [name, data, expected] of cases) {
    it(`${name}: stored in R2 under org/<org>/<bot>/<source>/, extracted and indexed`, async () => {
      const { ctx } = recordingContext();
      const ref = (await makeBot()).ref;
      const r = await createFileSource(ctx, ref, { file: file(name, data) });
      if (!r.ok) throw new Error(r.message);
      expect(r.source.location).toBe(`org/${ref.orgId}/${ref.chatbotId}/${r.source.id}/${name}`);
      expect(await env.FILES.head(r.source.location!)).not.toBeNull();
      const done = await runIngestionUntilIdle(ctx, r.source.id);
      expect(done.source?.error).toBeNull();
      expect(done.source?.status).toBe("ready");
      const text = (await chunkRows(r.source.id)).map((c) => c.text).join("\n");
      expect(text).toContain(expected);
      expect(done.source!.charCount).toBeGreaterThan(0);
    });
  }

  it("refuses unsupported types and files over the plan's size limit, saying how to raise it", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot({ plan: "free" })).ref;
    expect(await createFileSource(ctx, ref, { file: file("tool.exe", bytes("MZ")) })).toMatchObject({
      ok: false,
      field: "file",
      message: expect.stringContaining("PDF, DOCX, TXT, Markdown, HTML, CSV, JSON"),
    });
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    const r = await createFileSource(ctx, ref, { file: file("big.txt", big) });
    expect(r).toMatchObject({ ok: false, field: "file" });
    if (r.ok) return;
    expect(r.message).toContain("over the 5 MB file size limit of the Free plan");
    expect(r.message).toContain("Starter plan (10 MB)");
    // The same file fits the Starter plan.
    const starter = (await makeBot({ plan: "starter" })).ref;
    expect((await createFileSource(ctx, starter, { file: file("big.txt", new Uint8Array(6 * 1024 * 1024).fill(65)) })).ok).toBe(true);
  });

  it("a failed file shows its error in plain words, and Retry works once the file is fixed", async () => {
    const { ctx, sent } = recordingContext();
    const ref = (await makeBot()).ref;
    const r = await createFileSource(ctx, ref, { file: file("scan.pdf", minimalPdf([])) });
    if (!r.ok) throw new Error(r.message);
    const first = await runIngestionUntilIdle(ctx, r.source.id);
    expect(first.source).toMatchObject({ status: "failed", error: "This PDF has no extractable text (scanned images?)" });
    expect((await listSources(ctx, ref))[0]).toMatchObject({ status: "failed", error: "This PDF has no extractable text (scanned images?)" });
    expect(await resyncSource(ctx, { ...ref, orgId: "org_other" }, r.source.id)).toMatchObject({ ok: false });
    // Retry only applies to failed sources of this chatbot.
    expect(await retrySource(ctx, { ...ref, chatbotId: "cb_other" }, r.source.id)).toMatchObject({ ok: false, message: "That source no longer exists." });
    await env.FILES.put(r.source.location!, minimalPdf(["Now with real text about invoices."]));
    sent.length = 0;
    const retried = await retrySource(ctx, ref, r.source.id);
    expect(retried).toMatchObject({ ok: true, source: { status: "queued", error: null } });
    expect(sent).toEqual([{ kind: "ingest", sourceId: r.source.id }]);
    const second = await runIngestionUntilIdle(ctx, r.source.id);
    expect(second.source).toMatchObject({ status: "ready", error: null });
    expect((await chunkRows(r.source.id)).map((c) => c.text).join(" ")).toContain("invoices");
    expect(await retrySource(ctx, ref, r.source.id)).toMatchObject({ ok: false, message: "Only a failed source can be retried." });
  });
});

describe("website sources", () => {
  it("a whole-site crawl runs in bounded steps to ready, skipping robots-disallowed, 404, loops, huge and non-HTML pages", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot()).ref;
    const site = testSite();
    const r = await createSiteSource(ctx, ref, { url: SITE, pageCap: 50 });
    if (!r.ok) throw new Error(r.message);
    const done = await runIngestionUntilIdle(ctx, r.source.id, { fetcher: site.fetcher });
    expect(done.source).toMatchObject({ status: "ready", progressDone: 6, progressTotal: 6 });
    expect(done.steps).toBeGreaterThanOrEqual(3); // start (robots + sitemap), then ≤ 10 fetches per step
    const chunks = await chunkRows(r.source.id);
    const urls = new Set(chunks.map((c) => c.url));
    expect(urls).toContain(`${SITE}/guide/install`);
    expect(urls).toContain(`${SITE}/orphan`);
    const text = chunks.map((c) => c.text).join("\n");
    expect(text).toContain("Run the installer");
    for (const junk of ["PRIVATE_TEXT", "NAV_TEXT", "FOOTER_TEXT", "SCRIPT_TEXT"]) expect(text).not.toContain(junk);
    expect(new Set(chunks.map((c) => c.position)).size).toBe(chunks.length);
    const lastCrawl = (done.source!.config as { lastCrawl: { pages: number; skippedCount: number } }).lastCrawl;
    expect(lastCrawl.pages).toBe(6);
    expect(lastCrawl.skippedCount).toBeGreaterThanOrEqual(6);
    expect(site.log.some((p) => p.startsWith("/private"))).toBe(false);
  });

  it("a single page whose server fails is marked failed with the reason", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot()).ref;
    const r = await createUrlSource(ctx, ref, { url: `${SITE}/missing` });
    if (!r.ok) throw new Error(r.message);
    const done = await runIngestionUntilIdle(ctx, r.source.id, { fetcher: testSite().fetcher });
    expect(done.source).toMatchObject({ status: "failed", error: "The page could not be read: not found (404)." });
  });

  it("refuses local addresses and page caps above the plan", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot({ plan: "free" })).ref;
    expect(await createUrlSource(ctx, ref, { url: "http://localhost:8787/" })).toMatchObject({ ok: false, field: "url" });
    expect(await createUrlSource(ctx, ref, { url: "http://192.168.1.1/" })).toMatchObject({ ok: false, field: "url" });
    const r = await createSiteSource(ctx, ref, { url: SITE, pageCap: 51 });
    expect(r).toMatchObject({ ok: false, field: "pageCap", message: expect.stringContaining("The Free plan crawls at most 50 pages per source") });
    expect(r.ok ? "" : r.message).toContain("Starter plan (500 pages per source)");
  });

  it("re-sync indexes the new version before deleting the old one: the bot never sees half", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot()).ref;
    const v1 = testSite();
    const r = await createSiteSource(ctx, ref, { url: SITE, pageCap: 50 });
    if (!r.ok) throw new Error(r.message);
    await runIngestionUntilIdle(ctx, r.source.id, { fetcher: v1.fetcher });
    const oldIds = (await chunkRows(r.source.id)).map((c) => c.id);
    expect(oldIds.length).toBeGreaterThan(0);

    // Version 2 of the site changes the install page.
    const v2 = testSite();
    v2.pages["/guide/install"] = v2.pages["/guide/install"].replace("Run the installer", "Download the new installer");
    expect((await resyncSource(ctx, ref, r.source.id)).ok).toBe(true);
    await runIngestStep(ctx, r.source.id, { fetcher: v2.fetcher, enqueue: false }); // robots + sitemap
    await runIngestStep(ctx, r.source.id, { fetcher: v2.fetcher, enqueue: false }); // first 10 URLs
    const mid = await chunkRows(r.source.id);
    expect((await getSource(ctx, ref, r.source.id))!.status).toBe("processing");
    // Mid-way every old chunk is still there (plus some new ones).
    expect(oldIds.every((id) => mid.some((c) => c.id === id))).toBe(true);
    expect(mid.length).toBeGreaterThan(oldIds.length);

    const done = await runIngestionUntilIdle(ctx, r.source.id, { fetcher: v2.fetcher });
    expect(done.source?.status).toBe("ready");
    const after = await chunkRows(r.source.id);
    expect(after.some((c) => oldIds.includes(c.id))).toBe(false);
    expect(await vectorCount(ref, oldIds)).toBe(0);
    const text = after.map((c) => c.text).join("\n");
    expect(text).toContain("Download the new installer");
    expect(text).not.toContain("Run the installer");
    expect(after.length).toBe(done.source!.chunkCount);
  });
});

describe("resumable ingestion and the sweeper", () => {
  it("an interrupted crawl (lost message, stale heartbeat) is resumed by the sweeper and finishes", async () => {
    const { ctx, sent } = recordingContext();
    const ref = (await makeBot()).ref;
    const site = testSite();
    const r = await createSiteSource(ctx, ref, { url: SITE, pageCap: 50 });
    if (!r.ok) throw new Error(r.message);
    sent.length = 0;
    // Two steps run, then the message for the third is lost.
    await runIngestStep(ctx, r.source.id, { fetcher: site.fetcher, enqueue: false });
    await runIngestStep(ctx, r.source.id, { fetcher: site.fetcher, enqueue: false });
    const mid = (await getSource(ctx, ref, r.source.id))!;
    expect(mid.status).toBe("processing");
    expect(mid.progressDone).toBeGreaterThan(0);
    expect(mid.progressDone).toBeLessThan(6);
    // The crawl frontier lives in R2 (a big site's would not fit a D1 row); jobState holds the cursor only.
    expect(await env.FILES.head(crawlStateKey(mid))).not.toBeNull();
    expect(mid.jobState).not.toHaveProperty("crawl");
    expect(mid.jobState).toMatchObject({ phase: "crawl" });
    const pagesBefore = site.log.filter((p) => !p.endsWith(".xml") && !p.endsWith(".txt")).length;

    // Heartbeat fresh: the sweeper leaves it alone.
    expect((await sweepIngestion(ctx)).resumed).not.toContain(r.source.id);
    // Heartbeat stale (and a crashed step still holding its lease): resumed.
    await patchSource(r.source.id, {
      heartbeatAt: Date.now() - STALE_AFTER_MS - 1000,
      jobState: { ...(mid.jobState as object), lease: { id: "dead", until: Date.now() + 3_600_000 } },
    });
    const swept = await sweepIngestion(ctx);
    expect(swept.resumed).toContain(r.source.id);
    expect(sent).toEqual([{ kind: "ingest", sourceId: r.source.id }]);
    expect((await getSource(ctx, ref, r.source.id))!.attempts).toBe(1);

    // The queue delivers: steps re-enqueue themselves until ready.
    while (sent.length) {
      const m = sent.shift()!;
      await runIngestStep(ctx, m.sourceId, { fetcher: site.fetcher });
    }
    const done = (await getSource(ctx, ref, r.source.id))!;
    expect(done).toMatchObject({ status: "ready", progressDone: 6, attempts: 0 });
    expect(await env.FILES.head(crawlStateKey(done))).toBeNull();
    // Resumed from the cursor: pages fetched before the interruption were not fetched again.
    const pages = site.log.filter((p) => !p.endsWith(".xml") && !p.endsWith(".txt"));
    expect(new Set(pages).size).toBe(pages.length);
    expect(pages.length).toBeGreaterThan(pagesBefore);
    const chunks = await chunkRows(r.source.id);
    expect(new Set(chunks.map((c) => c.position)).size).toBe(chunks.length);
  });

  it("a queued source whose message never arrived is re-enqueued; after too many attempts it fails visibly", async () => {
    const { ctx, sent } = recordingContext();
    const ref = (await makeBot()).ref;
    const r = await createTextSource(ctx, ref, { title: "Hours", text: "Open 9 to 5." });
    if (!r.ok) throw new Error(r.message);
    sent.length = 0;
    await patchSource(r.source.id, { heartbeatAt: Date.now() - STALE_AFTER_MS - 1 });
    expect((await sweepIngestion(ctx)).resumed).toContain(r.source.id);
    expect(sent.map((m) => m.sourceId)).toContain(r.source.id);

    await patchSource(r.source.id, { heartbeatAt: Date.now() - STALE_AFTER_MS - 1, attempts: MAX_ATTEMPTS });
    expect((await sweepIngestion(ctx)).failed).toContain(r.source.id);
    const failed = (await getSource(ctx, ref, r.source.id))!;
    expect(failed.status).toBe("failed");
    expect(failed.error).toContain("stopped responding");
    expect((await retrySource(ctx, ref, r.source.id)).ok).toBe(true);
    expect((await runIngestionUntilIdle(ctx, r.source.id)).source?.status).toBe("ready");
  });

  it("two steps at once: the second sees the lease and does nothing", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot()).ref;
    const r = await createTextSource(ctx, ref, { title: "T", text: "Some text for the lease test." });
    if (!r.ok) throw new Error(r.message);
    await patchSource(r.source.id, {
      status: "processing",
      jobState: { v: 1, oldMaxChunkId: 0, phase: "start", cursor: 0, totalChunks: 0, position: 0, chars: 0, lease: { id: "x", until: Date.now() + 60_000 } },
    });
    expect(await runIngestStep(ctx, r.source.id)).toMatchObject({ busy: true, done: false });
    expect(await chunkRows(r.source.id)).toHaveLength(0);
  });

  it("schedules: daily sets nextSyncAt, and the sweeper queues due re-syncs", async () => {
    const { ctx, sent } = recordingContext();
    const ref = (await makeBot()).ref;
    const r = await createUrlSource(ctx, ref, { url: `${SITE}/guide/install` });
    if (!r.ok) throw new Error(r.message);
    await runIngestionUntilIdle(ctx, r.source.id, { fetcher: testSite().fetcher });
    const s = await setSchedule(ctx, ref, r.source.id, "daily");
    if (!s.ok) throw new Error(s.message);
    expect(s.source.nextSyncAt! - s.source.lastSyncedAt!).toBe(24 * 60 * 60 * 1000);
    expect(
      await setSchedule(ctx, ref, ((await createTextSource(ctx, ref, { title: "x", text: "y" })) as { source: { id: string } }).source.id, "weekly"),
    ).toMatchObject({ ok: false });
    sent.length = 0;
    expect((await sweepIngestion(ctx)).scheduled).not.toContain(r.source.id);
    await patchSource(r.source.id, { nextSyncAt: Date.now() - 1 });
    expect((await sweepIngestion(ctx)).scheduled).toContain(r.source.id);
    expect((await getSource(ctx, ref, r.source.id))!.status).toBe("queued");
    expect(sent.map((m) => m.sourceId)).toContain(r.source.id);
    const off = await setSchedule(ctx, ref, r.source.id, "off");
    expect(off).toMatchObject({ ok: true, source: { nextSyncAt: null } });
  });
});

describe("plan limits on knowledge characters", () => {
  it("refuses text past the organisation's limit with the numbers and how to raise it", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot({ plan: "free" })).ref;
    await createTextSource(ctx, ref, { title: "Big", text: "a".repeat(900_000) });
    const other = { orgId: ref.orgId, chatbotId: (await makeBot()).ref.chatbotId }; // limit is per organisation
    const r = await createTextSource(ctx, ref, { title: "Too much", text: "b".repeat(200_000) });
    expect(r).toMatchObject({ ok: false, field: "text" });
    const msg = r.ok ? "" : r.message;
    expect(msg).toContain("knowledge limit");
    expect(msg).toContain("100,000 of the 1 M knowledge characters of the Free plan are left");
    expect(msg).toContain("Starter plan (10 M characters)");
    expect((await knowledgeUsage(ctx, ref.orgId)).used).toBe(900_000);
    void other;
  });

  it("fails a file at ingestion when its extracted text does not fit", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot({ plan: "free" })).ref;
    await createTextSource(ctx, ref, { title: "Nearly full", text: "a".repeat(999_990) });
    const r = await createFileSource(ctx, ref, { file: file("notes.txt", bytes("This text has more than ten characters.")) });
    if (!r.ok) throw new Error(r.message);
    const done = await runIngestionUntilIdle(ctx, r.source.id);
    expect(done.source?.status).toBe("failed");
    expect(done.source?.error).toContain("knowledge limit");
    expect(await chunkRows(r.source.id)).toHaveLength(0);
  });
});

describe("deleting", () => {
  it("removes chunks, vectors, the R2 object and the row; other organisations cannot", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot()).ref;
    const r = await createFileSource(ctx, ref, { file: file("guide.md", bytes(MD_DOC)) });
    if (!r.ok) throw new Error(r.message);
    await runIngestionUntilIdle(ctx, r.source.id);
    const ids = (await chunkRows(r.source.id)).map((c) => c.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(await vectorCount(ref, ids)).toBe(ids.length);

    const stranger = (await makeBot()).ref;
    expect(await deleteSource(ctx, { orgId: stranger.orgId, chatbotId: ref.chatbotId }, r.source.id)).toMatchObject({ ok: false });
    expect(await chunkRows(r.source.id)).toHaveLength(ids.length);

    expect(await deleteSource(ctx, ref, r.source.id)).toMatchObject({ ok: true, title: "Warranty" }); // the title extracted from the file;
    expect(await chunkRows(r.source.id, ref)).toHaveLength(0);
    expect(await vectorCount(ref, ids)).toBe(0);
    expect(await env.FILES.head(r.source.location!)).toBeNull();
    expect(await getSource(ctx, ref, r.source.id)).toBeNull();
    const [fts] = await knowledgeRows<{ n: number }>(
      ref,
      "SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?",
      `chatbot_id:"${ftsChatbotToken(ref.chatbotId)}"`,
    );
    expect(fts.n).toBe(0);
  });

  it("deleting a chatbot removes its files and vectors (Vectorize too), not another chatbot's", async () => {
    const { ctx } = recordingContext();
    const ref = (await makeBot()).ref;
    const other = (await makeBot()).ref;
    const ingestFile = async (r: typeof ref) => {
      const created = await createFileSource(ctx, r, { file: file("guide.md", bytes(MD_DOC)) });
      if (!created.ok) throw new Error(created.message);
      await runIngestionUntilIdle(ctx, created.source.id);
      return created.source;
    };
    const mine = await ingestFile(ref);
    const theirs = await ingestFile(other);
    const ids = (await chunkRows(mine.id)).map((c) => String(c.id));
    expect(ids.length).toBeGreaterThan(0);
    // Production keeps vectors in Vectorize, which has no local simulator and no cascade: a stand-in
    // binding records what the chatbot's deletion asks it to remove.
    const removed: string[] = [];
    const vectorize = { deleteByIds: async (batch: string[]) => (removed.push(...batch), { mutationId: "m" }) };
    const withVectorize = { ...ctx, env: { ...ctx.env, VECTORIZE: vectorize as unknown as VectorizeIndex } };

    expect(await deleteChatbot(withVectorize as never, { orgId: other.orgId, chatbotId: ref.chatbotId })).toBeNull(); // not theirs to delete
    expect(await env.FILES.head(mine.location!)).not.toBeNull();
    expect(removed).toEqual([]);

    expect(await deleteChatbot(withVectorize as never, ref)).toMatchObject({ id: ref.chatbotId });
    // A shard deletes through its own object's binding, which a test cannot stand in for: there the
    // check is that its storage is empty (below).
    if (testKnowledgeStore === "d1") expect(removed.sort()).toEqual(ids.sort());
    expect(await env.FILES.head(mine.location!)).toBeNull();
    expect(await chunkRows(mine.id, ref)).toHaveLength(0);
    expect(await env.FILES.head(theirs.location!)).not.toBeNull();
    expect((await chunkRows(theirs.id)).length).toBeGreaterThan(0);
  });
});
