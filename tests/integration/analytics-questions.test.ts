import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loadQuestions, markQuestionsAnswered, sweepStrayQuestions } from "~/.server/analytics/question-groups";
import { questionKey } from "~/.server/analytics/questions";
import { conversationIndex } from "~/.server/chat/conversation-index";
import { createServiceContext } from "~/.server/context";
import { chatbots } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { dayIn } from "~/lib/time-zone";
import { db } from "../factories";
import { chatbotWithIndexIn, visitorAsks } from "./store-chatbot";

// The analytics screen's question groups (ADR 077): a chatbot whose conversation index is in its
// shard counts them there, next to the conversation, and D1 gets none of those rows; rows such a
// chatbot still has in D1 (written before, or while its index was moving) are listed with the
// shard's and answered in both until the cron's sweep has moved them; a chatbot whose index is in D1
// keeps them in D1.

const ctx = createServiceContext(env as unknown as Env);
const today = dayIn("UTC", Date.now());
const range = { from: today, to: today, preset: null };

type Ref = { orgId: string; chatbotId: string };
const d1Count = async (table: string, chatbotId: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE chatbot_id = ?`).bind(chatbotId).first<{ n: number }>())!.n;
const shardRows = (chatbotId: string) =>
  runInDurableObject(env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(chatbotId)), async (_o, state: DurableObjectState) => ({
    groups: state.storage.sql
      .exec<{ key: string; asked: number; unanswered: number; answered: number }>(
        "SELECT key, asked, unanswered, answered_at IS NOT NULL AS answered FROM analytics_questions ORDER BY key",
      )
      .toArray(),
    days: state.storage.sql
      .exec<{ day: string; key: string; asked: number }>("SELECT day, key, asked FROM analytics_question_days ORDER BY day, key")
      .toArray(),
  }));
/** The lists as the analytics page shows them: text and counts per group. */
const lists = async (ref: Ref) => {
  const l = await loadQuestions(ctx, ref, range);
  const shown = (g: { text: string; asked: number; unanswered: number }) => ({ text: g.text, asked: g.asked, unanswered: g.unanswered });
  return { top: l.top.map(shown), unanswered: l.unanswered.map(shown) };
};
const flagOf = async (chatbotId: string) => (await db.select({ f: chatbots.questionsInD1 }).from(chatbots).where(eq(chatbots.id, chatbotId)).get())!.f;

/** Question rows written to D1 as a chatbot wrote them before ADR 077. */
async function d1Question(ref: Ref, text: string, days: Record<string, { asked: number; unanswered: number }>, answeredAt: number | null = null) {
  const key = questionKey(text);
  const asked = Object.values(days).reduce((n, d) => n + d.asked, 0);
  const unanswered = Object.values(days).reduce((n, d) => n + d.unanswered, 0);
  const at = Date.now() - 3_600_000;
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO analytics_questions (chatbot_id, key, org_id, text, asked, unanswered, last_asked_at, last_unanswered_at, answered_at, answered_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).bind(ref.chatbotId, key, ref.orgId, text, asked, unanswered, at, unanswered ? at - 1000 : null, answeredAt, answeredAt ? "u_someone" : null),
    ...Object.entries(days).map(([day, d]) =>
      env.DB.prepare("INSERT INTO analytics_question_days (chatbot_id, day, key, asked, unanswered) VALUES (?, ?, ?, ?, ?)").bind(
        ref.chatbotId,
        day,
        key,
        d.asked,
        d.unanswered,
      ),
    ),
  ]);
  return key;
}

describe("question groups", () => {
  it("a chatbot whose index is in its shard counts its questions there; D1 gets none; 'add an answer' marks them there", async () => {
    const { target, ref, owner } = await chatbotWithIndexIn("Questions shard", "shard");
    await visitorAsks(target, "v_q_a1", "Do you deliver to Norway?");
    await visitorAsks(target, "v_q_a1", "Hello");
    await visitorAsks(target, "v_q_b1", "do you deliver to norway");
    await visitorAsks(target, "v_q_b1", "Can I pay with a gift card?");

    // Small talk is not a question; the bot knows nothing, so each question went unanswered.
    const norway = questionKey("Do you deliver to Norway?");
    const rows = await shardRows(ref.chatbotId);
    expect(rows.groups).toEqual([
      { key: questionKey("Can I pay with a gift card?"), asked: 1, unanswered: 1, answered: 0 },
      { key: norway, asked: 2, unanswered: 2, answered: 0 },
    ]);
    expect(rows.days.map((d) => d.day)).toEqual([today, today]);
    expect(await d1Count("analytics_questions", ref.chatbotId)).toBe(0);
    expect(await d1Count("analytics_question_days", ref.chatbotId)).toBe(0);
    const before = await lists(ref);
    expect(before.top).toEqual([
      { text: "do you deliver to norway", asked: 2, unanswered: 2 },
      { text: "Can I pay with a gift card?", asked: 1, unanswered: 1 },
    ]);
    expect(before.unanswered).toEqual(before.top);

    // "Add an answer" marks the group in the shard: it leaves the unanswered list, stays among the most asked.
    await markQuestionsAnswered(ctx, ref, [norway], { userId: owner.id, sourceId: "ks_answer" });
    const after = await lists(ref);
    expect(after.top).toEqual(before.top);
    expect(after.unanswered).toEqual([{ text: "Can I pay with a gift card?", asked: 1, unanswered: 1 }]);
    // Unanswered again afterwards: the group opens again.
    await visitorAsks(target, "v_q_c1", "Do you deliver to Norway??");
    expect((await lists(ref)).unanswered[0]).toEqual({ text: "Do you deliver to Norway??", asked: 3, unanswered: 3 });

    // Another organisation's ref to this chatbot, and this chatbot's shard asked for another chatbot: nothing.
    const stranger = await chatbotWithIndexIn("Questions stranger", "shard");
    const foreign = { orgId: stranger.ref.orgId, chatbotId: ref.chatbotId };
    expect(await lists(foreign)).toEqual({ top: [], unanswered: [] });
    await markQuestionsAnswered(ctx, foreign, [norway], { userId: stranger.owner.id, sourceId: "ks_x" });
    expect((await shardRows(ref.chatbotId)).groups.find((g) => g.key === norway)?.answered).toBe(0);
    const shard = env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(ref.chatbotId)) as unknown as {
      indexTopQuestions(r: Ref, q: { from: string; to: string; measure: "asked"; long: boolean }): Promise<unknown>;
    };
    expect(await shard.indexTopQuestions(stranger.ref, { from: today, to: today, measure: "asked", long: false })).toEqual([]);
  });

  it("rows still in D1 are listed and answered with the shard's until the sweep moves them (summed, once) and clears the flag", async () => {
    const { target, ref, owner } = await chatbotWithIndexIn("Questions strays", "shard");
    await visitorAsks(target, "v_qs_a1", "What are your opening hours?");
    const yesterday = dayIn("UTC", Date.now() - 86_400_000);
    // Before the chatbot's index was in its shard: the same question yesterday and today, another one
    // answered with "add an answer", and a day row without its group (never written so).
    const hours = await d1Question(ref, "opening hours?", { [yesterday]: { asked: 2, unanswered: 2 }, [today]: { asked: 1, unanswered: 1 } });
    const parking = await d1Question(ref, "Is there parking?", { [today]: { asked: 4, unanswered: 2 } }, Date.now() - 1000);
    await env.DB.prepare("INSERT INTO analytics_question_days (chatbot_id, day, key, asked, unanswered) VALUES (?, ?, 'orphan key', 1, 0)")
      .bind(ref.chatbotId, today)
      .run();
    await db.update(chatbots).set({ questionsInD1: true }).where(eq(chatbots.id, ref.chatbotId));

    const want = {
      top: [
        { text: "Is there parking?", asked: 4, unanswered: 2 },
        { text: "What are your opening hours?", asked: 2, unanswered: 2 },
      ],
      unanswered: [{ text: "What are your opening hours?", asked: 2, unanswered: 2 }],
    };
    expect(await lists(ref)).toEqual(want);
    // Without the flag the lists do not look in D1.
    const unflagged = await loadQuestions(ctx, ref, range, { conversationStore: "shard", questionsInD1: false });
    expect(unflagged.top.map((g) => g.asked)).toEqual([1]);

    // While the chatbot's index move is in its cleanup, the sweep leaves it (a late D1 write may still come).
    const now = Date.now();
    await env.DB.prepare("INSERT INTO conversation_moves (chatbot_id, org_id, phase, started_at, updated_at) VALUES (?, ?, 'cleanup', ?, ?)")
      .bind(ref.chatbotId, ref.orgId, now, now)
      .run();
    expect(await sweepStrayQuestions(ctx)).not.toContain(ref.chatbotId);
    expect(await d1Count("analytics_questions", ref.chatbotId)).toBe(2);
    await env.DB.prepare("UPDATE conversation_moves SET phase = 'done' WHERE chatbot_id = ?").bind(ref.chatbotId).run();

    // A page of one group: it moves with all its days, the rest stays; the flag stays while D1 has any.
    await sweepStrayQuestions(ctx, { groups: 1, pages: 1 });
    expect(await d1Count("analytics_questions", ref.chatbotId)).toBe(1);
    expect(await flagOf(ref.chatbotId)).toBe(true);
    expect(await lists(ref)).toEqual(want);
    // "Add an answer" while rows are in both stores marks the group in both.
    await markQuestionsAnswered(ctx, ref, [hours], { userId: owner.id, sourceId: "ks_hours" });
    expect((await lists(ref)).unanswered).toEqual([]);

    expect(await sweepStrayQuestions(ctx)).toContain(ref.chatbotId);
    expect(await d1Count("analytics_questions", ref.chatbotId)).toBe(0);
    expect(await d1Count("analytics_question_days", ref.chatbotId)).toBe(0);
    expect(await flagOf(ref.chatbotId)).toBe(false);
    expect(await sweepStrayQuestions(ctx)).not.toContain(ref.chatbotId);
    const rows = await shardRows(ref.chatbotId);
    expect(rows.groups).toEqual(
      [
        { key: parking, asked: 4, unanswered: 2, answered: 1 },
        { key: hours, asked: 4, unanswered: 4, answered: 1 },
      ].sort((a, b) => (a.key < b.key ? -1 : 1)),
    );
    expect(rows.days).toEqual(
      [
        { day: yesterday, key: hours, asked: 2 },
        { day: today, key: hours, asked: 2 },
        { day: today, key: parking, asked: 4 },
      ].sort((a, b) => (a.day + a.key < b.day + b.key ? -1 : 1)),
    );
    // The same figures as before, now from the shard alone; the answered group stays out of the unanswered list.
    expect(await lists(ref)).toEqual({ top: want.top, unanswered: [] });
    const twoDays = await loadQuestions(ctx, ref, { from: yesterday, to: today, preset: null });
    // Tied at 4: by key ("open hour" before "park").
    expect(twoDays.top.map((g) => [g.text, g.asked])).toEqual([
      ["What are your opening hours?", 4],
      ["Is there parking?", 4],
    ]);
  });

  it("a page the shard has added once is not added again (the sweep's delete failed and it reads the page a second time)", async () => {
    const { ref } = await chatbotWithIndexIn("Questions once", "shard");
    const index = await conversationIndex(ctx, ref, "shard");
    const page = {
      batch: "a".repeat(64),
      groups: [
        {
          key: "refund",
          text: "Refund?",
          asked: 3,
          unanswered: 1,
          lastAskedAt: 1_000,
          lastUnansweredAt: 900,
          answeredAt: null,
          answeredBy: null,
          answerSourceId: null,
        },
      ],
      days: [{ day: today, key: "refund", asked: 3, unanswered: 1 }],
    };
    expect(await index.addQuestions(page)).toBe(true);
    expect(await index.addQuestions(page)).toBe(false);
    expect(await shardRows(ref.chatbotId)).toEqual({
      groups: [{ key: "refund", asked: 3, unanswered: 1, answered: 0 }],
      days: [{ day: today, key: "refund", asked: 3 }],
    });
    // A bad page is refused before the call.
    await expect(index.addQuestions({ ...page, batch: "short" })).rejects.toThrow();
  });

  it("a chatbot whose index is in D1 keeps its question groups in D1", async () => {
    const { target, ref } = await chatbotWithIndexIn("Questions d1", "d1");
    await visitorAsks(target, "v_qd_a1", "Do you have gluten-free bread?");
    expect(await d1Count("analytics_questions", ref.chatbotId)).toBe(1);
    expect(await d1Count("analytics_question_days", ref.chatbotId)).toBe(1);
    expect((await shardRows(ref.chatbotId)).groups).toEqual([]);
    expect((await lists(ref)).top).toEqual([{ text: "Do you have gluten-free bread?", asked: 1, unanswered: 1 }]);
  });
});
