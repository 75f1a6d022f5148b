import { describe, expect, it } from "vitest";
import { collectAnswer } from "../chat/answer";
import { takeTurn } from "../chat/turn";
import { runIngestionUntilIdle } from "../kb/ingest";
import { createQaSource, createTextSource } from "../kb/sources";
import { knowledgeStore } from "./knowledge-store";
import { db, makeOrg, makeUser, okResult, recordingContext } from "../../../tests/factories";
import { knowledgeRows } from "../../../tests/knowledge-rows";

// A Q&A pair whose question matches the question asked closely outranks passages, and the answer
// engine replies with the pair's answer as written (ADR 022) — here against a passage that says
// otherwise, the situation a bug report's fix is for.

const KNOWLEDGE = `# Delivery
We ship every order from our workshop in Galway, Ireland. Delivery to Germany takes 10 working days.
Delivery within Ireland takes 2 working days, to the United Kingdom 4 working days.

# Returns
You can return an unworn item within 30 days for a full refund. Refunds reach your card in 5 days.

# Care
Wash our wool jumpers by hand in cold water and dry them flat.`;
const FIXED = "Delivery to Germany takes 3 to 5 working days with DHL.";

describe("Q&A pairs outrank passages", async () => {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Knits");
  const ref = { orgId: org.id, chatbotId: bot.id };
  const { ctx } = recordingContext();
  await runIngestionUntilIdle(ctx, okResult(await createTextSource(ctx, ref, { title: "Shop", text: KNOWLEDGE })).source.id);
  const qa = okResult(
    await createQaSource(ctx, ref, {
      title: "Correction: How long does delivery to Germany take?",
      pairs: [{ question: "How long does delivery to Germany take?", answer: FIXED }],
    }),
  );
  await runIngestionUntilIdle(ctx, qa.source.id);

  const ask = async (text: string) => {
    const chatbot = (await db.query.chatbots.findFirst({ where: (c, { eq }) => eq(c.id, bot.id) }))!;
    const turn = await takeTurn(ctx, { target: { chatbot, org }, channel: "test", visitorId: `v_${Math.random().toString(36).slice(2)}`, text });
    const answer = await collectAnswer(turn.stream);
    await turn.done;
    return answer;
  };

  it("one chunk per pair: the question is its heading, the answer its text", async () => {
    const results = await knowledgeRows(ref, "SELECT heading, text FROM chunks WHERE source_id = ?", qa.source.id);
    expect(results).toEqual([{ heading: "How long does delivery to Germany take?", text: FIXED }]);
  });

  for (const question of ["How long does delivery to Germany take?", "how long does shipping to germany take", "How long is delivery to Germany?"]) {
    it(`"${question}" gets the pair's answer, not the conflicting passage`, async () => {
      const r = await (await knowledgeStore(ctx, ref)).retrieve(question, { explainQa: true });
      expect(r.qa?.answer, JSON.stringify(r.qaCandidates)).toBe(FIXED);
      expect(r.passages[0].sourceId).toBe(qa.source.id);
      const answer = await ask(question);
      expect(answer.metadata?.answered).toBe(true);
      expect(answer.text).toBe(FIXED);
      expect(answer.text).not.toContain("10 working days");
      expect(answer.sources.map((s) => s.sourceId)).toEqual([qa.source.id]);
    });
  }

  for (const question of ["How long does delivery to Ireland take?", "How long do refunds take?", "Do you deliver to Germany on Sundays?"]) {
    it(`"${question}" is another question: no pair wins`, async () => {
      const r = await (await knowledgeStore(ctx, ref)).retrieve(question, { explainQa: true });
      expect(r.qa, JSON.stringify(r.qaCandidates)).toBeUndefined();
    });
  }

  it("with two pairs for the same question, the newer one wins", async () => {
    const newer = okResult(
      await createQaSource(ctx, ref, { pairs: [{ question: "How long does delivery to Germany take?", answer: "Germany: 2 to 3 working days." }] }),
    );
    await runIngestionUntilIdle(ctx, newer.source.id);
    const r = await (await knowledgeStore(ctx, ref)).retrieve("How long does delivery to Germany take?");
    expect(r.qa?.answer).toBe("Germany: 2 to 3 working days.");
  });
});
