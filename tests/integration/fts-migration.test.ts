import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { makeOrg, makeUser } from "./helpers";

// The FTS5 index is kept in step with `chunks` by the triggers of migrations/0002.
describe("chunks_fts", () => {
  it("indexes inserts, forgets deletes, and can be confined to one chatbot", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Fts");
    const other = await makeOrg(owner.id, "FtsOther");
    await env.DB.batch([
      env.DB.prepare("INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title) VALUES (?, ?, ?, 'text', 'Returns')").bind("ks_fts1", org.id, bot.id),
      env.DB.prepare("INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title) VALUES (?, ?, ?, 'text', 'Returns')").bind("ks_fts2", org.id, other.bot.id),
    ]);
    const insert = (source: string, chatbot: string, text: string) =>
      env.DB.prepare("INSERT INTO chunks (source_id, chatbot_id, org_id, position, title, heading, text) VALUES (?, ?, ?, 0, 'Returns policy', 'Refunds', ?) RETURNING id")
        .bind(source, chatbot, org.id, text)
        .first<{ id: number }>();
    const a = await insert("ks_fts1", bot.id, "Customers may return items within 30 days for a full refund.");
    await insert("ks_fts2", other.bot.id, "Returning goods is possible within 14 days.");
    const search = (chatbot: string, q: string) =>
      env.DB.prepare(
        "SELECT c.id, bm25(chunks_fts, 0, 1, 1, 1, 1) AS score FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY score",
      )
        .bind(`chatbot_id:"${chatbot}" AND (returned OR refunds)`)
        .all<{ id: number; score: number }>();
    const hits = await search(bot.id, "");
    expect(hits.results.map((r) => r.id)).toEqual([a!.id]); // porter stemming: returned → return
    await env.DB.prepare("DELETE FROM chunks WHERE id = ?").bind(a!.id).run();
    expect((await search(bot.id, "")).results).toHaveLength(0);
  });
});
