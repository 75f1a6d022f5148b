import { decodeBase64 } from "@oslojs/encoding";
import { and, eq, lt } from "drizzle-orm";
import { constantTimeEqual } from "../../auth/crypto";
import type { ServiceContext } from "../../context";
import { hmacSha256 } from "../../crypto/hmac";
import { openSecret } from "../../crypto/secret-box";
import { knowledgeSources, wooWebhookDeliveries } from "../../db/schema";
import type { Fetcher } from "./client";
import { currencyOf, getConnectionOfChatbot, openCredentials } from "./connection";
import { removeProduct, replaceProduct, type RestProduct } from "./products";
import { fetchVariations } from "./sync";

// Deliveries of the product webhooks Parley registered in the store (POST /api/webhooks/woocommerce/:chatbotId).
// - The ping WooCommerce sends when a webhook is created is an unsigned form body `webhook_id=<id>`:
//   answered 200 and nothing else (it arrives before the connection is even saved).
// - Every other delivery must carry X-WC-Webhook-Signature = base64(HMAC-SHA256(raw body, secret)).
// - X-WC-Webhook-Delivery-ID de-duplicates: a delivery already applied is acknowledged and ignored.
// A delivery that fails to apply is forgotten again and answered 500, so the store retries it.

const KEEP_DELIVERIES_MS = 7 * 24 * 60 * 60 * 1000;

export type WebhookOutcome = {
  status: 200 | 401 | 404 | 400 | 500;
  result: "ping" | "applied" | "duplicate" | "ignored" | "forged" | "unknown" | "invalid" | "failed";
};

export const isCreationPing = (contentType: string | null, raw: string) => !!contentType?.includes("form-urlencoded") && /^webhook_id=\d+$/.test(raw.trim());

export async function isValidWooSignature(secret: string, raw: string, signature: string | null | undefined): Promise<boolean> {
  if (!signature) return false;
  let given: Uint8Array;
  try {
    given = decodeBase64(signature.trim());
  } catch {
    return false;
  }
  return constantTimeEqual(await hmacSha256(secret, raw), given);
}

export async function receiveWooWebhook(
  ctx: Pick<ServiceContext, "db" | "env">,
  chatbotId: string,
  delivery: { raw: string; headers: Headers },
  opts: { fetcher?: Fetcher } = {},
): Promise<WebhookOutcome> {
  const h = delivery.headers;
  const signature = h.get("X-WC-Webhook-Signature");
  if (!signature && isCreationPing(h.get("Content-Type"), delivery.raw)) return { status: 200, result: "ping" };
  const c = await getConnectionOfChatbot(ctx, chatbotId);
  if (!c) return { status: 404, result: "unknown" };
  if (!(await isValidWooSignature(await openSecret(ctx.env, c.webhookSecret), delivery.raw, signature))) return { status: 401, result: "forged" };

  const topic = h.get("X-WC-Webhook-Topic") ?? "";
  const deliveryId = h.get("X-WC-Webhook-Delivery-ID");
  let payload: Partial<RestProduct>;
  try {
    payload = JSON.parse(delivery.raw) as Partial<RestProduct>;
  } catch {
    return { status: 400, result: "invalid" };
  }
  if (!["product.created", "product.updated", "product.deleted"].includes(topic) || typeof payload?.id !== "number") return { status: 200, result: "ignored" };

  const now = Date.now();
  if (deliveryId) {
    const first = await ctx.db.insert(wooWebhookDeliveries).values({ chatbotId, deliveryId, receivedAt: now }).onConflictDoNothing().returning().get();
    if (!first) return { status: 200, result: "duplicate" };
  }
  try {
    const source = c.sourceId ? await ctx.db.select({ id: knowledgeSources.id }).from(knowledgeSources).where(eq(knowledgeSources.id, c.sourceId)).get() : null;
    if (source) {
      const ref = { orgId: c.orgId, chatbotId, sourceId: source.id };
      if (topic === "product.deleted") await removeProduct(ctx, ref, payload.id);
      else {
        const product = payload as RestProduct;
        const variations = await fetchVariations(await openCredentials(ctx, c), product, opts.fetcher);
        await replaceProduct(ctx, ref, product, variations, currencyOf(c));
      }
    }
  } catch (e) {
    console.error(`[woocommerce] delivery ${deliveryId} (${topic}) failed`, e instanceof Error ? e.message : e);
    if (deliveryId)
      await ctx.db.delete(wooWebhookDeliveries).where(and(eq(wooWebhookDeliveries.chatbotId, chatbotId), eq(wooWebhookDeliveries.deliveryId, deliveryId)));
    return { status: 500, result: "failed" };
  }
  await ctx.db
    .delete(wooWebhookDeliveries)
    .where(and(eq(wooWebhookDeliveries.chatbotId, chatbotId), lt(wooWebhookDeliveries.receivedAt, now - KEEP_DELIVERIES_MS)));
  return { status: 200, result: "applied" };
}
