import { describe, expect, it } from "vitest";
import { createOrganisation } from "../orgs/organisations";
import { makeUser, testContext } from "../orgs/test-utils";
import { createChatbot, deleteChatbot, getChatbot, listChatbots, renameChatbot } from "./chatbots";

async function twoOrgs() {
  const ctx = testContext();
  const alice = await makeUser(ctx, "Alice");
  const bob = await makeUser(ctx, "Bob");
  const mine = await createOrganisation(ctx, alice.id, { name: "Mine" });
  const theirs = await createOrganisation(ctx, bob.id, { name: "Theirs" });
  return { ctx, mine, theirs };
}

describe("chatbots", () => {
  it("creates, lists, renames and deletes within an organisation", async () => {
    const { ctx, mine } = await twoOrgs();
    const bot = await createChatbot(ctx, mine.id, { name: " Support bot " });
    expect(bot.id).toMatch(/^cb_[a-z2-7]{16}$/);
    expect(bot).toMatchObject({ orgId: mine.id, name: "Support bot", settings: {}, visibility: "public" });
    const second = await createChatbot(ctx, mine.id, { name: "Sales bot" });

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
    const foreign = await createChatbot(ctx, theirs.id, { name: "Their bot" });
    const ref = { orgId: mine.id, chatbotId: foreign.id };

    expect(await listChatbots(ctx, mine.id)).toEqual([]);
    expect(await getChatbot(ctx, ref)).toBeNull();
    expect(await renameChatbot(ctx, ref, "Hijacked")).toBeNull();
    expect(await deleteChatbot(ctx, ref)).toBeNull();

    const untouched = await getChatbot(ctx, { orgId: theirs.id, chatbotId: foreign.id });
    expect(untouched?.name).toBe("Their bot");
  });
});
