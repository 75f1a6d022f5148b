import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { knowledgeSources } from "~/.server/db/schema";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { seedChunks } from "../knowledge-rows";
import { request } from "./helpers";

// The "What would the bot retrieve?" box on the KB page runs the chatbot's real retrieval.
describe("KB retrieval preview", async () => {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Preview");
  const other = await makeOrg(owner.id, "PreviewOther");
  const add = async (chatbotId: string, title: string, text: string) => {
    const sourceId = newId("ks_");
    await db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId, type: "text", title, status: "ready" });
    await seedChunks({ orgId: org.id, chatbotId }, sourceId, [{ title, heading: null, url: null, text, position: 0 }]);
  };
  await add(bot.id, "Shipping times", "Orders ship within two working days. Express delivery arrives the next day.");
  await add(bot.id, "Returns", "You can return unworn shoes within 30 days for a full refund.");
  await add(other.bot.id, "Secret pricing", "Wholesale discount codes for shipping partners.");
  const kb = `/app/${org.id}/${bot.id}/kb`;

  it("shows the passages the bot would use, best first, with scores", async () => {
    const res = await request(`${kb}?q=${encodeURIComponent("when will my order ship?")}`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("What would the bot retrieve?");
    const first = html.indexOf("Shipping times", html.indexOf("What would the bot retrieve?"));
    expect(first).toBeGreaterThan(0);
    expect(html).toMatch(/score \d\.\d{3}/);
    expect(html).not.toContain("Secret pricing"); // another chatbot's knowledge never shows
    expect(html).not.toContain("Nothing clears the relevance floor");
  });

  it("says when the bot would fall back instead of answering", async () => {
    const res = await request(`${kb}?q=${encodeURIComponent("what is the capital of mongolia")}`, { cookie: owner.cookie });
    expect(await res.text()).toContain("Nothing clears the relevance floor");
  });

  it("is refused to an agent like the rest of the page", async () => {
    const agent = await makeUser();
    await addMember(org.id, agent.id, "agent");
    expect((await request(`${kb}?q=shipping`, { cookie: agent.cookie })).status).toBe(403);
  });
});
