import { and, eq, inArray, sql } from "drizzle-orm";
import { getEmbeddingModel } from "../ai/embeddings";
import { chatbots, knowledgeSources } from "../db/schema";
import { knowledgeStore } from "../retrieval/knowledge-store";
import { enqueueIngest } from "./queue";
import type { KbContext } from "./sources";

const RECORDED = sql<string | null>`json_extract(${chatbots.settings}, '$.index.embeddingModel')`;

/**
 * Each chatbot records the embedding model that indexed it (settings.index.embeddingModel). When
 * the configured model changes (an OpenAI key added or removed), vectors from the old model no
 * longer compare with the new model's queries, so the chatbot's sources are re-synced. Run by the
 * cron sweep; bounded per call.
 */
export async function reindexForEmbeddingModel(ctx: KbContext, opts: { enqueue?: boolean; limit?: number } = {}) {
  const model = getEmbeddingModel(ctx.env).modelId;
  const stale = await ctx.db
    .select({ id: chatbots.id, orgId: chatbots.orgId, recorded: RECORDED, store: chatbots.knowledgeStore })
    .from(chatbots)
    .where(sql`coalesce(${RECORDED}, '') != ${model}`)
    .limit(opts.limit ?? 50)
    .all();
  const out = { model, chatbots: [] as string[], sources: [] as string[] };
  for (const bot of stale) {
    // A model recorded and changed, or vectors of another model in the store the chatbot's knowledge
    // lives in: a chatbot whose vectors are in its shard has none in D1 (ADR 034).
    const changed =
      (bot.recorded !== null && bot.recorded !== model) ||
      (await (await knowledgeStore(ctx, { orgId: bot.orgId, chatbotId: bot.id }, bot.store)).countVectorsNotOf(model)) > 0;
    if (changed) {
      const now = Date.now();
      const requeued = await ctx.db
        .update(knowledgeSources)
        .set({ status: "queued", error: null, progressDone: 0, progressTotal: 0, jobState: null, attempts: 0, heartbeatAt: now, updatedAt: now })
        .where(and(eq(knowledgeSources.chatbotId, bot.id), inArray(knowledgeSources.status, ["ready", "failed"])))
        .returning({ id: knowledgeSources.id });
      for (const s of requeued) {
        if (opts.enqueue !== false) await enqueueIngest(ctx.env, s.id);
        out.sources.push(s.id);
      }
      out.chatbots.push(bot.id);
    }
    await ctx.db
      .update(chatbots)
      .set({ settings: sql`json_set(${chatbots.settings}, '$.index', json_object('embeddingModel', ${model}))` })
      .where(eq(chatbots.id, bot.id));
  }
  return out;
}
