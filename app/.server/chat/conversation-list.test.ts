import { env } from "cloudflare:workers";
import { eq, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CONVERSATION_FILTERS, type ConversationFilter, type ConversationListParams } from "~/lib/schemas/conversation-list";
import { newId } from "../auth/crypto";
import { createDb } from "../db/client";
import { chatbots, conversations, organisations } from "../db/schema";
import { createLead } from "../leads/leads";
import { reportProblem, requestHuman, setMessageFeedback } from "../widget/visitor-actions";
import { deleteChatbot } from "../chatbots/chatbots";
import { conversationCountQuery, conversationPageQuery, findConversations, SEARCH_MESSAGE_CAP, type ConversationListRow } from "./conversation-list";
import { getOrCreateConversation, recordExchange, type ChatbotRef } from "./conversations";
import { conversationIndex } from "./conversation-index";
import { messageStore } from "./message-store";
import { testConversationStore, testMessageStore } from "../../../tests/factories";
import { insertConversations } from "../../../tests/integration/conversation-rows";

// The conversation list through the real write paths: each badge is set by the function that
// writes what it stands for (a reply, a thumb, a report, a handoff, a lead), and each filter and
// search finds what it should and nothing else.

const ctx = { db: createDb(env.DB), env };

async function bot(messageStore: "d1" | "shard" = testMessageStore, conversationStore: "d1" | "shard" = testConversationStore): Promise<ChatbotRef> {
  const orgId = newId("org_");
  await ctx.db.insert(organisations).values({ id: orgId, name: "L", slug: `l-${newId()}`, periodStart: Date.now() });
  const chatbotId = newId("cb_");
  await ctx.db.insert(chatbots).values({ id: chatbotId, orgId, name: "Bot", messageStore, conversationStore });
  return { orgId, chatbotId };
}

const botReply = (content: string, answered: boolean) => ({
  id: newId("msg_"),
  at: Date.now(),
  content,
  sources: [],
  answered,
  model: answered ? "local" : null,
  latencyMs: 5,
  firstTokenMs: 1,
  credits: 1,
});

/** One visitor's conversation with one exchange; returns its id and the bot message's id. */
async function talk(ref: ChatbotRef, visitorId: string, question: string, opts: { unanswered?: boolean; channel?: "widget" | "test" } = {}) {
  const conversation = await getOrCreateConversation(ctx, ref, { visitorId, channel: opts.channel ?? "widget" });
  const bot = botReply(opts.unanswered ? "Sorry, I do not know." : "Here is the answer.", !opts.unanswered);
  await recordExchange(ctx, conversation, { visitorText: question, askedAt: Date.now(), bot, unanswered: opts.unanswered });
  return { id: conversation.id, botMessageId: bot.id };
}

const params = (p: Partial<ConversationListParams> = {}): ConversationListParams => ({ q: "", filters: [], older: null, newer: null, ...p });
const ids = (rows: ConversationListRow[]) => rows.map((r) => r.id).sort();
const list = async (ref: ChatbotRef, p: Partial<ConversationListParams> = {}) => (await findConversations(ctx, ref, params(p))).rows;

describe("conversation list: badges and filters", async () => {
  const ref = await bot();
  const plain = await talk(ref, "v_plain_0001", "What are your opening hours?");
  const unanswered = await talk(ref, "v_unans_0001", "Do you sell unicorns?", { unanswered: true });
  const thumbsDown = await talk(ref, "v_thumb_0001", "How much is shipping?");
  await setMessageFeedback(ctx, ref, "v_thumb_0001", thumbsDown.botMessageId, -1);
  const thumbsUp = await talk(ref, "v_thumbu_001", "Where are you based?");
  await setMessageFeedback(ctx, ref, "v_thumbu_001", thumbsUp.botMessageId, 1);
  const reported = await talk(ref, "v_report_001", "Is it waterproof?");
  await reportProblem(ctx, ref, { visitorId: "v_report_001", messageId: reported.botMessageId, comment: "Wrong answer" });
  const waiting = await talk(ref, "v_human_0001", "I need help with my order");
  await requestHuman(ctx, ref, { visitorId: "v_human_0001", conversationId: waiting.id });
  const withLead = await talk(ref, "v_lead_00001", "Can someone call me back?");
  await createLead(ctx, ref, { conversationId: withLead.id, visitorId: "v_lead_00001", name: "Ada Lovelace", email: "Ada@Example.com" });
  // A lead left before the visitor wrote (no conversation yet) marks the conversation that follows.
  await createLead(ctx, ref, { conversationId: null, visitorId: "v_early_0001", name: null, email: "early@example.com" });
  const early = await talk(ref, "v_early_0001", "Hello, pricing please");
  // Another chatbot's flagged conversation never shows here.
  const other = await bot();
  await talk(other, "v_unans_0001", "Do you sell unicorns?", { unanswered: true });

  const expected: Record<ConversationFilter, string[]> = {
    unanswered: [unanswered.id],
    "rated-down": [thumbsDown.id],
    reported: [reported.id],
    waiting: [waiting.id],
    lead: [withLead.id, early.id],
  };

  it("each row carries its badges, its lead's name and email, channel and message count", async () => {
    const rows = await list(ref);
    expect(rows).toHaveLength(8);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(plain.id)).toMatchObject({
      unanswered: false,
      ratedDown: false,
      reported: false,
      waiting: false,
      hasLead: false,
      channel: "widget",
      messageCount: 2,
      firstQuestion: "What are your opening hours?",
    });
    expect(byId.get(unanswered.id)).toMatchObject({ unanswered: true, ratedDown: false });
    expect(byId.get(thumbsDown.id)).toMatchObject({ ratedDown: true, unanswered: false });
    expect(byId.get(thumbsUp.id)).toMatchObject({ ratedDown: false });
    expect(byId.get(reported.id)).toMatchObject({ reported: true });
    expect(byId.get(waiting.id)).toMatchObject({ waiting: true, messageCount: 3, lastRole: "system" });
    expect(byId.get(withLead.id)).toMatchObject({ hasLead: true, leadName: "Ada Lovelace", leadEmail: "ada@example.com" });
    expect(byId.get(early.id)).toMatchObject({ hasLead: true, leadName: null, leadEmail: "early@example.com" });
  });

  for (const filter of CONVERSATION_FILTERS) {
    it(`filter "${filter}" keeps exactly the conversations it names`, async () => {
      const page = await findConversations(ctx, ref, params({ filters: [filter] }));
      expect(ids(page.rows)).toEqual([...expected[filter]].sort());
      expect(page.total).toBe(expected[filter].length);
    });
  }

  it("filters combine (all must hold), and with a search", async () => {
    await setMessageFeedback(ctx, ref, "v_unans_0001", unanswered.botMessageId, -1);
    expect(ids(await list(ref, { filters: ["unanswered", "rated-down"] }))).toEqual([unanswered.id]);
    expect(ids(await list(ref, { filters: ["rated-down"] }))).toEqual([unanswered.id, thumbsDown.id].sort());
    expect(ids(await list(ref, { filters: ["rated-down"], q: "shipping" }))).toEqual([thumbsDown.id]);
    expect(await list(ref, { filters: ["waiting"], q: "shipping" })).toEqual([]);
    // Clearing the thumb clears the badge.
    await setMessageFeedback(ctx, ref, "v_unans_0001", unanswered.botMessageId, null);
    expect(ids(await list(ref, { filters: ["rated-down"] }))).toEqual([thumbsDown.id]);
  });

  it("search finds by message text (words in any order, the last one as a prefix), visitor id and lead email", async () => {
    expect(ids(await list(ref, { q: "opening" }))).toEqual([plain.id]);
    expect(ids(await list(ref, { q: "hours opening" }))).toEqual([plain.id]);
    expect(ids(await list(ref, { q: "open" }))).toEqual([plain.id]); // porter stem + prefix
    expect(ids(await list(ref, { q: "unicor" }))).toEqual([unanswered.id]);
    expect(ids(await list(ref, { q: "v_human" }))).toEqual([waiting.id]);
    expect(ids(await list(ref, { q: "v_human_0001" }))).toEqual([waiting.id]);
    expect(ids(await list(ref, { q: "ada@example.com" }))).toEqual([withLead.id]);
    expect(ids(await list(ref, { q: "ADA@exam" }))).toEqual([withLead.id]);
    expect(ids(await list(ref, { q: "early@" }))).toEqual([early.id]);
    // Only this chatbot's conversations, and no syntax leaks into the MATCH.
    expect(await list(ref, { q: "zebra" })).toEqual([]);
    expect(await list(ref, { q: 'unicorns" OR chatbot_id:*' })).toEqual([]);
    expect((await findConversations(ctx, ref, params({ q: "unicorns" }))).total).toBe(1);
  });
});

describe("conversation list: keyset pages", () => {
  it("walks all rows older and back newer with no duplicate or gap, even when many share a timestamp", async () => {
    const ref = await bot();
    const at = Date.now() - 1_000_000;
    const rows = Array.from({ length: 23 }, (_, i) => ({
      id: newId("cv_"),
      orgId: ref.orgId,
      chatbotId: ref.chatbotId,
      visitorId: `v_page_${String(i).padStart(4, "0")}`,
      channel: "widget" as const,
      messageCount: 1,
      // Groups of four with the same last activity: ties are broken by id.
      lastMessageAt: at + Math.floor(i / 4),
      unanswered: i % 2 === 0,
    }));
    for (const r of rows) await insertConversations(ref, [r]);
    const expectedOrder = [...rows].sort((a, b) => b.lastMessageAt - a.lastMessageAt || (a.id < b.id ? 1 : -1)).map((r) => r.id);

    for (const filters of [[], ["unanswered"]] as ConversationFilter[][]) {
      const want = expectedOrder.filter((id) => !filters.length || rows.find((r) => r.id === id)!.unanswered);
      const pages: string[][] = [];
      let p = await findConversations(ctx, ref, params({ filters }), { limit: 5 });
      expect(p.newer).toBeNull();
      pages.push(p.rows.map((r) => r.id));
      while (p.older) {
        p = await findConversations(ctx, ref, params({ filters, older: p.older }), { limit: 5 });
        pages.push(p.rows.map((r) => r.id));
      }
      expect(pages.flat()).toEqual(want);
      expect(p.total).toBe(want.length);
      // And back: each newer page is the same page as on the way down.
      for (let i = pages.length - 2; i >= 0; i--) {
        p = await findConversations(ctx, ref, params({ filters, newer: p.newer! }), { limit: 5 });
        expect(p.rows.map((r) => r.id)).toEqual(pages[i]);
      }
      expect(p.newer).toBeNull();
    }
  });
});

describe("conversation list: search over very common words", () => {
  it("reads the most recent matching messages only, says so, and keeps the total across pages", async () => {
    const ref = await bot();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await talk(ref, `v_common_${i}000`, `Common words number ${i}`)).id);
    // Many more messages with the same word in the first conversation than a search reads, stored as
    // any visitor message is (in the chatbot's store, with its search row).
    const store = await messageStore(ctx, ref);
    const at = Date.now();
    const many = Array.from({ length: SEARCH_MESSAGE_CAP + 1 }, (_, i) => ({
      id: newId("msg_"),
      conversationId: ids[0],
      role: "visitor" as const,
      content: "common again",
      createdAt: at + i,
    }));
    for (let i = 0; i < many.length; i += 50) await store.append(many.slice(i, i + 50));
    const first = await findConversations(ctx, ref, params({ q: "common" }), { limit: 1 });
    expect(first.searchCapped).toBe(true);
    expect(first.rows.map((r) => r.id)).toEqual([ids[0]]);
    expect(first.total).toBe(1);
    const few = await findConversations(ctx, ref, params({ q: "number" }), { limit: 2 });
    expect(few.searchCapped).toBe(false);
    expect(few.total).toBe(3);
    const next = await findConversations(ctx, ref, params({ q: "number", older: few.older }), { limit: 2 });
    expect(next.total).toBe(3);
    expect([...few.rows, ...next.rows].map((r) => r.id).sort()).toEqual([...ids].sort());
  });
});

describe("conversation list: query plans", async () => {
  const ref = await bot();
  const plan = async (query: SQL) => {
    const rows = await ctx.db.all<{ detail: string }>(sql`explain query plan ${query}`);
    return rows.map((r) => r.detail);
  };
  const cursor = { dir: "older" as const, at: { at: Date.now(), id: "cv_x" } };
  const INDEX: Record<ConversationFilter | "none", string> = {
    none: "conversations_list_idx",
    unanswered: "conversations_unanswered_idx",
    "rated-down": "conversations_rated_down_idx",
    reported: "conversations_reported_idx",
    waiting: "conversations_waiting_idx",
    lead: "conversations_lead_idx",
  };

  for (const key of Object.keys(INDEX) as (ConversationFilter | "none")[]) {
    it(`list and count${key === "none" ? "" : ` filtered by "${key}"`} are range scans of ${INDEX[key]}, in order`, async () => {
      const filters = key === "none" ? [] : [key];
      for (const c of [null, cursor]) {
        const steps = await plan(conversationPageQuery(ref, { q: "", filters }, c, 50));
        expect(steps.join("\n")).toMatch(
          new RegExp(`SEARCH c USING INDEX ${INDEX[key]} \\(org_id=\\? AND chatbot_id=\\?${c ? " AND \\(last_message_at,id\\)<\\(\\?,\\?\\)" : ""}\\)`),
        );
        expect(steps.join("\n")).not.toMatch(/SCAN c\b/);
        expect(steps.join("\n")).not.toMatch(/TEMP B-TREE/);
      }
      const count = (await plan(conversationCountQuery(ref, { q: "", filters }))).join("\n");
      expect(count).toMatch(new RegExp(`SEARCH c USING COVERING INDEX ${INDEX[key]} \\(org_id=\\? AND chatbot_id=\\?\\)`));
    });
  }

  it("a search reads the matching ids through FTS5 and index ranges, then the rows by primary key", async () => {
    const steps = (await plan(conversationPageQuery(ref, { q: "refund", filters: ["unanswered"] }, cursor, 50))).join("\n");
    expect(steps).toMatch(/SCAN conversation_search VIRTUAL TABLE INDEX/);
    expect(steps).toMatch(/SEARCH conversations USING (COVERING )?INDEX conversations_visitor_idx \(chatbot_id=\? AND visitor_id>\? AND visitor_id<\?\)/);
    expect(steps).toMatch(/SEARCH conversations USING (COVERING )?INDEX conversations_lead_email_idx \(chatbot_id=\? AND lead_email>\? AND lead_email<\?\)/);
    expect(steps).toMatch(/SEARCH c USING INDEX sqlite_autoindex_conversations_1 \(id=\?\)/);
    expect(steps).not.toMatch(/SCAN c\b/);
    expect(steps).not.toMatch(/SCAN conversations\b/);
  });
});

describe("migration 0010: the backfill of existing conversations", () => {
  it("sets the flags, the lead's contact and the search index from rows written before it", async () => {
    // A chatbot from before 0010 keeps its messages and conversations in D1 (ADR 040, 044): the migration reads D1's rows.
    const ref = await bot("d1", "d1");
    // Rows as the code before 0010 wrote them: no flags, nothing in conversation_search.
    const conv = (id: string, visitorId: string) =>
      ctx.db.run(
        sql`insert into conversations (id, org_id, chatbot_id, visitor_id, channel, message_count) values (${id}, ${ref.orgId}, ${ref.chatbotId}, ${visitorId}, 'widget', 2)`,
      );
    const msg = (id: string, conversationId: string, role: string, content: string, answered: number | null, model: string | null) =>
      ctx.db.run(
        sql`insert into messages (id, conversation_id, org_id, chatbot_id, role, content, answered, model) values (${id}, ${conversationId}, ${ref.orgId}, ${ref.chatbotId}, ${role}, ${content}, ${answered}, ${model})`,
      );
    const [fell, fine, byVisitor] = [newId("cv_"), newId("cv_"), newId("cv_")];
    await conv(fell, "v_old_fell");
    await conv(fine, "v_old_fine");
    await conv(byVisitor, "v_old_lead");
    await msg(newId("msg_"), fell, "visitor", "Backfilled kangaroo question", null, null);
    await msg(newId("msg_"), fell, "bot", "Sorry, I do not know.", 0, null);
    await msg(newId("msg_"), fine, "visitor", "Hello", null, null);
    await msg(newId("msg_"), fine, "bot", "Hi!", 0, "local"); // small talk: a model reply
    await ctx.db.run(
      sql`insert into bug_reports (id, org_id, chatbot_id, conversation_id, comment) values (${newId("bug_")}, ${ref.orgId}, ${ref.chatbotId}, ${fine}, 'Odd')`,
    );
    await ctx.db.run(
      sql`insert into leads (id, org_id, chatbot_id, conversation_id, visitor_id, name, email) values (${newId("lead_")}, ${ref.orgId}, ${ref.chatbotId}, null, 'v_old_lead', 'Old Lead', 'old@example.com')`,
    );
    const migration = (env as unknown as { TEST_MIGRATIONS: { name: string; queries: string[] }[] }).TEST_MIGRATIONS.find((m) => m.name.startsWith("0010_"))!;
    // The data statements of the migration (its schema statements already ran).
    for (const q of migration.queries.filter((q) => /^\s*(--[^\n]*\n\s*)*(insert|update)/i.test(q))) await env.DB.prepare(q).run();
    const byId = new Map((await list(ref)).map((r) => [r.id, r]));
    expect(byId.get(fell)).toMatchObject({ unanswered: true, reported: false, hasLead: false });
    expect(byId.get(fine)).toMatchObject({ unanswered: false, reported: true });
    expect(byId.get(byVisitor)).toMatchObject({ hasLead: true, leadName: "Old Lead", leadEmail: "old@example.com" });
    expect(ids(await list(ref, { q: "kangaroo" }))).toEqual([fell]);
  });
});

describe("conversation list: deleting a chatbot", () => {
  it("drops its messages and its rows of the search index, and only its own", async () => {
    const ref = await bot();
    const neighbour = await bot();
    const gone = await talk(ref, "v_gone_00001", "Searchable words here");
    const kept = await talk(neighbour, "v_kept_00001", "Searchable words here");
    // The stores as they were before the deletion (a deleted chatbot's row no longer names one).
    const [store, neighbours] = [await messageStore(ctx, ref), await messageStore(ctx, neighbour)];
    const [index, neighboursIndex] = [await conversationIndex(ctx, ref), await conversationIndex(ctx, neighbour)];
    expect(await index.get(gone.id)).not.toBeNull();
    const found = async (s: typeof store) => (await s.search(["searchable"], SEARCH_MESSAGE_CAP)).conversationIds;
    expect(await found(store)).toEqual([gone.id]);
    expect(await store.count()).toBe(2);
    await deleteChatbot({ ...ctx, env } as never, ref);
    expect(await found(store)).toEqual([]);
    expect(await store.count()).toBe(0);
    expect(await ctx.db.select().from(conversations).where(eq(conversations.chatbotId, ref.chatbotId)).all()).toEqual([]);
    expect(await index.get(gone.id)).toBeNull();
    expect(await found(neighbours)).toEqual([kept.id]);
    expect(await neighboursIndex.get(kept.id)).not.toBeNull();
    expect(await neighbours.count()).toBe(2);
  });
});
