import { describe, expect, it } from "vitest";
import { makeOrgOnly, makeUser, okResult, recordingContext, testContext } from "../../../tests/factories";
import { conversationIndex } from "../chat/conversation-index";
import { messageStore } from "../chat/message-store";
import { takeTurn, turnReply } from "../chat/turn";
import { runIngestionUntilIdle } from "../kb/ingest";
import { createTextSource } from "../kb/sources";
import { knowledgeStore } from "../retrieval/knowledge-store";
import { createChatbot, deleteChatbot, getChatbot, listChatbots, renameChatbot } from "./chatbots";

async function twoOrgs() {
  const ctx = testContext();
  const alice = await makeUser({ name: "Alice" });
  const bob = await makeUser({ name: "Bob" });
  const mine = await makeOrgOnly(alice.id, "Mine", { plan: "starter" });
  const theirs = await makeOrgOnly(bob.id, "Theirs");
  return { ctx, mine, theirs };
}

describe("chatbots", () => {
  it("creates, lists, renames and deletes within an organisation", async () => {
    const { ctx, mine } = await twoOrgs();
    const { chatbot: bot } = okResult(await createChatbot(ctx, mine.id, { name: " Support bot " }));
    expect(bot.id).toMatch(/^cb_[a-z2-7]{16}$/);
    expect(bot).toMatchObject({ orgId: mine.id, name: "Support bot", settings: {}, visibility: "public" });
    const { chatbot: second } = okResult(await createChatbot(ctx, mine.id, { name: "Sales bot" }));

    expect((await listChatbots(ctx, mine.id)).map((b) => b.id).sort()).toEqual([bot.id, second.id].sort());

    const renamed = await renameChatbot(ctx, { orgId: mine.id, chatbotId: bot.id }, "Helpdesk");
    expect(renamed?.name).toBe("Helpdesk");
    expect((await getChatbot(ctx, { orgId: mine.id, chatbotId: bot.id }))?.name).toBe("Helpdesk");

    expect(await deleteChatbot(ctx, { orgId: mine.id, chatbotId: bot.id })).toEqual({ id: bot.id, name: "Helpdesk" });
    expect(await getChatbot(ctx, { orgId: mine.id, chatbotId: bot.id })).toBeNull();
    expect((await listChatbots(ctx, mine.id)).map((b) => b.id)).toEqual([second.id]);
  });

  it("cannot see, rename or delete another organisation's chatbot", async () => {
    const { ctx, mine, theirs } = await twoOrgs();
    const { chatbot: foreign } = okResult(await createChatbot(ctx, theirs.id, { name: "Their bot" }));
    const ref = { orgId: mine.id, chatbotId: foreign.id };

    expect(await listChatbots(ctx, mine.id)).toEqual([]);
    expect(await getChatbot(ctx, ref)).toBeNull();
    expect(await renameChatbot(ctx, ref, "Hijacked")).toBeNull();
    expect(await deleteChatbot(ctx, ref)).toBeNull();

    const untouched = await getChatbot(ctx, { orgId: theirs.id, chatbotId: foreign.id });
    expect(untouched?.name).toBe("Their bot");
  });

  it("refuses a chatbot past the plan's limit, naming it and how to raise it", async () => {
    const { ctx, theirs } = await twoOrgs();
    okResult(await createChatbot(ctx, theirs.id, { name: "First" }));
    const refused = await createChatbot(ctx, theirs.id, { name: "Second" });
    expect(refused).toEqual({
      ok: false,
      message:
        "The Free plan allows 1 chatbot and this organisation has 1. An owner can raise it by moving to the Starter plan (3 chatbots) on the Plans page.",
    });
    expect(await listChatbots(ctx, theirs.id)).toHaveLength(1);
  });

  it("keeps a new chatbot's knowledge in its own shard from the start (D1 without the binding)", async () => {
    const { ctx: recording } = recordingContext();
    const { mine } = await twoOrgs();
    const { chatbot: bot } = okResult(await createChatbot(recording, mine.id, { name: "Sharded" }));
    expect(bot.knowledgeStore).toBe("shard");
    const ref = { orgId: mine.id, chatbotId: bot.id };
    const created = await createTextSource(recording, ref, { title: "Hours", text: "The shop opens at nine in the morning and closes at six." });
    if (!created.ok) throw new Error(created.message);
    expect((await runIngestionUntilIdle(recording, created.source.id)).source?.status).toBe("ready");
    const inD1 = await recording.env.DB.prepare("SELECT count(*) AS n FROM chunks WHERE chatbot_id = ?").bind(bot.id).first<{ n: number }>();
    expect(inD1?.n).toBe(0);
    const store = await knowledgeStore(recording, ref);
    expect(await store.countChunks()).toBeGreaterThan(0);
    expect((await store.retrieve("when does the shop open?", { k: 1 })).passages[0]?.sourceId).toBe(created.source.id);

    const withoutShards = { ...testContext(), env: { ...testContext().env, KNOWLEDGE_SHARD: undefined as unknown as DurableObjectNamespace } };
    expect(okResult(await createChatbot(withoutShards, mine.id, { name: "In D1" })).chatbot.knowledgeStore).toBe("d1");
  });

  it("keeps a new chatbot's messages and conversation index in its own shard from the start (D1 without the binding)", async () => {
    const { ctx: service } = recordingContext();
    const { mine } = await twoOrgs();
    const { chatbot: bot } = okResult(await createChatbot(service, mine.id, { name: "Sharded" }));
    expect(bot.messageStore).toBe("shard");
    expect(bot.conversationStore).toBe("shard");
    const turn = await takeTurn(service, { target: { chatbot: bot, org: mine }, channel: "widget", visitorId: "v_new_bot_shard_01", text: "Hello!" });
    const reply = await turnReply(turn);
    if (!reply.ok) throw new Error(reply.message);
    await turn.done;
    const inD1 = await service.env.DB.prepare("SELECT count(*) AS n FROM messages WHERE chatbot_id = ?").bind(bot.id).first<{ n: number }>();
    expect(inD1?.n).toBe(0);
    const rowsInD1 = await service.env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE chatbot_id = ?").bind(bot.id).first<{ n: number }>();
    expect(rowsInD1?.n).toBe(0);
    const index = await conversationIndex(service, { orgId: mine.id, chatbotId: bot.id });
    expect(index.kind).toBe("shard");
    expect((await index.get(reply.conversationId))?.messageCount).toBe(2);
    const store = await messageStore(service, { orgId: mine.id, chatbotId: bot.id });
    expect(store.kind).toBe("shard");
    expect((await store.transcript(reply.conversationId)).map((m) => [m.role, m.id === reply.message?.id])).toEqual([
      ["visitor", false],
      ["bot", true],
    ]);

    const withoutShards = { ...testContext(), env: { ...testContext().env, CONVERSATION_SHARD: undefined as unknown as DurableObjectNamespace } };
    const inD1Bot = okResult(await createChatbot(withoutShards, mine.id, { name: "In D1" })).chatbot;
    expect([inD1Bot.messageStore, inD1Bot.conversationStore]).toEqual(["d1", "d1"]);
  });

  it("never passes the limit when creations race", async () => {
    const { ctx, mine } = await twoOrgs(); // Starter: 3 chatbots
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => createChatbot(ctx, mine.id, { name: `Bot ${i}` })));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(await listChatbots(ctx, mine.id)).toHaveLength(3);
  });
});
