import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { collectAnswer } from "~/.server/chat/answer";
import { takeTurn } from "~/.server/chat/turn";
import { createServiceContext } from "~/.server/context";
import type { Env } from "~/.server/env";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { createTextSource } from "~/.server/kb/sources";
import { knowledgeStore } from "~/.server/retrieval/knowledge-store";
import { queryTerms, retrieve } from "~/.server/retrieval/search";
import { stem } from "~/.server/retrieval/text";

// Answer benchmark (see bench/README.md). Run with `npm run bench:answers`, never by `npm test`.
// Each set's knowledge goes in through the product's own ingestion (a text source → the ingest
// steps: chunking, indexing, embeddings), and every question is asked the way POST /api/chat asks
// it (the conversation core, takeTurn → answerMessage → the UI message stream read to its end), one new
// visitor per question, with the chatbot's default settings (only from knowledge, default fallback).
type Question = { id: string; question: string; kind: "answerable" | "unanswerable" | "offtopic"; facts: string[]; half: "dev" | "test" | "demo" };
type AnswerSet = { name: string; documents: { title: string; text: string }[]; questions: Question[] };
type BenchEnv = Env & { BENCH_ANSWER_SETS: string; BENCH_MODEL: string; BENCH_DEBUG: string; BENCH_STORE: string };
const benv = env as unknown as BenchEnv;
const pending: Promise<unknown>[] = [];
// Ingestion runs its steps inline here, so the queue only has to accept messages.
const queue = { async send() {}, async sendBatch() {} } as unknown as Queue;
const ctx = createServiceContext({ ...benv, INGEST_QUEUE: queue }, (p) => void pending.push(p), "http://localhost");
const db = ctx.db;

/** A fact is found when one of its `|`-separated alternatives is in the reply (case-insensitive, spaces folded). */
export function hasFact(reply: string, fact: string) {
  const flat = (s: string) => s.toLowerCase().replace(/\s+/g, " ");
  const r = flat(reply);
  return fact.split("|").some((alt) => r.includes(flat(alt.trim())));
}

it("answer benchmark", async () => {
  // Where each set's knowledge is kept (issue #20): "d1", or "shard" (the chatbot's KnowledgeShard).
  const store = benv.BENCH_STORE === "shard" ? "shard" : "d1";
  const sets = JSON.parse(benv.BENCH_ANSWER_SETS) as AnswerSet[];
  const suffix = Date.now().toString(36);
  const out = [];
  for (const set of sets) {
    const orgId = `org_ans_${set.name}_${suffix}`;
    const chatbotId = `cb_ans_${set.name}_${suffix}`;
    const settings = JSON.stringify({ model: benv.BENCH_MODEL || "local" });
    await benv.DB.batch([
      benv.DB.prepare("INSERT INTO organisations (id, name, slug, plan, period_start) VALUES (?, 'Bench', ?, 'scale', ?)").bind(
        orgId,
        `ans-${set.name}-${suffix}`,
        Date.now(),
      ),
      benv.DB.prepare("INSERT INTO chatbots (id, org_id, name, settings, knowledge_store) VALUES (?, ?, 'Assistant', ?, ?)").bind(
        chatbotId,
        orgId,
        settings,
        store,
      ),
    ]);
    const ref = { orgId, chatbotId };
    const t0 = performance.now();
    for (const d of set.documents) {
      const created = await createTextSource(ctx, ref, { title: d.title, text: d.text });
      if (!created.ok) throw new Error(created.message);
      const done = await runIngestionUntilIdle(ctx, created.source.id);
      expect(done.source?.status).toBe("ready");
    }
    const ingestMs = performance.now() - t0;
    const chunks = await (await knowledgeStore(ctx, ref)).countChunks();
    const chatbot = (await db.query.chatbots.findFirst({ where: (c, { eq }) => eq(c.id, chatbotId) }))!;
    const org = (await db.query.organisations.findFirst({ where: (o, { eq }) => eq(o.id, orgId) }))!;

    const rows = [];
    let n = 0;
    for (const q of set.questions) {
      const res = await takeTurn(ctx, { target: { chatbot, org }, channel: "test", visitorId: `v_${q.id}_${suffix}_${n++}`, text: q.question });
      const answer = await collectAnswer(res.stream);
      await res.done;
      const refused = !answer.metadata?.answered;
      const missing = q.facts.filter((f) => !hasFact(answer.text, f));
      const outcome = q.kind !== "answerable" ? (refused ? "refused" : "answered") : refused ? "false-refusal" : missing.length === 0 ? "correct" : "wrong";
      let debug = {};
      // The diagnostics read D1's term statistics and retrieval: only for knowledge kept in D1.
      if (q.half !== "test" && benv.BENCH_DEBUG === "1" && store === "d1") {
        // Which of the question's terms (or their lexicon alternatives) the knowledge has, and in how many chunks.
        const df = async (w: string) =>
          (await benv.DB.prepare("SELECT df FROM term_stats WHERE chatbot_id = ? AND term = ?").bind(chatbotId, stem(w)).first<{ df: number }>())?.df ?? 0;
        const terms = [];
        for (const t of queryTerms(q.question)) {
          const alts = [];
          for (const a of (t as { alts?: { word: string }[] }).alts ?? []) if (await df(a.word)) alts.push(a.word);
          terms.push(`${t.word}:${await df(t.word)}${alts.length ? `(${alts.join(",")})` : ""}`);
        }
        const r = await retrieve(ctx, ref, q.question, { k: 5 });
        debug = {
          similarity: r.similarity,
          floor: r.floor,
          refusedBy: r.refusedBy,
          question: q.question,
          relevance: r.relevance,
          passageScores: r.passages.map((p) => p.score),
          terms: terms.join(" "),
          reply: answer.text,
          missing,
          sources: answer.sources.map((s) => s.snippet),
          passages: r.passages.map((p) => p.text),
          // What the engine's prompt names each passage by (the sentence choice weighs the title).
          passageTitles: r.passages.map((p) => (p.heading && p.heading !== p.title ? `${p.title} — ${p.heading}` : p.title)),
        };
      }
      rows.push({ id: q.id, half: q.half, kind: q.kind, outcome, ...(q.half === "demo" ? { sources: answer.sources.length } : {}), ...debug });
    }
    const summary: Record<string, unknown> = {};
    for (const half of ["dev", "test", "demo", "all"] as const) {
      const rs = rows.filter((r) => half === "all" || r.half === half);
      const ans = rs.filter((r) => r.kind === "answerable");
      const un = rs.filter((r) => r.kind === "unanswerable");
      const off = rs.filter((r) => r.kind === "offtopic");
      summary[half] = {
        answerable: ans.length,
        correct: ans.filter((r) => r.outcome === "correct").length,
        wrong: ans.filter((r) => r.outcome === "wrong").length,
        falseRefusal: ans.filter((r) => r.outcome === "false-refusal").length,
        unanswerable: un.length,
        unanswerableRefused: un.filter((r) => r.outcome === "refused").length,
        offtopic: off.length,
        offtopicRefused: off.filter((r) => r.outcome === "refused").length,
      };
    }
    out.push({ name: set.name, documents: set.documents.length, chunks, ingestMs, ...summary, rows });
  }
  await Promise.allSettled(pending);
  console.log("BENCH_RESULT " + JSON.stringify({ model: benv.BENCH_MODEL || "local", store, sets: out }));
});
