import { env } from "cloudflare:workers";
import { createServiceContext } from "~/.server/context";
import type { Env } from "~/.server/env";

/**
 * A service context whose ingest queue only records what is sent, so a test runs the storage moves'
 * steps itself, one at a time (ADR 034, ADR 042), instead of the local queue running them meanwhile.
 */
export function recordingQueueContext<M = { kind: string; chatbotId: string }>() {
  const sent: M[] = [];
  const queue = {
    async send(m: M) {
      sent.push(m);
    },
    async sendBatch() {},
  } as unknown as Queue;
  return { sent, ctx: createServiceContext({ ...(env as unknown as Env), INGEST_QUEUE: queue }) };
}
