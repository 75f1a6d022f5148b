import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { ACCEPTED_FILE_TYPES, SCHEDULABLE_TYPES } from "~/lib/kb";
import { formatBytes, formatCount, getPlan, planLimits, raiseLimitHint } from "~/lib/plans";
export { ACCEPTED_FILE_TYPES, SCHEDULABLE_TYPES };
import { newId } from "../auth/crypto";
import type { ServiceContext } from "../context";
import { knowledgeSourceContents, knowledgeSources, organisations } from "../db/schema";
import { knowledgeStore, knowledgeStoreKind } from "../retrieval/knowledge-store";
import { normaliseUrl } from "./crawl";
import { qaParts, textParts } from "./document-text";
import { FILE_KINDS, fileKind } from "./extract";
import { enqueueIngest } from "./queue";
import type { Failure as DomainFailure } from "../failure";

// Knowledge sources of one chatbot. Every function takes the organisation and chatbot: a source
// of another chatbot or organisation is simply not found. Content is processed in the background
// (ingest.ts); these functions only validate, store and enqueue.

/** Ingestion runs in requests, the queue consumer and cron alike. */
export type KbContext = ServiceContext;
export type SourceRef = { orgId: string; chatbotId: string };
export type KnowledgeSource = typeof knowledgeSources.$inferSelect;
export type SourceType = KnowledgeSource["type"];
export type SourceSchedule = KnowledgeSource["schedule"];
export type QaPair = { question: string; answer: string };

/** What list screens need (never the stored text or job state). */
export type SourceSummary = Pick<
  KnowledgeSource,
  | "id"
  | "type"
  | "title"
  | "location"
  | "status"
  | "progressDone"
  | "progressTotal"
  | "error"
  | "charCount"
  | "chunkCount"
  | "schedule"
  | "lastSyncedAt"
  | "nextSyncAt"
  | "createdAt"
  | "config"
>;

export type Result<T> = { ok: true } & T;
/** A refused knowledge operation (app/.server/failure.ts): plan limits are "plan_limit". */
export type Failure = { ok: false } & DomainFailure;

const SCHEDULE_INTERVAL_MS: Record<Exclude<SourceSchedule, "off">, number> = {
  daily: 24 * 60 * 60 * 1000,
  weekly: 7 * 24 * 60 * 60 * 1000,
};

export function nextSyncFrom(schedule: SourceSchedule, from: number): number | null {
  return schedule === "off" ? null : from + SCHEDULE_INTERVAL_MS[schedule];
}

const summaryColumns = {
  id: knowledgeSources.id,
  type: knowledgeSources.type,
  title: knowledgeSources.title,
  location: knowledgeSources.location,
  status: knowledgeSources.status,
  progressDone: knowledgeSources.progressDone,
  progressTotal: knowledgeSources.progressTotal,
  error: knowledgeSources.error,
  charCount: knowledgeSources.charCount,
  chunkCount: knowledgeSources.chunkCount,
  schedule: knowledgeSources.schedule,
  lastSyncedAt: knowledgeSources.lastSyncedAt,
  nextSyncAt: knowledgeSources.nextSyncAt,
  createdAt: knowledgeSources.createdAt,
  config: knowledgeSources.config,
};

const scoped = (ref: SourceRef, sourceId: string) =>
  and(eq(knowledgeSources.id, sourceId), eq(knowledgeSources.orgId, ref.orgId), eq(knowledgeSources.chatbotId, ref.chatbotId));

// ——— reading ———

export async function listSources(ctx: KbContext, ref: SourceRef): Promise<SourceSummary[]> {
  return ctx.db
    .select(summaryColumns)
    .from(knowledgeSources)
    .where(and(eq(knowledgeSources.orgId, ref.orgId), eq(knowledgeSources.chatbotId, ref.chatbotId)))
    .orderBy(desc(knowledgeSources.createdAt), desc(knowledgeSources.id))
    .all();
}

export async function getSource(ctx: KbContext, ref: SourceRef, sourceId: string): Promise<KnowledgeSource | null> {
  return (await ctx.db.select().from(knowledgeSources).where(scoped(ref, sourceId)).get()) ?? null;
}

export type KnowledgeUsage = { plan: string; planName: string; used: number; limit: number };

/** Knowledge characters used by all of the organisation's sources (optionally leaving one out) against its plan. */
export async function knowledgeUsage(ctx: KbContext, orgId: string, exceptSourceId?: string): Promise<KnowledgeUsage> {
  const org = await ctx.db.select({ plan: organisations.plan }).from(organisations).where(eq(organisations.id, orgId)).get();
  const where = exceptSourceId ? and(eq(knowledgeSources.orgId, orgId), ne(knowledgeSources.id, exceptSourceId)) : eq(knowledgeSources.orgId, orgId);
  const row = await ctx.db
    .select({ used: sql<number>`coalesce(sum(${knowledgeSources.charCount}), 0)` })
    .from(knowledgeSources)
    .where(where)
    .get();
  const plan = getPlan(org?.plan);
  return { plan: plan.id, planName: plan.name, used: Number(row?.used ?? 0), limit: plan.limits.knowledgeChars };
}

/** The message shown when `adding` characters would pass the organisation's knowledge limit. */
export function charLimitMessage(usage: KnowledgeUsage, adding: number): string {
  const left = Math.max(0, usage.limit - usage.used);
  return (
    `This would pass your knowledge limit: it has ${formatCount(adding)} characters, and ${formatCount(left)} of the ` +
    `${formatCount(usage.limit)} knowledge characters of the ${usage.planName} plan are left. ` +
    `Remove sources you no longer need, or raise the limit: ${raiseLimitHint(usage.plan, "knowledgeChars")}`
  );
}

async function checkChars(ctx: KbContext, orgId: string, adding: number): Promise<Failure | null> {
  const usage = await knowledgeUsage(ctx, orgId);
  if (usage.used + adding > usage.limit) return { ok: false, code: "plan_limit", message: charLimitMessage(usage, adding) };
  return null;
}

// ——— creating ———

async function insertAndEnqueue(
  ctx: KbContext,
  ref: SourceRef,
  values: {
    id?: string;
    type: SourceType;
    title: string;
    location?: string | null;
    /** A text or Q&A source's content, in parts (textParts / qaParts). */
    content?: { start: number; content: string }[];
    config?: Record<string, unknown>;
    charCount?: number;
  },
): Promise<Result<{ source: SourceSummary }>> {
  const now = Date.now();
  const id = values.id ?? newId("ks_");
  const insertSource = ctx.db
    .insert(knowledgeSources)
    .values({
      id,
      orgId: ref.orgId,
      chatbotId: ref.chatbotId,
      type: values.type,
      title: values.title,
      location: values.location ?? null,
      config: values.config ?? {},
      charCount: values.charCount ?? 0,
      status: "queued",
      // The enqueue time: a queued source whose message never arrives is found by the sweeper.
      heartbeatAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning(summaryColumns);
  const content = values.content;
  let source: SourceSummary;
  if (!content) source = (await insertSource)[0];
  else if ((await knowledgeStoreKind(ctx, ref)) === "shard") {
    // The content goes to the chatbot's shard beside its chunks (ADR 075), before the row: a source
    // row never exists without the content it is to learn. Should the row's write fail, the
    // content is taken back.
    const store = await knowledgeStore(ctx, ref, "shard");
    await store.putContent({ sourceId: id, type: values.type }, content);
    try {
      source = (await insertSource)[0];
    } catch (e) {
      await store.deleteChunks(id, { all: true });
      throw e;
    }
  } else {
    // One batch (one transaction) in D1: the row and its content in parts under D1's byte cap on a
    // row, a statement each (ADR 045).
    // Should a move into the shard switch over between the read above and this write, the first
    // ingestion step moves the content there (adoptD1Content).
    source = (await ctx.db.batch([insertSource, ...content.map((part) => ctx.db.insert(knowledgeSourceContents).values({ sourceId: id, ...part }))]))[0][0];
  }
  await enqueueIngest(ctx.env, source.id);
  return { ok: true, source };
}

export async function createTextSource(ctx: KbContext, ref: SourceRef, input: { title: string; text: string }) {
  const title = input.title.trim();
  const text = input.text.trim();
  if (!text) return { ok: false, code: "invalid_input", message: "Enter the text the bot should learn.", field: "text" } satisfies Failure;
  const over = await checkChars(ctx, ref.orgId, text.length);
  if (over) return { ...over, field: "text" };
  return insertAndEnqueue(ctx, ref, { type: "text", title: title || text.slice(0, 60), content: textParts(text), charCount: text.length });
}

function qaCharCount(pairs: QaPair[]): number {
  return pairs.reduce((n, p) => n + p.question.length + p.answer.length, 0);
}

export async function createQaSource(ctx: KbContext, ref: SourceRef, input: { title?: string; pairs: QaPair[] }) {
  const pairs = input.pairs.map((p) => ({ question: p.question.trim(), answer: p.answer.trim() })).filter((p) => p.question || p.answer);
  if (!pairs.length) return { ok: false, code: "invalid_input", message: "Add at least one question with its answer.", field: "pairs" } satisfies Failure;
  const incomplete = pairs.findIndex((p) => !p.question || !p.answer);
  if (incomplete >= 0)
    return { ok: false, code: "invalid_input", message: `Pair ${incomplete + 1} needs both a question and an answer.`, field: "pairs" } satisfies Failure;
  const chars = qaCharCount(pairs);
  const over = await checkChars(ctx, ref.orgId, chars);
  if (over) return { ...over, field: "pairs" };
  const title = input.title?.trim() || (pairs.length === 1 ? pairs[0].question : `${pairs.length} questions and answers`);
  return insertAndEnqueue(ctx, ref, { type: "qa", title: title.slice(0, 200), content: qaParts(pairs), charCount: chars });
}

function safeFilename(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "file").normalize("NFKD");
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(-120);
  return cleaned || "file";
}

export type UploadedFile = { name: string; type: string; size: number; arrayBuffer(): Promise<ArrayBuffer> };

/** Stores the upload in R2 under org/<orgId>/<chatbotId>/<sourceId>/<filename> and queues its extraction. */
export async function createFileSource(ctx: KbContext, ref: SourceRef, input: { file: UploadedFile }) {
  const { file } = input;
  const kind = fileKind(file.name, file.type);
  if (!kind)
    return {
      ok: false,
      code: "invalid_input",
      field: "file",
      message: `That type of file is not supported. Upload one of: ${ACCEPTED_FILE_TYPES}.`,
    } satisfies Failure;
  if (file.size === 0) return { ok: false, code: "invalid_input", field: "file", message: "The file is empty." } satisfies Failure;
  const org = await ctx.db.select({ plan: organisations.plan }).from(organisations).where(eq(organisations.id, ref.orgId)).get();
  const limits = planLimits(org?.plan);
  if (file.size > limits.fileSizeBytes) {
    return {
      ok: false,
      code: "plan_limit",
      field: "file",
      message: `The file is ${formatBytes(file.size)}, over the ${formatBytes(limits.fileSizeBytes)} file size limit of the ${getPlan(org?.plan).name} plan. ${raiseLimitHint(org?.plan, "fileSizeBytes")}`,
    } satisfies Failure;
  }
  const usage = await knowledgeUsage(ctx, ref.orgId);
  if (usage.used >= usage.limit) return { ok: false, code: "plan_limit", field: "file", message: charLimitMessage(usage, 1) } satisfies Failure;
  const id = newId("ks_");
  const filename = safeFilename(file.name);
  const key = `org/${ref.orgId}/${ref.chatbotId}/${id}/${filename}`;
  const mime = FILE_KINDS[kind].mime[0];
  await ctx.env.FILES.put(key, await file.arrayBuffer(), {
    httpMetadata: { contentType: mime },
    customMetadata: { sourceId: id, originalName: file.name.slice(0, 200) },
  });
  try {
    return await insertAndEnqueue(ctx, ref, {
      id,
      type: "file",
      title: file.name.slice(0, 200),
      location: key,
      config: { filename: file.name.slice(0, 200), size: file.size, kind, mime },
    });
  } catch (e) {
    await ctx.env.FILES.delete(key);
    throw e;
  }
}

const BLOCKED_HOSTS = /^(localhost|.*\.localhost|.*\.local|.*\.internal|metadata\.google\.internal)$/i;
const PRIVATE_V4 = /^(0|10|127|169\.254|172\.(1[6-9]|2\d|3[01])|192\.168)\./;

/** A public http(s) address, normalised; or a plain-words reason. */
export function checkPublicUrl(raw: string): { ok: true; url: string } | Failure {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim()) ? raw.trim() : `https://${raw.trim()}`;
  const url = normaliseUrl(withScheme);
  if (!url) return { ok: false, code: "invalid_input", field: "url", message: "Enter a web address starting with http:// or https://." };
  const host = new URL(url).hostname;
  if (BLOCKED_HOSTS.test(host) || PRIVATE_V4.test(host) || host.startsWith("[") || !host.includes("."))
    return {
      ok: false,
      code: "invalid_input",
      field: "url",
      reason: "private_address",
      message: "Local and private addresses cannot be read: Parley only reads public websites. Paste the page’s text or upload it as a file instead.",
    };
  return { ok: true, url };
}

export async function createUrlSource(ctx: KbContext, ref: SourceRef, input: { url: string }) {
  const checked = checkPublicUrl(input.url);
  if (!checked.ok) return checked;
  const usage = await knowledgeUsage(ctx, ref.orgId);
  if (usage.used >= usage.limit) return { ok: false, code: "plan_limit", field: "url", message: charLimitMessage(usage, 1) } satisfies Failure;
  return insertAndEnqueue(ctx, ref, { type: "url", title: checked.url, location: checked.url });
}

export type SiteInput = { url: string; pageCap?: number; include?: string[]; exclude?: string[] };

export async function createSiteSource(ctx: KbContext, ref: SourceRef, input: SiteInput) {
  const checked = checkPublicUrl(input.url);
  if (!checked.ok) return checked;
  const org = await ctx.db.select({ plan: organisations.plan }).from(organisations).where(eq(organisations.id, ref.orgId)).get();
  const limit = planLimits(org?.plan).crawlPagesPerSource;
  const pageCap = input.pageCap ?? limit;
  if (!Number.isInteger(pageCap) || pageCap < 1)
    return { ok: false, code: "invalid_input", field: "pageCap", message: "Enter how many pages to crawl (at least 1)." } satisfies Failure;
  if (pageCap > limit) {
    return {
      ok: false,
      code: "plan_limit",
      field: "pageCap",
      message: `The ${getPlan(org?.plan).name} plan crawls at most ${formatCount(limit)} pages per source; choose ${formatCount(limit)} or fewer. ${raiseLimitHint(org?.plan, "crawlPagesPerSource")}`,
    } satisfies Failure;
  }
  const clean = (list?: string[]) =>
    (list ?? [])
      .map((p) => p.trim())
      .filter(Boolean)
      .slice(0, 50);
  const usage = await knowledgeUsage(ctx, ref.orgId);
  if (usage.used >= usage.limit) return { ok: false, code: "plan_limit", field: "url", message: charLimitMessage(usage, 1) } satisfies Failure;
  return insertAndEnqueue(ctx, ref, {
    type: "site",
    title: new URL(checked.url).host,
    location: checked.url,
    config: { pageCap, include: clean(input.include), exclude: clean(input.exclude) },
  });
}

// ——— changing ———

/** Puts a source back in the queue from scratch (its current chunks keep serving until the new ones are ready). */
async function requeue(ctx: KbContext, ref: SourceRef, sourceId: string, from: readonly KnowledgeSource["status"][]) {
  const now = Date.now();
  const row = await ctx.db
    .update(knowledgeSources)
    .set({ status: "queued", error: null, progressDone: 0, progressTotal: 0, jobState: null, attempts: 0, heartbeatAt: now, updatedAt: now })
    .where(and(scoped(ref, sourceId), inArray(knowledgeSources.status, [...from])))
    .returning(summaryColumns)
    .get();
  if (!row) return null;
  await enqueueIngest(ctx.env, row.id);
  return row;
}

/** failed → queued. */
export async function retrySource(ctx: KbContext, ref: SourceRef, sourceId: string): Promise<Result<{ source: SourceSummary }> | Failure> {
  const row = await requeue(ctx, ref, sourceId, ["failed"]);
  if (row) return { ok: true, source: row };
  const existing = await getSource(ctx, ref, sourceId);
  if (!existing) return { ok: false, code: "not_found", message: "That source no longer exists." };
  return { ok: false, code: "conflict", message: "Only a failed source can be retried." };
}

/** ready | failed → queued: fetch and index again now. */
export async function resyncSource(ctx: KbContext, ref: SourceRef, sourceId: string): Promise<Result<{ source: SourceSummary }> | Failure> {
  const row = await requeue(ctx, ref, sourceId, ["ready", "failed"]);
  if (row) return { ok: true, source: row };
  const existing = await getSource(ctx, ref, sourceId);
  if (!existing) return { ok: false, code: "not_found", message: "That source no longer exists." };
  return { ok: false, code: "conflict", message: "This source is already being processed." };
}

export async function setSchedule(
  ctx: KbContext,
  ref: SourceRef,
  sourceId: string,
  schedule: SourceSchedule,
): Promise<Result<{ source: SourceSummary }> | Failure> {
  const existing = await getSource(ctx, ref, sourceId);
  if (!existing) return { ok: false, code: "not_found", message: "That source no longer exists." };
  if (schedule !== "off" && !SCHEDULABLE_TYPES.includes(existing.type))
    return { ok: false, code: "invalid_input", message: "Only website sources can be re-synced on a schedule." };
  const now = Date.now();
  const row = await ctx.db
    .update(knowledgeSources)
    .set({ schedule, nextSyncAt: nextSyncFrom(schedule, existing.lastSyncedAt ?? now), updatedAt: Math.max(now, existing.updatedAt + 1) })
    .where(scoped(ref, sourceId))
    .returning(summaryColumns)
    .get();
  if (!row) return { ok: false, code: "not_found", message: "That source no longer exists." };
  return { ok: true, source: row };
}

/** Removes the source's chunks and vectors, its stored file and the row. */
export async function deleteSource(ctx: KbContext, ref: SourceRef, sourceId: string): Promise<Result<{ title: string }> | Failure> {
  const existing = await getSource(ctx, ref, sourceId);
  if (!existing) return { ok: false, code: "not_found", message: "That source no longer exists." };
  await (await knowledgeStore(ctx, ref)).deleteChunks(sourceId, { all: true });
  // Everything stored for the source lives under its prefix (the upload, a crawl's saved state).
  await deleteFiles(ctx, `${filesPrefix(ref)}${sourceId}/`);
  // Chunks a running step adds meanwhile go with the row (ON DELETE CASCADE).
  await ctx.db.delete(knowledgeSources).where(scoped(ref, sourceId));
  return { ok: true, title: existing.title };
}

/** Where a chatbot's knowledge keeps files in R2: `org/<org>/<chatbot>/<source>/…`. */
const filesPrefix = (ref: SourceRef) => `org/${ref.orgId}/${ref.chatbotId}/`;

async function deleteFiles(ctx: KbContext, prefix: string) {
  for (let cursor: string | undefined; ;) {
    const list = await ctx.env.FILES.list({ prefix, cursor });
    if (list.objects.length) await ctx.env.FILES.delete(list.objects.map((o) => o.key));
    if (!list.truncated) break;
    cursor = list.cursor;
  }
}

/**
 * Removes what a chatbot's knowledge keeps outside its database rows — the vectors (Vectorize has no
 * cascade) and the uploaded files and crawl states in R2 — before the chatbot itself is deleted, so
 * a failure here leaves the chatbot in place to be deleted again.
 */
export async function deleteChatbotKnowledgeStorage(ctx: KbContext, ref: SourceRef) {
  await (await knowledgeStore(ctx, ref)).dropAll();
  await deleteFiles(ctx, filesPrefix(ref));
}
