import type { Env } from "../../app/.server/env";

export type QueueJob = { kind: string; [key: string]: unknown };

/**
 * The single queue consumer. Each job kind is handled by its capability (ingestion arrives with
 * the knowledge-base issue); an unknown kind is acknowledged and logged rather than retried forever.
 */
export async function handleQueue(batch: MessageBatch<QueueJob>, _env: Env, _ctx: ExecutionContext) {
  for (const message of batch.messages) {
    console.warn(`[queue] no handler for job kind ${JSON.stringify(message.body?.kind)}; acknowledged`);
    message.ack();
  }
}
