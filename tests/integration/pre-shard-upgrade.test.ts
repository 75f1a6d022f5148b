import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { loadQuestions, sweepStrayQuestions } from "~/.server/analytics/question-groups";
import { sweepStrayVisitors, visitorCounts } from "~/.server/analytics/visitors";
import { conversationIndex } from "~/.server/chat/conversation-index";
import { runConversationMoveStep, sweepConversationMoves } from "~/.server/chat/conversation-move";
import { messageStore } from "~/.server/chat/message-store";
import { runMessageMoveStep, sweepMessageMoves } from "~/.server/chat/message-move";
import { createServiceContext } from "~/.server/context";
import type { Env } from "~/.server/env";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { createQaSource, createTextSource } from "~/.server/kb/sources";
import { runKnowledgeMoveStep, sweepKnowledgeMoves } from "~/.server/retrieval/knowledge-move";
import { knowledgeStore } from "~/.server/retrieval/knowledge-store";
import { makeOrg, makeUser } from "../factories";
import { knowledgeRankings } from "./knowledge-rankings";

// Issue #20 item 3, end to end: a database as Parley wrote it before any shard existed (the
// migrations up to 0024: a source's text in `knowledge_sources.content`, chunks, vectors, messages
// and conversations all in D1), upgraded by every migration since, then moved by the cron's three
// sweeps and their queue jobs — knowledge, then messages, then the conversation index — until all
// three stores of the chatbot are its shards. Everything must then read back the same through the
// domain modules, and nothing of the chatbot's may be left in D1's per-chatbot tables.

const BEFORE = "0025";
const T = 1_700_000_000_000;
const knowledge = import.meta.glob("/bench/answers/*/knowledge.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const questionSets = import.meta.glob("/bench/answers/*/questions.json", { import: "default", eager: true }) as Record<string, { question: string }[]>;

const sent: { kind: string; chatbotId: string; delaySeconds?: number }[] = [];
const queue = {
  async send(m: { kind: string; chatbotId: string }, opts?: { delaySeconds?: number }) {
    sent.push({ ...m, delaySeconds: opts?.delaySeconds });
  },
  async sendBatch() {},
} as unknown as Queue;
/** The product's context over the upgraded database; the queue records what the jobs send. */
const ctx = createServiceContext({ ...(env as unknown as Env), DB: env.MIGRATION_DB, INGEST_QUEUE: queue });
const old = env.MIGRATION_DB;
const ref = { orgId: "org_old", chatbotId: "cb_old" };
const CONVERSATIONS = ["cv_old_1", "cv_old_2"];
const VISITOR_DAYS = ["2023-11-14", "2023-11-15"];
const QA = [
  { question: "Do you sell gift cards?", answer: "Gift cards from 20 to 200 euro are sold at the counter and online." },
  { question: "Do gift cards expire?", answer: "A gift card is valid for five years from the day it was bought." },
];

/**
 * Chunks as the product makes them, from a scratch chatbot in the tests' own database (the chunk
 * table's shape has not changed since 0024): the text and Q&A sources' rows, texts, chunks and vectors.
 */
async function productChunks() {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Scratch", { plan: "scale" });
  const scratch = createServiceContext({ ...(env as unknown as Env), INGEST_QUEUE: queue });
  const text = await createTextSource(scratch, { orgId: org.id, chatbotId: bot.id }, { title: "Shop", text: knowledge["/bench/answers/shop/knowledge.md"] });
  const qa = await createQaSource(scratch, { orgId: org.id, chatbotId: bot.id }, { title: "Gift cards", pairs: QA });
  if (!text.ok || !qa.ok) throw new Error("could not create the sources");
  for (const id of [text.source.id, qa.source.id]) expect((await runIngestionUntilIdle(scratch, id)).source?.status).toBe("ready");
  const rows = async (sql: string) => (await env.DB.prepare(sql).bind(bot.id).all<Record<string, unknown>>()).results;
  return {
    sources: await rows(
      "SELECT s.id, s.type, s.title, s.char_count, s.chunk_count, (SELECT group_concat(content, '') FROM (SELECT content FROM knowledge_source_contents WHERE source_id = s.id ORDER BY start)) AS content FROM knowledge_sources s WHERE s.chatbot_id = ?",
    ),
    chunks: await rows("SELECT id, source_id, position, title, heading, url, text, created_at, features FROM chunks WHERE chatbot_id = ? ORDER BY id"),
    vectors: await rows("SELECT v.chunk_id, v.model, v.vector FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.chatbot_id = ?"),
  };
}

/** The rows of schema 0024, written with that schema's columns. */
async function writeOldRows(made: Awaited<ReturnType<typeof productChunks>>) {
  const s: D1PreparedStatement[] = [
    old.prepare("INSERT INTO users (id, email, name, password_hash, created_at) VALUES ('u_old', 'old@example.test', 'Old Owner', 'x', ?)").bind(T),
    old
      .prepare("INSERT INTO organisations (id, name, slug, plan, period_start, created_at) VALUES ('org_old', 'Old Shop', 'old-shop', 'scale', ?, ?)")
      .bind(T, T),
    old.prepare("INSERT INTO chatbots (id, org_id, name, created_at, updated_at) VALUES ('cb_old', 'org_old', 'Old bot', ?, ?)").bind(T, T),
  ];
  for (const src of made.sources)
    s.push(
      old
        .prepare(
          "INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title, content, status, char_count, chunk_count, created_at, updated_at) VALUES (?, 'org_old', 'cb_old', ?, ?, ?, 'ready', ?, ?, ?, ?)",
        )
        .bind(src.id, src.type, src.title, src.content, src.char_count, src.chunk_count, T, T),
    );
  for (const c of made.chunks)
    s.push(
      old
        .prepare(
          "INSERT INTO chunks (id, source_id, chatbot_id, org_id, position, title, heading, url, text, created_at, features) VALUES (?, ?, 'cb_old', 'org_old', ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(c.id, c.source_id, c.position, c.title, c.heading, c.url, c.text, c.created_at, c.features),
    );
  for (const v of made.vectors)
    s.push(old.prepare("INSERT INTO chunk_vectors (chunk_id, chatbot_id, model, vector) VALUES (?, 'cb_old', ?, ?)").bind(v.chunk_id, v.model, v.vector));
  const cited = JSON.stringify([{ chunkId: made.chunks[0].id, sourceId: made.chunks[0].source_id, title: "Shop", snippet: "…" }]);
  CONVERSATIONS.forEach((cv, n) => {
    const at = T + n * 60_000;
    s.push(
      old
        .prepare(
          `INSERT INTO conversations (id, org_id, chatbot_id, visitor_id, channel, status, title, message_count, created_at, last_message_at, has_lead, lead_email)
           VALUES (?, 'org_old', 'cb_old', ?, 'widget', ?, ?, 3, ?, ?, ?, ?)`,
        )
        .bind(cv, `v_old_${n}`, n ? "closed" : "bot", `Question ${n}`, at, at + 2000, n ? 1 : 0, n ? "ann@example.test" : null),
      old
        .prepare(
          "INSERT INTO messages (id, conversation_id, org_id, chatbot_id, role, content, created_at) VALUES (?, ?, 'org_old', 'cb_old', 'visitor', ?, ?)",
        )
        .bind(`m_${cv}_1`, cv, `Do you ship to Germany? (${n})`, at),
      old
        .prepare(
          "INSERT INTO messages (id, conversation_id, org_id, chatbot_id, role, content, sources, answered, created_at) VALUES (?, ?, 'org_old', 'cb_old', 'bot', ?, ?, 1, ?)",
        )
        .bind(`m_${cv}_2`, cv, "Yes, we ship to Germany.", cited, at + 1000),
      old
        .prepare(
          "INSERT INTO messages (id, conversation_id, org_id, chatbot_id, role, content, created_at) VALUES (?, ?, 'org_old', 'cb_old', 'visitor', ?, ?)",
        )
        .bind(`m_${cv}_3`, cv, "Thanks — my email is ann@example.test", at + 2000),
      // The analytics screen's visitors by day (migration 0013): the conversation's visitor, and one more day of the first.
      old.prepare("INSERT INTO analytics_visitors (chatbot_id, day, visitor_id) VALUES ('cb_old', ?, ?)").bind(VISITOR_DAYS[n], `v_old_${n}`),
    );
  });
  s.push(old.prepare("INSERT INTO analytics_visitors (chatbot_id, day, visitor_id) VALUES ('cb_old', ?, 'v_old_0')").bind(VISITOR_DAYS[1]));
  // The question groups (migration 0013): "ship germani" asked on both days, once unanswered; "gift card" answered with "add an answer".
  const groups: [string, string, number, number, number | null][] = [
    ["germani ship", "Do you ship to Germany? (1)", 2, 1, null],
    ["card gift", "Gift cards?", 3, 3, T + 500_000],
  ];
  for (const [key, text, asked, unanswered, answeredAt] of groups)
    s.push(
      old
        .prepare(
          `INSERT INTO analytics_questions (chatbot_id, key, org_id, text, asked, unanswered, last_asked_at, last_unanswered_at, answered_at, answered_by)
           VALUES ('cb_old', ?, 'org_old', ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(key, text, asked, unanswered, T + 120_000, T + 100_000, answeredAt, answeredAt ? "u_old" : null),
    );
  for (const [day, key, asked, unanswered] of [
    [VISITOR_DAYS[0], "germani ship", 1, 0],
    [VISITOR_DAYS[1], "germani ship", 1, 1],
    [VISITOR_DAYS[1], "card gift", 3, 3],
  ] as const)
    s.push(
      old
        .prepare("INSERT INTO analytics_question_days (chatbot_id, day, key, asked, unanswered) VALUES ('cb_old', ?, ?, ?, ?)")
        .bind(day, key, asked, unanswered),
    );
  s.push(
    old
      .prepare(
        "INSERT INTO leads (id, org_id, chatbot_id, conversation_id, visitor_id, email, created_at, updated_at) VALUES ('ld_old', 'org_old', 'cb_old', 'cv_old_2', 'v_old_1', 'ann@example.test', ?, ?)",
      )
      .bind(T, T),
  );
  await old.batch(s);
}

const storesOf = () =>
  old
    .prepare("SELECT knowledge_store AS k, message_store AS m, conversation_store AS c FROM chatbots WHERE id = 'cb_old'")
    .first<{ k: string; m: string; c: string }>();

/** The cron and the queue: each run starts what is due, then every job message runs until none is left. */
async function cronAndQueueUntilMoved(maxRuns = 20) {
  for (let run = 0; run < maxRuns; run++) {
    const s = await storesOf();
    if (s?.k === "shard" && s.m === "shard" && s.c === "shard") return run;
    await sweepKnowledgeMoves(ctx);
    await sweepMessageMoves(ctx);
    await sweepConversationMoves(ctx);
    for (let steps = 0; sent.length; steps++) {
      if (steps > 2000)
        throw new Error(
          `the move jobs did not settle: ${JSON.stringify(sent.slice(0, 3))} ${JSON.stringify(
            await Promise.all(
              ["knowledge_moves", "message_moves", "conversation_moves"].map(async (t) => (await old.prepare(`SELECT * FROM ${t}`).all()).results),
            ),
          )}`,
        );
      const m = sent.shift()!;
      // A delayed message arrives that much later: the moves' clocks (their switch time) go back by it.
      if (m.delaySeconds)
        for (const table of ["message_moves", "conversation_moves"])
          await old
            .prepare(`UPDATE ${table} SET switched_at = switched_at - ? WHERE switched_at IS NOT NULL`)
            .bind(m.delaySeconds * 1000)
            .run();
      if (m.kind === "knowledge-move") await runKnowledgeMoveStep(ctx, m.chatbotId);
      else if (m.kind === "message-move") await runMessageMoveStep(ctx, m.chatbotId);
      else if (m.kind === "conversation-move") await runConversationMoveStep(ctx, m.chatbotId);
      else throw new Error(`unexpected job ${m.kind}`);
    }
  }
  throw new Error(`not moved: ${JSON.stringify(await storesOf())}`);
}

async function snapshot() {
  const questions = questionSets["/bench/answers/shop/questions.json"].map((q) => q.question).concat(["how long is a gift card valid"]);
  const kb = await knowledgeStore(ctx, ref);
  const sources = (await old.prepare("SELECT id, type FROM knowledge_sources WHERE chatbot_id = 'cb_old' ORDER BY id").all<{ id: string; type: string }>())
    .results;
  const texts: Record<string, string | number | null> = {};
  for (const s of sources) texts[s.id] = s.type === "qa" ? JSON.stringify(await kb.qaPairs(s.id, 0, 10)) : await kb.contentSlice(s.id, 0, 100_000);
  const messages = await messageStore(ctx, ref);
  const index = await conversationIndex(ctx, ref);
  return {
    rankings: await knowledgeRankings(ctx, ref, questions),
    chunks: await kb.countChunks(),
    texts,
    transcripts: await Promise.all(CONVERSATIONS.map((cv) => messages.transcript(cv))),
    conversations: await index.byIds(CONVERSATIONS),
    lead: await old.prepare("SELECT conversation_id, email FROM leads WHERE id = 'ld_old'").first(),
    visitors: await visitorCounts(ctx, ref, { from: VISITOR_DAYS[0], to: VISITOR_DAYS[1] }),
    questions: await loadQuestions(ctx, ref, { from: VISITOR_DAYS[0], to: VISITOR_DAYS[1], preset: null }),
  };
}

describe("a database from before shards, upgraded by the migrations and moved by the cron", () => {
  let before: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    const made = await productChunks();
    sent.length = 0; // the scratch chatbot's ingestion messages (it was ingested inline)
    const migrations = env.TEST_MIGRATIONS;
    expect(migrations.some((m) => m.name.startsWith(BEFORE))).toBe(true);
    await applyD1Migrations(
      old,
      migrations.filter((m) => m.name < BEFORE),
    );
    await writeOldRows(made);
    await applyD1Migrations(old, migrations);
    before = await snapshot();
  });

  it("reads the upgraded rows from D1 before any move", async () => {
    expect(await storesOf()).toEqual({ k: "d1", m: "d1", c: "d1" });
    expect(before.chunks).toBeGreaterThan(5);
    expect(Object.values(before.texts).every((t) => typeof t === "string" && t.length > 20)).toBe(true);
    expect(JSON.parse(Object.values(before.texts).find((t) => String(t).startsWith("["))! as string)).toEqual(QA);
    expect(before.transcripts.map((t) => t.length)).toEqual([3, 3]);
    expect(before.conversations.map((c) => c.id).sort()).toEqual(CONVERSATIONS);
    expect(before.rankings.filter((r) => r.passages.length > 0).length).toBeGreaterThan(before.rankings.length / 2);
    expect(before.visitors).toEqual({ days: VISITOR_DAYS.map((day, n) => ({ day, n: n + 1 })), unique: 2 });
    expect(before.questions.top.map((g) => [g.text, g.asked])).toEqual([
      ["Gift cards?", 3],
      ["Do you ship to Germany? (1)", 2],
    ]);
    expect(before.questions.unanswered.map((g) => [g.text, g.unanswered])).toEqual([["Do you ship to Germany? (1)", 1]]);
  });

  it("moves knowledge, source texts, messages, the conversation index, its visitors and question groups into the shards, reading back the same and leaving D1 none of it", async () => {
    await cronAndQueueUntilMoved();
    expect(await storesOf()).toEqual({ k: "shard", m: "shard", c: "shard" });
    // The switch flagged the visitor and question rows left in D1: read with the shard's until the sweeps move them.
    expect(await snapshot()).toEqual(before);
    expect(await sweepStrayVisitors(ctx)).toEqual(["cb_old"]);
    expect(await sweepStrayVisitors(ctx)).toEqual([]);
    expect(await sweepStrayQuestions(ctx)).toEqual(["cb_old"]);
    expect(await sweepStrayQuestions(ctx)).toEqual([]);
    expect(await snapshot()).toEqual(before);
    const left = async (sql: string) => (await old.prepare(sql).first<{ n: number }>())!.n;
    expect(await left("SELECT count(*) AS n FROM chunks WHERE chatbot_id = 'cb_old'")).toBe(0);
    expect(await left("SELECT count(*) AS n FROM chunk_vectors WHERE chatbot_id = 'cb_old'")).toBe(0);
    expect(await left("SELECT count(*) AS n FROM term_stats WHERE chatbot_id = 'cb_old'")).toBe(0);
    expect(
      await left("SELECT count(*) AS n FROM knowledge_source_contents c JOIN knowledge_sources s ON s.id = c.source_id WHERE s.chatbot_id = 'cb_old'"),
    ).toBe(0);
    expect(await left("SELECT count(*) AS n FROM messages WHERE chatbot_id = 'cb_old'")).toBe(0);
    expect(await left("SELECT count(*) AS n FROM conversations WHERE chatbot_id = 'cb_old'")).toBe(0);
    expect(await left("SELECT count(*) AS n FROM analytics_visitors WHERE chatbot_id = 'cb_old'")).toBe(0);
    expect(await left("SELECT count(*) AS n FROM analytics_questions WHERE chatbot_id = 'cb_old'")).toBe(0);
    expect(await left("SELECT count(*) AS n FROM analytics_question_days WHERE chatbot_id = 'cb_old'")).toBe(0);
    // What crosses chatbots stays: the sources' rows (the knowledge page's list) and the lead.
    expect(await left("SELECT count(*) AS n FROM knowledge_sources WHERE chatbot_id = 'cb_old'")).toBe(2);
    expect(await left("SELECT count(*) AS n FROM leads WHERE chatbot_id = 'cb_old'")).toBe(1);
  });
});
