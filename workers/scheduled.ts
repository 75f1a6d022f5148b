import { sweepConversationMoves } from "../app/.server/chat/conversation-move";
import { sweepMessageMoves } from "../app/.server/chat/message-move";
import { createServiceContext } from "../app/.server/context";
import type { Env } from "../app/.server/env";
import { sweepIngestion } from "../app/.server/kb/ingest";
import { reindexForEmbeddingModel } from "../app/.server/kb/reindex";
import { pruneDeliveries } from "../app/.server/notifications/delivery";
import { sendDueDigests } from "../app/.server/notifications/digest";
import { sweepKnowledgeMoves, sweepStrayTexts } from "../app/.server/retrieval/knowledge-move";
import { sweepStrayVisitors } from "../app/.server/analytics/visitors";
import { sweepStrayQuestions } from "../app/.server/analytics/question-groups";

/**
 * Cron trigger (wrangler.toml [triggers], every 5 minutes): re-indexes chatbots whose embedding
 * model changed, resumes stalled ingestion and starts due re-syncs; starts moving a few chatbots'
 * knowledge from D1 into their shards and resumes stalled moves (ADR 034), and the same for their
 * messages (ADR 042) and their conversation index (ADR 051), and their visitors by day (ADR 076) and question groups (ADR 077); sends due daily
 * notification digests and drops notification deliveries past their retention.
 */
export async function handleScheduled(_controller: ScheduledController, env: Env, execution: ExecutionContext) {
  const ctx = createServiceContext(env, (p) => execution.waitUntil(p));
  ctx.waitUntil(
    reindexForEmbeddingModel(ctx)
      .then((r) => r.chatbots.length && console.log("[cron] re-index for embedding model", JSON.stringify(r)))
      .catch((e) => console.error("[cron] re-index check failed", e)),
  );
  ctx.waitUntil(
    sweepIngestion(ctx).then(
      (r) => {
        if (r.resumed.length || r.failed.length || r.scheduled.length) console.log("[cron] ingestion sweep", JSON.stringify(r));
      },
      (e) => console.error("[cron] ingestion sweep failed", e),
    ),
  );
  ctx.waitUntil(
    sweepKnowledgeMoves(ctx).then(
      (r) => {
        if (r.started.length || r.resumed.length) console.log("[cron] knowledge moves", JSON.stringify(r));
      },
      (e) => console.error("[cron] knowledge-move sweep failed", e),
    ),
  );
  ctx.waitUntil(
    sweepStrayTexts(ctx)
      .then((moved) => moved.length && console.log("[cron] source texts moved into shards", JSON.stringify(moved)))
      .catch((e) => console.error("[cron] source-text sweep failed", e)),
  );
  ctx.waitUntil(
    sweepStrayVisitors(ctx)
      .then((chatbots) => chatbots.length && console.log("[cron] visitor rows moved into shards", JSON.stringify(chatbots)))
      .catch((e) => console.error("[cron] visitor-row sweep failed", e)),
  );
  ctx.waitUntil(
    sweepStrayQuestions(ctx)
      .then((chatbots) => chatbots.length && console.log("[cron] question rows moved into shards", JSON.stringify(chatbots)))
      .catch((e) => console.error("[cron] question-row sweep failed", e)),
  );
  ctx.waitUntil(
    sweepMessageMoves(ctx).then(
      (r) => {
        if (r.started.length || r.resumed.length) console.log("[cron] message moves", JSON.stringify(r));
      },
      (e) => console.error("[cron] message-move sweep failed", e),
    ),
  );
  ctx.waitUntil(
    sweepConversationMoves(ctx).then(
      (r) => {
        if (r.started.length || r.resumed.length) console.log("[cron] conversation moves", JSON.stringify(r));
      },
      (e) => console.error("[cron] conversation-move sweep failed", e),
    ),
  );
  ctx.waitUntil(
    sendDueDigests(ctx)
      .then((sent) => sent.length && console.log("[cron] daily digests", JSON.stringify(sent)))
      .catch((e) => console.error("[cron] daily digests failed", e)),
  );
  ctx.waitUntil(pruneDeliveries(ctx).catch((e) => console.error("[cron] pruning notification deliveries failed", e)));
}
