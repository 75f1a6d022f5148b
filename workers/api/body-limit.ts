import type { Context, MiddlewareHandler } from "hono";
import { readUpTo } from "../../app/.server/http/read-limited";
import { apiError } from "./errors";

// One body-size limit for the whole API. A declared Content-Length above the limit is refused before
// anything is read; a body without one (chunked) is read only up to the limit, then cancelled.
// Either way the answer is 413 { error: { code: "payload_too_large", message } } and the handler
// never runs.

/** Every JSON endpoint: a chat message, a lead, feedback… are a few KB at most. */
export const API_BODY_LIMIT = 64 * 1024;

/** Routes that need more, by method and path (the sub-app's routes, prefixed with /api). */
const LARGER: { method: string; path: RegExp; maxBytes: number }[] = [
  // A text source may hold 2,000,000 characters (app/lib/schemas/kb.ts); JSON-escaped non-Latin text
  // takes up to 6 bytes a character.
  { method: "POST", path: /^\/api\/v1\/sources\/?$/, maxBytes: 12 * 1024 * 1024 },
  // Stripe's events are a few KB; leave room for large subscriptions.
  { method: "POST", path: /^\/api\/stripe\/webhook\/?$/, maxBytes: 512 * 1024 },
  // A WooCommerce product (descriptions in HTML, many attributes) can pass the default.
  { method: "POST", path: /^\/api\/webhooks\/woocommerce\/[^/]+\/?$/, maxBytes: 1024 * 1024 },
  // One recorded spoken question for the OpenAI speech engine (workers/api/voice.ts).
  { method: "POST", path: /^\/api\/voice\/[^/]+\/transcribe\/?$/, maxBytes: 8 * 1024 * 1024 },
];

export function bodyLimitFor(method: string, path: string): number {
  return LARGER.find((r) => r.method === method && r.path.test(path))?.maxBytes ?? API_BODY_LIMIT;
}

function tooLarge(c: Context, maxBytes: number) {
  const shown = maxBytes >= 1024 * 1024 ? `${maxBytes / (1024 * 1024)} MB` : `${maxBytes / 1024} KB`;
  return apiError(c, 413, "payload_too_large", `The request body is larger than this endpoint accepts (${shown}).`);
}

export const limitApiBodies: MiddlewareHandler = async (c, next) => {
  const body = c.req.raw.body;
  if (!body) return next();
  const maxBytes = bodyLimitFor(c.req.method, c.req.path);
  const declared = c.req.header("Content-Length");
  if (declared !== undefined && !c.req.header("Transfer-Encoding")) {
    if (Number(declared) > maxBytes) {
      await body.cancel().catch(() => undefined);
      return tooLarge(c, maxBytes);
    }
    return next();
  }
  // No declared length: buffer up to the limit, then hand the handler a request with that buffer.
  const buffer = await readUpTo(body, maxBytes);
  if (!buffer) return tooLarge(c, maxBytes);
  c.req.raw = new Request(c.req.raw, { body: buffer });
  return next();
};
