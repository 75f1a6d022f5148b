import { createServiceContext } from "../../app/.server/context";
import type { Env } from "../../app/.server/env";
import { isConversationMoveMessage, runConversationMoveStep } from "../../app/.server/chat/conversation-move";
import { isMessageMoveMessage, runMessageMoveStep } from "../../app/.server/chat/message-move";
import { runIngestStep } from "../../app/.server/kb/ingest";
import { isIngestMessage } from "../../app/.server/kb/queue";
import { deliverNotification } from "../../app/.server/notifications/delivery";
import { isNotifyMessage } from "../../app/.server/notifications/queue";
import { isMoveMessage, runKnowledgeMoveStep } from "../../app/.server/retrieval/knowledge-move";

export type QueueJob = { kind: string; [key: string]: unknown };

/**
 * The single queue consumer. Each job kind is handled by its capability; an unknown kind is
 * acknowledged and logged rather than retried forever.
 */
export async function handleQueue(batch: MessageBatch<QueueJob>, env: Env, execution: ExecutionContext) {
  const ctx = createServiceContext(env, (p) => execution.waitUntil(p));
  for (const message of batch.messages) {
    const body = message.body;
    if (isIngestMessage(body)) {
      try {
        // One bounded step; the step re-enqueues itself when work is left.
        await runIngestStep(ctx, body.sourceId);
        message.ack();
      } catch (e) {
        console.error(`[queue] ingest step for ${body.sourceId} failed; retrying`, e);
        message.retry({ delaySeconds: 30 });
      }
      continue;
    }
    if (isMoveMessage(body)) {
      try {
        // One bounded step of moving a chatbot's knowledge into its shard; it queues the next.
        await runKnowledgeMoveStep(ctx, body.chatbotId);
        message.ack();
      } catch (e) {
        console.error(`[queue] knowledge move step for ${body.chatbotId} failed; retrying`, e);
        message.retry({ delaySeconds: 30 });
      }
      continue;
    }
    if (isMessageMoveMessage(body)) {
      try {
        // One bounded step of moving a chatbot's messages into its shard (ADR 042); it queues the next.
        await runMessageMoveStep(ctx, body.chatbotId);
        message.ack();
      } catch (e) {
        console.error(`[queue] message move step for ${body.chatbotId} failed; retrying`, e);
        message.retry({ delaySeconds: 30 });
      }
      continue;
    }
    if (isConversationMoveMessage(body)) {
      try {
        // One bounded step of moving a chatbot's conversation index into its shard (ADR 051); it queues the next.
        await runConversationMoveStep(ctx, body.chatbotId);
        message.ack();
      } catch (e) {
        console.error(`[queue] conversation move step for ${body.chatbotId} failed; retrying`, e);
        message.retry({ delaySeconds: 30 });
      }
      continue;
    }
    if (isNotifyMessage(body)) {
      try {
        // One attempt; a failed attempt queues its own retry with the backoff delay (delivery.ts).
        await deliverNotification(ctx, body);
        message.ack();
      } catch (e) {
        console.error(`[queue] notification ${body.deliveryId} attempt ${body.attempt} failed to run; retrying`, e);
        message.retry({ delaySeconds: 30 });
      }
      continue;
    }
    console.warn(`[queue] no handler for job kind ${JSON.stringify(body?.kind)}; acknowledged`);
    message.ack();
  }
}
