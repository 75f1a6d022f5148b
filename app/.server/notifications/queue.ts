import type { Env } from "../env";

/**
 * One delivery attempt on the notifications queue (workers/queues/index.ts routes it to
 * delivery.ts). `attempt` is the attempt this message is for: a message left over from before a
 * re-send or a duplicate delivery by the queue finds the count moved on and does nothing.
 */
export type NotifyMessage = { kind: "notify"; deliveryId: string; attempt: number };

export function isNotifyMessage(body: unknown): body is NotifyMessage {
  const m = body as NotifyMessage;
  return !!m && typeof m === "object" && m.kind === "notify" && typeof m.deliveryId === "string" && typeof m.attempt === "number";
}

export async function enqueueDeliveries(
  env: Pick<Env, "NOTIFY_QUEUE">,
  items: { deliveryId: string; attempt: number; delaySeconds?: number }[],
): Promise<void> {
  if (!items.length) return;
  await env.NOTIFY_QUEUE.sendBatch(
    items.map(({ deliveryId, attempt, delaySeconds }) => ({
      body: { kind: "notify", deliveryId, attempt } satisfies NotifyMessage,
      ...(delaySeconds ? { delaySeconds } : {}),
    })),
  );
}
