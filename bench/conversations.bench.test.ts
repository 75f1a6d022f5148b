import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { findConversations } from "~/.server/chat/conversation-list";
import { createDb } from "~/.server/db/client";
import type { ConversationListParams } from "~/lib/schemas/conversation-list";

// Conversation-list benchmark (see bench/README.md; `npm run bench:conversations`, never `npm test`):
// one chatbot with BENCH_CONVERSATIONS conversations (default 100k) and a neighbour chatbot with a
// fifth as many in the same organisation, seeded in SQL. Each case is one call of the product's
// findConversations (the page and its count, as the chatbot home's loader runs it), BENCH_RUNS
// times after two warm-up calls; p50/p95 are nearest-rank.

type BenchEnv = { DB: D1Database; BENCH_CONVERSATIONS: string; BENCH_RUNS: string };
const benv = env as unknown as BenchEnv;
const db = createDb(benv.DB);
const N = Number(benv.BENCH_CONVERSATIONS);
const RUNS = Number(benv.BENCH_RUNS);
const ORG = "org_bench";
const BOT = "cb_bench";
const NEIGHBOUR = "cb_bench_other";

// 200 words; a message is five of them picked by its number, so each word is in ~2.5 % of
// conversations. "order" is in every third one (a very common word); "zeppelin" in one in 5,000.
const WORDS = Array.from({ length: 200 }, (_, i) => {
  const syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "pe", "da", "fu", "ji"];
  return syllables[i % 12] + syllables[Math.floor(i / 12) % 12] + syllables[(i * 7) % 12] + (i % 3 === 0 ? "n" : "");
});

async function seed(chatbotId: string, count: number, prefix: string, base: number) {
  const w = (k: string) => sql.raw(`(select w from bench_words where k = ${k})`);
  const text = sql.join(
    [w("(i * 7) % 200"), w("(i * 13 + 5) % 200"), w("(i * 31 + 11) % 200"), w("(i * 17 + 3) % 200"), w("(i * 53 + 29) % 200")],
    sql.raw(` || ' ' || `),
  );
  const extra = sql.raw(`(case when i % 3 = 0 then ' order' else '' end) || (case when i % 5000 = 0 then ' zeppelin' else '' end)`);
  const rows = sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${count - 1})`;
  // Groups of three share a last-activity time, so pages end inside ties.
  await db.run(sql`${rows}
    insert into conversations (id, org_id, chatbot_id, visitor_id, channel, status, verified, country, rating, title, message_count, created_at, last_message_at,
      unanswered, reported, has_lead, lead_name, lead_email)
    select ${prefix} || printf('%07d', i), ${ORG}, ${chatbotId}, 'v_' || printf('%08x', (i * 2654435761) % 4294967296), case when i % 4 = 0 then 'test' else 'widget' end,
      case when i % 31 = 0 then 'waiting' else 'bot' end, 0, null, case when i % 13 = 0 then -1 else null end, ${text} || ${extra}, 2 + i % 5,
      ${base} + (i / 3) * 1000 - 60000, ${base} + (i / 3) * 1000,
      i % 7 = 0, i % 29 = 0, i % 11 = 0, case when i % 11 = 0 then 'Person ' || i else null end, case when i % 11 = 0 then 'person' || i || '@example.com' else null end
    from n`);
  await db.run(sql`insert into messages (id, conversation_id, org_id, chatbot_id, role, content, created_at)
    select 'mv' || substr(id, 3), id, org_id, chatbot_id, 'visitor', title, last_message_at - 1 from conversations where chatbot_id = ${chatbotId}`);
  await db.run(sql`insert into messages (id, conversation_id, org_id, chatbot_id, role, content, answered, created_at)
    select 'mb' || substr(id, 3), id, org_id, chatbot_id, 'bot', 'Here is what I found about ' || title, unanswered = 0, last_message_at from conversations where chatbot_id = ${chatbotId}`);
  await db.run(sql`insert into conversation_search (chatbot_id, body, conversation_id)
    select lower(hex(chatbot_id)), content, conversation_id from messages where chatbot_id = ${chatbotId} and role = 'visitor'`);
}

const nearestRank = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

it("lists, filters and searches conversations at scale", async () => {
  const started = Date.now();
  await db.run(sql`insert into organisations (id, name, slug, plan, period_start) values (${ORG}, 'Bench', 'bench', 'scale', ${Date.now()})`);
  await db.run(sql`insert into chatbots (id, org_id, name) values (${BOT}, ${ORG}, 'Bench'), (${NEIGHBOUR}, ${ORG}, 'Neighbour')`);
  await db.run(sql`create table bench_words (k integer primary key, w text not null)`);
  for (let i = 0; i < WORDS.length; i += 40) {
    const chunk = WORDS.slice(i, i + 40).map((w, j) => sql`(${i + j}, ${w})`);
    await db.run(sql`insert into bench_words (k, w) values ${sql.join(chunk, sql`, `)}`);
  }
  const base = Date.UTC(2026, 0, 1);
  await seed(BOT, N, "cv_b", base);
  await seed(NEIGHBOUR, Math.floor(N / 5), "cv_o", base);
  await db.run(sql`drop table bench_words`);
  const seedMs = Date.now() - started;
  console.log(`BENCH_PROGRESS seeded ${N} + ${Math.floor(N / 5)} conversations in ${(seedMs / 1000).toFixed(1)} s`);

  const ref = { orgId: ORG, chatbotId: BOT };
  const deep = await db.get<{ at: number; id: string }>(
    sql`select last_message_at as at, id from conversations where org_id = ${ORG} and chatbot_id = ${BOT} and message_count > 0 order by last_message_at desc, id desc limit 1 offset ${Math.floor(N * 0.8)}`,
  );
  const p = (x: Partial<ConversationListParams>): ConversationListParams => ({ q: "", filters: [], older: null, newer: null, ...x });
  const sampleWord = WORDS[7];
  const cases: { name: string; params: ConversationListParams }[] = [
    { name: "first page", params: p({}) },
    { name: `page at row ${Math.floor(N * 0.8).toLocaleString("en-GB")} (older=…)`, params: p({ older: deep! }) },
    { name: "filter: unanswered", params: p({ filters: ["unanswered"] }) },
    { name: "filter: rated down", params: p({ filters: ["rated-down"] }) },
    { name: "filter: reported", params: p({ filters: ["reported"] }) },
    { name: "filter: waiting for a human", params: p({ filters: ["waiting"] }) },
    { name: "filter: with a lead", params: p({ filters: ["lead"] }) },
    { name: "filters: unanswered + rated down", params: p({ filters: ["unanswered", "rated-down"] }) },
    { name: `search: a word in ~2.5 % ("${sampleWord}")`, params: p({ q: sampleWord }) },
    { name: 'search: a word in 33 % ("order")', params: p({ q: "order" }) },
    { name: 'search: a rare word ("zeppelin")', params: p({ q: "zeppelin" }) },
    { name: "search: two words", params: p({ q: `order ${sampleWord}` }) },
    { name: "search: visitor id prefix", params: p({ q: "v_9e3779" }) },
    { name: "search: lead email", params: p({ q: "person4411@example.com" }) },
    { name: "search + filter: word + unanswered", params: p({ q: sampleWord, filters: ["unanswered"] }) },
  ];
  const results = [];
  for (const c of cases) {
    for (let i = 0; i < 2; i++) await findConversations({ db }, ref, c.params);
    const times: number[] = [];
    let page = await findConversations({ db }, ref, c.params);
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      page = await findConversations({ db }, ref, c.params);
      times.push(performance.now() - t);
    }
    expect(page.rows.length).toBeGreaterThan(0);
    results.push({ name: c.name, rows: page.rows.length, total: page.total, p50: nearestRank(times, 50), p95: nearestRank(times, 95) });
    console.log(`BENCH_PROGRESS ${c.name}: p95 ${nearestRank(times, 95).toFixed(1)} ms (${page.total} matching)`);
  }
  console.log(`BENCH_RESULT ${JSON.stringify({ conversations: N, neighbour: Math.floor(N / 5), runs: RUNS, seedMs, cases: results })}`);
});
