import { Hono } from "hono";
import { receiveWooWebhook } from "../../../app/.server/integrations/woocommerce/webhooks";
import type { HonoEnv } from "../../hono-env";
import { apiError } from "../errors";

export const woocommerceWebhooks = new Hono<HonoEnv>();

// POST /api/webhooks/woocommerce/:chatbotId — the store's product webhooks (integrations/woocommerce/webhooks.ts).
// The raw body is read once and verified before it is parsed.
woocommerceWebhooks.post("/:chatbotId", async (c) => {
  // Bytes, not c.req.text(): the creation ping is a form body, and the signature is over the exact bytes.
  const raw = new TextDecoder().decode(await c.req.arrayBuffer());
  const out = await receiveWooWebhook(c.get("app"), c.req.param("chatbotId"), { raw, headers: c.req.raw.headers });
  if (out.status === 200) return c.json({ received: true, result: out.result });
  if (out.status === 401) return apiError(c, 401, "invalid_signature", "The delivery's X-WC-Webhook-Signature does not match.");
  if (out.status === 404) return apiError(c, 404, "not_found", "No store is connected to this chatbot.");
  if (out.status === 400) return apiError(c, 400, "invalid_payload", "The delivery is not valid JSON.");
  return apiError(c, 500, "internal_error", "The delivery could not be applied; it will be retried.");
});
