import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import migration from "../../migrations/0012_leads_screen.sql?raw";
import { makeOrg, makeUser } from "../factories";

// Migration 0012's backfill, run again on leads written the way they were before it (a row in
// `leads` only): each is linked to its conversation and its history starts with its capture.
describe("migration 0012: leads backfill", () => {
  it("links existing leads to their conversation and records their capture", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Backfill");
    const conv = newId("cv_");
    const [withConv, apiLead] = [newId("lead_"), newId("lead_")];
    await env.DB.batch([
      env.DB.prepare("INSERT INTO conversations (id, org_id, chatbot_id, visitor_id, channel) VALUES (?, ?, ?, 'v_backfill_01', 'widget')").bind(
        conv,
        org.id,
        bot.id,
      ),
      env.DB.prepare(
        "INSERT INTO leads (id, org_id, chatbot_id, conversation_id, email, source, created_at) VALUES (?, ?, ?, ?, 'old@example.com', 'widget', 1600000000000)",
      ).bind(withConv, org.id, bot.id, conv),
      env.DB.prepare("INSERT INTO leads (id, org_id, chatbot_id, email, source) VALUES (?, ?, ?, 'api@example.com', 'api')").bind(apiLead, org.id, bot.id),
    ]);
    const backfill = migration
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter((s) => /^(--.*\n)*INSERT/i.test(s));
    expect(backfill).toHaveLength(2);
    // Twice: INSERT OR IGNORE makes it safe to re-run.
    for (let i = 0; i < 2; i++) for (const statement of backfill) await env.DB.prepare(statement).run();
    const links = await env.DB.prepare("SELECT lead_id, conversation_id, created_at FROM lead_conversations WHERE lead_id IN (?, ?)")
      .bind(withConv, apiLead)
      .all();
    expect(links.results).toEqual([{ lead_id: withConv, conversation_id: conv, created_at: 1600000000000 }]);
    const events = await env.DB.prepare("SELECT lead_id, actor_label, kind, to_value FROM lead_events WHERE lead_id IN (?, ?) ORDER BY actor_label")
      .bind(withConv, apiLead)
      .all();
    expect(events.results).toEqual([
      { lead_id: apiLead, actor_label: "API", kind: "created", to_value: "api" },
      { lead_id: withConv, actor_label: "Visitor", kind: "created", to_value: "widget" },
    ]);
  });
});
