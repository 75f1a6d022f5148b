import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ConversationListParams } from "~/lib/schemas/conversation-list";
import {
  conversationIndex,
  d1ConversationIndex,
  shardConversationIndex,
  type ConversationIndex,
  type ConversationIndexShardApi,
  type OpenInput,
  inboxStatusQuery,
} from "~/.server/chat/conversation-index";
import { conversationCountQuery, conversationPageQuery } from "~/.server/chat/conversation-list";
import { createDb } from "~/.server/db/client";
import { d1MessageStore, shardMessageStore, type ChatbotRef, type MessageStore, type NewMessage } from "~/.server/chat/message-store";
import { inboxLists } from "~/.server/inbox/inbox-list";
import { createServiceContext } from "~/.server/context";
import { chatbots, conversations, leads } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { db, makeOrg, makeUser } from "../factories";

// The conversation index (issue #20, ADR 044) must answer exactly the same in D1 and in a chatbot's
// ConversationShard: the shard runs the D1 implementation over its own storage. Each test writes the
// same conversations, messages, badges, leads and live changes through both and compares every
// answer, step by step; then tenant isolation on both sides.

const ctx = createServiceContext(env as unknown as Env);

/** One chatbot, its index and messages in D1 and in its shard (both written; the flag is not involved). */
async function twoStores(name: string) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, name);
  const ref: ChatbotRef = { orgId: org.id, chatbotId: bot.id };
  return {
    owner,
    ref,
    d1: { index: d1ConversationIndex(ctx, ref), messages: d1MessageStore(ctx, ref) },
    shard: { index: shardConversationIndex(ctx.env, ref), messages: shardMessageStore(ctx.env, ref) },
  };
}

type Side = { index: ConversationIndex; messages: MessageStore };

/** Runs `op` on both sides and expects the same answer; gives it back. */
async function both<T>(d1: Side, shard: Side, op: (s: Side) => Promise<T>): Promise<T> {
  const a = await op(d1);
  const b = await op(shard);
  expect(b).toEqual(a);
  return a;
}

const WORDS = ["Do you refund a damaged parcel?", "Shipping to Norway takes how long?", "Can I get an invoice copy?", "Refund for the blue box please"];
const T0 = 1_750_000_000_000;

/** Every list state the screen can ask for, walked page by page in both directions. */
const LIST_STATES: Pick<ConversationListParams, "q" | "filters">[] = [
  { q: "", filters: [] },
  { q: "", filters: ["unanswered"] },
  { q: "", filters: ["rated-down"] },
  { q: "", filters: ["reported"] },
  { q: "", filters: ["waiting"] },
  { q: "", filters: ["lead"] },
  { q: "", filters: ["unanswered", "lead"] },
  { q: "refund", filters: [] },
  { q: "refu", filters: [] },
  { q: "norway shipping", filters: [] },
  { q: "refund", filters: ["rated-down"] },
  { q: "vis_2", filters: [] },
  { q: "ann@exa", filters: [] },
  { q: "wardrobe", filters: [] },
];

async function walkPages(index: ConversationIndex, state: Pick<ConversationListParams, "q" | "filters">) {
  const pages = [];
  let page = await index.list({ ...state, older: null, newer: null }, { limit: 4 });
  pages.push(page);
  while (page.older) {
    page = await index.list({ ...state, older: page.older, newer: null }, { limit: 4 });
    pages.push(page);
  }
  // And back up from the last page.
  while (page.newer) {
    page = await index.list({ ...state, older: null, newer: page.newer }, { limit: 4 });
    pages.push(page);
  }
  return pages;
}

describe("conversation index", () => {
  it("gives identical answers in D1 and in the chatbot's shard for the same conversations", async () => {
    const { owner, ref, d1, shard } = await twoStores("Index parity");
    const opened: string[] = [];
    for (let i = 0; i < 30; i++) {
      const at = T0 + i * 60_000;
      const visitorId = `vis_${i % 7}`;
      const input: OpenInput = {
        visitorId,
        channel: i % 3 === 2 ? "api" : "widget",
        id: `cv_${String(i).padStart(3, "0")}`,
        now: at,
        country: i % 2 ? "NO" : null,
        pageUrl: `https://shop.example/p/${i}`,
      };
      // "New conversation" every fourth turn; otherwise the visitor's open one (or the one they name).
      const conversation = await both(d1, shard, (s) =>
        i % 4 === 0 ? s.index.create(input) : s.index.open({ ...input, conversationId: i % 5 === 0 ? opened[i - 3] : undefined }),
      );
      opened.push(conversation.id);
      const messages: NewMessage[] = [
        { id: `msg_${i}_v`, conversationId: conversation.id, role: "visitor", content: WORDS[i % WORDS.length], createdAt: at + 1 },
        { id: `msg_${i}_b`, conversationId: conversation.id, role: "bot", content: `Answer ${i}`, createdAt: at + 2 },
      ];
      await both(d1, shard, (s) => s.messages.append(messages));
      await both(d1, shard, (s) =>
        s.index.recordMessages(conversation.id, { added: 2, at: at + 2, title: WORDS[i % WORDS.length], unanswered: i % 5 === 1, pageUrl: input.pageUrl }),
      );
      if (i % 4 === 3) await both(d1, shard, (s) => s.index.setFlags(conversation.id, { rating: -1 }));
      if (i % 7 === 6) await both(d1, shard, (s) => s.index.setFlags(conversation.id, { reported: true, verified: true }));
      if (i % 8 === 1) await both(d1, shard, (s) => s.index.applyLive(conversation.id, { status: "waiting" }));
      if (i % 8 === 2)
        await both(d1, shard, (s) => s.index.applyLive(conversation.id, { status: "human", agent: { userId: owner.id, name: "Owner", at: at + 5 } }));
      if (i % 8 === 5) {
        // Taken, then closed by another person (the take's row keeps its agent, gets the close time).
        await both(d1, shard, (s) => s.index.applyLive(conversation.id, { status: "human", agent: { userId: owner.id, name: "Owner", at: at + 5 } }));
        await both(d1, shard, (s) =>
          s.index.applyLive(conversation.id, { status: "closed", agent: { userId: null, name: "Sam", at: at + 9 }, closedAt: at + 9 }),
        );
      }
      if (i % 8 === 6) await both(d1, shard, (s) => s.index.applyLive(conversation.id, { status: "closed", closedAt: at + 9 }));
      // Visitor 2 leaves a name, then an email: D1's leads is the record, the shard keeps the visitor's newest contact.
      if (i === 9 || i === 16) {
        const contact = i === 9 ? { name: "Ann", email: null } : { name: null, email: "ann@example.com" };
        await db.insert(leads).values({
          id: `ld_${ref.chatbotId}_${i}`,
          orgId: ref.orgId,
          chatbotId: ref.chatbotId,
          conversationId: conversation.id,
          visitorId,
          ...contact,
          createdAt: at,
          updatedAt: at,
        });
        await both(d1, shard, (s) => s.index.markLead({ conversationId: conversation.id, visitorId, ...contact, at }));
      }
      // Live chat's mirror: a repeated count changes nothing; a later one moves the activity on.
      if (i % 6 === 4) {
        await both(d1, shard, (s) => s.index.recordMessages(conversation.id, { count: 2, at: at + 2 }));
        await both(d1, shard, (s) =>
          s.messages.append([{ id: `msg_${i}_h`, conversationId: conversation.id, role: "human", content: "A person here", createdAt: at + 30 }]),
        );
        await both(d1, shard, (s) => s.index.recordMessages(conversation.id, { count: 3, at: at + 30 }));
      }
    }
    // Visitor 2's next conversation copies the contact their leads left.
    const copied = await both(d1, shard, (s) => s.index.create({ visitorId: "vis_2", channel: "widget", id: "cv_lead_copy", now: T0 + 40 * 60_000 }));
    expect(copied).toMatchObject({ hasLead: true, leadName: "Ann", leadEmail: "ann@example.com" });

    for (const id of [...new Set(opened), "cv_unknown"]) {
      await both(d1, shard, (s) => s.index.get(id));
      await both(d1, shard, (s) => s.index.get(id, "vis_3"));
    }
    for (const v of ["vis_0", "vis_2", "vis_6", "vis_none"]) {
      await both(d1, shard, (s) => s.index.latestOpen(v));
      await both(d1, shard, (s) => s.index.latestOpen(v, "api"));
    }
    const found: Record<string, number> = {};
    for (const state of LIST_STATES) found[`${state.q}|${state.filters.join(",")}`] = (await both(d1, shard, (s) => walkPages(s.index, state)))[0].total;
    // Each kind of search and filter finds something (the comparisons above are not of empty lists), and a miss finds nothing.
    for (const key of ["|unanswered", "|rated-down", "|reported", "|waiting", "|lead", "refund|", "refu|", "norway shipping|", "vis_2|", "ann@exa|"])
      expect(found[key], key).toBeGreaterThan(0);
    expect(found["wardrobe|"]).toBe(0);
    expect(found["refu|"]).toBe(found["refund|"]);
    const all = await both(d1, shard, (s) => s.index.list({ q: "", filters: [], older: null, newer: null }, { limit: 200 }));
    expect(all.total).toBeGreaterThan(10);
    expect(all.rows.some((r) => r.lastRole === "human")).toBe(true);
    const lists = await both(d1, shard, (s) => s.index.inboxLists(owner.id));
    expect(lists.waiting.length).toBeGreaterThan(0);
    expect(lists.mine.length).toBeGreaterThan(0);
    // Closed after a take: the taker's row gets the close time; closed untaken: a row without a name.
    expect(new Set(lists.closed.map((r) => r.agentName))).toEqual(new Set(["Owner", ""]));
    await both(d1, shard, (s) => s.index.activity(T0 + 10 * 60_000, T0 + 20 * 60_000));
    // The inbox screen's own function reads the same lists (D1 here: every chatbot's index is there in stage 1).
    expect(await inboxLists(ctx, ref, owner.id)).toEqual(lists);
  });

  it("finds or creates one conversation per visitor and channel, and never opens a closed or another visitor's one", async () => {
    const { d1, shard } = await twoStores("Open rules");
    const first = await both(d1, shard, (s) => s.index.open({ visitorId: "vis_a", channel: "widget", id: "cv_a1", now: T0 }));
    expect(first).toMatchObject({ id: "cv_a1", isNew: true, status: "bot", messageCount: 0 });
    // The same visitor again: the open one, not a new one.
    expect(await both(d1, shard, (s) => s.index.open({ visitorId: "vis_a", channel: "widget", id: "cv_a2", now: T0 + 1 }))).toMatchObject({ id: "cv_a1" });
    expect((await both(d1, shard, (s) => s.index.open({ visitorId: "vis_a", channel: "widget", id: "cv_a2", now: T0 + 1 }))).isNew).toBeUndefined();
    // Another visitor naming it gets their own.
    expect(
      await both(d1, shard, (s) => s.index.open({ visitorId: "vis_b", channel: "widget", conversationId: "cv_a1", id: "cv_b1", now: T0 + 2 })),
    ).toMatchObject({
      id: "cv_b1",
      isNew: true,
    });
    await both(d1, shard, (s) => s.index.applyLive("cv_a1", { status: "closed", closedAt: T0 + 3 }));
    expect(
      await both(d1, shard, (s) => s.index.open({ visitorId: "vis_a", channel: "widget", conversationId: "cv_a1", id: "cv_a3", now: T0 + 4 })),
    ).toMatchObject({
      id: "cv_a3",
      isNew: true,
    });
    // A conversation the index does not hold is not updated (and says so).
    expect(await both(d1, shard, (s) => s.index.recordMessages("cv_missing", { added: 1, at: T0 }))).toBeNull();
    expect(await both(d1, shard, (s) => s.index.setFlags("cv_missing", { rating: 1 }))).toBe(false);
    expect(await both(d1, shard, (s) => s.index.applyLive("cv_missing", { status: "human", agent: { userId: null, name: "X", at: T0 } }))).toBe(false);
    // Malformed input is refused before any write, on both sides.
    await expect(d1.index.recordMessages("cv_a3", { at: T0 } as never)).rejects.toThrow();
    await expect(shard.index.recordMessages("cv_a3", { at: T0 } as never)).rejects.toThrow();
    await expect(d1.index.open({ visitorId: "", channel: "widget" })).rejects.toThrow();
    await expect(shard.index.markLead({ name: "No one", email: null, at: T0 })).rejects.toThrow();
  });

  it("records messages on the row: an exchange adds, the live mirror's count only grows, the first title stays, unanswered and page only set", async () => {
    // recordMessages is fixed SQL (ADR 049): each field's rule, on both sides.
    const { d1, shard } = await twoStores("Record rules");
    for (const s of [d1, shard]) await s.index.open({ visitorId: "vis_r", channel: "widget", id: "cv_rules", now: T0 });
    const step = (u: Parameters<ConversationIndex["recordMessages"]>[1]) => both(d1, shard, (s) => s.index.recordMessages("cv_rules", u));
    expect(await step({ added: 2, at: T0 + 5, title: "First question", pageUrl: "https://shop.example/a" })).toMatchObject({
      messageCount: 2,
      lastMessageAt: T0 + 5,
      title: "First question",
      unanswered: false,
      pageUrl: "https://shop.example/a",
    });
    // A later exchange: the title stays, an empty page leaves the page, unanswered is set.
    expect(await step({ added: 1, at: T0 + 9, title: "Second question", unanswered: true, pageUrl: "" })).toMatchObject({
      messageCount: 3,
      lastMessageAt: T0 + 9,
      title: "First question",
      unanswered: true,
      pageUrl: "https://shop.example/a",
    });
    // A repeated mirror with an older count and time changes neither; unanswered is never cleared here.
    expect(await step({ count: 2, at: T0 + 7, unanswered: false })).toMatchObject({ messageCount: 3, lastMessageAt: T0 + 9, unanswered: true });
    expect(await step({ count: 5, at: T0 + 20 })).toMatchObject({ messageCount: 5, lastMessageAt: T0 + 20, title: "First question" });
  });

  it("keeps tenants apart: D1 scopes every statement by chatbot, a shard answers only the chatbot it holds", async () => {
    const mine = await twoStores("Holder");
    const other = await twoStores("Other tenant");
    for (const s of [mine.d1, mine.shard]) {
      await s.index.open({ visitorId: "vis_x", channel: "widget", id: `cv_mine_${s.index.kind}`, now: T0 });
      await s.index.recordMessages(`cv_mine_${s.index.kind}`, { added: 1, at: T0 + 1, title: "Mine" });
    }
    // D1: another chatbot's index neither reads nor writes the row.
    const foreign = d1ConversationIndex(ctx, other.ref);
    expect(await foreign.get("cv_mine_d1")).toBeNull();
    expect(await foreign.recordMessages("cv_mine_d1", { added: 5, at: T0 + 9 })).toBeNull();
    expect(await foreign.setFlags("cv_mine_d1", { reported: true })).toBe(false);
    expect(await foreign.applyLive("cv_mine_d1", { status: "closed", closedAt: T0 + 9 })).toBe(false);
    expect(await foreign.markLead({ conversationId: "cv_mine_d1", name: "Eve", email: null, at: T0 })).toBe(0);
    expect((await foreign.list({ q: "", filters: [], older: null, newer: null })).total).toBe(0);
    // Same chatbot id, another organisation: nothing either.
    expect(await d1ConversationIndex(ctx, { orgId: other.ref.orgId, chatbotId: mine.ref.chatbotId }).get("cv_mine_d1")).toBeNull();
    expect(await mine.d1.index.get("cv_mine_d1")).toMatchObject({ messageCount: 1, reported: false, status: "bot", hasLead: false });

    // The shard named by one chatbot's id, called with another chatbot's ref: refused, nothing written.
    const stub = env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(mine.ref.chatbotId)) as unknown as ConversationIndexShardApi;
    for (const wrong of [other.ref, { orgId: other.ref.orgId, chatbotId: mine.ref.chatbotId }]) {
      expect(await stub.indexGet(wrong, "cv_mine_shard")).toBeNull();
      expect(await stub.indexOpen(wrong, { visitorId: "vis_x", channel: "widget" })).toBeNull();
      expect(await stub.indexCreate(wrong, { visitorId: "vis_y", channel: "widget" })).toBeNull();
      expect(await stub.indexRecordMessages(wrong, "cv_mine_shard", { added: 5, at: T0 + 9 })).toBeNull();
      expect(await stub.indexSetFlags(wrong, "cv_mine_shard", { reported: true })).toBe(false);
      expect(await stub.indexApplyLive(wrong, "cv_mine_shard", { status: "closed", closedAt: T0 + 9 })).toBe(false);
      expect(await stub.indexMarkLead(wrong, { visitorId: "vis_x", name: "Eve", email: null, at: T0 })).toBe(0);
      expect(await stub.indexList(wrong, { q: "", filters: [], older: null, newer: null })).toEqual({
        rows: [],
        total: 0,
        older: null,
        newer: null,
        searchCapped: false,
      });
      expect(await stub.indexInboxLists(wrong, "u")).toEqual({ waiting: [], live: [], mine: [], closed: [] });
      expect(await stub.indexActivity(wrong, 0, T0 * 2)).toEqual({ active: 0, started: 0 });
    }
    expect(await mine.shard.index.get("cv_mine_shard")).toMatchObject({ messageCount: 1, reported: false, status: "bot", hasLead: false });
    expect((await mine.shard.index.list({ q: "", filters: [], older: null, newer: null })).total).toBe(1);
    // The other chatbot's own shard holds nothing of the first; the refusal reaches its caller as an error.
    expect(await other.shard.index.get("cv_mine_shard")).toBeNull();
    const misnamed = shardConversationIndex({ CONVERSATION_SHARD: { get: () => stub, idFromName: (n: string) => n } as never }, other.ref);
    await expect(misnamed.open({ visitorId: "vis_x", channel: "widget" })).rejects.toThrow(/refused/);
  });

  it("is picked by the chatbot's conversation_store flag, 'd1' for a row from before (the column's default) until moved", async () => {
    const { ref } = await twoStores("Flag");
    // A row written without the column, as every chatbot before the switch (new ones are created 'shard').
    await ctx.env.DB.prepare("INSERT INTO chatbots (id, org_id, name) VALUES (?, ?, 'From before')").bind(`${ref.chatbotId}_old`, ref.orgId).run();
    const old = { orgId: ref.orgId, chatbotId: `${ref.chatbotId}_old` };
    expect((await db.select({ k: chatbots.conversationStore }).from(chatbots).where(eq(chatbots.id, old.chatbotId)).get())?.k).toBe("d1");
    expect((await conversationIndex(ctx, old)).kind).toBe("d1");
    await db.update(chatbots).set({ conversationStore: "d1" }).where(eq(chatbots.id, ref.chatbotId));
    expect((await conversationIndex(ctx, ref)).kind).toBe("d1");
    await db.update(chatbots).set({ conversationStore: "moving" }).where(eq(chatbots.id, ref.chatbotId));
    expect((await conversationIndex(ctx, ref)).kind).toBe("d1");
    await db.update(chatbots).set({ conversationStore: "shard" }).where(eq(chatbots.id, ref.chatbotId));
    const index = await conversationIndex(ctx, ref);
    expect(index.kind).toBe("shard");
    await index.open({ visitorId: "vis_f", channel: "widget", id: "cv_flag", now: T0 });
    // Written to the shard, not to D1.
    expect(await db.select().from(conversations).where(eq(conversations.id, "cv_flag")).get()).toBeUndefined();
    expect(await index.get("cv_flag")).toMatchObject({ id: "cv_flag", visitorId: "vis_f" });
    // A context without the bindings cannot reach the shard: refused, never D1's empty table (before:
    // D1's index, silently). A D1 chatbot is still served without them.
    await expect(conversationIndex({ db }, ref)).rejects.toThrow(/needs env/);
    expect((await conversationIndex({ db }, old)).kind).toBe("d1");
  });

  it("adds the index to a shard created before it (schema version 1) without touching its messages", async () => {
    const { ref, shard } = await twoStores("Older shard");
    await shard.messages.append([{ id: "msg_old_1", conversationId: "cv_old", role: "visitor", content: "Kept across the upgrade", createdAt: T0 }]);
    const object = env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(ref.chatbotId));
    // Make it what an object of the message-only version looked like, and let it find out on its next call.
    await runInDurableObject(object, async (instance, state) => {
      state.storage.sql.exec(
        "DROP TABLE conversations; DROP TABLE conversation_agents; DROP TABLE visitor_leads; DROP TABLE analytics_conversations; DROP TABLE analytics_visitors; DROP TABLE analytics_questions; DROP TABLE analytics_question_days; DROP TABLE analytics_question_moves; UPDATE shard_meta SET value = '1' WHERE key = 'schema'",
      );
      (instance as unknown as { shard: { forget(): void } }).shard.forget();
    });
    expect(await shard.index.open({ visitorId: "vis_old", channel: "widget", id: "cv_old", now: T0 })).toMatchObject({ id: "cv_old", isNew: true });
    expect(await shard.messages.count()).toBe(1);
    const schema = await runInDurableObject(
      object,
      async (_i, state) => state.storage.sql.exec<{ value: string }>("SELECT value FROM shard_meta WHERE key = 'schema'").one().value,
    );
    expect(schema).toBe("6"); // version 4 (ADR 054): notes and pending tool calls; 5 (ADR 076): visitors by day; 6 (ADR 077): question groups
    // Version 3's analytics marks (ADR 048), version 5's visitors and version 6's question groups came with it.
    const question = { key: "open sunday", text: "Open on Sunday?", at: T0, missed: true };
    expect(await shard.index.countOnce("cv_old", { day: "2025-06-15", problem: false, visitor: true, question })).toEqual({
      counted: true,
      unresolvedDay: null,
    });
    expect(await shard.index.visitorCounts({ from: "2025-06-15", to: "2025-06-15" })).toEqual({ days: [{ day: "2025-06-15", n: 1 }], unique: 1 });
    expect(await shard.index.topQuestions({ from: "2025-06-15", to: "2025-06-15", measure: "unanswered", long: false })).toEqual([
      { key: "open sunday", text: "Open on Sunday?", asked: 1, unanswered: 1 },
    ]);
  });

  it("plans every list query the same way in the shard as in D1 (the shard has the list's indexes)", async () => {
    const { ref, shard } = await twoStores("Plans");
    await shard.index.get("cv_none"); // the object creates its tables
    const object = env.CONVERSATION_SHARD.get(env.CONVERSATION_SHARD.idFromName(ref.chatbotId));
    const d1 = createDb(env.DB);
    const cursor = { dir: "older" as const, at: { at: T0, id: "cv_x" } };
    /** The plan of one query in D1 and in the shard, which must be the same. */
    const planOf = async ({ sql, params }: { sql: string; params: unknown[] }) => {
      const inD1 = (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(...params)
          .all<{ detail: string }>()
      ).results.map((r) => r.detail);
      const inShard = await runInDurableObject(object, async (_i, state) =>
        state.storage.sql
          .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...(params as (string | number | null)[]))
          .toArray()
          .map((r) => r.detail),
      );
      expect(inShard, sql).toEqual(inD1);
      return inD1.join("\n");
    };
    for (const state of LIST_STATES)
      for (const query of [conversationPageQuery(ref, state, null, 50), conversationPageQuery(ref, state, cursor, 50), conversationCountQuery(ref, state)]) {
        const built = d1.all(query).getQuery();
        // Never a scan of the whole table: a filter's own partial index, or the search's ids by primary key.
        expect(await planOf(built), built.sql).not.toMatch(/SCAN c\b|SCAN conversations\b/);
      }
    // The live inbox's waiting and held lists walk the partial index in order (before: every
    // conversation of the chatbot through conversations_visitor_idx, then a sort).
    for (const status of ["waiting", "human"] as const) {
      const built = inboxStatusQuery(d1, ref, status).toSQL();
      const plan = await planOf(built);
      expect(plan, built.sql).toMatch(/USING INDEX conversations_live_idx/);
      expect(plan, built.sql).not.toMatch(/TEMP B-TREE/);
    }
  });
});
