import type { Env } from "../env";

/** The ingestion job on the shared queue (workers/queues/index.ts routes it to ingest.ts). */
export type IngestMessage = { kind: "ingest"; sourceId: string };

export function isIngestMessage(body: unknown): body is IngestMessage {
  return !!body && typeof body === "object" && (body as IngestMessage).kind === "ingest" && typeof (body as IngestMessage).sourceId === "string";
}

export async function enqueueIngest(env: Pick<Env, "INGEST_QUEUE">, sourceId: string, delaySeconds?: number): Promise<void> {
  const message: IngestMessage = { kind: "ingest", sourceId };
  await env.INGEST_QUEUE.send(message, delaySeconds ? { delaySeconds } : undefined);
}
