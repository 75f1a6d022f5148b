import type { ServiceContext } from "~/.server/context";
import { knowledgeStore } from "~/.server/retrieval/knowledge-store";
import type { ChatbotRef } from "~/.server/retrieval/types";

/**
 * What retrieval answers for each question (passages with their scores, the floor, answerable):
 * the knowledge-move tests compare it before and after a chatbot's knowledge changes storage.
 */
export async function knowledgeRankings(ctx: ServiceContext, ref: ChatbotRef, questions: string[]) {
  const store = await knowledgeStore(ctx, ref);
  const out = [];
  for (const q of questions) {
    const r = await store.retrieve(q, { k: 5 });
    out.push({ q, answerable: r.answerable, floor: r.floor, passages: r.passages.map((p) => [p.chunkId, p.sourceId, p.score]) });
  }
  return out;
}
