import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { makeUser, testContext, testConversationStore, testMessageStore } from "../../../tests/factories";
import { newId } from "../auth/crypto";
import { getOrCreateConversation, recordExchange } from "../chat/conversations";
import { chatbots, knowledgeSources, organisations } from "../db/schema";
import type { Env } from "../env";
import { createOrganisation } from "../orgs/organisations";
import { indexChunks } from "../retrieval/indexing";
import { suggestReply } from "./suggest";

// The knowledge's answer to the visitor's last question as the agent's draft (ADR 027): found with
// the answer engine's retrieval, composed by the built-in engine, nothing stored or sent.

async function setup() {
  const ctx = testContext();
  const user = await makeUser();
  const org = await createOrganisation(ctx, user.id, { name: "Draft Co" });
  const bot = await ctx.db
    .insert(chatbots)
    .values({ id: newId("cb_"), orgId: org.id, name: "Helper", messageStore: testMessageStore, conversationStore: testConversationStore })
    .returning()
    .get();
  const sourceId = newId("ks_");
  await ctx.db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "Shipping", status: "ready" });
  await indexChunks({ env: env as unknown as Env, db: ctx.db }, { orgId: org.id, chatbotId: bot.id, sourceId }, [
    { title: "Shipping", heading: null, url: null, text: "We ship to Germany in three working days. Shipping to Germany costs 9 euros.", position: 0 },
  ]);
  const fresh = (await ctx.db.select().from(organisations).where(eq(organisations.id, org.id)).get())!;
  const conversation = await getOrCreateConversation(
    ctx,
    { orgId: org.id, chatbotId: bot.id },
    { visitorId: `v_draft_${newId().slice(0, 10)}`, channel: "widget" },
  );
  return { ctx, org: fresh, bot, conversation };
}

describe("suggested reply", () => {
  it("drafts the knowledge's answer to the visitor's last question, without citation marks", async () => {
    const s = await setup();
    const target = { org: s.org, chatbot: s.bot };
    expect(await suggestReply(s.ctx, target, s.conversation.id)).toEqual({ ok: true, question: null, draft: null, sources: [] });
    await recordExchange(s.ctx, s.conversation, { visitorText: "How long does shipping to Germany take?", askedAt: Date.now(), bot: null });
    const r = await suggestReply(s.ctx, target, s.conversation.id);
    expect(r).toMatchObject({ ok: true, question: "How long does shipping to Germany take?", sources: ["Shipping"] });
    if (!r.ok) throw new Error("no draft");
    expect(r.draft).toMatch(/three working days/);
    expect(r.draft).not.toMatch(/\\[\\d\\]/);
  });

  it("says when the knowledge has nothing, and refuses another chatbot's conversation", async () => {
    const s = await setup();
    await recordExchange(s.ctx, s.conversation, { visitorText: "Do you repair bicycles?", askedAt: Date.now(), bot: null });
    expect(await suggestReply(s.ctx, { org: s.org, chatbot: s.bot }, s.conversation.id)).toMatchObject({ ok: true, draft: null });
    const other = await setup();
    expect(await suggestReply(s.ctx, { org: s.org, chatbot: s.bot }, other.conversation.id)).toMatchObject({ ok: false, code: "not_found" });
  });
});
