import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { sessionCookieName } from "~/.server/auth/session";
import { knowledgeSources } from "~/.server/db/schema";
import { db } from "../factories";

// Requests through the real Worker entry, as a browser or a client would send them. The users,
// organisations and chatbots they act on come from tests/factories.ts.

export const BASE = "http://localhost";
let counter = 0;

type Init = { method?: string; form?: Record<string, string>; body?: string; cookie?: string | null; headers?: Record<string, string>; ip?: string };

/** A request through the real Worker entry (Hono → Remix), as the browser would send it. */
export async function request(path: string, init: Init = {}) {
  const headers = new Headers(init.headers);
  headers.set("Host", new URL(BASE).host);
  if (init.cookie) headers.set("Cookie", init.cookie);
  // Each request comes from its own address unless a test pins one, so per-IP throttles only
  // fire in the tests about them.
  headers.set("CF-Connecting-IP", init.ip ?? `10.0.${counter++ % 250}.${Math.floor(Math.random() * 250)}`);
  let body: string | undefined = init.body;
  if (init.form) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    if (!headers.has("Origin")) headers.set("Origin", BASE);
    body = new URLSearchParams(init.form).toString();
  }
  return (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default.fetch(
    new Request(BASE + path, { method: init.method ?? (init.form ? "POST" : "GET"), headers, body, redirect: "manual" }),
  );
}

/** "name=value" of the session cookie a response sets, or null. */
export function sessionCookieFrom(res: Response): string | null {
  const name = sessionCookieName(false);
  for (const c of res.headers.getSetCookie()) if (c.startsWith(`${name}=`) && !c.startsWith(`${name}=;`)) return c.split(";")[0];
  return null;
}

export async function mailsTo(email: string) {
  const res = await request("/dev/outbox.json");
  const { messages } = (await res.json()) as { messages: { to: string; subject: string; text: string; links: string[] }[] };
  return messages.filter((m) => m.to === email);
}

/** The knowledge source once its status is one of `statuses` (the queue consumer ingests in the background). */
export async function waitForStatus(sourceId: string, statuses: string[], timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, sourceId)).get();
    if (row && statuses.includes(row.status)) return row;
    if (Date.now() > until) throw new Error(`source ${sourceId} stayed ${row?.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
