import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { conversationIndex } from "~/.server/chat/conversation-index";
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
});
