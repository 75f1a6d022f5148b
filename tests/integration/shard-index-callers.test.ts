import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reportMessage } from "~/.server/bug-reports/bug-reports";
import { conversationIndex } from "~/.server/chat/conversation-index";
import { findConversations } from "~/.server/chat/conversation-list";
import { getTranscript, getVisitorHistory, listConversations, recordExchange } from "~/.server/chat/conversations";
import { analyticsDaily } from "~/.server/db/schema";
import { createLead, deleteLead, getLead } from "~/.server/leads/leads";
import { captureLead, reportProblem, setMessageFeedback } from "~/.server/widget/visitor-actions";
import { newId } from "~/.server/auth/crypto";
import { getSetupProgress } from "~/.server/chatbots/setup-progress";
import { chatbotForVisitor } from "~/.server/chatbots/find-chatbot";
import { chatbots } from "~/.server/db/schema";
import { admitVisitor } from "~/.server/widget/gate";
import { db, makeOrg, makeUser, testContext } from "../factories";

// Callers of the conversation index that used to query D1's `conversations` (ADR 044's inventory),
// run for a chatbot whose index and messages are in its shard (ADR 048; the columns are set here,
// nothing in the product sets 'shard' yet). D1 holds none of its conversations, so a caller that still
// read D1 would answer as if there were none.

async function shardChatbot(name: string, settings: Record<string, unknown> = {}) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, name);
  await db.update(chatbots).set({ messageStore: "shard", conversationStore: "shard", settings }).where(eq(chatbots.id, bot.id));
  const row = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!;
  return { ref: { orgId: org.id, chatbotId: bot.id }, row };
}

const inD1 = async (chatbotId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE chatbot_id = ?").bind(chatbotId).first<{ n: number }>())!.n;

describe("callers of a conversation index in the chatbot's shard", () => {
  it("the setup checklist's 'tested' sees the shard's first conversation", async () => {
    const ctx = testContext();
    const { ref, row } = await shardChatbot("Checklist");
    const tested = async () => (await getSetupProgress(ctx, { orgId: ref.orgId, chatbot: row, role: "owner" })).done.tested;
    expect(await tested()).toBe(false);
    await (await conversationIndex(ctx, ref)).open({ visitorId: "v_first", channel: "test" });
    expect(await tested()).toBe(true);
    expect(await inD1(ref.chatbotId)).toBe(0);
    // Without the bindings a shard chatbot's checklist cannot be read (rather than answering from D1).
    await expect(getSetupProgress({ db }, { orgId: ref.orgId, chatbot: row, role: "owner" })).rejects.toThrow(/shard/);
  });

  it("the identity gate lets a widget action through for a visitor with a verified conversation in the shard", async () => {
    const ctx = testContext();
    const { ref } = await shardChatbot("Gate", { access: { requireVerified: true } });
    const target = (await chatbotForVisitor(ctx, ref.chatbotId))!;
    const action = (visitorId: string) =>
      admitVisitor(ctx, target, { origin: null, requestUrl: "http://localhost/api/widget/feedback", visitorId, rate: "action" });
    const index = await conversationIndex(ctx, ref);
    const verified = await index.open({ visitorId: "v_known", channel: "widget" });
    await index.setFlags(verified.id, { verified: true });
    await index.open({ visitorId: "v_unknown", channel: "widget" });

    expect(await action("v_known")).toMatchObject({ ok: true });
    expect(await action("v_unknown")).toMatchObject({ ok: false, refusal: { code: "visitor_not_verified" } });
    expect(await inD1(ref.chatbotId)).toBe(0);
  });

  /** A conversation of `visitorId` in the shard with one exchange (the bot's reply id returned). */
  async function exchange(ctx: ReturnType<typeof testContext>, ref: { orgId: string; chatbotId: string }, visitorId: string, question: string) {
    const c = await (await conversationIndex(ctx, ref)).open({ visitorId, channel: "widget" });
    const botId = newId("msg_");
    const at = Date.now();
    await recordExchange(ctx, c, {
      visitorText: question,
      askedAt: at,
      bot: { id: botId, at: at + 1, content: "An answer.", sources: [], answered: true, model: null, latencyMs: 5, firstTokenMs: null, credits: 1 },
      messageStore: "shard",
      conversationStore: "shard",
    });
    return { conversation: c, botId };
  }

  it("the REST API's list, the chatbot home's list, a transcript and a visitor's history read the shard's index", async () => {
    const ctx = testContext();
    const { ref } = await shardChatbot("Lists");
    const a = await exchange(ctx, ref, "v_list_a", "Where is my parcel?");
    const b = await exchange(ctx, ref, "v_list_b", "Do you ship to Spain?");
    // Neither store kind given: both are looked up (one query) and the index answers.
    const listed = await listConversations(ctx, ref);
    expect(listed.map((r) => r.id)).toEqual([b.conversation.id, a.conversation.id]);
    expect(listed[0]).toMatchObject({ messageCount: 2, firstQuestion: "Do you ship to Spain?", lastMessage: "An answer.", lastRole: "bot" });
    const older = await listConversations(ctx, ref, { before: listed[0].lastMessageAt });
    expect(older.map((r) => r.id)).toEqual(listed[0].lastMessageAt === listed[1].lastMessageAt ? [] : [a.conversation.id]);
    const page = await findConversations(ctx, ref, { q: "parcel", filters: [], older: null, newer: null });
    expect(page.rows.map((r) => r.id)).toEqual([a.conversation.id]);
    expect((await getTranscript(ctx, ref, a.conversation.id))?.messages.map((m) => m.role)).toEqual(["visitor", "bot"]);
    expect((await getVisitorHistory(ctx, ref, "v_list_b"))?.conversation.id).toBe(b.conversation.id);
    expect(await inD1(ref.chatbotId)).toBe(0);
  });

  it("a lead's conversations, the widget's lead, thumbs and reports, and a member's report use the shard's index", async () => {
    const ctx = testContext();
    const { ref } = await shardChatbot("Widget actions");
    const { conversation, botId } = await exchange(ctx, ref, "v_actions", "Where is my parcel?");
    const form = { name: "optional", email: "optional", phone: "off", custom: [] } as unknown as Parameters<typeof captureLead>[3];
    const lead = await captureLead(ctx, ref, { visitorId: "v_actions", conversationId: conversation.id, name: "Ada", email: "ada@example.test" }, form);
    expect(lead.conversationId).toBe(conversation.id);
    expect((await getLead(ctx, ref, lead.id))?.conversations.map((c) => c.id)).toEqual([conversation.id]);

    const index = await conversationIndex(ctx, ref);
    expect(await setMessageFeedback(ctx, ref, "v_actions", botId, -1)).toEqual({ conversationId: conversation.id, rating: -1 });
    expect(await setMessageFeedback(ctx, ref, "v_other", botId, 1)).toBeNull();
    expect(await index.get(conversation.id)).toMatchObject({ rating: -1, hasLead: true, leadEmail: "ada@example.test" });
    expect((await reportProblem(ctx, ref, { visitorId: "v_actions", messageId: botId, comment: "Wrong" }))?.conversationId).toBe(conversation.id);
    const member = await makeUser();
    expect(await reportMessage(ctx, ref, { messageId: botId, comment: "Also wrong", expectedAnswer: null, userId: member.id })).toMatchObject({ ok: true });
    expect(await index.get(conversation.id)).toMatchObject({ reported: true });
    const days = await db.select().from(analyticsDaily).where(eq(analyticsDaily.chatbotId, ref.chatbotId)).all();
    // Counted once, unresolved once (the thumb, then two reports), each thumb and report counted.
    expect(days.reduce((n, d) => n + d.conversations, 0)).toBe(1);
    expect(days.reduce((n, d) => n + d.unresolved, 0)).toBe(1);
    expect(days.reduce((n, d) => n + d.thumbsDown + 10 * d.reports, 0)).toBe(21);
    expect(await inD1(ref.chatbotId)).toBe(0);
  });

  it("deleting a lead whose visitor has more than 1,000 conversations recomputes them all", async () => {
    const ctx = testContext();
    const { ref } = await shardChatbot("Many conversations");
    const index = await conversationIndex(ctx, ref);
    const ids: string[] = [];
    for (let i = 0; i < 1_205; i++) ids.push((await index.create({ visitorId: "v_many", channel: "widget" })).id);
    const lead = await createLead(ctx, ref, { visitorId: "v_many", conversationId: ids[0], email: "many@example.test" });
    expect(await index.get(ids[1_204])).toMatchObject({ hasLead: true, leadEmail: "many@example.test" });
    expect(await deleteLead(ctx, ref, lead.id)).toBe(true);
    expect(await index.get(ids[0])).toMatchObject({ hasLead: false, leadEmail: null });
    expect(await index.get(ids[1_204])).toMatchObject({ hasLead: false, leadEmail: null });
    expect(await inD1(ref.chatbotId)).toBe(0);
  });
});
