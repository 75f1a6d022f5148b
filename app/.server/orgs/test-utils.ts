// Helpers for the workerd tests of orgs/ and chatbots/ (not imported by the app).
import { env } from "cloudflare:workers";
import { createAppContext } from "../request-context";
import { createSession, sessionCookieName } from "../auth/session";
import { newId } from "../auth/crypto";
import type { AppContext } from "../context";
import { eq } from "drizzle-orm";
import type { PlanId } from "~/lib/plans";
import { organisations, users } from "../db/schema";
import type { Env } from "../env";
import { createOrganisation, type Organisation } from "./organisations";

/** A context for domain calls; with `cookie`, getAuth() resolves that session. */
export function testContext(cookie?: string): AppContext {
  const headers = cookie ? { Cookie: cookie } : undefined;
  return createAppContext(new Request("http://localhost/", { headers }), env as unknown as Env, { waitUntil() {} });
}

export type TestUser = { id: string; email: string; name: string };

/** A verified user with a unique email (the password hash is a placeholder: these tests never log in). */
export async function makeUser(ctx: AppContext, name = "Test User"): Promise<TestUser> {
  const id = newId("u_");
  const user = { id, email: `${id}@example.test`, name };
  await ctx.db.insert(users).values({ ...user, passwordHash: "x", emailVerifiedAt: Date.now() });
  return user;
}

/** A request carrying a fresh session of `userId`, and a context built from it. */
export async function signedIn(userId: string) {
  const ctx = testContext();
  const { token } = await createSession(ctx.db, userId);
  const cookie = `${sessionCookieName(false)}=${token}`;
  return { ctx: testContext(cookie), request: new Request("http://localhost/app", { headers: { Cookie: cookie } }) };
}

/** Awaits a promise expected to throw a Response and returns its status. */
export async function thrownStatus(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Response) return e.status;
    throw e;
  }
  throw new Error("expected a thrown Response");
}

/** An organisation owned by `ownerId`, on `plan` (default free, as createOrganisation makes it). */
export async function makeOrg(ctx: AppContext, ownerId: string, opts: { name?: string; plan?: PlanId } = {}): Promise<Organisation> {
  const org = await createOrganisation(ctx, ownerId, { name: opts.name ?? "Acme" });
  if (!opts.plan || opts.plan === "free") return org;
  await ctx.db.update(organisations).set({ plan: opts.plan }).where(eq(organisations.id, org.id));
  return { ...org, plan: opts.plan };
}

/** The value of an { ok: true, … } result; throws with the refusal's message otherwise. */
export function okResult<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r as Extract<T, { ok: true }>;
}
