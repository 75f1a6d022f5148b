import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../auth/crypto";
import { collectAnswer } from "../chat/answer";
import { getOrCreateConversation, recordExchange } from "../chat/conversations";
import { takeTurn } from "../chat/turn";
import { analyticsDaily, analyticsSplits, chatbots, knowledgeSources, organisations } from "../db/schema";
import type { Env } from "../env";
import { runIngestionUntilIdle } from "../kb/ingest";
import { createLead } from "../leads/leads";
import { createOrganisation } from "../orgs/organisations";
import { indexChunks } from "../retrieval/indexing";
import { captureLead, reportProblem, requestHuman, setMessageFeedback } from "../widget/visitor-actions";
import { leadFormSchema } from "~/lib/schemas/widget-settings";
import { makeUser, recordingContext, testContext, testConversationStore, testMessageStore } from "../../../tests/factories";
import { answerQuestionGroup } from "./add-answer";
import { answerTimeBucket, percentileFromHistogram } from "./answer-time";
import { loadQuestions } from "./question-groups";
import { loadReport } from "./report";

// The daily aggregate rows through the product's own write paths (a visitor turn, a lead, thumbs,
// a report, a handoff) and what the analytics page reads back from them.

async function setup(opts: { timeZone?: string; knowledge?: boolean } = {}) {
  const ctx = testContext();
  const user = await makeUser();
  let org = await createOrganisation(ctx, user.id, { name: "Numbers Co" });
  if (opts.timeZone) {
    await ctx.db.update(organisations).set({ timeZone: opts.timeZone }).where(eq(organisations.id, org.id));
    org = { ...org, timeZone: opts.timeZone };
  }
  const chatbot = await ctx.db
    .insert(chatbots)
    .values({ id: newId("cb_"), orgId: org.id, name: "Counter", messageStore: testMessageStore, conversationStore: testConversationStore })
    .returning()
    .get();
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  if (opts.knowledge !== false) {
    const sourceId = newId("ks_");
    await ctx.db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: chatbot.id, type: "text", title: "Shipping", status: "ready" });
    await indexChunks({ env: env as unknown as Env, db: ctx.db }, { ...ref, sourceId }, [
      {
        title: "Shipping",
        heading: null,
        url: null,
        text: "Express shipping costs 9 euros and arrives the next working day. Standard shipping is free over 50 euros.",
        position: 0,
      },
    ]);
  }
  const turn = async (visitorId: string, text: string, extra: { startedAt?: number; country?: string; conversationId?: string } = {}) => {
    const answer = await takeTurn(ctx, { target: { chatbot, org }, channel: "test", visitorId, text, ...extra });
    const reply = await collectAnswer(answer.stream);
    await answer.done;
    return { conversationId: answer.conversationId, messageId: answer.messageId, reply };
  };
  return { ctx, user, org, chatbot, ref, turn };
}

const daily = (ctx: ReturnType<typeof testContext>, chatbotId: string, day: string) =>
  ctx.db
    .select()
    .from(analyticsDaily)
    .where(and(eq(analyticsDaily.chatbotId, chatbotId), eq(analyticsDaily.day, day)))
    .get();
const splits = (ctx: ReturnType<typeof testContext>, chatbotId: string, dim: "channel" | "country" | "latency") =>
  ctx.db
    .select({ key: analyticsSplits.key, count: analyticsSplits.count })
    .from(analyticsSplits)
    .where(and(eq(analyticsSplits.chatbotId, chatbotId), eq(analyticsSplits.dim, dim)))
    .all();
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("daily aggregates kept up to date as messages arrive", () => {
  it("a visitor turn adds the conversation, both messages, the visitor, the channel, the country, an answer time and a question", async () => {
    const { ctx, chatbot, turn } = await setup();
    const at = Date.UTC(2026, 2, 10, 12);
    const first = await turn("v_one", "How much does express shipping cost?", { startedAt: at, country: "FR" });
    expect(first.reply.metadata?.answered).toBe(true);
    let row = await daily(ctx, chatbot.id, "2026-03-10");
    expect(row).toMatchObject({ conversations: 1, messages: 2, questions: 1, unanswered: 0, unresolved: 0 });
    expect(await splits(ctx, chatbot.id, "channel")).toEqual([{ key: "test", count: 1 }]);
    expect(await splits(ctx, chatbot.id, "country")).toEqual([{ key: "FR", count: 1 }]);
    expect((await splits(ctx, chatbot.id, "latency")).reduce((s, r) => s + r.count, 0)).toBe(1);

    // The same conversation goes on: messages grow, the conversation and the visitor are counted once.
    await turn("v_one", "Is standard shipping free over 50 euros?", { startedAt: at + 60_000, conversationId: first.conversationId });
    row = await daily(ctx, chatbot.id, "2026-03-10");
    expect(row).toMatchObject({ conversations: 1, messages: 4, questions: 2 });
    const report = await loadReport(ctx, { orgId: row!.orgId, chatbotId: chatbot.id }, { from: "2026-03-10", to: "2026-03-10", preset: null });
    expect(report.totals).toMatchObject({ conversations: 1, messages: 4, visitors: 1, resolved: 1, resolutionRate: 1, answerSamples: 2 });
    expect(report.countries).toEqual([{ key: "FR", count: 1 }]);
  });

  it("a question the knowledge does not answer is unanswered, makes its conversation unresolved once, and is listed", async () => {
    const { ctx, chatbot, ref, turn } = await setup();
    const at = Date.UTC(2026, 2, 11, 9);
    const asked = await turn("v_two", "What are your opening hours?", { startedAt: at });
    expect(asked.reply.metadata?.answered).toBe(false);
    await turn("v_two", "When are you open?", { startedAt: at + 1000, conversationId: asked.conversationId });
    const row = await daily(ctx, chatbot.id, "2026-03-11");
    expect(row).toMatchObject({ conversations: 1, questions: 2, unanswered: 2, unresolved: 1 });
    const range = { from: "2026-03-11", to: "2026-03-11", preset: null };
    expect((await loadReport(ctx, ref, range)).totals).toMatchObject({ resolved: 0, unresolved: 1, resolutionRate: 0 });
    const lists = await loadQuestions(ctx, ref, range);
    // "opening hours" and "when open" are one group (two keys); a shipping question is not in it.
    expect(lists.unanswered).toHaveLength(1);
    expect(lists.unanswered[0]).toMatchObject({ unanswered: 2, asked: 2 });
    expect(lists.unanswered[0].keys).toHaveLength(2);
  });

  it("small talk is neither a question nor unanswered", async () => {
    const { ctx, chatbot, turn } = await setup();
    await turn("v_hi", "hello", { startedAt: Date.UTC(2026, 2, 12, 9) });
    expect(await daily(ctx, chatbot.id, "2026-03-12")).toMatchObject({ conversations: 1, messages: 2, questions: 0, unanswered: 0, unresolved: 0 });
  });

  it("counts on the organisation's calendar day, not UTC's", async () => {
    const { ctx, chatbot, turn } = await setup({ timeZone: "America/New_York" });
    // 03:30 UTC on 1 April is 23:30 on 31 March in New York (EDT, UTC−4).
    const lateEvening = Date.UTC(2026, 3, 1, 3, 30);
    await turn("v_ny", "How much does express shipping cost?", { startedAt: lateEvening });
    expect(await daily(ctx, chatbot.id, "2026-03-31")).toMatchObject({ conversations: 1, messages: 2 });
    expect(await daily(ctx, chatbot.id, "2026-04-01")).toBeUndefined();
    // …and 04:30 UTC is past midnight there: the next day.
    await turn("v_ny2", "How much does express shipping cost?", { startedAt: Date.UTC(2026, 3, 1, 4, 30) });
    expect(await daily(ctx, chatbot.id, "2026-04-01")).toMatchObject({ conversations: 1 });
  });

  it("unique visitors over a range count a visitor who came on two days once", async () => {
    const { ctx, ref, turn } = await setup({ knowledge: false });
    const d1 = Date.UTC(2026, 4, 1, 10);
    const d2 = Date.UTC(2026, 4, 2, 10);
    await turn("v_repeat", "hello", { startedAt: d1 });
    await turn("v_repeat", "hello again", { startedAt: d2 });
    await turn("v_other", "hello", { startedAt: d2 });
    const report = await loadReport(ctx, ref, { from: "2026-05-01", to: "2026-05-02", preset: null });
    expect(report.days.map((d) => d.visitors)).toEqual([1, 2]);
    expect(report.totals.visitors).toBe(2);
  });

  it("range percentiles come from the per-day histograms of every day in the range", async () => {
    const { ctx, ref, chatbot } = await setup({ knowledge: false });
    const latencies = Array.from({ length: 200 }, (_, i) => 100 + ((i * 7919) % 4900));
    for (let i = 0; i < latencies.length; i++) {
      const askedAt = Date.UTC(2026, 5, 1 + (i % 3), 12) + i;
      const conversation = await getOrCreateConversation(ctx, ref, { visitorId: `v_lat_${i % 10}`, channel: "widget", fresh: true });
      await recordExchange(ctx, conversation, {
        visitorText: "How much does delivery cost?",
        askedAt,
        timeZone: "UTC",
        bot: {
          id: newId("msg_"),
          at: askedAt + latencies[i],
          content: "It costs 9 euros.",
          sources: [],
          answered: true,
          model: null,
          latencyMs: latencies[i],
          firstTokenMs: null,
          credits: 1,
        },
      });
    }
    const report = await loadReport(ctx, ref, { from: "2026-06-01", to: "2026-06-03", preset: null });
    const sorted = [...latencies].sort((a, b) => a - b);
    const exact = (p: number) => sorted[Math.ceil((p / 100) * sorted.length) - 1];
    expect(report.totals.answerSamples).toBe(200);
    expect(Math.abs(report.totals.medianMs! - exact(50)) / exact(50)).toBeLessThan(0.08);
    expect(Math.abs(report.totals.p95Ms! - exact(95)) / exact(95)).toBeLessThan(0.08);
    expect(report.days.every((d) => d.medianMs !== null)).toBe(true);
    expect(report.totals).toMatchObject({ conversations: 200, messages: 400, visitors: 10 });
    void chatbot;
  });

  it("leads, thumbs, reports and handoffs are counted where they are written; a conversation is unresolved once", async () => {
    const { ctx, chatbot, ref, turn } = await setup();
    const first = await turn("v_acts", "How much does express shipping cost?");
    const today = utcDay(Date.now());
    await captureLead(ctx, ref, { visitorId: "v_acts", email: "ann@example.com", name: "Ann" }, leadFormSchema.parse({}));
    // A repeat of the same email is not a new lead.
    await createLead(ctx, ref, { visitorId: "v_acts", email: "ANN@example.com", source: "api" });
    await setMessageFeedback(ctx, ref, "v_acts", first.messageId, 1);
    expect(await daily(ctx, chatbot.id, today)).toMatchObject({ leads: 1, thumbsUp: 1, thumbsDown: 0, unresolved: 0 });
    await setMessageFeedback(ctx, ref, "v_acts", first.messageId, -1);
    expect(await daily(ctx, chatbot.id, today)).toMatchObject({ thumbsUp: 0, thumbsDown: 1, unresolved: 1 });
    await reportProblem(ctx, ref, { visitorId: "v_acts", messageId: first.messageId, comment: "Wrong price" });
    const human = await requestHuman(ctx, ref, { visitorId: "v_acts", conversationId: first.conversationId });
    expect(human.alreadyRequested).toBe(false);
    await requestHuman(ctx, ref, { visitorId: "v_acts", conversationId: first.conversationId });
    expect(await daily(ctx, chatbot.id, today)).toMatchObject({ conversations: 1, reports: 1, handoffs: 1, unresolved: 1 });
    await setMessageFeedback(ctx, ref, "v_acts", first.messageId, null);
    expect(await daily(ctx, chatbot.id, today)).toMatchObject({ thumbsUp: 0, thumbsDown: 0, unresolved: 1 });
  });

  it("a handoff before any message counts its conversation once, and the first message later does not count it again", async () => {
    const { ctx, chatbot, ref, turn } = await setup();
    const { conversation } = await requestHuman(ctx, ref, { visitorId: "v_first_human" });
    await turn("v_first_human", "How much does express shipping cost?", { conversationId: conversation.id, startedAt: Date.now() });
    expect(await daily(ctx, chatbot.id, utcDay(Date.now()))).toMatchObject({ conversations: 1, handoffs: 1, unresolved: 1 });
  });
});

describe("question lists over long ranges (from the keys' totals)", () => {
  it("count only the range's asks, in order, though other keys have larger totals outside it", async () => {
    const { ctx, ref } = await setup({ knowledge: false });
    const ask = async (text: string, askedAt: number, answered: boolean) => {
      const conversation = await getOrCreateConversation(ctx, ref, { visitorId: "v_long", channel: "widget", fresh: true });
      await recordExchange(ctx, conversation, {
        visitorText: text,
        askedAt,
        timeZone: "UTC",
        unanswered: !answered,
        bot: { id: newId("msg_"), at: askedAt + 10, content: "…", sources: [], answered, model: null, latencyMs: 10, firstTokenMs: null, credits: 1 },
      });
    };
    const before = Date.UTC(2026, 0, 10, 12); // outside the range below
    const inside = Date.UTC(2026, 2, 20, 12);
    for (let i = 0; i < 5; i++) await ask("What is the warranty on bikes?", before + i, false);
    for (let i = 0; i < 3; i++) await ask("Where is the parking garage?", inside + i, true);
    await ask("What is the warranty on bikes?", inside + 10, false);
    await ask("Do you deliver to islands?", inside + 11, false);
    await ask("Do you deliver to islands?", inside + 12, false);
    const lists = await loadQuestions(ctx, ref, { from: "2026-02-01", to: "2026-03-31", preset: null });
    expect(lists.top.map((g) => [g.text, g.asked])).toEqual([
      ["Where is the parking garage?", 3],
      ["Do you deliver to islands?", 2],
      ["What is the warranty on bikes?", 1],
    ]);
    expect(lists.unanswered.map((g) => [g.text, g.unanswered])).toEqual([
      ["Do you deliver to islands?", 2],
      ["What is the warranty on bikes?", 1],
    ]);
  });
});

describe("unanswered → add an answer → indexed → answered", () => {
  it("creates a Q&A source, marks the group answered, and the re-asked question gets the answer", async () => {
    const { ref, chatbot, org, user, turn } = await setup();
    const at = Date.now();
    const missed = await turn("v_gap", "Do you have a shop in Lisbon?", { startedAt: at });
    expect(missed.reply.metadata?.answered).toBe(false);
    const range = { from: utcDay(at), to: utcDay(at), preset: null };
    const { ctx: kb, sent } = recordingContext();
    const [group] = (await loadQuestions(kb, ref, range)).unanswered;
    expect(group.text).toBe("Do you have a shop in Lisbon?");

    const added = await answerQuestionGroup(
      kb,
      ref,
      { question: group.text, answer: "Yes: our Lisbon shop is at Rua Augusta 10, open every day from 10 to 19.", keys: group.keys },
      user.id,
    );
    if (!added.ok) throw new Error(added.message);
    expect(sent).toEqual([{ kind: "ingest", sourceId: added.source.id }]);
    expect((await loadQuestions(kb, ref, range)).unanswered).toEqual([]);

    await runIngestionUntilIdle(kb, added.source.id);
    const source = await kb.db.select().from(knowledgeSources).where(eq(knowledgeSources.id, added.source.id)).get();
    expect(source).toMatchObject({ type: "qa", status: "ready" });

    const again = await turn("v_gap_2", "Do you have a shop in Lisbon?");
    expect(again.reply.metadata?.answered).toBe(true);
    expect(again.reply.text).toContain("Rua Augusta");
    // Still answered: the group stays off the unanswered list.
    expect((await loadQuestions(kb, ref, range)).unanswered).toEqual([]);
    void chatbot;
    void org;
  });

  it("a group answered before is listed again when the question goes unanswered after that", async () => {
    const { ctx, ref, user, turn } = await setup();
    await turn("v_re", "Do you sell gift cards?");
    const range = { from: utcDay(Date.now()), to: utcDay(Date.now()), preset: null };
    const [group] = (await loadQuestions(ctx, ref, range)).unanswered;
    const { ctx: kb } = recordingContext();
    const added = await answerQuestionGroup(kb, ref, { question: group.text, answer: "No, we do not sell gift cards.", keys: group.keys }, user.id);
    expect(added.ok).toBe(true);
    expect((await loadQuestions(ctx, ref, range)).unanswered).toEqual([]);
    // Not indexed yet (the queue only recorded it): asked again, still unanswered → listed again.
    await turn("v_re2", "Do you sell gift cards?");
    expect((await loadQuestions(ctx, ref, range)).unanswered).toHaveLength(1);
  });
});

describe("answer-time histogram", () => {
  it("puts every time in a bucket whose edges hold it, and reads percentiles within 8 %", () => {
    for (const ms of [0, 49, 50, 57, 100, 999, 1000, 12_345, 600_000]) expect(answerTimeBucket(ms)).toBeGreaterThanOrEqual(0);
    const samples = Array.from({ length: 1000 }, (_, i) => Math.round(200 * Math.exp((i % 97) / 30)));
    const h = new Map<number, number>();
    for (const s of samples) h.set(answerTimeBucket(s), (h.get(answerTimeBucket(s)) ?? 0) + 1);
    const sorted = [...samples].sort((a, b) => a - b);
    for (const p of [50, 90, 95, 99]) {
      const exact = sorted[Math.ceil((p / 100) * sorted.length) - 1];
      expect(Math.abs(percentileFromHistogram(h, p)! - exact) / exact).toBeLessThan(0.08);
    }
    expect(percentileFromHistogram(new Map(), 50)).toBeNull();
  });
});
