import { env } from "cloudflare:workers";
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PlanId } from "~/lib/plans";
import { makeUser, testContext, testConversationStore, testMessageStore } from "../../../../tests/factories";
import { newId } from "../../auth/crypto";
import { answerMessage } from "../../chat/answer";
import { getOrCreateConversation } from "../../chat/conversations";
import { createServiceContext } from "../../context";
import { chatbots, notificationDeliveries, organisations } from "../../db/schema";
import type { Env } from "../../env";
import { addDestination } from "../../notifications/destinations";
import { createOrganisation } from "../../orgs/organisations";
import { HAND_TO_HUMAN_TOOL } from "./hand-to-human";
import { storedMessages } from "../../../../tests/integration/stored-messages";
import { conversationRow } from "../../../../tests/integration/conversation-rows";

// The hand_to_human tool a configured model may call (ADR 027), through the answer engine with the
// AI SDK's stand-in for a real model (MockLanguageModelV3, no network): the conversation waits for a
// person exactly as after the widget's button, the team is notified, and the reply tells the widget.

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
const finish = (unified: "stop" | "tool-calls"): LanguageModelV3StreamPart => ({ type: "finish", finishReason: { unified, raw: unified }, usage });
const streamOf = (parts: LanguageModelV3StreamPart[]) =>
  new ReadableStream<LanguageModelV3StreamPart>({
    start(c) {
      for (const p of parts) c.enqueue(p);
      c.close();
    },
  });

/** A model that calls hand_to_human first, then says `text`. */
function handingModel(text: string) {
  let step = 0;
  return new MockLanguageModelV3({
    modelId: "gpt-4o-mini",
    doStream: async () => ({
      stream: streamOf(
        step++ === 0
          ? [
              { type: "tool-call", toolCallId: "call_h", toolName: HAND_TO_HUMAN_TOOL, input: JSON.stringify({ reason: "wants a person" }) },
              finish("tool-calls"),
            ]
          : [{ type: "text-start", id: "a" }, { type: "text-delta", id: "a", delta: text }, { type: "text-end", id: "a" }, finish("stop")],
      ),
    }),
  });
}

async function setup(plan: PlanId, humanHandoff = true) {
  const ctx = testContext();
  const owner = await makeUser({ name: "Tess Owner" });
  const org = await createOrganisation(ctx, owner.id, { name: "Handoff Co" });
  await ctx.db.update(organisations).set({ plan }).where(eq(organisations.id, org.id));
  const bot = await ctx.db
    .insert(chatbots)
    .values({
      id: newId("cb_"),
      orgId: org.id,
      name: "Helper",
      messageStore: testMessageStore,
      conversationStore: testConversationStore,
      settings: {
        // The model may answer beyond the (empty) knowledge, so it is called at all.
        general: { onlyFromKnowledge: false },
        ui: { humanHandoff, leadForm: { timing: "on-fallback" } },
      },
    })
    .returning()
    .get();
  const conversation = await getOrCreateConversation(
    ctx,
    { orgId: org.id, chatbotId: bot.id },
    { visitorId: `v_tool_${newId().slice(0, 12)}`, channel: "widget" },
  );
  const fresh = (await ctx.db.select().from(organisations).where(eq(organisations.id, org.id)).get())!;
  return { ctx, owner, org: fresh, bot, conversation };
}

async function run(s: Awaited<ReturnType<typeof setup>>, model: MockLanguageModelV3, text = "I want to speak to someone about my refund") {
  const answer = await answerMessage(s.ctx, { chatbot: s.bot, org: s.org, conversation: s.conversation, text, model: { id: "gpt-4o-mini", model } });
  const parts: { type: string; data?: unknown }[] = [];
  const reader = answer.stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value as { type: string; data?: unknown });
  await answer.done;
  return { answer, parts };
}

describe("hand_to_human tool", () => {
  it("makes the conversation wait for a person as the button does, notifies the team, and tells the widget", async () => {
    const s = await setup("growth");
    const added = await addDestination(
      createServiceContext(env as unknown as Env),
      { org: s.org, chatbot: s.bot, user: s.owner },
      { kind: "member", userId: s.owner.id, events: ["handoff.requested"] },
    );
    if (!added.ok) throw new Error("setup");
    const model = handingModel("I've passed you to the team.");
    const { parts } = await run(s, model);

    expect((model.doStreamCalls[0] as LanguageModelV3CallOptions).tools?.map((t) => t.name)).toContain(HAND_TO_HUMAN_TOOL);
    // Nobody has the inbox open: the model is told so, to say it; the widget offers the lead form.
    const result = JSON.stringify((model.doStreamCalls[1] as LanguageModelV3CallOptions).prompt.find((m) => m.role === "tool"));
    expect(result).toContain("No one from the team is online right now.");
    expect(parts.find((p) => p.type === "data-handoff")?.data).toEqual({ status: "waiting", available: false, agentsOnline: 0 });
    expect(parts.filter((p) => p.type.startsWith("tool-"))).toEqual([]);

    const conv = await conversationRow(s.conversation.id);
    expect(conv?.status).toBe("waiting");
    const notes = await storedMessages(s.conversation.id);
    expect(notes.map((m) => m.role)).toContain("system");
    const sent = await s.ctx.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.destinationId, added.destination.id)).all();
    expect(sent.map((d) => [d.eventType, JSON.parse(d.payload).data.conversation.id])).toEqual([["handoff.requested", s.conversation.id]]);
  });

  it("is not offered when the chatbot does not offer a person", async () => {
    const s = await setup("growth", false);
    const model = handingModel("unused");
    await run(s, model, "Hello there").catch(() => null);
    expect((model.doStreamCalls[0] as LanguageModelV3CallOptions).tools?.map((t) => t.name) ?? []).not.toContain(HAND_TO_HUMAN_TOOL);
  });

  it("below the Growth plan records the request but keeps the visitor with the bot and the lead form", async () => {
    const s = await setup("starter");
    const model = handingModel("The team will get back to you.");
    const { parts } = await run(s, model);
    const result = JSON.stringify((model.doStreamCalls[1] as LanguageModelV3CallOptions).prompt.find((m) => m.role === "tool"));
    expect(result).toContain("A person from the team cannot join this chat.");
    expect(parts.find((p) => p.type === "data-handoff")?.data).toEqual({ status: "bot", available: false, agentsOnline: 0 });
    // The list's "needs human" still shows it.
    expect((await conversationRow(s.conversation.id))?.status).toBe("waiting");
  });
});
