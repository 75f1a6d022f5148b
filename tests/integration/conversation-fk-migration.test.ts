import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/.server/db/client";
import {
  analyticsConversations,
  bugReports,
  calls,
  conversationAgents,
  conversationNotes,
  conversations,
  customTools,
  leadConversations,
  leadEvents,
  leads,
  messages,
  organisations,
  toolCalls,
  toolPendingCalls,
  users,
} from "~/.server/db/schema";

// Migration 0033 (issue #20, ADR 048) rebuilds the tables that referenced `conversations.id` without
// that foreign key. D1 runs a migration in one transaction with foreign keys on, and a dropped table
// fires the cascades of the tables that reference it — `leads`' rebuild would empty `lead_events` and
// `lead_conversations` if they were not parked first. So the test applies the migrations up to 0032
// to an empty database, writes rows of that shape into every affected table, applies 0033 as
// `wrangler d1 migrations apply` does (one batch) and compares every row, foreign key and index.

const BEFORE = "0033";
/** The rebuilt tables and `lead_events` (rebuilt because it references `leads`). */
const TABLES = [
  "leads",
  "lead_conversations",
  "lead_events",
  "conversation_agents",
  "conversation_notes",
  "analytics_conversations",
  "tool_pending_calls",
  "bug_reports",
  "calls",
  "tool_calls",
] as const;

const d1 = env.MIGRATION_DB;
const db = createDb(d1);
const T = 1_700_000_000_000;

type Fk = { table: string; from: string; to: string; on_delete: string };
async function foreignKeys(table: string): Promise<Fk[]> {
  const { results } = await d1.prepare(`SELECT "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY "from"`).bind(table).all<Fk>();
  return results;
}
async function indexes(table: string) {
  const { results } = await d1
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name")
    .bind(table)
    .all<{ name: string; sql: string }>();
  return results;
}
const everyRow = async (table: string) => (await d1.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()).results;
const count = async (table: string, where: string, ...values: unknown[]) =>
  (await d1
    .prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...values)
    .first<{ n: number }>())!.n;

/** Two chatbots, each with two conversations and a row about them in every table that referenced a conversation. */
async function writeOldRows() {
  await db.insert(users).values({ id: "u_1", email: "owner@example.test", name: "Owner", passwordHash: "x" });
  await db.insert(organisations).values({ id: "org_1", name: "Acme", slug: "acme", periodStart: T });
  for (const bot of ["cb_a", "cb_b"]) {
    // Schema 0032's columns (a later migration's column is not there yet).
    await d1.prepare("INSERT INTO chatbots (id, org_id, name, message_store) VALUES (?, 'org_1', ?, 'd1')").bind(bot, bot).run();
    await db.insert(customTools).values({
      id: `tool_${bot}`,
      orgId: "org_1",
      chatbotId: bot,
      name: "orders",
      description: "Order status",
      method: "GET",
      urlTemplate: "https://shop.example/orders/{id}",
      parameters: { id: { type: "string", description: "order id", required: true } } as never,
    });
    for (const n of [1, 2]) {
      const cv = `cv_${bot}_${n}`;
      const at = T + n * 1000;
      await db.insert(conversations).values({ id: cv, orgId: "org_1", chatbotId: bot, visitorId: `v_${n}`, channel: "widget", createdAt: at });
      await db.insert(messages).values({ id: `m_${cv}`, conversationId: cv, orgId: "org_1", chatbotId: bot, role: "visitor", content: "Hello", createdAt: at });
      await db
        .insert(leads)
        .values({ id: `ld_${cv}`, orgId: "org_1", chatbotId: bot, conversationId: cv, visitorId: `v_${n}`, email: `${n}@example.test`, createdAt: at });
      await db.insert(leadConversations).values({ leadId: `ld_${cv}`, conversationId: cv, createdAt: at });
      await db.insert(leadEvents).values({
        id: `le_${cv}`,
        leadId: `ld_${cv}`,
        actorUserId: "u_1",
        actorLabel: "Owner",
        kind: "status",
        fromValue: "new",
        toValue: "won",
        createdAt: at,
      });
      await db
        .insert(conversationAgents)
        .values({ conversationId: cv, orgId: "org_1", chatbotId: bot, userId: "u_1", agentName: "Owner", takenAt: at, closedAt: at + 5 });
      await db
        .insert(conversationNotes)
        .values({ id: `note_${cv}`, orgId: "org_1", chatbotId: bot, conversationId: cv, userId: "u_1", authorName: "Owner", body: "VIP", createdAt: at });
      await db.insert(analyticsConversations).values({ conversationId: cv, chatbotId: bot, day: "2023-11-14", problem: n === 2 });
      await db
        .insert(toolPendingCalls)
        .values({ conversationId: cv, chatbotId: bot, toolId: `tool_${bot}`, stage: "confirm", params: { id: "42" }, expiresAt: at + 60_000 });
      await db.insert(bugReports).values({
        id: `bug_${cv}`,
        orgId: "org_1",
        chatbotId: bot,
        conversationId: cv,
        messageId: `m_${cv}`,
        messageRef: `m_${cv}`,
        comment: "Wrong",
        createdAt: at,
      });
      await db.insert(calls).values({ id: `call_${cv}`, orgId: "org_1", chatbotId: bot, conversationId: cv, callSid: `CA_${cv}`, startedAt: at });
      await db.insert(toolCalls).values({
        id: `tc_${cv}`,
        orgId: "org_1",
        chatbotId: bot,
        toolId: `tool_${bot}`,
        toolName: "orders",
        conversationId: cv,
        source: "chat",
        outcome: "ok",
        durationMs: 12,
        createdAt: at,
      });
    }
  }
}

describe("migration 0033: no foreign keys into conversations", () => {
  const rowsBefore = new Map<string, unknown[]>();
  const fksBefore = new Map<string, Fk[]>();
  const indexesBefore = new Map<string, { name: string; sql: string }[]>();

  beforeAll(async () => {
    const migrations = env.TEST_MIGRATIONS;
    expect(migrations.some((m) => m.name.startsWith(BEFORE))).toBe(true);
    await applyD1Migrations(
      d1,
      migrations.filter((m) => m.name < BEFORE),
    );
    await writeOldRows();
    for (const table of TABLES) {
      rowsBefore.set(table, await everyRow(table));
      fksBefore.set(table, await foreignKeys(table));
      indexesBefore.set(table, await indexes(table));
    }
    await applyD1Migrations(d1, migrations);
  });

  it("keeps every row of every rebuilt table, lead_events included", async () => {
    for (const table of TABLES) {
      const before = rowsBefore.get(table)!;
      expect(before.length, table).toBe(4);
      expect(await everyRow(table), table).toEqual(before);
    }
    // Nothing parked or half-built is left behind.
    const { results } = await d1.prepare("SELECT name FROM sqlite_master WHERE name LIKE '\\_\\_%' ESCAPE '\\'").all();
    expect(results).toEqual([]);
  });

  it("drops only the foreign keys into conversations, and gives analytics_conversations its chatbot cascade", async () => {
    expect((await foreignKeys("messages")).map((f) => f.table)).toEqual(["conversations"]);
    for (const table of TABLES) {
      const after = await foreignKeys(table);
      expect(
        after.filter((f) => f.table === "conversations"),
        table,
      ).toEqual([]);
      const kept = fksBefore.get(table)!.filter((f) => f.table !== "conversations");
      if (table === "analytics_conversations") expect(after).toEqual([{ table: "chatbots", from: "chatbot_id", to: "id", on_delete: "CASCADE" }]);
      else expect(after, table).toEqual(kept);
    }
    expect((await d1.prepare("SELECT * FROM pragma_foreign_key_check").all()).results).toEqual([]);
  });

  it("keeps every index (and adds the chatbot index of analytics_conversations)", async () => {
    for (const table of TABLES) {
      const after = await indexes(table);
      // Later migrations' indexes: 0035 gives conversation_notes one by chatbot (ADR 054).
      const added =
        table === "analytics_conversations"
          ? ["analytics_conversations_chatbot_idx"]
          : table === "conversation_notes"
            ? ["conversation_notes_chatbot_idx"]
            : [];
      expect(after.map((i) => i.name).sort(), table).toEqual([...indexesBefore.get(table)!.map((i) => i.name), ...added].sort());
      for (const i of indexesBefore.get(table)!) expect(after.find((a) => a.name === i.name)?.sql, i.name).toBe(i.sql);
    }
  });

  it("accepts rows about a conversation that is not in D1 (a chatbot whose conversations are in its shard)", async () => {
    await d1.batch([
      d1.prepare("INSERT INTO lead_conversations (lead_id, conversation_id) VALUES ('ld_cv_cb_a_1', 'cv_in_shard')"),
      d1.prepare(
        "INSERT INTO conversation_notes (id, org_id, chatbot_id, conversation_id, author_name, body) VALUES ('note_shard', 'org_1', 'cb_a', 'cv_in_shard', 'Owner', 'x')",
      ),
      d1.prepare("INSERT INTO analytics_conversations (conversation_id, chatbot_id, day) VALUES ('cv_in_shard', 'cb_a', '2023-11-15')"),
      d1.prepare("UPDATE calls SET conversation_id = 'cv_in_shard' WHERE id = 'call_cv_cb_a_1'"),
    ]);
    expect(await count("conversation_notes", "conversation_id = 'cv_in_shard'")).toBe(1);
  });

  it("deleting a chatbot still removes every row about its conversations, and only its own", async () => {
    // The rebuilt tables with a chatbot column, each keeping the chatbot's cascade (the lead tables go with their lead).
    const BY_CHATBOT = TABLES.filter((t) => t !== "lead_conversations" && t !== "lead_events");
    await d1.prepare("DELETE FROM chatbots WHERE id = 'cb_a'").run();
    for (const table of BY_CHATBOT) expect(await count(table, "chatbot_id = 'cb_a'"), table).toBe(0);
    expect(await count("lead_conversations", "lead_id LIKE 'ld_cv_cb_a_%'")).toBe(0);
    expect(await count("lead_events", "lead_id LIKE 'ld_cv_cb_a_%'")).toBe(0);
    // The other chatbot's rows are untouched.
    for (const table of BY_CHATBOT) expect(await count(table, "chatbot_id = 'cb_b'"), table).toBe(2);
  });
});
