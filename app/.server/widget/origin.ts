import { isOriginAllowed, type AccessSettings } from "~/lib/schemas/widget-settings";

// Which sites may talk to a chatbot's visitor endpoints (chat API, widget actions). The widget's
// iframe and the /test page run on Parley's own origin and always pass; the iframe's embedding is
// guarded separately by its frame-ancestors CSP. Requests without an Origin header (server to
// server, curl) pass here: browsers always send Origin on cross-origin POSTs and fetches.

export const ORIGIN_REFUSED_MESSAGE = "This chatbot is not enabled on this website.";

export function isRequestOriginAllowed(
  origin: string | null | undefined,
  ownOrigins: readonly string[],
  access: Pick<AccessSettings, "allowedOrigins">,
): boolean {
  if (!origin) return true;
  if (ownOrigins.includes(origin)) return true;
  // "null" is what sandboxed frames and file:// pages send: it can never match a pattern.
  return isOriginAllowed(origin, access);
}
