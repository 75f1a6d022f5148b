import type { ServiceContext } from "../context";
import { analyticsStoresOf } from "./stores";
import { conversationIndex, d1ConversationIndex, type ConversationStoreKind, type VisitorCounts, type VisitorDay } from "../chat/conversation-index";

// The analytics screen's visitors (ADR 076): one row per visitor and day they wrote, kept where the
// chatbot's conversation index is. A chatbot whose index is in its shard keeps them there (the
// index's once-only mark of a visitor's message writes them); one whose index is in D1 (not moved
// yet) keeps them in D1's `analytics_visitors`. Rows a shard chatbot still has in D1 — written before
// this change, or by a request that read 'moving' just before its index switched — are counted with
// the shard's until the cron's sweep below has moved them.

type Ctx = Pick<ServiceContext, "db" | "env">;
type Ref = { orgId: string; chatbotId: string };
type Range = { from: string; to: string };

/**
 * D1 rows merged exactly into one range's figures of a shard chatbot. Past this (the sweep has not
 * caught up) D1's and the shard's counts are added instead, so a visitor in both counts twice.
 */
export const STRAYS_MERGED = 1_000;
/** The cron's share per run: chatbots, then pages of rows moved for each. */
export const STRAY_VISITOR_CHATBOTS_PER_SWEEP = 10;
export const STRAY_VISITOR_ROWS_PER_PAGE = 1_000;
export const STRAY_VISITOR_PAGES_PER_CHATBOT = 5;

/**
 * Visitors of the range, per day and distinct over it, from wherever the chatbot keeps them.
 * `chatbot` is its row's stores when the caller holds them (else one look-up).
 */
export async function visitorCounts(
  ctx: Ctx,
  ref: Ref,
  range: Range,
  chatbot?: { conversationStore: ConversationStoreKind; visitorsInD1: boolean },
): Promise<VisitorCounts> {
  const days = { from: range.from, to: range.to };
  const row = chatbot ?? (await analyticsStoresOf(ctx, ref));
  // D1's rows name only the chatbot: a ref whose organisation does not hold it gets nothing.
  if (!row) return { days: [], unique: 0 };
  const index = await conversationIndex(ctx, ref, row.conversationStore);
  if (index.kind !== "shard" || !row.visitorsInD1) return index.visitorCounts(days);
  const strays = await d1Visitors(ctx, ref, { range: days, limit: STRAYS_MERGED + 1 });
  if (strays.length <= STRAYS_MERGED) return index.visitorCounts(days, strays);
  const [inD1, inShard] = await Promise.all([d1ConversationIndex(ctx, ref).visitorCounts(days), index.visitorCounts(days)]);
  const byDay = new Map(inD1.days.map((d) => [d.day, d.n]));
  for (const d of inShard.days) byDay.set(d.day, (byDay.get(d.day) ?? 0) + d.n);
  return { days: [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, n]) => ({ day, n })), unique: inD1.unique + inShard.unique };
}

/** A chatbot's visitor rows in D1 (of a range of days, or the first `limit`), in key order. */
async function d1Visitors(ctx: Ctx, ref: Ref, opts: { range?: Range; limit: number }): Promise<VisitorDay[]> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT day, visitor_id FROM analytics_visitors WHERE chatbot_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day, visitor_id LIMIT ?4`,
  )
    .bind(ref.chatbotId, opts.range?.from ?? "0000-00-00", opts.range?.to ?? "9999-99-99", opts.limit)
    .all<{ day: string; visitor_id: string }>();
  return results.map((r) => ({ day: r.day, visitorId: r.visitor_id }));
}

/**
 * Moves the visitor rows that chatbots flagged `visitors_in_d1` (their index in the shard) still have
 * in D1 into their shard, a few pages per chatbot per run, each added there first (a row already there stays
 * once), then deleted from D1. The flag is cleared once D1 has none of the chatbot's rows left and
 * its index move is past its cleanup (until then a request that read 'moving' may still write one).
 * Returns the chatbots it looked at.
 */
export async function sweepStrayVisitors(ctx: Ctx, opts: { chatbots?: number; rows?: number; pages?: number } = {}): Promise<string[]> {
  if (!ctx.env.CONVERSATION_SHARD) return [];
  const { results } = await ctx.env.DB.prepare("SELECT id, org_id FROM chatbots WHERE visitors_in_d1 = 1 AND conversation_store = 'shard' ORDER BY id LIMIT ?")
    .bind(opts.chatbots ?? STRAY_VISITOR_CHATBOTS_PER_SWEEP)
    .all<{ id: string; org_id: string }>();
  for (const b of results) {
    const ref = { orgId: b.org_id, chatbotId: b.id };
    const page = opts.rows ?? STRAY_VISITOR_ROWS_PER_PAGE;
    const shard = await conversationIndex(ctx, ref, "shard");
    for (let n = 0; n < (opts.pages ?? STRAY_VISITOR_PAGES_PER_CHATBOT); n++) {
      const rows = await d1Visitors(ctx, ref, { limit: page });
      if (!rows.length) break;
      await shard.addVisitors(rows);
      await ctx.env.DB.prepare(
        `DELETE FROM analytics_visitors WHERE chatbot_id = ?1
         AND (day, visitor_id) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?2))`,
      )
        .bind(b.id, JSON.stringify(rows.map((r) => [r.day, r.visitorId])))
        .run();
      if (rows.length < page) break;
    }
    await ctx.env.DB.prepare(
      `UPDATE chatbots SET visitors_in_d1 = 0 WHERE id = ?1
       AND NOT EXISTS (SELECT 1 FROM analytics_visitors WHERE chatbot_id = ?1)
       AND NOT EXISTS (SELECT 1 FROM conversation_moves WHERE chatbot_id = ?1 AND phase = 'cleanup')`,
    )
      .bind(b.id)
      .run();
  }
  return results.map((b) => b.id);
}
