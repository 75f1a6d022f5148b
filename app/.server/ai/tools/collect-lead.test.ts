import { env } from "cloudflare:workers";
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { asSchema } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { leadFormSchema } from "~/lib/schemas/widget-settings";
import { makeUser, testContext, testConversationStore, testMessageStore } from "../../../../tests/factories";
import { newId } from "../../auth/crypto";
import { answerMessage, collectAnswer } from "../../chat/answer";
import { getOrCreateConversation } from "../../chat/conversations";
import { chatbots, knowledgeSources } from "../../db/schema";
import type { Env } from "../../env";
import { createOrganisation } from "../../orgs/organisations";
import { indexChunks } from "../../retrieval/indexing";
import { collectLeadReason, collectLeadStep, collectLeadTool, COLLECT_LEAD_TOOL } from "./collect-lead";
import { storedMessage } from "../../../../tests/integration/stored-messages";

// The collect_lead tool a configured model may call: its definition and execute function directly,
// then through the answer engine with a stand-in for a real model that calls it (no network:
// MockLanguageModelV3 from the AI SDK).

const FORM = leadFormSchema.parse({
  title: "Get a quote",
  name: "required",
  email: "required",
  phone: "optional",
  custom: [{ label: "Company", required: true }],
});

describe("collect_lead tool", () => {
  it("describes when to call it, validates its input, and returns the form it shows", async () => {
    const steps: unknown[] = [];
    const t = collectLeadTool(FORM, (s) => steps.push(s));
    expect(t.description).toMatch(/price or a quote/);
    expect(t.description).toMatch(/contacted/);
    const schema = asSchema(t.inputSchema);
    expect((await schema.validate!({ reason: "quote" })).success).toBe(true);
    expect((await schema.validate!({ reason: "gossip" })).success).toBe(false);
    expect(schema.jsonSchema).toMatchObject({ type: "object", required: ["reason"] });

    const out = await t.execute!({ reason: "quote" }, { toolCallId: "c1", messages: [] });
    expect(out).toEqual({ shown: true, fields: ["Name (required)", "Email (required)", "Phone (optional)", "Company (required)"] });
    expect(steps).toEqual([
      {
        type: "collect-lead",
        reason: "tool",
        title: "Get a quote",
        fields: [
          { key: "name", label: "Name", type: "text", required: true },
          { key: "email", label: "Email", type: "email", required: true },
          { key: "phone", label: "Phone", type: "tel", required: false },
          { key: "custom.Company", label: "Company", type: "text", required: true },
        ],
      },
    ]);
  });

  it("offers the form per the lead form's timing", () => {
    const reason = (timing: (typeof FORM)["timing"], reply: { intent?: boolean; fallback?: boolean; visitorHasLead?: boolean }) =>
      collectLeadReason({ timing }, { intent: false, fallback: false, visitorHasLead: false, ...reply });
    expect(reason("on-intent", { intent: true })).toBe("intent");
    expect(reason("on-intent", { intent: true, fallback: true })).toBe("intent");
    expect(reason("on-intent", { fallback: true })).toBe("fallback");
    expect(reason("on-intent", {})).toBeNull();
    expect(reason("on-fallback", { intent: true })).toBeNull();
    expect(reason("on-fallback", { intent: true, fallback: true })).toBe("fallback");
    expect(reason("after-first-answer", { fallback: true })).toBe("fallback");
    expect(reason("before-chat", { intent: true, fallback: true })).toBeNull();
    expect(reason("off", { intent: true, fallback: true })).toBeNull();
    expect(reason("on-intent", { intent: true, visitorHasLead: true })).toBeNull();
    expect(collectLeadStep(leadFormSchema.parse({ name: "off", phone: "off" }), "intent").fields).toEqual([
      { key: "email", label: "Email", type: "email", required: true },
    ]);
  });
});

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
const finish = (unified: "stop" | "tool-calls"): LanguageModelV3StreamPart => ({ type: "finish", finishReason: { unified, raw: unified }, usage });
function streamOf(parts: LanguageModelV3StreamPart[]) {
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(c) {
      for (const p of parts) c.enqueue(p);
      c.close();
    },
  });
}

async function setup(ui: Record<string, unknown> = {}) {
  const ctx = testContext();
  const user = await makeUser();
  const org = await createOrganisation(ctx, user.id, { name: "Tool Co" });
  const bot = await ctx.db
    .insert(chatbots)
    .values({
      id: newId("cb_"),
      orgId: org.id,
      name: "Seller",
      messageStore: testMessageStore,
      conversationStore: testConversationStore,
      settings: { ui: { leadForm: { ...FORM, ...ui } } },
    })
    .returning()
    .get();
  const sourceId = newId("ks_");
  await ctx.db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "FAQ", status: "ready" });
  await indexChunks({ env: env as unknown as Env, db: ctx.db }, { orgId: org.id, chatbotId: bot.id, sourceId }, [
    { title: "Custom orders", heading: null, url: null, text: "We knit custom jumpers for teams and companies. Custom orders take four weeks.", position: 0 },
  ]);
  const conversation = await getOrCreateConversation(ctx, { orgId: org.id, chatbotId: bot.id }, { visitorId: "visitor_tool_1", channel: "widget" });
  return { ctx, org, bot, conversation };
}

/** A model that calls collect_lead in its first step, then writes one sentence. */
function callingModel(text: string) {
  let step = 0;
  return new MockLanguageModelV3({
    modelId: "gpt-4o-mini",
    doStream: async () => ({
      stream: streamOf(
        step++ === 0
          ? [{ type: "tool-call", toolCallId: "call_1", toolName: COLLECT_LEAD_TOOL, input: JSON.stringify({ reason: "quote" }) }, finish("tool-calls")]
          : text
            ? [{ type: "text-start", id: "a" }, { type: "text-delta", id: "a", delta: text }, { type: "text-end", id: "a" }, finish("stop")]
            : [finish("stop")],
      ),
    }),
  });
}

describe("a configured model calling collect_lead", () => {
  it("gets the tool, and its call becomes the reply's collect-lead step; the tool's own parts stay on the server", async () => {
    const { ctx, org, bot, conversation } = await setup();
    const model = callingModel("Happy to prepare a quote for your team [1]. Leave your details in the form below.");
    const answer = await answerMessage(ctx, {
      chatbot: bot,
      org,
      conversation,
      text: "We knit for a team of 20 people, custom jumpers please",
      model: { id: "gpt-4o-mini", model },
    });
    const chunks: string[] = [];
    const [a, b] = answer.stream.tee();
    const reader = a.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value.type);
    const result = await collectAnswer(b);

    const call = model.doStreamCalls[0] as LanguageModelV3CallOptions;
    expect(call.tools?.map((t) => t.name)).toEqual([COLLECT_LEAD_TOOL]);
    expect(call.prompt.find((m) => m.role === "system")!.content).toContain("call the collect_lead tool");
    expect(model.doStreamCalls).toHaveLength(2);
    expect(result.text).toBe("Happy to prepare a quote for your team [1]. Leave your details in the form below.");
    expect(result.collectLead).toMatchObject({ type: "collect-lead", reason: "tool", title: "Get a quote" });
    expect(result.collectLead!.fields.map((f) => f.key)).toEqual(["name", "email", "phone", "custom.Company"]);
    expect(chunks).toContain("data-collect-lead");
    expect(chunks.filter((c) => c.startsWith("tool-"))).toEqual([]);
    const stored = await storedMessage({ orgId: org.id, chatbotId: bot.id }, answer.messageId);
    expect(stored).toMatchObject({ model: "gpt-4o-mini", content: result.text, credits: 1 });
  });

  it("a call without any text gets the offer in words", async () => {
    const { ctx, org, bot, conversation } = await setup();
    const answer = await answerMessage(ctx, {
      chatbot: bot,
      org,
      conversation,
      text: "custom jumpers for our company please",
      model: { id: "gpt-4o-mini", model: callingModel("") },
    });
    const result = await collectAnswer(answer.stream);
    expect(result.error).toBeNull();
    expect(result.text).toBe("I'll pass this on to the team. Leave your contact details below and they will get back to you.");
    expect(result.collectLead?.reason).toBe("tool");
  });

  it("is not offered when the lead form is off or the visitor already left their details", async () => {
    for (const variant of ["off", "known"] as const) {
      const { ctx, org, bot, conversation } = await setup(variant === "off" ? { timing: "off" } : {});
      if (variant === "known") conversation.hasLead = true;
      const model = new MockLanguageModelV3({
        modelId: "gpt-4o-mini",
        doStream: async () => ({
          stream: streamOf([
            { type: "text-start", id: "a" },
            { type: "text-delta", id: "a", delta: "Custom orders take four weeks [1]." },
            { type: "text-end", id: "a" },
            finish("stop"),
          ]),
        }),
      });
      const answer = await answerMessage(ctx, { chatbot: bot, org, conversation, text: "how long do custom orders take", model: { id: "gpt-4o-mini", model } });
      const result = await collectAnswer(answer.stream);
      expect(result.collectLead).toBeNull();
      expect((model.doStreamCalls[0] as LanguageModelV3CallOptions).tools).toBeUndefined();
    }
  });
});
