import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ftsChatbotToken } from "~/.server/retrieval/search";
import { makeOrg, makeUser } from "../factories";

// The FTS5 index is kept in step with `chunks` by triggers (migrations/0002, redone in 0007: the
// chatbot id as one hex token, the URL without scheme and host).
describe("chunks_fts", () => {
  it("indexes inserts, forgets deletes, and can be confined to one chatbot", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Fts");
    const other = await makeOrg(owner.id, "FtsOther");
    await env.DB.batch([
      env.DB.prepare("INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title) VALUES (?, ?, ?, 'text', 'Returns')").bind("ks_fts1", org.id, bot.id),
      env.DB.prepare("INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title) VALUES (?, ?, ?, 'text', 'Returns')").bind(
        "ks_fts2",
        org.id,
        other.bot.id,
      ),
    ]);
    const insert = (source: string, chatbot: string, text: string) =>
      env.DB.prepare(
        "INSERT INTO chunks (source_id, chatbot_id, org_id, position, title, heading, text) VALUES (?, ?, ?, 0, 'Returns policy', 'Refunds', ?) RETURNING id",
      )
        .bind(source, chatbot, org.id, text)
        .first<{ id: number }>();
    const a = await insert("ks_fts1", bot.id, "Customers may return items within 30 days for a full refund.");
    await insert("ks_fts2", other.bot.id, "Returning goods is possible within 14 days.");
    const search = (chatbot: string, q: string) =>
      env.DB.prepare(
        "SELECT c.id, bm25(chunks_fts, 0, 1, 1, 1, 1) AS score FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY score",
      )
        .bind(`chatbot_id:"${ftsChatbotToken(chatbot)}" AND (returned OR refunds)`)
        .all<{ id: number; score: number }>();
    const hits = await search(bot.id, "");
    expect(hits.results.map((r) => r.id)).toEqual([a!.id]); // porter stemming: returned → return
    await env.DB.prepare("DELETE FROM chunks WHERE id = ?").bind(a!.id).run();
    expect((await search(bot.id, "")).results).toHaveLength(0);
  });

  it("indexes a URL's path but not its host, and the chatbot id as one token", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "FtsUrl");
    await env.DB.prepare("INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title) VALUES (?, ?, ?, 'site', 'Docs')")
      .bind(`ks_url_${bot.id}`, org.id, bot.id)
      .run();
    const { id } = (await env.DB.prepare(
      "INSERT INTO chunks (source_id, chatbot_id, org_id, position, title, heading, url, text) VALUES (?, ?, ?, 0, 'Guide', NULL, 'https://hostword.example.com/guides/quokka-care#feeding', 'Feed them leaves.') RETURNING id",
    )
      .bind(`ks_url_${bot.id}`, bot.id, org.id)
      .first<{ id: number }>())!;
    const count = (match: string) =>
      env.DB.prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?")
        .bind(match)
        .first<{ n: number }>()
        .then((r) => r!.n);
    const mine = `chatbot_id:"${ftsChatbotToken(bot.id)}"`;
    expect(await count(`${mine} AND url:(quokka)`)).toBe(1);
    expect(await count(`${mine} AND url:(guides)`)).toBe(1);
    expect(await count(`${mine} AND url:(hostword)`)).toBe(0);
    // the id's parts are not tokens of their own: "cb" (every chatbot id's prefix) finds nothing
    expect(await count(`chatbot_id:"cb"`)).toBe(0);
    await env.DB.prepare("DELETE FROM chunks WHERE id = ?").bind(id).run();
    expect(await count(`${mine} AND url:(quokka)`)).toBe(0);
  });
});
