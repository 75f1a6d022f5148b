import { env, exports } from "cloudflare:workers";
import { createDb } from "~/.server/db/client";
import { chatbots, memberships, organisations, users } from "~/.server/db/schema";
import { newId } from "~/.server/auth/crypto";
import { hashPassword } from "~/.server/auth/password";
import { createSession, sessionCookieName } from "~/.server/auth/session";
import type { Role } from "~/lib/permissions";
import type { PlanId } from "~/lib/plans";

export const BASE = "http://localhost";
export const db = createDb(env.DB);

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

let counter = 0;
export function uniqueEmail(tag = "user") {
  return `${tag}-${Date.now().toString(36)}-${counter++}@example.test`;
}

/** A verified user with a live session, created directly in D1. */
export async function makeUser(opts: { email?: string; password?: string; name?: string } = {}) {
  const user = {
    id: newId("u_"),
    email: opts.email ?? uniqueEmail(),
    name: opts.name ?? "Test User",
    passwordHash: await hashPassword(opts.password ?? "a perfectly fine password"),
    emailVerifiedAt: Date.now(),
  };
  await db.insert(users).values(user);
  const { token } = await createSession(db, user.id);
  return { ...user, cookie: `${sessionCookieName(false)}=${token}` };
}

/** An organisation with one chatbot, owned by `ownerId`; on the Free plan unless `opts.plan` says otherwise. */
export async function makeOrg(ownerId: string, name = "Acme", opts: { plan?: PlanId } = {}) {
  const org = { id: newId("org_"), name, slug: `${name.toLowerCase()}-${newId()}`, periodStart: Date.now(), plan: opts.plan ?? "free" };
  await db.insert(organisations).values(org);
  await db.insert(memberships).values({ orgId: org.id, userId: ownerId, role: "owner" });
  const bot = { id: newId("cb_"), orgId: org.id, name: `${name} bot` };
  await db.insert(chatbots).values(bot);
  return { org, bot };
}

export async function addMember(orgId: string, userId: string, role: Role) {
  await db.insert(memberships).values({ orgId, userId, role });
}

export async function mailsTo(email: string) {
  const res = await request("/dev/outbox.json");
  const { messages } = (await res.json()) as { messages: { to: string; subject: string; text: string; links: string[] }[] };
  return messages.filter((m) => m.to === email);
}
