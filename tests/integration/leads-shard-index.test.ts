import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { conversationIndex, d1ConversationIndex, shardConversationIndex } from "~/.server/chat/conversation-index";
import { createServiceContext } from "~/.server/context";
import type { Env } from "~/.server/env";
import { chatbots, leads } from "~/.server/db/schema";
import { createLead, deleteLead, getLead } from "~/.server/leads/leads";
import { db, makeOrg, makeUser, testContext } from "../factories";

// A lead left on a chatbot whose conversation index is in its shard (ADR 044 §5, ADR 048): D1's
// `leads` stays the record, and the same createLead call marks the shard's conversations and writes
// the shard's `visitor_leads`, which the visitor's next conversations copy — a turn never reads D1's
// leads. The chatbot's columns are set here so the test does not depend on which bindings createChatbot sees.

async function shardChatbot(name: string) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, name);
  await db.update(chatbots).set({ messageStore: "shard", conversationStore: "shard" }).where(eq(chatbots.id, bot.id));
  return { orgId: org.id, chatbotId: bot.id };
}

describe("leads on a chatbot whose conversation index is in its shard", () => {
  it("marks the shard's conversations and gives the visitor's next conversation the contact", async () => {
    const ctx = testContext();
    const ref = await shardChatbot("Shard leads");
    const index = await conversationIndex(ctx, ref);
    expect(index.kind).toBe("shard");
    const first = await index.open({ visitorId: "v_lead", channel: "widget" });
    const earlier = await index.create({ visitorId: "v_lead", channel: "api" });
    const stranger = await index.open({ visitorId: "v_other", channel: "widget" });

    await createLead(ctx, ref, { conversationId: first.id, visitorId: "v_lead", name: "Ann", email: "Ann@Example.com" });
    // A second form later fills in only a name: the email is kept.
    await createLead(ctx, ref, { conversationId: first.id, visitorId: "v_lead", name: "Ann Berg", email: null });

    for (const id of [first.id, earlier.id]) expect(await index.get(id)).toMatchObject({ hasLead: true, leadName: "Ann Berg", leadEmail: "ann@example.com" });
    expect(await index.get(stranger.id)).toMatchObject({ hasLead: false, leadName: null, leadEmail: null });

    const next = await index.create({ visitorId: "v_lead", channel: "widget" });
    expect(next).toMatchObject({ isNew: true, hasLead: true, leadName: "Ann Berg", leadEmail: "ann@example.com" });
    const opened = await index.open({ visitorId: "v_lead", channel: "voice" });
    expect(opened).toMatchObject({ isNew: true, hasLead: true, leadEmail: "ann@example.com" });

    // D1 holds the lead (the record) and no conversation of this chatbot.
    const inD1 = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM conversations WHERE chatbot_id = ?1) AS c, (SELECT count(*) FROM leads WHERE chatbot_id = ?1) AS l",
    )
      .bind(ref.chatbotId)
      .first<{ c: number; l: number }>();
    expect(inD1).toEqual({ c: 0, l: 2 });
    expect(await d1ConversationIndex(ctx, ref).get(first.id)).toBeNull();
  });

  it("deleting a lead scrubs its contact from the shard's conversations and from the visitor's next ones", async () => {
    const ctx = testContext();
    const ref = await shardChatbot("Shard lead delete");
    const index = await conversationIndex(ctx, ref);
    const first = await index.open({ visitorId: "v_del", channel: "widget" });
    const second = await index.create({ visitorId: "v_del", channel: "widget" });
    // Another visitor's conversation linked to the same lead by its email (a repeat lead) keeps its own lead.
    const other = await index.open({ visitorId: "v_keep", channel: "widget" });
    const ann = await createLead(ctx, ref, { conversationId: first.id, visitorId: "v_del", name: "Ann", email: "ann@example.com" });
    const bob = await createLead(ctx, ref, { visitorId: "v_del", email: "bob@example.com" });
    await createLead(ctx, ref, { conversationId: other.id, visitorId: "v_keep", name: "Kim", email: "kim@example.com" });
    expect(await index.get(second.id)).toMatchObject({ hasLead: true, leadName: "Ann", leadEmail: "bob@example.com" });

    // Bob's lead goes: Ann's remains on the visitor's conversations and for their next one.
    expect(await deleteLead(ctx, ref, bob.id)).toBe(true);
    for (const id of [first.id, second.id]) expect(await index.get(id)).toMatchObject({ hasLead: true, leadName: "Ann", leadEmail: "ann@example.com" });
    expect(await index.create({ visitorId: "v_del", channel: "api" })).toMatchObject({ hasLead: true, leadEmail: "ann@example.com" });

    // Ann's goes too: nothing of either is left in the shard for this visitor.
    expect(await deleteLead(ctx, ref, ann.id)).toBe(true);
    for (const id of [first.id, second.id]) expect(await index.get(id)).toMatchObject({ hasLead: false, leadName: null, leadEmail: null });
    expect(await index.create({ visitorId: "v_del", channel: "api" })).toMatchObject({ hasLead: false, leadName: null, leadEmail: null });
    expect(await index.get(other.id)).toMatchObject({ hasLead: true, leadName: "Kim", leadEmail: "kim@example.com" });
  });

  it("refuses, without the bindings, what would reach the shard's conversations; D1-only leads still work", async () => {
    const ctx = testContext();
    const ref = await shardChatbot("Shard leads without env");
    const index = await conversationIndex(ctx, ref);
    const c = await index.open({ visitorId: "v_noenv", channel: "widget" });
    const lead = await createLead(ctx, ref, { conversationId: c.id, visitorId: "v_noenv", name: "Ann", email: "ann@noenv.example" });
    // Before: D1's conversations table, where this chatbot has no rows, silently (marks lost, a lead without its conversations).
    await expect(createLead({ db }, ref, { conversationId: c.id, visitorId: "v_noenv", email: "bob@noenv.example" })).rejects.toThrow(/needs env/);
    expect(await db.select().from(leads).where(eq(leads.email, "bob@noenv.example")).get()).toBeUndefined(); // nothing written
    await expect(getLead({ db }, ref, lead.id)).rejects.toThrow(/needs env/);
    await expect(deleteLead({ db }, ref, lead.id)).rejects.toThrow(/needs env/);
    expect(await db.select().from(leads).where(eq(leads.id, lead.id)).get()).toMatchObject({ id: lead.id }); // not deleted
    expect(await index.get(c.id)).toMatchObject({ hasLead: true, leadEmail: "ann@noenv.example" });
    // A lead with neither conversation nor visitor (the REST API's) touches only D1: no bindings needed.
    expect(await createLead({ db }, ref, { email: "api@noenv.example", source: "api" })).toMatchObject({ email: "api@noenv.example" });
    // With the bindings, the same calls go through.
    expect((await getLead(ctx, ref, lead.id))?.conversations.map((x) => x.id)).toEqual([c.id]);
    expect(await deleteLead(ctx, ref, lead.id)).toBe(true);
  });

  it("serves a D1 chatbot's leads without the bindings, as before", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "D1 leads without env");
    await db.update(chatbots).set({ conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
    const ref = { orgId: org.id, chatbotId: bot.id };
    const c = await d1ConversationIndex({ db }, ref).open({ visitorId: "v_d1_noenv", channel: "widget" });
    const lead = await createLead({ db }, ref, { conversationId: c.id, visitorId: "v_d1_noenv", email: "d1@noenv.example" });
    expect((await getLead({ db }, ref, lead.id))?.conversations.map((x) => x.id)).toEqual([c.id]);
    expect(await deleteLead({ db }, ref, lead.id)).toBe(true);
  });

  it("recomputes lead marks the same way in D1 and in the shard (leadScope, resetLeads)", async () => {
    const service = createServiceContext(env as unknown as Env);
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Reset parity");
    const ref = { orgId: org.id, chatbotId: bot.id };
    const answers = [];
    for (const index of [d1ConversationIndex(service, ref), shardConversationIndex(service.env, ref)]) {
      const ids = [];
      for (const [i, visitorId] of ["v_a", "v_a", "v_b"].entries()) {
        const c = await index.create({ visitorId, channel: "widget", id: `cv_reset_${i}`, now: 1_000 + i });
        await index.markLead({ conversationId: c.id, visitorId, name: "Old", email: "old@example.com", at: 2_000 });
        ids.push(c.id);
      }
      const scope = await index.leadScope("v_a", ["cv_reset_2"]);
      const recomputed = await index.resetLeads({
        visitorId: "v_a",
        conversationIds: ["cv_reset_2"],
        // A lead of another visitor linked to v_a's first conversation; nothing for v_b's.
        leads: [{ visitorId: "v_z", conversationIds: ["cv_reset_0"], name: "Zed", email: null, createdAt: 3_000 }],
        at: 4_000,
      });
      answers.push({
        scope: scope.map((c) => `${c.id}:${c.visitorId}`).sort(),
        recomputed,
        rows: await Promise.all(ids.map(async (id) => (({ hasLead, leadName, leadEmail }) => ({ hasLead, leadName, leadEmail }))((await index.get(id))!))),
      });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).toEqual({
      scope: ["cv_reset_0:v_a", "cv_reset_1:v_a", "cv_reset_2:v_b"],
      recomputed: 3,
      rows: [
        { hasLead: true, leadName: "Zed", leadEmail: null },
        { hasLead: false, leadName: null, leadEmail: null },
        { hasLead: false, leadName: null, leadEmail: null },
      ],
    });
  });

  it("still marks D1's conversations for a chatbot whose index is in D1", async () => {
    const ctx = testContext();
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "D1 leads");
    // A chatbot from before the switch (new ones start with their index in their shard).
    await db.update(chatbots).set({ conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
    const ref = { orgId: org.id, chatbotId: bot.id };
    const index = await conversationIndex(ctx, ref);
    expect(index.kind).toBe("d1");
    const c = await index.open({ visitorId: "v_d1", channel: "widget" });
    await createLead(ctx, ref, { conversationId: c.id, visitorId: "v_d1", email: "d1@example.com" });
    expect(await index.get(c.id)).toMatchObject({ hasLead: true, leadEmail: "d1@example.com" });
    expect(await index.create({ visitorId: "v_d1", channel: "api" })).toMatchObject({ hasLead: true, leadEmail: "d1@example.com" });
  });
});
