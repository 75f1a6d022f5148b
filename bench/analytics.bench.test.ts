import { env } from "cloudflare:workers";
import type { Env } from "~/.server/env";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { answerTimeBucket } from "~/.server/analytics/answer-time";
import { questionKey } from "~/.server/analytics/questions";
import { loadQuestions } from "~/.server/analytics/question-groups";
import { loadReport } from "~/.server/analytics/report";
import { buildCharts } from "~/.server/analytics/screen";
import { getOrCreateConversation, recordExchange } from "~/.server/chat/conversations";
import { createDb } from "~/.server/db/client";
import { findLeads } from "~/.server/leads/leads";
import { newId } from "~/.server/auth/crypto";
import { addDays, dayIn } from "~/lib/time-zone";
import type { AnalyticsRange } from "~/lib/schemas/analytics";
import type { LeadListParams } from "~/lib/schemas/leads";

// Analytics benchmark (see bench/README.md; `npm run bench:analytics`, never `npm test`): one chatbot
// with BENCH_MESSAGES messages (default 1M: conversations of 10 messages over 120 days) and
// BENCH_LEADS leads (default 100k), seeded in SQL, its analytics rows built from those messages as
// the write path builds them (analytics/record.ts). Measured: the analytics page's server work (what
// its loader runs: the report, the question lists, the charts) for the presets and a year, and the
// leads screen's search (findLeads, as its loader calls it). Each case runs twice to warm up, then
// BENCH_RUNS times; p50/p95 are nearest-rank. Then BENCH_WRITES exchanges through recordExchange at
// that size: the cost of a stored message with its analytics statements.

type BenchEnv = { DB: D1Database; BENCH_MESSAGES: string; BENCH_LEADS: string; BENCH_RUNS: string; BENCH_WRITES: string; BENCH_PROFILE: string };
const benv = env as unknown as BenchEnv;
const db = createDb(benv.DB);
const MESSAGES = Number(benv.BENCH_MESSAGES);
const LEADS = Number(benv.BENCH_LEADS);
const RUNS = Number(benv.BENCH_RUNS);
const WRITES = Number(benv.BENCH_WRITES);
const ORG = "org_bench";
const BOT = "cb_bench";
const DAYS = 120;
const PER_CONVERSATION = 10;
const QUESTIONS = 20_000;
const LATENCIES = 400;
const ref = { orgId: ORG, chatbotId: BOT };

// 300 made-up words; a question is three of them, so the 20,000 question texts have distinct keys.
const SYL = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "pe", "da", "fu", "ji", "zo", "be"];
const WORDS = Array.from({ length: 300 }, (_, i) => SYL[i % 14] + SYL[Math.floor(i / 14) % 14] + SYL[(i * 5 + 3) % 14] + "n");
const questionText = (k: number) => `How do I ${WORDS[k % 300]} the ${WORDS[Math.floor(k / 300) % 300]} ${WORDS[(k * 7 + 11) % 300]}?`;

const nearestRank = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

async function insertRows(table: string, columns: string[], rows: (string | number)[][]) {
  const per = Math.floor(99 / columns.length);
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per).map(
      (r) =>
        sql`(${sql.join(
          r.map((v) => sql`${v}`),
          sql`, `,
        )})`,
    );
    await db.run(sql`insert into ${sql.raw(table)} (${sql.raw(columns.join(", "))}) values ${sql.join(chunk, sql`, `)}`);
  }
}

async function seed(now: number) {
  const conversations = Math.floor(MESSAGES / PER_CONVERSATION);
  const span = DAYS * 86_400_000;
  const start = now - span;
  await db.run(sql`insert into organisations (id, name, slug, plan, period_start) values (${ORG}, 'Bench', 'bench', 'scale', ${now})`);
  await db.run(sql`insert into chatbots (id, org_id, name) values (${BOT}, ${ORG}, 'Bench')`);
  // Lookup tables the SQL below draws from: question texts with the key the product gives them, and
  // answer times with their histogram bucket.
  await db.run(sql`create table bench_questions (k integer primary key, text text not null, key text not null)`);
  await insertRows(
    "bench_questions",
    ["k", "text", "key"],
    Array.from({ length: QUESTIONS }, (_, k) => [k, questionText(k), questionKey(questionText(k))]),
  );
  await db.run(sql`create table bench_words (k integer primary key, w text not null)`);
  await insertRows(
    "bench_words",
    ["k", "w"],
    WORDS.map((w, k) => [k, w]),
  );
  await db.run(sql`create table bench_latency (k integer primary key, ms integer not null, bucket integer not null)`);
  await insertRows(
    "bench_latency",
    ["k", "ms", "bucket"],
    Array.from({ length: LATENCIES }, (_, k) => {
      const ms = Math.round(300 * Math.exp((k % 97) / 40)) + (k % 7) * 13;
      return [k, ms, answerTimeBucket(ms)];
    }),
  );
  // Conversations: ~0.6 per visitor (a visitor comes back), channels and countries spread, 1 in 7 with a fallback.
  await db.run(sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${conversations - 1})
    insert into conversations (id, org_id, chatbot_id, visitor_id, channel, status, verified, country, rating, title, message_count, created_at, last_message_at,
      unanswered, reported, has_lead, lead_name, lead_email)
    select 'cv_b' || printf('%07d', i), ${ORG}, ${BOT}, 'v_' || printf('%07d', (i * 7919) % ${Math.floor(conversations * 0.6)}),
      case i % 10 when 0 then 'test' when 1 then 'api' else 'widget' end,
      case when i % 31 = 0 then 'waiting' else 'bot' end, 0,
      case i % 6 when 0 then 'FR' when 1 then 'DE' when 2 then 'US' when 3 then 'GB' when 4 then 'ES' else null end,
      case when i % 13 = 0 then -1 else null end, null, ${PER_CONVERSATION}, ${start} + i * ${Math.floor(span / conversations)},
      ${start} + i * ${Math.floor(span / conversations)} + ${PER_CONVERSATION * 20_000},
      i % 7 = 0, i % 29 = 0, 0, null, null
    from n`);
  // Messages: visitor and bot in turn, 20 s apart; a visitor message asks one of the 20,000 questions
  // (the most asked far more often than the rest: k = 20000·r³).
  await db.run(sql`create index bench_questions_text on bench_questions (text)`);
  await db.run(sql`with recursive j(x) as (select 0 union all select x + 1 from j where x < ${PER_CONVERSATION - 1})
    insert into messages (id, conversation_id, org_id, chatbot_id, role, content, answered, latency_ms, feedback, created_at)
    select 'm' || substr(t.id, 3) || '_' || t.x, t.id, t.org_id, t.chatbot_id,
      case when t.x % 2 = 0 then 'visitor' else 'bot' end,
      case when t.x % 2 = 0 then (select text from bench_questions where k = cast(${QUESTIONS} * t.r * t.r * t.r as integer)) else 'Here is the answer.' end,
      case when t.x % 2 = 1 then not (t.unanswered and t.x = 1) end,
      case when t.x % 2 = 1 then (select ms from bench_latency where k = (t.created_at / 1000 + t.x) % ${LATENCIES}) end,
      case when t.x = 1 and t.rating = -1 then -1 when t.x = 3 and (t.created_at / 1000) % 9 = 0 then 1 end,
      t.created_at + t.x * 20000
    from (select c.id, c.org_id, c.chatbot_id, c.created_at, c.unanswered, c.rating, j.x,
        (abs(c.created_at * 31 + j.x * 2654435761) % 1000003) / 1000003.0 as r
      from conversations c, j where c.chatbot_id = ${BOT}) t`);
  const t = (ms: string) => sql.raw(`date(${ms} / 1000, 'unixepoch')`);
  // The analytics rows those messages would have written (UTC days; the organisation's time zone is UTC).
  await db.run(sql`insert into analytics_conversations (conversation_id, chatbot_id, day, problem)
    select id, chatbot_id, ${t("created_at")}, unanswered = 1 or reported = 1 or coalesce(rating, 0) = -1 or status = 'waiting' from conversations where chatbot_id = ${BOT}`);
  await db.run(sql`insert into analytics_daily (chatbot_id, day, org_id, conversations, unresolved, handoffs, reports)
    select c.chatbot_id, a.day, c.org_id, count(*), sum(a.problem), sum(c.status = 'waiting'), sum(c.reported)
    from analytics_conversations a join conversations c on c.id = a.conversation_id group by c.chatbot_id, a.day`);
  await db.run(sql`insert into analytics_daily (chatbot_id, day, org_id, messages, questions, unanswered, thumbs_up, thumbs_down)
    select chatbot_id, ${t("created_at")} as d, org_id, count(*), sum(role = 'visitor'), sum(role = 'bot' and answered = 0), coalesce(sum(feedback = 1), 0), coalesce(sum(feedback = -1), 0)
    from messages where chatbot_id = ${BOT} group by d
    on conflict (chatbot_id, day) do update set messages = excluded.messages, questions = excluded.questions, unanswered = excluded.unanswered,
      thumbs_up = excluded.thumbs_up, thumbs_down = excluded.thumbs_down`);
  await db.run(sql`insert into analytics_visitors (chatbot_id, day, visitor_id)
    select distinct c.chatbot_id, ${t("m.created_at")}, c.visitor_id from messages m join conversations c on c.id = m.conversation_id
    where m.chatbot_id = ${BOT} and m.role = 'visitor'`);
  await db.run(sql`insert into analytics_splits (chatbot_id, day, dim, key, count)
    select c.chatbot_id, a.day, 'channel', c.channel, count(*) from analytics_conversations a join conversations c on c.id = a.conversation_id group by a.day, c.channel`);
  await db.run(sql`insert into analytics_splits (chatbot_id, day, dim, key, count)
    select c.chatbot_id, a.day, 'country', coalesce(c.country, ''), count(*) from analytics_conversations a join conversations c on c.id = a.conversation_id
    group by a.day, coalesce(c.country, '')`);
  await db.run(sql`insert into analytics_splits (chatbot_id, day, dim, key, count)
    select m.chatbot_id, ${t("m.created_at")} as d, 'latency', cast(l.bucket as text), count(*) from messages m join bench_latency l on l.ms = m.latency_ms
    where m.chatbot_id = ${BOT} and m.role = 'bot' group by d, l.bucket`);
  // Questions: the visitor message's key; unanswered when the reply after it had no answer.
  await db.run(sql`create table bench_asked as
    select q.key, q.text, ${t("m.created_at")} as day, m.created_at as at, coalesce((select b.answered = 0 from messages b where b.id = substr(m.id, 1, length(m.id) - 1) || (cast(substr(m.id, -1) as integer) + 1)), 0) as missed
    from messages m join bench_questions q on q.text = m.content where m.chatbot_id = ${BOT} and m.role = 'visitor'`);
  await db.run(sql`insert into analytics_question_days (chatbot_id, day, key, asked, unanswered)
    select ${BOT}, day, key, count(*), sum(missed) from bench_asked group by day, key`);
  await db.run(sql`insert into analytics_questions (chatbot_id, key, org_id, text, asked, unanswered, last_asked_at, last_unanswered_at)
    select ${BOT}, key, ${ORG}, max(text), count(*), sum(missed), max(at), max(case when missed then at end) from bench_asked group by key`);
  // Leads: names, emails and phones all different; one in 20 with notes.
  await db.run(sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${LEADS - 1})
    insert into leads (id, org_id, chatbot_id, visitor_id, name, email, phone, status, notes, source, created_at, updated_at)
    select 'lead_b' || printf('%07d', i), ${ORG}, ${BOT}, 'v_' || printf('%07d', i), 'Person ' || i || ' ' || (select w from bench_words where k = i % 50),
      'person' || i || '@example.com', '+33 6 ' || printf('%08d', (i * 7919) % 100000000),
      case i % 5 when 0 then 'new' when 1 then 'contacted' when 2 then 'qualified' when 3 then 'won' else 'lost' end,
      case when i % 20 = 0 then 'Asked about the ' || ${WORDS[7]} || ' plan, call back' when i = ${Math.floor(LEADS / 2) + 1} then 'zeppelin fleet order' end,
      'widget', ${start} + i * ${Math.floor(span / LEADS)}, ${start} + i * ${Math.floor(span / LEADS)}
    from n`);
  await db.run(sql`insert into analytics_daily (chatbot_id, day, org_id, leads)
    select chatbot_id, ${t("created_at")} as d, org_id, count(*) from leads where chatbot_id = ${BOT} group by d
    on conflict (chatbot_id, day) do update set leads = excluded.leads`);
  await db.run(sql`drop table bench_asked`);
  await db.run(sql`drop table bench_latency`);
  await db.run(sql`drop table bench_questions`);
  await db.run(sql`drop table bench_words`);
}

async function timed<T>(fn: () => Promise<T>): Promise<{ times: number[]; last: T }> {
  for (let i = 0; i < 2; i++) await fn();
  const times: number[] = [];
  let last = await fn();
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    last = await fn();
    times.push(performance.now() - t);
  }
  return { times, last };
}

it("analytics page and leads search at scale", async () => {
  const started = Date.now();
  const now = Date.now();
  await seed(now);
  const seedMs = Date.now() - started;
  const count = async (q: string) => (await db.get<{ n: number }>(sql.raw(q)))!.n;
  const stored = {
    messages: await count(`select count(*) as n from messages where chatbot_id = '${BOT}'`),
    conversations: await count(`select count(*) as n from conversations where chatbot_id = '${BOT}'`),
    leads: await count(`select count(*) as n from leads where chatbot_id = '${BOT}'`),
    dailyRows: await count(`select count(*) as n from analytics_daily where chatbot_id = '${BOT}'`),
    visitorRows: await count(`select count(*) as n from analytics_visitors where chatbot_id = '${BOT}'`),
    splitRows: await count(`select count(*) as n from analytics_splits where chatbot_id = '${BOT}'`),
    questionKeys: await count(`select count(*) as n from analytics_questions where chatbot_id = '${BOT}'`),
    questionDayRows: await count(`select count(*) as n from analytics_question_days where chatbot_id = '${BOT}'`),
  };
  console.log(`BENCH_PROGRESS seeded in ${(seedMs / 1000).toFixed(1)} s: ${JSON.stringify(stored)}`);

  const today = dayIn("UTC", now);
  const range = (days: number): AnalyticsRange => ({
    from: addDays(today, 1 - days),
    to: today,
    preset: days === 7 || days === 30 || days === 90 ? days : null,
  });
  // What the analytics route's loader runs for one page view.
  const page = async (r: AnalyticsRange) => {
    const [report, questions] = await Promise.all([
      loadReport({ db, env: env as unknown as Env }, ref, r),
      loadQuestions({ db, env: env as unknown as Env }, ref, r),
    ]);
    const charts = buildCharts(report);
    // workerd's clock only moves on I/O: one more round trip puts the grouping and chart CPU time on it.
    await db.get(sql`select 1`);
    return { report, questions, charts };
  };
  const cases: { name: string; kind: "analytics" | "leads" | "profile"; matching?: string; run: () => Promise<unknown> }[] = [];
  for (const days of [7, 30, 90, 365]) cases.push({ name: `analytics page: last ${days} days`, kind: "analytics", run: () => page(range(days)) });
  // BENCH_PROFILE=1: the page's two halves on their own.
  if (benv.BENCH_PROFILE === "1") {
    cases.push({ name: "profile: report only, 90 days", kind: "profile", run: () => loadReport({ db, env: env as unknown as Env }, ref, range(90)) });
    cases.push({ name: "profile: questions only, 90 days", kind: "profile", run: () => loadQuestions({ db, env: env as unknown as Env }, ref, range(90)) });
  }
  const q = (x: Partial<LeadListParams>): LeadListParams => ({ q: "", status: null, from: null, to: null, older: null, ...x });
  const leadCases: [string, LeadListParams][] = [
    ["leads: first page (no search)", q({})],
    ['leads search: a name word in 2 % ("' + WORDS[3] + '")', q({ q: WORDS[3] })],
    ["leads search: one email", q({ q: `person${Math.floor(LEADS / 3)}@example.com` })],
    ["leads search: phone digits", q({ q: "+33 6 0004" })],
    ['leads search: a word in one note ("zeppelin")', q({ q: "zeppelin" })],
    ["leads search: no match", q({ q: "nobody-here" })],
    ['leads search + status: "' + WORDS[3] + '" + won', q({ q: WORDS[3], status: "won" })],
  ];
  for (const [name, params] of leadCases) cases.push({ name, kind: "leads", run: () => findLeads({ db }, ref, params) });

  const results = [];
  for (const c of cases) {
    const { times, last } = await timed(c.run);
    let detail = "";
    if (c.kind === "analytics") {
      const v = last as Awaited<ReturnType<typeof page>>;
      expect(v.report.totals.messages).toBeGreaterThan(0);
      detail = `${v.report.totals.messages.toLocaleString("en-GB")} messages, ${v.report.totals.visitors.toLocaleString("en-GB")} visitors, ${v.questions.top.length} top / ${v.questions.unanswered.length} unanswered groups`;
    } else if (c.kind === "leads") {
      const v = last as Awaited<ReturnType<typeof findLeads>>;
      if (!c.name.includes("no match")) expect(v.rows.length, c.name).toBeGreaterThan(0);
      detail = `${v.rows.length} rows${v.older ? " (more)" : ""}`;
    }
    results.push({ name: c.name, kind: c.kind, detail, p50: nearestRank(times, 50), p95: nearestRank(times, 95) });
    console.log(`BENCH_PROGRESS ${c.name}: p95 ${nearestRank(times, 95).toFixed(1)} ms (${detail})`);
  }

  // Writing at this size: one exchange (visitor message + reply) with its analytics statements, one batch.
  const writes: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const conversation = await getOrCreateConversation({ db }, ref, { visitorId: `v_write_${i % 50}`, channel: "widget", country: "FR" });
    const askedAt = Date.now();
    const t = performance.now();
    await recordExchange({ db }, conversation, {
      visitorText: questionText(i),
      askedAt,
      timeZone: "UTC",
      bot: {
        id: newId("msg_"),
        at: askedAt + 5,
        content: "Here is the answer.",
        sources: [],
        answered: i % 5 !== 0,
        model: "local",
        latencyMs: 400 + i,
        firstTokenMs: 100,
        credits: 1,
      },
      unanswered: i % 5 === 0,
    });
    writes.push(performance.now() - t);
  }
  results.push({
    name: "write: one exchange with its analytics rows",
    kind: "write",
    detail: `${WRITES} exchanges`,
    p50: nearestRank(writes, 50),
    p95: nearestRank(writes, 95),
  });
  console.log(`BENCH_RESULT ${JSON.stringify({ messages: MESSAGES, leads: LEADS, runs: RUNS, seedMs, stored, cases: results })}`);
});
