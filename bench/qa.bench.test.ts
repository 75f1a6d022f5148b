import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { createServiceContext } from "~/.server/context";
import type { Env } from "~/.server/env";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { createQaSource } from "~/.server/kb/sources";
import { retrieve } from "~/.server/retrieval/search";

// Q&A match benchmark (ADR 022; run with `npm run bench:qa`, never by `npm test`). StackFAQ's 125
// threads become one Q&A source (question = the thread's title, answer = its top answers); each of
// the eval's rephrasings is asked. A rephrasing is a paraphrase of exactly one pair's question, so
// when a pair wins (its closeness ≥ the bar) it is either the right pair or a wrong one. Questions
// alternate between a dev half (the bar was chosen on it) and a test half (totals only). The answer
// sets' questions (other businesses) are asked too: no pair should ever win for them.
type BenchEnv = Env & { BENCH_CORPUS: string; BENCH_EVAL: string; BENCH_FOREIGN: string; BENCH_QA_CLOSENESS: string };
const benv = env as unknown as BenchEnv;
const queue = { async send() {}, async sendBatch() {} } as unknown as Queue;
const ctx = createServiceContext({ ...benv, INGEST_QUEUE: queue }, () => {}, "http://localhost");

it("Q&A match benchmark", async () => {
  const corpus = JSON.parse(benv.BENCH_CORPUS) as { chunk_link: string; chunk_heading: string; text: string }[];
  const evalSet = JSON.parse(benv.BENCH_EVAL) as { id: string; question: string; correct_chunks: string[] }[];
  const foreign = JSON.parse(benv.BENCH_FOREIGN) as string[];
  const orgId = `org_qa_${Date.now().toString(36)}`;
  const chatbotId = `cb_qa_${Date.now().toString(36)}`;
  await benv.DB.batch([
    benv.DB.prepare("INSERT INTO organisations (id, name, slug, plan, period_start) VALUES (?, 'Bench', ?, 'scale', ?)").bind(orgId, orgId, Date.now()),
    benv.DB.prepare("INSERT INTO chatbots (id, org_id, name, settings) VALUES (?, ?, 'Assistant', '{}')").bind(chatbotId, orgId),
  ]);
  const ref = { orgId, chatbotId };
  const created = await createQaSource(ctx, ref, { title: "StackFAQ", pairs: corpus.map((d) => ({ question: d.chunk_heading, answer: d.text })) });
  if (!created.ok) throw new Error(created.message);
  expect((await runIngestionUntilIdle(ctx, created.source.id)).source?.status).toBe("ready");
  // chunk position = corpus index (one chunk per pair).
  const { results } = await benv.DB.prepare("SELECT id, position FROM chunks WHERE source_id = ?")
    .bind(created.source.id)
    .all<{ id: number; position: number }>();
  const linkOf = new Map(results.map((r) => [r.id, corpus[r.position].chunk_link]));
  const tuning = benv.BENCH_QA_CLOSENESS ? { qaCloseness: Number(benv.BENCH_QA_CLOSENESS) } : {};
  const rows = [];
  const t0 = performance.now();
  for (const [i, q] of evalSet.entries()) {
    const r = await retrieve(ctx, ref, q.question, { k: 5, explainQa: true, tuning });
    rows.push({
      half: i % 2 === 0 ? "dev" : "test",
      question: q.question,
      won: r.qa ? (linkOf.get(r.qa.chunkId) === q.correct_chunks[0] ? "right" : "wrong") : "none",
      candidates: (r.qaCandidates ?? []).map((c) => ({ ...c, right: linkOf.get(c.chunkId) === q.correct_chunks[0] })),
    });
  }
  const ms = (performance.now() - t0) / evalSet.length;
  for (const question of foreign) {
    const r = await retrieve(ctx, ref, question, { k: 5, explainQa: true, tuning });
    rows.push({ half: "foreign", question, won: r.qa ? "wrong" : "none", candidates: (r.qaCandidates ?? []).map((c) => ({ ...c, right: false })) });
  }
  console.log(`BENCH_RESULT ${JSON.stringify({ pairs: corpus.length, msPerQuestion: Math.round(ms * 10) / 10, rows })}`);
});
