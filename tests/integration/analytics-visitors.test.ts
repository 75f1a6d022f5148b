import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { loadReport } from "~/.server/analytics/report";
import { STRAYS_MERGED, sweepStrayVisitors } from "~/.server/analytics/visitors";
import { conversationIndex } from "~/.server/chat/conversation-index";
import { recordLiveMessage } from "~/.server/chat/conversations";
import { createServiceContext } from "~/.server/context";
import { chatbots } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { dayIn } from "~/lib/time-zone";
import { db } from "../factories";
import { chatbotWithIndexIn, visitorAsks } from "./store-chatbot";

// The analytics screen's visitors by day (ADR 076): a chatbot whose conversation index is in its shard
// counts them there, next to the conversation, and D1 gets none of those rows; rows such a chatbot
// still has in D1 (written before, or while its index was moving) are counted with the shard's, a
// visitor in both once, until the cron's sweep has moved them; a chatbot whose index is in D1 keeps them in D1.

const ctx = createServiceContext(env as unknown as Env);
const today = dayIn("UTC", Date.now());

type Ref = { orgId: string; chatbotId: string };
const d1Rows = async (chatbotId: string) =>
  (
    await env.DB.prepare("SELECT day, visitor_id FROM analytics_visitors WHERE chatbot_id = ? ORDER BY day, visitor_id")
      .bind(chatbotId)
      .all<{ day: string; visitor_id: string }>()
  ).results;
const shardRows = (chatbotId: string) =>
  runInDurableObject(env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(chatbotId)), async (_o, state: DurableObjectState) =>
    state.storage.sql.exec<{ day: string; visitor_id: string }>("SELECT day, visitor_id FROM analytics_visitors ORDER BY day, visitor_id").toArray(),
  );
const visitors = async (ref: Ref, from: string, to: string) => {
  const r = await loadReport(ctx, ref, { from, to, preset: null });
  return { unique: r.totals.visitors, byDay: Object.fromEntries(r.days.filter((d) => d.visitors).map((d) => [d.day, d.visitors])) };
};
const flagOf = async (chatbotId: string) => (await db.select({ f: chatbots.visitorsInD1 }).from(chatbots).where(eq(chatbots.id, chatbotId)).get())!.f;

describe("visitors by day", () => {
  it("a chatbot whose index is in its shard counts its visitors there, once a day each; D1 gets none of those rows", async () => {
    const { target, ref } = await chatbotWithIndexIn("Visitors shard", "shard");
    const first = await visitorAsks(target, "v_visitors_a1", "Hello there");
    await visitorAsks(target, "v_visitors_a1", "Are you open today?");
    await visitorAsks(target, "v_visitors_b1", "Hi");
    // A live message of a third visitor (the Durable Object's mirror) counts them too; a person's does not.
    const index = await conversationIndex(ctx, ref);
    const live = await index.open({ visitorId: "v_visitors_c1", channel: "widget", country: null });
    await recordLiveMessage(ctx, { ...ref, id: live.id }, { id: newId("msg_"), role: "visitor", content: "Anyone?", createdAt: Date.now() });
    await recordLiveMessage(ctx, { ...ref, id: first }, { id: newId("msg_"), role: "human", content: "Yes, hello", createdAt: Date.now() });

    expect(await shardRows(ref.chatbotId)).toEqual([
      { day: today, visitor_id: "v_visitors_a1" },
      { day: today, visitor_id: "v_visitors_b1" },
      { day: today, visitor_id: "v_visitors_c1" },
    ]);
    expect(await d1Rows(ref.chatbotId)).toEqual([]);
    expect(await visitors(ref, today, today)).toEqual({ unique: 3, byDay: { [today]: 3 } });
    // Another organisation's ref to this chatbot, and this chatbot's shard asked for another chatbot: nothing.
    const stranger = await chatbotWithIndexIn("Visitors stranger", "shard");
    expect(await visitors({ orgId: stranger.ref.orgId, chatbotId: ref.chatbotId }, today, today)).toEqual({ unique: 0, byDay: {} });
    const shard = env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(ref.chatbotId)) as unknown as {
      indexVisitorCounts(r: Ref, range: { from: string; to: string }): Promise<unknown>;
    };
    expect(await shard.indexVisitorCounts(stranger.ref, { from: today, to: today })).toEqual({ days: [], unique: 0 });
  });

  it("rows still in D1 count with the shard's (a visitor in both once) until the sweep moves them and clears the flag", async () => {
    const { target, ref } = await chatbotWithIndexIn("Visitors strays", "shard");
    await visitorAsks(target, "v_strays_a1", "Hello");
    // Written to D1 before the chatbot's index was in its shard: yesterday's visitors, and one of today's again.
    const yesterday = dayIn("UTC", Date.now() - 86_400_000);
    await env.DB.batch(
      [
        [yesterday, "v_strays_a1"],
        [yesterday, "v_strays_z1"],
        [today, "v_strays_a1"],
        [today, "v_strays_y1"],
      ].map(([day, v]) => env.DB.prepare("INSERT INTO analytics_visitors (chatbot_id, day, visitor_id) VALUES (?, ?, ?)").bind(ref.chatbotId, day, v)),
    );
    await db.update(chatbots).set({ visitorsInD1: true }).where(eq(chatbots.id, ref.chatbotId));
    const want = { unique: 3, byDay: { [yesterday]: 2, [today]: 2 } };
    expect(await visitors(ref, yesterday, today)).toEqual(want);
    // Without the flag the report does not look in D1 (the flag is what makes it read there).
    const unflagged = await loadReport(ctx, ref, { from: yesterday, to: today, preset: null }, { conversationStore: "shard", visitorsInD1: false });
    expect(unflagged.totals.visitors).toBe(1);

    // A sweep page of two rows: moved in key order, the rest stays; the flag stays while D1 has any.
    await sweepStrayVisitors(ctx, { rows: 2, pages: 1 });
    expect((await d1Rows(ref.chatbotId)).length).toBe(2);
    expect(await flagOf(ref.chatbotId)).toBe(true);
    expect(await visitors(ref, yesterday, today)).toEqual(want);
    // While the chatbot's index move is in its cleanup a late D1 write may still come: the flag stays.
    const now = Date.now();
    await env.DB.prepare("INSERT INTO conversation_moves (chatbot_id, org_id, phase, started_at, updated_at) VALUES (?, ?, 'cleanup', ?, ?)")
      .bind(ref.chatbotId, ref.orgId, now, now)
      .run();
    await sweepStrayVisitors(ctx);
    expect(await d1Rows(ref.chatbotId)).toEqual([]);
    expect(await flagOf(ref.chatbotId)).toBe(true);
    await env.DB.prepare("UPDATE conversation_moves SET phase = 'done' WHERE chatbot_id = ?").bind(ref.chatbotId).run();
    expect(await sweepStrayVisitors(ctx)).toContain(ref.chatbotId);
    expect(await flagOf(ref.chatbotId)).toBe(false);
    expect(await sweepStrayVisitors(ctx)).not.toContain(ref.chatbotId);
    expect(await shardRows(ref.chatbotId)).toEqual([
      { day: yesterday, visitor_id: "v_strays_a1" },
      { day: yesterday, visitor_id: "v_strays_z1" },
      { day: today, visitor_id: "v_strays_a1" },
      { day: today, visitor_id: "v_strays_y1" },
    ]);
    expect(await visitors(ref, yesterday, today)).toEqual(want);
    expect(await visitors(ref, today, today)).toEqual({ unique: 2, byDay: { [today]: 2 } });
  });

  it("past the rows it merges, D1's and the shard's counts are added (a visitor in both counts twice) until the sweep has moved them", async () => {
    const { target, ref } = await chatbotWithIndexIn("Visitors many strays", "shard");
    await visitorAsks(target, "v_many_0", "Hello");
    // STRAYS_MERGED + 1 visitors of today in D1, one of them the shard's own.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
       INSERT INTO analytics_visitors (chatbot_id, day, visitor_id) SELECT ?1, ?2, 'v_many_' || i FROM n`,
    )
      .bind(ref.chatbotId, today, STRAYS_MERGED)
      .run();
    await db.update(chatbots).set({ visitorsInD1: true }).where(eq(chatbots.id, ref.chatbotId));
    const added = STRAYS_MERGED + 2;
    expect(await visitors(ref, today, today)).toEqual({ unique: added, byDay: { [today]: added } });
    // Moved in pages: then exact again.
    await sweepStrayVisitors(ctx, { rows: 400 });
    expect(await d1Rows(ref.chatbotId)).toEqual([]);
    expect(await flagOf(ref.chatbotId)).toBe(false);
    expect(await visitors(ref, today, today)).toEqual({ unique: STRAYS_MERGED + 1, byDay: { [today]: STRAYS_MERGED + 1 } });
  });

  it("a chatbot whose index is in D1 keeps its visitors in D1", async () => {
    const { target, ref } = await chatbotWithIndexIn("Visitors d1", "d1");
    await visitorAsks(target, "v_d1vis_a1", "Hello");
    await visitorAsks(target, "v_d1vis_b1", "Hello");
    expect(await d1Rows(ref.chatbotId)).toEqual([
      { day: today, visitor_id: "v_d1vis_a1" },
      { day: today, visitor_id: "v_d1vis_b1" },
    ]);
    expect(await visitors(ref, today, today)).toEqual({ unique: 2, byDay: { [today]: 2 } });
  });
});
