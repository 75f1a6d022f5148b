import { env } from "cloudflare:workers";
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { UIMessageChunk } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../auth/crypto";
import { chatbots, knowledgeSources, usageCounters } from "../db/schema";
import type { Env } from "../env";
import { makeUser, testContext, testConversationStore, testMessageStore } from "../../../tests/factories";
import { LOCAL_MODEL_ID, textPieces } from "../ai/local-model";
import { createOrganisation } from "../orgs/organisations";
import { indexChunks } from "../retrieval/indexing";
import { answerMessage, collectAnswer } from "./answer";
import { getOrCreateConversation } from "./conversations";
import { currentPeriod } from "./usage";
import { storedMessage, storedMessages } from "../../../tests/integration/stored-messages";

// The orchestrator with a stand-in for a real (remote) model: what the model is given, and what
// happens when it fails. No network: MockLanguageModelV3 from the AI SDK.

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
function streamOf(parts: LanguageModelV3StreamPart[]) {
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(c) {
      for (const p of parts) c.enqueue(p);
      c.close();
    },
  });
}

async function setup() {
  const ctx = testContext();
  const user = await makeUser();
  const org = await createOrganisation(ctx, user.id, { name: "Answer Co" });
  const bot = await ctx.db
    .insert(chatbots)
    .values({
      id: newId("cb_"),
      orgId: org.id,
      name: "Helper",
      messageStore: testMessageStore,
      conversationStore: testConversationStore,
      settings: { general: { instructions: "Always be polite.", language: "fr", answerLength: "short" } },
    })
    .returning()
    .get();
  const sourceId = newId("ks_");
  await ctx.db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "FAQ", status: "ready" });
  await indexChunks({ env: env as unknown as Env, db: ctx.db }, { orgId: org.id, chatbotId: bot.id, sourceId }, [
    { title: "Livraison", heading: null, url: "https://x.example/livraison", text: "La livraison express coûte 9 euros et prend un jour ouvré.", position: 0 },
  ]);
  const conversation = await getOrCreateConversation(ctx, { orgId: org.id, chatbotId: bot.id }, { visitorId: "visitor_mock_1", channel: "test" });
  return { ctx, org, bot, conversation };
}

describe("answerMessage with a real-model stand-in", () => {
  it("gives the model instructions, numbered passages, citation and language rules, and the history", async () => {
    const { ctx, org, bot, conversation } = await setup();
    const model = new MockLanguageModelV3({
      modelId: "gpt-4o-mini",
      doStream: async () => ({
        stream: streamOf([
          { type: "text-start", id: "a" },
          { type: "text-delta", id: "a", delta: "La livraison express coûte " },
          { type: "text-delta", id: "a", delta: "9 euros [1]." },
          { type: "text-end", id: "a" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        ]),
      }),
    });
    const answer = await answerMessage(ctx, {
      chatbot: bot,
      org,
      conversation,
      text: "Combien coûte la livraison express ?",
      model: { id: "gpt-4o-mini", model },
    });
    const result = await collectAnswer(answer.stream);
    expect(result.text).toBe("La livraison express coûte 9 euros [1].");
    expect(result.sources[0]).toMatchObject({ n: 1, title: "Livraison", url: "https://x.example/livraison" });

    const call = model.doStreamCalls[0] as LanguageModelV3CallOptions;
    const system = call.prompt.find((m) => m.role === "system")!.content as string;
    expect(system).toContain("Always be polite.");
    expect(system).toContain('<passage id="1" title="Livraison" url="https://x.example/livraison">');
    expect(system).toContain("like [2]");
    expect(system).toContain("say you don't know");
    expect(system).toContain("Reply in French (fr)");
    expect(system).toContain("one or two sentences");
    expect(call.temperature).toBe(0.3);

    const stored = await storedMessage({ orgId: org.id, chatbotId: bot.id }, answer.messageId);
    expect(stored).toMatchObject({ model: "gpt-4o-mini", answered: true, credits: 1 });
  });

  it("a failing model: polite error in the stream, the visitor's message kept, the credit refunded", async () => {
    const { ctx, org, bot, conversation } = await setup();
    // The model fails mid-answer. (A doStream that throws outright behaves the same in the Worker, but
    // under workerd the AI SDK leaves an internal rejection that vitest reports as unhandled.)
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: streamOf([
          { type: "text-start", id: "a" },
          { type: "text-delta", id: "a", delta: "La livr" },
          { type: "error", error: new Error("upstream 500 with secret details") },
        ]),
      }),
    });
    const answer = await answerMessage(ctx, {
      chatbot: bot,
      org,
      conversation,
      text: "Combien coûte la livraison express ?",
      model: { id: "gpt-4o-mini", model },
    });
    const result = await collectAnswer(answer.stream);
    expect(result.error).toMatch(/something went wrong/i);
    expect(result.error).not.toContain("secret");
    const rows = await storedMessages(conversation.id);
    expect(rows.map((r) => r.role)).toEqual(["visitor"]);
    const counter = await ctx.db
      .select()
      .from(usageCounters)
      .where(and(eq(usageCounters.orgId, org.id), eq(usageCounters.period, currentPeriod(org.periodStart).start)))
      .get();
    expect(counter?.replies).toBe(0);
  });
});

describe("answerMessage with the built-in engine", () => {
  it("streams its reply in the model stream's shape: a step, the text in textPieces' pieces, the finish", async () => {
    const { ctx, org, bot, conversation } = await setup();
    const answer = await answerMessage(ctx, { chatbot: bot, org, conversation, text: "Combien coûte la livraison express ?" });
    const chunks: UIMessageChunk[] = [];
    const reader = answer.stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    const text = chunks.map((c) => (c.type === "text-delta" ? c.delta : "")).join("");
    expect(text).toContain("9 euros");
    expect(chunks.map((c) => c.type)).toEqual([
      "start",
      "data-sources",
      "start-step",
      "text-start",
      ...textPieces(text).map(() => "text-delta"),
      "text-end",
      "finish-step",
      "finish",
    ]);
    expect(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta)).toEqual(textPieces(text));
    expect(chunks.find((c) => c.type === "text-start")).toEqual({ type: "text-start", id: "t0" });
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop", messageMetadata: { answered: true, kind: "answer" } });
    await answer.done;
    const stored = await storedMessages(conversation.id);
    expect(stored.find((m) => m.role === "bot")).toMatchObject({ content: text.trim(), model: LOCAL_MODEL_ID, credits: 1, answered: true });
  });
});
