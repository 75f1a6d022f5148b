import type { AnalyticsRange } from "~/lib/schemas/analytics";
import { daysBetween } from "~/lib/time-zone";
import type { ServiceContext } from "../context";
import { analyticsStoresOf } from "./stores";
import { conversationIndex, d1ConversationIndex, type ConversationIndex, type ConversationStoreKind } from "../chat/conversation-index";
import { KEYS_READ, SCAN_DAYS, type Measure, type QuestionBatch } from "./question-rows";
import { groupSimilar, type KeyedCount, type QuestionGroup } from "./questions";

// The analytics screen's question groups (ADR 077): the most asked questions and the unanswered ones
// with "add an answer", kept where the chatbot's conversation index is, like its visitors (ADR 076).
// A chatbot whose index is in its shard counts them there (the index's once-only mark of the
// question's message writes them); one whose index is in D1 (not moved yet) keeps them in D1. Rows a
// shard chatbot still has in D1 — written before this change, or by a request that read 'moving'
// just before its index switched — are read with the shard's until the cron's sweep below has
// moved them.

type Ctx = Pick<ServiceContext, "db" | "env">;
type Ref = { orgId: string; chatbotId: string };
type Stores = { conversationStore: ConversationStoreKind; questionsInD1: boolean };

export type QuestionLists = { top: QuestionGroup[]; unanswered: QuestionGroup[] };

/** The cron's share per run: chatbots, then pages of question groups (with all their days) moved for each. */
export const STRAY_QUESTION_CHATBOTS_PER_SWEEP = 10;
export const STRAY_QUESTION_GROUPS_PER_PAGE = 200;
export const STRAY_QUESTION_PAGES_PER_CHATBOT = 5;
/** Day rows sent to the shard in one page at most (a page takes fewer groups when their days are more). */
const DAYS_PER_PAGE = 20_000;

/** Where the chatbot's groups are: its index's storage, and D1 too while rows of it are still there. */
async function groupStores(ctx: Ctx, ref: Ref, row: Stores): Promise<ConversationIndex[]> {
  const index = await conversationIndex(ctx, ref, row.conversationStore);
  return index.kind === "shard" && row.questionsInD1 ? [index, d1ConversationIndex(ctx, ref)] : [index];
}

/**
 * The range's most asked questions and its unanswered ones (not yet answered with "add an answer"),
 * each grouped by similarity (analytics/questions.ts). `chatbot` is its row's stores when the caller
 * holds them (else one look-up).
 */
export async function loadQuestions(ctx: Ctx, ref: Ref, range: AnalyticsRange, chatbot?: Stores, limits = { top: 10, unanswered: 20 }): Promise<QuestionLists> {
  const row = chatbot ?? (await analyticsStoresOf(ctx, ref));
  if (!row) return { top: [], unanswered: [] };
  const stores = await groupStores(ctx, ref, row);
  const long = daysBetween(range.from, range.to) > SCAN_DAYS;
  const list = async (measure: Measure) =>
    combined(await Promise.all(stores.map((s) => s.topQuestions({ from: range.from, to: range.to, measure, long }))), measure);
  const [top, missed] = await Promise.all([list("asked"), list("unanswered")]);
  return {
    top: groupSimilar(top).slice(0, limits.top),
    unanswered: groupSimilar(missed)
      .sort((a, b) => b.unanswered - a.unanswered)
      .slice(0, limits.unanswered),
  };
}

/**
 * One list from each store's: a key in both adds its counts (the shard's text wins). Each store's
 * list is its own top KEYS_READ, so while D1 still holds rows the merged list is the best of those
 * two lists, not of every key (the sweep makes it exact again within minutes).
 */
function combined(lists: KeyedCount[][], measure: Measure): KeyedCount[] {
  if (lists.length === 1) return lists[0];
  const byKey = new Map<string, KeyedCount>();
  for (const list of lists)
    for (const row of list) {
      const seen = byKey.get(row.key);
      byKey.set(row.key, seen ? { ...seen, asked: seen.asked + row.asked, unanswered: seen.unanswered + row.unanswered } : { ...row });
    }
  return [...byKey.values()].sort((a, b) => b[measure] - a[measure] || a.key.localeCompare(b.key)).slice(0, KEYS_READ);
}

/** Marks question groups answered (by a new Q&A source), wherever the chatbot keeps them; a later unanswered ask opens them again. */
export async function markQuestionsAnswered(ctx: Ctx, ref: Ref, keys: string[], by: { userId: string; sourceId: string }) {
  const row = await analyticsStoresOf(ctx, ref);
  if (!row) return;
  // One statement per store: the keys go as one JSON parameter (a group has at most 200, addAnswerSchema).
  for (const store of await groupStores(ctx, ref, row)) await store.markQuestionsAnswered({ keys, ...by });
}

type D1Group = {
  key: string;
  text: string;
  asked: number;
  unanswered: number;
  last_asked_at: number;
  last_unanswered_at: number | null;
  answered_at: number | null;
  answered_by: string | null;
  answer_source_id: string | null;
};

/**
 * Moves the question rows that chatbots flagged `questions_in_d1` (their index in the shard) still
 * have in D1 into their shard, a few pages per chatbot per run: a page of groups with all their days
 * is added there (summed with what the shard counted since; once per page, by its digest, so a page
 * whose delete failed is not added twice), then deleted from D1. A chatbot whose index move is in
 * its cleanup is left for a later run (a request that read 'moving' may still write to D1 then).
 * Day rows without a group (never written so; nothing shows them) are deleted. The flag is cleared
 * once D1 has none of the chatbot's rows left. Returns the chatbots it looked at.
 */
export async function sweepStrayQuestions(ctx: Ctx, opts: { chatbots?: number; groups?: number; pages?: number } = {}): Promise<string[]> {
  if (!ctx.env.CONVERSATION_SHARD) return [];
  const DB = ctx.env.DB;
  const { results } = await DB.prepare(
    `SELECT id, org_id FROM chatbots WHERE questions_in_d1 = 1 AND conversation_store = 'shard'
     AND NOT EXISTS (SELECT 1 FROM conversation_moves m WHERE m.chatbot_id = chatbots.id AND m.phase = 'cleanup') ORDER BY id LIMIT ?`,
  )
    .bind(opts.chatbots ?? STRAY_QUESTION_CHATBOTS_PER_SWEEP)
    .all<{ id: string; org_id: string }>();
  for (const b of results) {
    const ref = { orgId: b.org_id, chatbotId: b.id };
    const shard = await conversationIndex(ctx, ref, "shard");
    const size = opts.groups ?? STRAY_QUESTION_GROUPS_PER_PAGE;
    for (let n = 0; n < (opts.pages ?? STRAY_QUESTION_PAGES_PER_CHATBOT); n++) {
      const page = await d1Page(ctx, b.id, size);
      if (!page) {
        await DB.prepare("DELETE FROM analytics_question_days WHERE chatbot_id = ?").bind(b.id).run();
        break;
      }
      await shard.addQuestions(page);
      const keys = JSON.stringify(page.groups.map((g) => g.key));
      await DB.batch([
        DB.prepare("DELETE FROM analytics_question_days WHERE chatbot_id = ?1 AND key IN (SELECT value FROM json_each(?2))").bind(b.id, keys),
        DB.prepare("DELETE FROM analytics_questions WHERE chatbot_id = ?1 AND key IN (SELECT value FROM json_each(?2))").bind(b.id, keys),
      ]);
    }
    await DB.prepare(
      `UPDATE chatbots SET questions_in_d1 = 0 WHERE id = ?1
       AND NOT EXISTS (SELECT 1 FROM analytics_questions WHERE chatbot_id = ?1)
       AND NOT EXISTS (SELECT 1 FROM analytics_question_days WHERE chatbot_id = ?1)
       AND NOT EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = ?1 AND phase = 'cleanup')`,
    )
      .bind(b.id)
      .run();
  }
  return results.map((b) => b.id);
}

/** The chatbot's first `size` groups in D1 (key order) with all their days, named by their digest; null when D1 has none. */
async function d1Page(ctx: Ctx, chatbotId: string, size: number): Promise<QuestionBatch | null> {
  const DB = ctx.env.DB;
  const { results: rows } = await DB.prepare(
    `SELECT key, text, asked, unanswered, last_asked_at, last_unanswered_at, answered_at, answered_by, answer_source_id
     FROM analytics_questions WHERE chatbot_id = ? ORDER BY key LIMIT ?`,
  )
    .bind(chatbotId, size)
    .all<D1Group>();
  if (!rows.length) return null;
  const { results: allDays } = await DB.prepare(
    `SELECT day, key, asked, unanswered FROM analytics_question_days
     WHERE chatbot_id = ?1 AND key IN (SELECT value FROM json_each(?2)) ORDER BY key, day`,
  )
    .bind(chatbotId, JSON.stringify(rows.map((r) => r.key)))
    .all<{ day: string; key: string; asked: number; unanswered: number }>();
  // As many groups as fit DAYS_PER_PAGE day rows (at least one: a key has at most a day row per day).
  const perKey = new Map<string, number>();
  for (const d of allDays) perKey.set(d.key, (perKey.get(d.key) ?? 0) + 1);
  let taken = 0;
  let room = DAYS_PER_PAGE;
  while (taken < rows.length && (taken === 0 || (perKey.get(rows[taken].key) ?? 0) <= room)) room -= perKey.get(rows[taken++].key) ?? 0;
  const groups = rows.slice(0, taken).map((r) => ({
    key: r.key,
    text: r.text,
    asked: r.asked,
    unanswered: r.unanswered,
    lastAskedAt: r.last_asked_at,
    lastUnansweredAt: r.last_unanswered_at,
    answeredAt: r.answered_at,
    answeredBy: r.answered_by,
    answerSourceId: r.answer_source_id,
  }));
  const kept = new Set(groups.map((g) => g.key));
  const days = allDays.filter((d) => kept.has(d.key));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify([chatbotId, groups, days])));
  const batch = [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, "0")).join("");
  return { batch, groups, days };
}
