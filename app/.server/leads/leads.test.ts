import { env } from "cloudflare:workers";
import { eq, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LEAD_STATUSES, type LeadListParams } from "~/lib/schemas/leads";
import { newId } from "../auth/crypto";
import { getOrCreateConversation } from "../chat/conversations";
import { createDb } from "../db/client";
import { chatbots, leadConversations, leadEvents, leads, organisations } from "../db/schema";
import { createLead, deleteLead, findLeads, getLead, leadPageQuery, updateLead } from "./leads";
import { testConversationStore, testMessageStore } from "../../../tests/factories";
import { conversationRow } from "../../../tests/integration/conversation-rows";

// The leads domain through its real writes: de-duplication by email, keyset pages, filters and
// search, the history of changes, and query plans that never scan the table.

// With the bindings: a chatbot of the default test mode (index in its shard; TEST_CONVERSATION_STORE=d1 in D1) keeps its conversations there.
const ctx = { db: createDb(env.DB), env };

async function bot() {
  const orgId = newId("org_");
  await ctx.db.insert(organisations).values({ id: orgId, name: "L", slug: `l-${newId()}`, periodStart: Date.now() });
  const chatbotId = newId("cb_");
  await ctx.db.insert(chatbots).values({ id: chatbotId, orgId, name: "Bot", messageStore: testMessageStore, conversationStore: testConversationStore });
  return { orgId, chatbotId };
}

const params = (p: Partial<LeadListParams> = {}): LeadListParams => ({ q: "", status: null, from: null, to: null, older: null, ...p });
const member = { userId: null, label: "Ada (test)" };

describe("leads: de-duplication by email per chatbot", () => {
  it("a repeat email (any case) fills in new non-empty fields and links the new conversation", async () => {
    const ref = await bot();
    const c1 = await getOrCreateConversation(ctx, ref, { visitorId: "v_dedupe_1", channel: "widget" });
    const c2 = await getOrCreateConversation(ctx, ref, { visitorId: "v_dedupe_2", channel: "widget" });
    const first = await createLead(ctx, ref, {
      conversationId: c1.id,
      visitorId: "v_dedupe_1",
      email: "Ada@Example.com",
      phone: "+44 1",
      custom: { Company: "Acme" },
    });
    const again = await createLead(ctx, ref, {
      conversationId: c2.id,
      visitorId: "v_dedupe_2",
      name: "Ada",
      email: " ADA@example.COM ",
      phone: "",
      custom: { Size: "10" },
    });
    expect(again.id).toBe(first.id);
    const all = await ctx.db.select().from(leads).where(eq(leads.chatbotId, ref.chatbotId)).all();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ name: "Ada", email: "ada@example.com", phone: "+44 1", custom: { Company: "Acme", Size: "10" } });
    const detail = (await getLead(ctx, ref, first.id))!;
    expect(detail.conversations.map((c) => c.id).sort()).toEqual([c1.id, c2.id].sort());
    expect(detail.events.map((e) => e.kind).sort()).toEqual(["conversation", "created", "updated"]);
    // Both conversations carry the contact in the conversation list.
    const flagged = await conversationRow(c2.id, ref);
    expect(flagged).toMatchObject({ hasLead: true, leadName: "Ada", leadEmail: "ada@example.com" });
  });

  it("the same email on another chatbot, or no email, makes a new lead", async () => {
    const a = await bot();
    const b = await bot();
    const x = await createLead(ctx, a, { email: "same@example.com", source: "api" });
    const y = await createLead(ctx, b, { email: "same@example.com", source: "api" });
    expect(x.id).not.toBe(y.id);
    const p1 = await createLead(ctx, a, { phone: "123", source: "api" });
    const p2 = await createLead(ctx, a, { phone: "123", source: "api" });
    expect(p1.id).not.toBe(p2.id);
  });
});

describe("leads: list, filters, pages and history", () => {
  it("pages newest first by (created_at, id) without gaps or repeats, even on equal times", async () => {
    const ref = await bot();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createLead(ctx, ref, { email: `p${i}@example.com`, source: "api" })).id);
    // Same timestamp for several rows: the id breaks the tie.
    await ctx.db.update(leads).set({ createdAt: 1_700_000_000_000 }).where(eq(leads.chatbotId, ref.chatbotId));
    const seen: string[] = [];
    let older = null;
    do {
      const page = await findLeads(ctx, ref, params({ older }), 3);
      seen.push(...page.rows.map((r) => r.id));
      older = page.older;
    } while (older);
    expect(seen).toHaveLength(7);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it("searches name, email, phone and notes; filters by status and UTC days", async () => {
    const ref = await bot();
    const ada = await createLead(ctx, ref, { name: "Ada Lovelace", email: "ada@example.com", source: "api" });
    const bob = await createLead(ctx, ref, { name: "Bob", phone: "+33 6 12 34", source: "api" });
    const cy = await createLead(ctx, ref, { name: "Cy", email: "cy@corp.example", source: "api" });
    await updateLead(ctx, ref, cy.id, member, { status: "won", notes: "Wants 100% of the 50_seat plan" });
    await ctx.db
      .update(leads)
      .set({ createdAt: Date.parse("2026-03-01T10:00:00Z") })
      .where(eq(leads.id, ada.id));
    await ctx.db
      .update(leads)
      .set({ createdAt: Date.parse("2026-03-02T23:59:00Z") })
      .where(eq(leads.id, bob.id));
    await ctx.db
      .update(leads)
      .set({ createdAt: Date.parse("2026-03-03T00:00:00Z") })
      .where(eq(leads.id, cy.id));
    const found = async (p: Partial<LeadListParams>) => (await findLeads(ctx, ref, params(p))).rows.map((r) => r.name);
    expect(await found({ q: "LOVE" })).toEqual(["Ada Lovelace"]);
    expect(await found({ q: "corp.exa" })).toEqual(["Cy"]);
    expect(await found({ q: "12 34" })).toEqual(["Bob"]);
    expect(await found({ q: "100%" })).toEqual(["Cy"]);
    expect(await found({ q: "50_s" })).toEqual(["Cy"]);
    expect(await found({ q: "5%s" })).toEqual([]);
    expect(await found({ status: "won" })).toEqual(["Cy"]);
    expect(await found({ status: "new" })).toEqual(["Bob", "Ada Lovelace"]);
    expect(await found({ from: "2026-03-02", to: "2026-03-02" })).toEqual(["Bob"]);
    expect(await found({ from: "2026-03-02" })).toEqual(["Cy", "Bob"]);
    expect(await found({ to: "2026-03-01" })).toEqual(["Ada Lovelace"]);
  });

  it("status and notes changes are recorded with who and what; another chatbot's lead is refused", async () => {
    const ref = await bot();
    const other = await bot();
    const lead = await createLead(ctx, ref, { email: "h@example.com", source: "api" });
    expect(await updateLead(ctx, ref, lead.id, member, { status: "new", notes: "" })).toEqual({ ok: true, changed: false });
    await updateLead(ctx, ref, lead.id, member, { status: "contacted", notes: "Called" });
    const { events, lead: saved } = (await getLead(ctx, ref, lead.id))!;
    expect(saved).toMatchObject({ status: "contacted", notes: "Called" });
    const status = events.find((e) => e.kind === "status")!;
    expect(status).toMatchObject({ actorLabel: "Ada (test)", fromValue: "new", toValue: "contacted" });
    expect(events.find((e) => e.kind === "notes")).toMatchObject({ fromValue: null, toValue: "Called" });
    expect(events.find((e) => e.kind === "created")).toMatchObject({ actorLabel: "API" });
    expect(await updateLead(ctx, other, lead.id, member, { status: "won", notes: "" })).toEqual({ ok: false, changed: false });
    expect(await getLead(ctx, other, lead.id)).toBeNull();
  });
});

describe("leads: query plans", async () => {
  const ref = await bot();
  const plan = async (query: SQL) => (await ctx.db.all<{ detail: string }>(sql`explain query plan ${query}`)).map((r) => r.detail).join("\n");
  const older = { at: Date.now(), id: "lead_x" };
  const cases: [string, Partial<LeadListParams>, RegExp][] = [
    ["the whole list", {}, /SEARCH leads USING INDEX leads_list_idx \(chatbot_id=\?\)/],
    ["a later page", { older }, /SEARCH leads USING INDEX leads_list_idx \(chatbot_id=\? AND \(created_at,id\)<\(\?,\?\)\)/],
    ["a date range", { from: "2026-01-01", to: "2026-01-31" }, /SEARCH leads USING INDEX leads_list_idx \(chatbot_id=\? AND created_at>\? AND created_at<\?\)/],
    ["a search", { q: "ada" }, /SEARCH leads USING INDEX leads_list_idx \(chatbot_id=\?\)/],
    ...LEAD_STATUSES.map((s): [string, Partial<LeadListParams>, RegExp] => [
      `status ${s}`,
      { status: s, older },
      /SEARCH leads USING INDEX leads_status_idx \(chatbot_id=\? AND status=\? AND \(created_at,id\)<\(\?,\?\)\)/,
    ]),
  ];
  for (const [label, p, expected] of cases) {
    it(`${label}: a range of one index in page order, no table scan, no sort`, async () => {
      const steps = await plan(leadPageQuery(ref, params(p)));
      expect(steps).toMatch(expected);
      expect(steps).not.toMatch(/SCAN leads\b/);
      expect(steps).not.toMatch(/TEMP B-TREE/);
    });
  }
});

describe("leads: delete", () => {
  it("removes the lead, its history and links, and scrubs its contact from the conversations it marked", async () => {
    const ref = await bot();
    const c1 = await getOrCreateConversation(ctx, ref, { visitorId: "v_del_1", channel: "widget" });
    const c2 = await getOrCreateConversation(ctx, ref, { visitorId: "v_del_2", channel: "widget" });
    const c3 = await getOrCreateConversation(ctx, ref, { visitorId: "v_del_3", channel: "widget" });
    const gone = await createLead(ctx, ref, { conversationId: c1.id, visitorId: "v_del_1", name: "Gone", email: "gone@example.com" });
    await createLead(ctx, ref, { conversationId: c2.id, visitorId: "v_del_2", email: "gone@example.com", phone: "+1" }); // repeat: links c2
    // c3 has another lead too: it keeps that one's contact.
    await createLead(ctx, ref, { conversationId: c3.id, visitorId: "v_del_3", name: "Stays", email: "stays@example.com" });
    await ctx.db.insert(leadConversations).values({ leadId: gone.id, conversationId: c3.id });
    await updateLead(ctx, ref, gone.id, member, { status: "won", notes: "Secret note" });

    const other = await bot();
    expect(await deleteLead(ctx, other, gone.id)).toBe(false);
    expect(await deleteLead(ctx, ref, gone.id)).toBe(true);
    expect(await ctx.db.select().from(leads).where(eq(leads.id, gone.id)).get()).toBeUndefined();
    expect(await ctx.db.select().from(leadEvents).where(eq(leadEvents.leadId, gone.id)).all()).toEqual([]);
    expect(await ctx.db.select().from(leadConversations).where(eq(leadConversations.leadId, gone.id)).all()).toEqual([]);
    const flags = async (id: string) => {
      const row = await conversationRow(id, ref);
      return row && { hasLead: row.hasLead, leadName: row.leadName, leadEmail: row.leadEmail };
    };
    expect(await flags(c1.id)).toEqual({ hasLead: false, leadName: null, leadEmail: null });
    expect(await flags(c2.id)).toEqual({ hasLead: false, leadName: null, leadEmail: null });
    expect(await flags(c3.id)).toEqual({ hasLead: true, leadName: "Stays", leadEmail: "stays@example.com" });
    expect(await deleteLead(ctx, ref, gone.id)).toBe(false);
  });
});
