import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { takeTurn, turnReply } from "~/.server/chat/turn";
import { createServiceContext } from "~/.server/context";
import { chatbots, organisations } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { createTextSource } from "~/.server/kb/sources";
import { knowledgeStore } from "~/.server/retrieval/knowledge-store";
import { forgetChatbotStats } from "~/.server/retrieval/search";
import { db, makeOrg, makeUser } from "../factories";

// One organisation's knowledge must never change another's answers (a chatbot's replies depend only
// on its own knowledge and settings). Found through the answer benchmark: the shop set scored
// differently alone and after the other sets were indexed into the same database, because FTS5's
// bm25() weighed terms with statistics of the whole chunks_fts table — every chatbot's chunks.
// These tests ask one chatbot the same questions before and after another organisation's chatbot
// is filled with knowledge, in the same isolate and database, and require identical results.

const knowledge = import.meta.glob("/bench/answers/*/knowledge.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const questionSets = import.meta.glob("/bench/answers/*/questions.json", { import: "default", eager: true }) as Record<
  string,
  { id: string; question: string; half: string }[]
>;
const setText = (name: string) => knowledge[`/bench/answers/${name}/knowledge.md`];

// Ingestion runs its steps inline here (runIngestionUntilIdle), so the queue only accepts messages.
const queue = { async send() {}, async sendBatch() {} } as unknown as Queue;
const ctx = createServiceContext({ ...(env as unknown as Env), INGEST_QUEUE: queue });

async function botWith(name: string, documents: { title: string; text: string }[]) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, name, { plan: "scale" });
  const ref = { orgId: org.id, chatbotId: bot.id };
  for (const d of documents) {
    const created = await createTextSource(ctx, ref, d);
    if (!created.ok) throw new Error(created.message);
    expect((await runIngestionUntilIdle(ctx, created.source.id)).source?.status).toBe("ready");
  }
  const chatbot = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!;
  const organisation = (await db.select().from(organisations).where(eq(organisations.id, org.id)).get())!;
  return { ref, target: { chatbot, org: organisation } };
}

type Bot = Awaited<ReturnType<typeof botWith>>;

/** Everything retrieval decides for each question: passages in order with their scores, relevance, floor, answerable. */
async function retrievalOf(bot: Bot, questions: string[]) {
  const out = [];
  const store = await knowledgeStore(ctx, bot.ref); // D1, or the chatbot's shard (npm run test:knowledge-shard)
  for (const q of questions) {
    const r = await store.retrieve(q, { k: 5 });
    out.push({ q, answerable: r.answerable, relevance: r.relevance, floor: r.floor, passages: r.passages.map((p) => [p.chunkId, p.score]) });
  }
  return out;
}

let visitor = 0;
async function repliesOf(bot: Bot, questions: string[]) {
  const out = [];
  for (const text of questions) {
    const reply = await turnReply(await takeTurn(ctx, { target: bot.target, channel: "test", visitorId: `v_tenant_${visitor++}_0001`, text }));
    if (!reply.ok) throw new Error(reply.message);
    out.push({ text, reply: reply.message?.content, answered: reply.message?.answered, sources: reply.message?.sources.map((s) => s.snippet) });
  }
  return out;
}

describe("a chatbot's answers depend only on its own knowledge", () => {
  it("retrieval scores do not move when another organisation's chatbot indexes text with the same words", async () => {
    const a = await botWith("Knits", [
      {
        title: "Delivery",
        text: "# Delivery\n## Costs\nStandard delivery to Germany costs €15. Delivery within Ireland is free over €60.\n## Dispatch\nOrders placed before 2pm leave the same day; later orders are sent out the next working day.",
      },
      { title: "Returns", text: "# Returns\nYou may return unused items within 30 days of delivery. Refunds go back to the original payment method." },
    ]);
    const questions = ["whats the postage to germany", "i ordered at 3pm, when will it be sent out?", "how long do i have to send something back"];
    const before = await retrievalOf(a, questions);
    expect(before.every((r) => r.passages.length > 0)).toBe(true);
    // Another organisation: many chunks that use the question's words (delivery, Germany, orders…).
    await botWith(
      "Freight",
      Array.from({ length: 12 }, (_, i) => ({
        title: `Freight note ${i}`,
        text: `# Freight ${i}\nDelivery of pallets to Germany and orders for delivery on day ${i}. Every delivery order is sent out by road; delivery delivery delivery.`,
      })),
    );
    expect(await retrievalOf(a, questions)).toEqual(before);
  });

  it("the shop benchmark's chatbot answers the same before and after the other sets are indexed", async () => {
    const shop = await botWith("Shop", [{ title: "Shop", text: setText("shop") }]);
    // The dev (tuning) half only: the test half's replies are never looked at (bench/README.md).
    const questions = questionSets["/bench/answers/shop/questions.json"].filter((q) => q.half === "dev").map((q) => q.question);
    const retrievalBefore = await retrievalOf(shop, questions);
    const repliesBefore = await repliesOf(shop, questions);
    await botWith(
      "Others",
      ["clinic", "plumber", "restaurant", "saas"].map((name) => ({ title: name, text: setText(name) })),
    );
    expect(await retrievalOf(shop, questions)).toEqual(retrievalBefore);
    expect(await repliesOf(shop, questions)).toEqual(repliesBefore);
  });

  it("answers the same whether or not this isolate has the chatbot's statistics memoised", async () => {
    // The first question after a cold start (or a minute later) used to search fewer lexicon
    // alternatives than the same question asked warm, so the same question got another answer.
    const shop = await botWith("Cold", [{ title: "Shop", text: setText("shop") }]);
    const questions = questionSets["/bench/answers/shop/questions.json"].filter((q) => q.half === "dev").map((q) => q.question);
    for (const q of questions) {
      forgetChatbotStats(shop.target.chatbot.id);
      const cold = await retrievalOf(shop, [q]);
      expect(await retrievalOf(shop, [q])).toEqual(cold);
    }
  });
});
