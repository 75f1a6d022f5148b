// The development mail outbox (/dev/outbox, ENVIRONMENT=development only) read as JSON:
// GET /dev/outbox.json → { messages: [{ id, to, subject, text, createdAt, links }] }, newest first.

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: number | string;
  links: string[];
}

/** All dev mail, newest first, from /dev/outbox.json. */
export async function readOutbox(baseURL: string): Promise<OutboxMessage[]> {
  let lastProblem = "";
  for (const path of ["/dev/outbox.json"]) {
    const res = await fetch(new URL(path, baseURL), { headers: { Accept: "application/json" } });
    const type = res.headers.get("content-type") ?? "";
    if (!res.ok || !type.includes("json")) {
      lastProblem = `GET ${path} answered ${res.status} ${type}`;
      await res.body?.cancel();
      continue;
    }
    const body = (await res.json()) as { messages?: OutboxMessage[] };
    if (!Array.isArray(body.messages)) throw new Error(`GET ${path} did not answer { messages: [...] }`);
    return body.messages;
  }
  throw new Error(`The dev outbox has no JSON view (${lastProblem}); is ENVIRONMENT=development?`);
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The newest mail to `email`, waiting up to `timeoutMs` for one to arrive (mail is sent after the
 * response, via waitUntil). With `after` (a message or its id), only mail newer than it counts — pass the
 * previous latestMailTo result to wait for the next mail. Optional `subject` filter (substring or RegExp).
 */
export async function latestMailTo(
  baseURL: string,
  email: string,
  { timeoutMs = 10_000, subject, after }: { timeoutMs?: number; subject?: string | RegExp; after?: OutboxMessage | string } = {},
): Promise<OutboxMessage> {
  const afterId = typeof after === "string" ? after : after?.id;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = await readOutbox(baseURL);
    const seen = afterId ? messages.findIndex((m) => m.id === afterId) : -1;
    const candidates = seen >= 0 ? messages.slice(0, seen) : messages;
    const found = candidates.find(
      (m) => sameAddress(m.to, email) && (subject === undefined || (typeof subject === "string" ? m.subject.includes(subject) : subject.test(m.subject))),
    );
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No mail to ${email}${subject ? ` matching ${subject}` : ""} in the dev outbox after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The first link in a mail whose URL contains `fragment` (e.g. "/verify-email"), as a path + query. */
export function linkIn(message: OutboxMessage, fragment: string): string {
  const link = message.links.find((l) => l.includes(fragment));
  if (!link) throw new Error(`Mail "${message.subject}" to ${message.to} has no link containing ${fragment}: ${message.links.join(", ")}`);
  const url = new URL(link, "http://localhost");
  return url.pathname + url.search;
}
