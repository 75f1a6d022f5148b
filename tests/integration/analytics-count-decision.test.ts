import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  bindAll,
  exchangeStatements,
  feedbackStatements,
  handoffStatements,
  liveMessageStatements,
  questionOf,
  reportStatements,
  type ExchangeFacts,
  type CountDecision,
  type CountedConversation,
} from "~/.server/analytics/record";
import type { BoundSql } from "~/.server/db/client";
import { d1ConversationIndex, shardConversationIndex, type ConversationIndex, type CountMark } from "~/.server/chat/conversation-index";
import { createServiceContext } from "~/.server/context";
import type { Env } from "~/.server/env";
import { dayIn } from "~/lib/time-zone";
import { db, makeChatbot, makeOrg, makeUser } from "../factories";

// analytics/record.ts takes its conversation by value and, for a chatbot whose conversation index is
// in its shard, the once-only decisions from the index (ADR 048). The same events on two chatbots —
// one counted by D1 inside its batches from D1's conversation marks, one whose conversations exist
// only in its shard, counted with `countOnce`'s answers — must give the same daily figures. If a
// statement still read D1's `conversations`, the shard chatbot would lose its channel, country and
// visitor rows (those are the shard's own since ADR 076, written by the mark of a visitor's message;
// so are the question groups since ADR 077).

const ctx = createServiceContext(env as unknown as Env);
const TZ = "Europe/Oslo";
const DAY1 = Date.UTC(2026, 2, 2, 9);
const DAY2 = DAY1 + 86_400_000;
const DAY3 = DAY2 + 86_400_000;

type Side = {
  index: ConversationIndex;
  /** Runs an event's statements: D1 decides in the batch, or the index decided first. */
  run(conversationId: string, mark: CountMark, statements: (decided?: CountDecision) => Statements): Promise<void>;
};

/** The chat path's counters come as SQL text for D1's API (ADR 049), the other writers' as drizzle statements. */
type Statements = BoundSql[] | ReturnType<typeof reportStatements>;
async function runAll(statements: Statements) {
  if (!statements.length) return;
  if (Array.isArray((statements[0] as BoundSql).params)) await env.DB.batch(bindAll(env.DB, statements as BoundSql[]));
  else await db.batch(statements as [ReturnType<typeof reportStatements>[number]]);
}

async function rows(chatbotId: string) {
  const q = (sql: string) => env.DB.prepare(sql).bind(chatbotId).all();
  const strip = (r: Record<string, unknown>[]) => r.map(({ chatbot_id: _c, org_id: _o, ...rest }) => rest);
  return {
    daily: strip((await q("SELECT * FROM analytics_daily WHERE chatbot_id = ? ORDER BY day")).results),
    splits: strip((await q("SELECT * FROM analytics_splits WHERE chatbot_id = ? ORDER BY day, dim, key")).results),
  };
}

/** The same conversations and events on one chatbot. */
async function play(side: Side, ref: { orgId: string; chatbotId: string }) {
  const open = async (visitorId: string, channel: "widget" | "api", country: string | null, now: number): Promise<CountedConversation> => {
    const c = await side.index.create({ visitorId, channel, country, now });
    return { ...ref, id: c.id, visitorId, channel, country };
  };
  const exchange = (c: CountedConversation, at: number, text: string, answered: boolean) => {
    const facts: ExchangeFacts = { timeZone: TZ, askedAt: at, visitorText: text, bot: { answered, credits: 1, latencyMs: 900 }, unanswered: !answered };
    // As chat/conversations.ts marks it: the visitor, and the question when the message was one.
    return side.run(c.id, { day: dayIn(TZ, at), problem: !answered, visitor: true, question: questionOf(facts) ?? undefined }, (decided) =>
      exchangeStatements(c, facts, decided),
    );
  };
  const thumbsDown = (c: CountedConversation, at: number) =>
    side.run(c.id, { problem: true }, (decided) =>
      feedbackStatements(db, ref, { timeZone: TZ, conversationId: c.id, repliedAt: at, from: null, to: -1 }, decided),
    );

  const one = await open("v_1", "widget", "NO", DAY1);
  await exchange(one, DAY1 + 1000, "Do you ship to Norway?", true);
  await exchange(one, DAY1 + 2000, "Can I pay with gift cards?", false);
  // Already unresolved: a thumbs-down adds its thumb, not a second "unresolved".
  await thumbsDown(one, DAY1 + 2000);

  const two = await open("v_2", "api", null, DAY2);
  await side.run(two.id, { day: dayIn(TZ, DAY2), problem: false, visitor: true }, (decided) =>
    liveMessageStatements(two, { id: "m_live", role: "visitor", createdAt: DAY2 + 10, timeZone: TZ, fresh: true }, decided),
  );
  await side.run(two.id, { day: dayIn(TZ, DAY2 + 20), problem: true }, (decided) => handoffStatements(db, two, { timeZone: TZ, at: DAY2 + 20 }, decided));

  // A report before the conversation was ever counted: a report, nothing unresolved; counted later, then rated down.
  const three = await open("v_1", "widget", "SE", DAY3);
  await side.run(three.id, { problem: true }, (decided) => reportStatements(db, ref, { timeZone: TZ, at: DAY3, conversationId: three.id }, decided));
  await exchange(three, DAY3 + 1000, "Where is my order?", true);
  await thumbsDown(three, DAY3 + 1000);
}

describe("analytics counted by value, once-only decisions from the conversation index", () => {
  it("gives the same figures for a chatbot counted in D1 and one whose conversations are only in its shard", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Counts");
    const sharded = await makeChatbot(org.id, "Counts in the shard");
    const inD1 = { orgId: org.id, chatbotId: bot.id };
    const inShard = { orgId: org.id, chatbotId: sharded.id };

    await play(
      {
        index: d1ConversationIndex(ctx, inD1),
        run: async (_id, _mark, statements) => runAll(statements()),
      },
      inD1,
    );
    const shardIndex = shardConversationIndex(ctx.env, inShard);
    await play(
      {
        index: shardIndex,
        run: async (id, mark, statements) => {
          const decided = await shardIndex.countOnce(id, mark);
          if (!decided) throw new Error(`countOnce refused ${id}`);
          await runAll(statements(decided));
        },
      },
      inShard,
    );

    const expected = await rows(bot.id);
    expect(await rows(sharded.id)).toEqual(expected);
    // The visitors by day: in D1's rows for the one, in the shard for the other (ADR 076), the same.
    const march = { from: "2026-03-01", to: "2026-03-31" };
    const visitors = await d1ConversationIndex(ctx, inD1).visitorCounts(march);
    expect(visitors).toEqual({
      days: [
        { day: "2026-03-02", n: 1 },
        { day: "2026-03-03", n: 1 },
        { day: "2026-03-04", n: 1 },
      ],
      unique: 2,
    });
    expect(await shardIndex.visitorCounts(march)).toEqual(visitors);
    // The question groups: D1's for the one, the shard's for the other (ADR 077), the same lists.
    for (const measure of ["asked", "unanswered"] as const) {
      const query = { ...march, measure, long: false };
      const listed = await d1ConversationIndex(ctx, inD1).topQuestions(query);
      expect(listed.length).toBe(measure === "asked" ? 3 : 1);
      expect(await shardIndex.topQuestions(query)).toEqual(listed);
      expect(await shardIndex.topQuestions({ ...query, long: true })).toEqual(listed);
    }
    // The figures themselves: three conversations, each unresolved once; the report before the count added none.
    const total = (k: string) => expected.daily.reduce((n, d) => n + Number(d[k]), 0);
    expect([total("conversations"), total("unresolved"), total("handoffs"), total("reports"), total("thumbs_down")]).toEqual([3, 3, 1, 1, 2]);
    expect(expected.splits.filter((s) => s.dim === "country").map((s) => s.key)).toEqual(["NO", "", "SE"]);

    // The shard chatbot left nothing about its conversations in D1; its marks are in the shard.
    const inD1Count = async (table: string, chatbotId: string) =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE chatbot_id = ?`).bind(chatbotId).first<{ n: number }>())!.n;
    expect(await inD1Count("conversations", sharded.id)).toBe(0);
    expect(await inD1Count("analytics_conversations", sharded.id)).toBe(0);
    expect(await inD1Count("analytics_conversations", bot.id)).toBe(3);
    expect(await inD1Count("analytics_visitors", sharded.id)).toBe(0);
    expect(await inD1Count("analytics_visitors", bot.id)).toBe(3);
    expect(await inD1Count("analytics_questions", sharded.id)).toBe(0);
    expect(await inD1Count("analytics_question_days", sharded.id)).toBe(0);
    expect(await inD1Count("analytics_questions", bot.id)).toBe(3);
  });

  it("answers the once-only marks the same in D1 and in the shard, and nothing for another chatbot's conversation", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Marks");
    const other = await makeChatbot(org.id, "Other");
    const ref = { orgId: org.id, chatbotId: bot.id };
    for (const index of [d1ConversationIndex(ctx, ref), shardConversationIndex(ctx.env, ref)]) {
      const c = await index.create({ visitorId: "v_marks", channel: "widget", now: DAY1 });
      // A problem before the count marks nothing; the count; the problem once.
      expect(await index.countOnce(c.id, { problem: true })).toEqual({ counted: false, unresolvedDay: null });
      expect(await index.countOnce(c.id, { day: "2026-03-02", problem: false })).toEqual({ counted: true, unresolvedDay: null });
      expect(await index.countOnce(c.id, { day: "2026-03-04", problem: true })).toEqual({ counted: false, unresolvedDay: "2026-03-02" });
      expect(await index.countOnce(c.id, { day: "2026-03-05", problem: true })).toEqual({ counted: false, unresolvedDay: null });
      expect(await index.countOnce("cv_nobody", { day: "2026-03-02", problem: true })).toBeNull();
      // Another chatbot's index does not see it (D1: scoped by chatbot; shard: another object).
      const theirs =
        index.kind === "d1"
          ? d1ConversationIndex(ctx, { orgId: org.id, chatbotId: other.id })
          : shardConversationIndex(ctx.env, { orgId: org.id, chatbotId: other.id });
      expect(await theirs.countOnce(c.id, { day: "2026-03-02", problem: true })).toBeNull();
    }
    await expect(shardConversationIndex(ctx.env, ref).countOnce("cv_x", { problem: false })).rejects.toThrow();
  });
});
