import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import migration from "../../migrations/0013_analytics.sql?raw";
import { makeOrg, makeUser } from "../factories";

// Migration 0013's backfill, run on rows written the way they were before it (no analytics rows):
// existing conversations, messages, thumbs, leads and reports are counted on their UTC days.
describe("migration 0013: analytics backfill", () => {
  it("counts existing activity on UTC days, a rated-down conversation as unresolved", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Backfill");
    // A chatbot from before the migration keeps its messages and conversation rows in D1 (ADR 040, 044), where the backfill reads them.
    await env.DB.prepare("UPDATE chatbots SET message_store = 'd1', conversation_store = 'd1' WHERE id = ?").bind(bot.id).run();
    const at = Date.UTC(2025, 0, 5, 10);
    const [ok, bad] = [newId("cv_"), newId("cv_")];
    const conversation = (id: string, visitor: string, country: string | null, rating: number | null) =>
      env.DB.prepare(
        "INSERT INTO conversations (id, org_id, chatbot_id, visitor_id, channel, country, rating, message_count, created_at, last_message_at) VALUES (?, ?, ?, ?, 'widget', ?, ?, 2, ?, ?)",
      ).bind(id, org.id, bot.id, visitor, country, rating, at, at);
    const message = (conversationId: string, role: string, feedback: number | null, offset: number) =>
      env.DB.prepare(
        "INSERT INTO messages (id, conversation_id, org_id, chatbot_id, role, content, feedback, created_at) VALUES (?, ?, ?, ?, ?, 'text', ?, ?)",
      ).bind(newId("msg_"), conversationId, org.id, bot.id, role, feedback, at + offset);
    await env.DB.batch([
      conversation(ok, "v_backfill_ok", "FR", null),
      conversation(bad, "v_backfill_bad", null, -1),
      message(ok, "visitor", null, 0),
      message(ok, "bot", 1, 1),
      message(bad, "visitor", null, 2),
      message(bad, "bot", -1, 3),
      // The next day: a message and no thumbs at all.
      message(ok, "visitor", null, 86_400_000),
      env.DB.prepare("INSERT INTO leads (id, org_id, chatbot_id, email, created_at) VALUES (?, ?, ?, 'old@example.com', ?)").bind(
        newId("lead_"),
        org.id,
        bot.id,
        at,
      ),
      env.DB.prepare("INSERT INTO bug_reports (id, org_id, chatbot_id, comment, created_at) VALUES (?, ?, ?, 'wrong', ?)").bind(
        newId("bug_"),
        org.id,
        bot.id,
        at,
      ),
    ]);
    const backfill = migration
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter((s) => /^(--.*\n)*INSERT/i.test(s));
    expect(backfill).toHaveLength(8);
    for (const statement of backfill) await env.DB.prepare(statement).run();

    const day = await env.DB.prepare("SELECT * FROM analytics_daily WHERE chatbot_id = ? ORDER BY day").bind(bot.id).all();
    expect(day.results).toEqual([
      expect.objectContaining({
        day: "2025-01-05",
        conversations: 2,
        unresolved: 1,
        messages: 4,
        thumbs_up: 1,
        thumbs_down: 1,
        leads: 1,
        reports: 1,
        handoffs: 0,
      }),
      expect.objectContaining({ day: "2025-01-06", conversations: 0, messages: 1, thumbs_up: 0, thumbs_down: 0 }),
    ]);
    const visitors = await env.DB.prepare("SELECT count(*) AS n FROM analytics_visitors WHERE chatbot_id = ? AND day = '2025-01-05'").bind(bot.id).first();
    expect(visitors).toEqual({ n: 2 });
    const splits = await env.DB.prepare("SELECT dim, key, count FROM analytics_splits WHERE chatbot_id = ? ORDER BY dim, key").bind(bot.id).all();
    expect(splits.results).toEqual([
      { dim: "channel", key: "widget", count: 2 },
      { dim: "country", key: "", count: 1 },
      { dim: "country", key: "FR", count: 1 },
    ]);
  });
});
