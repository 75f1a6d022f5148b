import { z } from "zod";
import type { BoundSql } from "../db/client";
import { QUESTION_TEXT_MAX, type KeyedCount } from "./questions";

// The question groups' rows (`analytics_questions`, a group per chatbot and key, and
// `analytics_question_days`, its asks per day) as fixed SQL over D1's API, so the same statements
// run on D1 and on a chatbot's conversation shard (ADR 077): a chatbot keeps its question groups where
// its conversation index is, like its visitors (ADR 076). The domain side (which store, the stray
// rows still in D1) is analytics/question-groups.ts.

type Ref = { orgId: string; chatbotId: string };
type Range = { from: string; to: string };
export type Measure = "asked" | "unanswered";

/** An analytics day label (YYYY-MM-DD), as calls into a shard carry it. */
export const daySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const keySchema = z.string().min(1).max(200);

/** One visitor question as analytics counts it: its group key, sample text, when, and whether it went unanswered. */
export const questionMarkSchema = z.object({ key: keySchema, text: z.string().max(QUESTION_TEXT_MAX), at: z.number().int(), missed: z.boolean() }).strict();
export type QuestionMark = z.infer<typeof questionMarkSchema>;

/**
 * The two upserts of one question on `day`. `when` (bound after the row's own values) holds both
 * back unless true: the shard adds them only for a conversation of its chatbot. A group someone
 * answered with "add an answer" opens again when the question goes unanswered after that.
 */
export function questionUpserts(ref: Ref, day: string, q: QuestionMark, when?: BoundSql): BoundSql[] {
  const missed = q.missed ? 1 : 0;
  const cond = when?.sql ?? "true";
  const condParams = when?.params ?? [];
  return [
    {
      // INSERT … SELECT … ON CONFLICT needs the SELECT to end in a WHERE clause (SQLite's rule).
      sql: `insert into analytics_questions (chatbot_id, key, org_id, text, asked, unanswered, last_asked_at, last_unanswered_at)
      select ?, ?, ?, ?, 1, ?, ?, ? where ${cond}
      on conflict (chatbot_id, key) do update set asked = asked + 1, unanswered = unanswered + excluded.unanswered, last_asked_at = excluded.last_asked_at, text = excluded.text,
        last_unanswered_at = coalesce(excluded.last_unanswered_at, last_unanswered_at),
        answered_at = case when excluded.last_unanswered_at is not null then null else answered_at end`,
      params: [ref.chatbotId, q.key, ref.orgId, q.text, missed, q.at, q.missed ? q.at : null, ...condParams],
    },
    {
      sql: `insert into analytics_question_days (chatbot_id, day, key, asked, unanswered) select ?, ?, ?, 1, ? where ${cond}
      on conflict (chatbot_id, day, key) do update set asked = asked + 1, unanswered = unanswered + excluded.unanswered`,
      params: [ref.chatbotId, day, q.key, missed, ...condParams],
    },
  ];
}

/** One store's list query: the range, which count it ranks by, and whether to start from the keys' totals (a range over SCAN_DAYS). */
export const questionListSchema = z.object({ from: daySchema, to: daySchema, measure: z.enum(["asked", "unanswered"]), long: z.boolean() }).strict();
export type QuestionListQuery = z.infer<typeof questionListSchema>;

/** How many question keys of the range are read before grouping (the most asked / most missed). */
export const KEYS_READ = 150;
/** Up to this many days, a range's question rows are read in one scan; longer ones start from the keys' totals. */
export const SCAN_DAYS = 14;
const CANDIDATES = 250;
const MAX_ROUNDS = 8;
/** The unanswered list leaves out groups someone answered with "add an answer". */
const listed = (measure: Measure) => (measure === "unanswered" ? "and g.answered_at is null" : "");

/**
 * The KEYS_READ keys with the most `measure` in the range, in this storage. A long range first tries
 * the keys' all-time totals (`byTotals`); a short one, or a long tail of rare questions, scans.
 */
export async function topQuestionKeys(client: D1Database, ref: Ref, raw: QuestionListQuery): Promise<KeyedCount[]> {
  const q = questionListSchema.parse(raw);
  return (q.long ? await byTotals(client, ref, q, q.measure) : null) ?? scan(client, ref, q, q.measure);
}

/** One scan of the range's rows. */
async function scan(client: D1Database, ref: Ref, range: Range, measure: Measure): Promise<KeyedCount[]> {
  const { results } = await client
    .prepare(
      `select t.key, g.text, t.asked, t.unanswered from
      (select key, sum(asked) as asked, sum(unanswered) as unanswered from analytics_question_days
        where chatbot_id = ?1 and day between ?3 and ?4 group by key) t
      join analytics_questions g on g.chatbot_id = ?1 and g.key = t.key and g.org_id = ?2
      where t.${measure} > 0 ${listed(measure)}
      order by t.${measure} desc, t.key limit ?5`,
    )
    .bind(ref.chatbotId, ref.orgId, range.from, range.to, KEYS_READ)
    .all<KeyedCount>();
  return results;
}

/**
 * The same list for a long range without reading all its rows (a threshold algorithm): keys come in
 * order of their all-time totals, and their counts in the range are read key by key (index
 * analytics_question_days_key_idx). A key's count in any range is at most its total, so once the
 * next key's total is no more than the KEYS_READ-th best count so far, no later key can enter the
 * list: the result is exact. Null when that takes more than MAX_ROUNDS rounds (a long tail of
 * rare questions): the caller then scans.
 */
async function byTotals(client: D1Database, ref: Ref, range: Range, measure: Measure): Promise<KeyedCount[] | null> {
  const best: KeyedCount[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { results: candidates } = await client
      .prepare(
        `select g.key, g.text, g.${measure} as total from analytics_questions g
        where g.chatbot_id = ?1 and g.org_id = ?2 and g.${measure} > 0 ${listed(measure)}
        order by g.${measure} desc, g.key limit ?3 offset ?4`,
      )
      .bind(ref.chatbotId, ref.orgId, CANDIDATES, round * CANDIDATES)
      .all<{ key: string; text: string; total: number }>();
    if (candidates.length) {
      const { results: counts } = await client
        .prepare(
          `select key, sum(asked) as asked, sum(unanswered) as unanswered
          from analytics_question_days indexed by analytics_question_days_key_idx
          where chatbot_id = ?1 and key in (select value from json_each(?2)) and day between ?3 and ?4
          group by key`,
        )
        .bind(ref.chatbotId, JSON.stringify(candidates.map((c) => c.key)), range.from, range.to)
        .all<{ key: string; asked: number; unanswered: number }>();
      const text = new Map(candidates.map((c) => [c.key, c.text]));
      for (const c of counts) if (c[measure] > 0) best.push({ key: c.key, text: text.get(c.key) ?? c.key, asked: c.asked, unanswered: c.unanswered });
      best.sort((a, b) => b[measure] - a[measure] || a.key.localeCompare(b.key));
      best.length = Math.min(best.length, KEYS_READ);
    }
    const kth = best.length === KEYS_READ ? best[KEYS_READ - 1][measure] : 0;
    if (candidates.length < CANDIDATES || candidates[candidates.length - 1].total <= kth) return best;
  }
  return null;
}

export const answeredBySchema = z
  .object({ keys: z.array(keySchema).max(1_000), userId: z.string().min(1).max(100), sourceId: z.string().min(1).max(100) })
  .strict();
export type AnsweredBy = z.infer<typeof answeredBySchema>;

/** Marks question groups answered (by a new Q&A source); a later unanswered ask opens them again. How many were marked. */
export async function markAnswered(client: D1Database, ref: Ref, raw: AnsweredBy): Promise<number> {
  const by = answeredBySchema.parse(raw);
  if (!by.keys.length) return 0;
  const r = await client
    .prepare(
      `update analytics_questions set answered_at = ?3, answered_by = ?4, answer_source_id = ?5
      where chatbot_id = ?1 and org_id = ?2 and key in (select value from json_each(?6))`,
    )
    .bind(ref.chatbotId, ref.orgId, Date.now(), by.userId, by.sourceId, JSON.stringify(by.keys))
    .run();
  return r.meta.changes ?? 0;
}

// ——— Moving D1's rows into a shard (analytics/question-groups.ts's sweep) ———

const count = z.number().int().min(0);
const groupRowSchema = z
  .object({
    key: keySchema,
    text: z.string().max(QUESTION_TEXT_MAX * 2),
    asked: count,
    unanswered: count,
    lastAskedAt: z.number().int(),
    lastUnansweredAt: z.number().int().nullable(),
    answeredAt: z.number().int().nullable(),
    answeredBy: z.string().max(100).nullable(),
    answerSourceId: z.string().max(100).nullable(),
  })
  .strict();
/**
 * A page of one chatbot's question rows moved from D1: its groups with all their days. `batch`
 * names the page (a digest of its rows): a page added once is not added again when the sweep failed
 * to delete it from D1 and reads it a second time.
 */
export const questionBatchSchema = z
  .object({
    batch: z.string().min(16).max(100),
    groups: z.array(groupRowSchema).max(500),
    days: z.array(z.object({ day: daySchema, key: keySchema, asked: count, unanswered: count }).strict()).max(20_000),
  })
  .strict();
export type QuestionBatch = z.infer<typeof questionBatchSchema>;

/**
 * Adds a page of D1's question rows to this storage's (a shard's: `analytics_question_moves` is
 * there only): counts are summed with the groups and days already here; the text is the most
 * recently asked one's; a group counts as answered when its latest "add an answer" (on either side)
 * is after its latest unanswered ask. One transaction, once per `batch`: the page's marker goes in
 * with this call's nonce, and the rows only where the marker holds that nonce. Whether it was added
 * (false when the batch had been added before).
 */
export async function addQuestionBatch(client: D1Database, ref: Ref, raw: QuestionBatch): Promise<boolean> {
  const page = questionBatchSchema.parse(raw);
  const nonce = crypto.randomUUID();
  const answered = "max(coalesce(answered_at, 0), coalesce(excluded.answered_at, 0))";
  const missed = "max(coalesce(last_unanswered_at, 0), coalesce(excluded.last_unanswered_at, 0))";
  const newer = "coalesce(excluded.answered_at, 0) > coalesce(answered_at, 0)";
  const field = (name: string) => `json_extract(value, '$.${name}')`;
  const ours = (batch: string, nonce: string) => `EXISTS (SELECT 1 FROM analytics_question_moves WHERE batch = ${batch} AND nonce = ${nonce})`;
  const [marker] = await client.batch([
    client.prepare("INSERT OR IGNORE INTO analytics_question_moves (batch, nonce, at) VALUES (?1, ?2, ?3)").bind(page.batch, nonce, Date.now()),
    client
      .prepare(
        `INSERT INTO analytics_questions (chatbot_id, key, org_id, text, asked, unanswered, last_asked_at, last_unanswered_at, answered_at, answered_by, answer_source_id)
        SELECT ?1, ${field("key")}, ?2, ${field("text")}, ${field("asked")}, ${field("unanswered")}, ${field("lastAskedAt")}, ${field("lastUnansweredAt")},
          ${field("answeredAt")}, ${field("answeredBy")}, ${field("answerSourceId")}
        FROM json_each(?3) WHERE ${ours("?4", "?5")}
        ON CONFLICT (chatbot_id, key) DO UPDATE SET asked = asked + excluded.asked, unanswered = unanswered + excluded.unanswered,
          text = CASE WHEN excluded.last_asked_at > last_asked_at THEN excluded.text ELSE text END,
          last_asked_at = max(last_asked_at, excluded.last_asked_at),
          last_unanswered_at = nullif(${missed}, 0),
          answered_at = CASE WHEN ${answered} = 0 OR ${missed} > ${answered} THEN NULL ELSE ${answered} END,
          answered_by = CASE WHEN ${newer} THEN excluded.answered_by ELSE answered_by END,
          answer_source_id = CASE WHEN ${newer} THEN excluded.answer_source_id ELSE answer_source_id END`,
      )
      .bind(ref.chatbotId, ref.orgId, JSON.stringify(page.groups), page.batch, nonce),
    client
      .prepare(
        `INSERT INTO analytics_question_days (chatbot_id, day, key, asked, unanswered)
        SELECT ?1, ${field("day")}, ${field("key")}, ${field("asked")}, ${field("unanswered")} FROM json_each(?2) WHERE ${ours("?3", "?4")}
        ON CONFLICT (chatbot_id, day, key) DO UPDATE SET asked = asked + excluded.asked, unanswered = unanswered + excluded.unanswered`,
      )
      .bind(ref.chatbotId, JSON.stringify(page.days), page.batch, nonce),
  ]);
  return (marker.meta.changes ?? 0) > 0;
}
