import { env, exports } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { createSession, sessionCookieName } from "~/.server/auth/session";
import { signStripePayload } from "~/.server/billing/stripe";
import { currentPeriod } from "~/.server/chat/usage";
import { invitations, knowledgeSources, organisations, stripeEvents, usageCounters } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { readReply } from "~/lib/chat-stream";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { BASE, request } from "./helpers";

// Plans and limits end to end through the Worker entry: each reachable limit refuses with its
// message, an owner's plan change (direct in development) raises it, /app/plans shows the real
// usage, and Stripe (Checkout against an in-isolate stub, signed webhooks) moves plans.

type Worker = { fetch: (r: Request, env?: Env, ctx?: ExecutionContext) => Promise<Response> };

/**
 * The same Worker entry with some variables overridden (production, Stripe keys). The pool's
 * `exports.default` is bound to the configured env, so this imports the entry module and calls
 * its fetch with a copy of the env.
 */
async function requestWithEnv(
  overrides: Partial<Env>,
  path: string,
  init: { method?: string; form?: Record<string, string>; body?: string; headers?: Record<string, string>; cookie?: string } = {},
) {
  const { default: worker } = (await import("../../workers/app")) as unknown as { default: Worker };
  const headers = new Headers(init.headers);
  headers.set("Host", new URL(BASE).host);
  if (init.cookie) headers.set("Cookie", init.cookie);
  headers.set("CF-Connecting-IP", `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
  let body = init.body;
  if (init.form) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    headers.set("Origin", BASE);
    body = new URLSearchParams(init.form).toString();
  }
  const merged = { ...(env as unknown as Env), ...overrides };
  const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  return worker.fetch(new Request(BASE + path, { method: init.method ?? (init.form ? "POST" : "GET"), headers, body, redirect: "manual" }), merged, ctx);
}

const planOf = async (orgId: string) => (await db.select({ plan: organisations.plan }).from(organisations).where(eq(organisations.id, orgId)).get())?.plan;
const changePlan = (cookie: string, orgId: string, plan: string) => request("/app/plans", { cookie, form: { intent: "change-plan", orgId, plan } });

describe("reachable limits refuse with their message; changing plan in development raises them", () => {
  it("chatbots: the second chatbot on Free is refused on the org home, then allowed on Starter", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Bots"); // Free, with one chatbot
    const refused = await request(`/app/${org.id}?index`, { cookie: owner.cookie, form: { intent: "create-chatbot", name: "Second" } });
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain("The Free plan allows 1 chatbot and this organisation has 1.");
    expect(html).toContain("moving to the Starter plan (3 chatbots) on the Plans page");

    const changed = await changePlan(owner.cookie, org.id, "starter");
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("Bots is now on the Starter plan. Billing is not configured, so the change took effect immediately");
    expect(await planOf(org.id)).toBe("starter");
    const ok = await request(`/app/${org.id}?index`, { cookie: owner.cookie, form: { intent: "create-chatbot", name: "Second" } });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toMatch(new RegExp(`^/app/${org.id}/cb_[a-z2-7]+$`));
  });

  it("members: pending invitations count; moving to Starter allows the invitation", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Team");
    const email = `invitee-${newId()}@example.test`;
    const refused = await request(`/app/${org.id}/members`, { cookie: owner.cookie, form: { intent: "invite", email, role: "agent" } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(
      "The Free plan allows 1 member; this organisation has 1 member. An owner can raise it by moving to the Starter plan (3 members)",
    );
    expect(await db.select().from(invitations).where(eq(invitations.orgId, org.id)).all()).toEqual([]);

    expect((await changePlan(owner.cookie, org.id, "starter")).status).toBe(200);
    for (const i of [1, 2]) {
      const ok = await request(`/app/${org.id}/members`, { cookie: owner.cookie, form: { intent: "invite", email: `p${i}-${email}`, role: "agent" } });
      expect(ok.status).toBe(200);
    }
    const third = await request(`/app/${org.id}/members`, { cookie: owner.cookie, form: { intent: "invite", email: `p3-${email}`, role: "agent" } });
    expect(third.status).toBe(400);
    expect(await third.text()).toContain("this organisation has 1 member and 2 pending invitations (they count until accepted or revoked)");
  });

  it("members: accepting an invitation re-checks the limit", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Accept", { plan: "starter" });
    const invitee = await makeUser();
    const sent = await request(`/app/${org.id}/members`, { cookie: owner.cookie, form: { intent: "invite", email: invitee.email, role: "agent" } });
    expect(sent.status).toBe(200);
    const mail = (await (await request("/dev/outbox.json")).json()) as { messages: { to: string; links: string[] }[] };
    const link = mail.messages.find((m) => m.to === invitee.email)!.links.find((l) => l.includes("/invite/"))!;
    const invitePath = new URL(link).pathname;
    // Two more members join directly, so the organisation is full when the invitee accepts.
    for (const role of ["editor", "agent"] as const) await addMember(org.id, (await makeUser()).id, role);
    const full = await request(invitePath, { cookie: invitee.cookie, form: { intent: "accept" } });
    expect(full.status).toBe(409);
    expect(await full.text()).toContain("This organisation is full: the Starter plan allows 3 members and it has 3");

    expect((await changePlan(owner.cookie, org.id, "growth")).status).toBe(200);
    const joined = await request(invitePath, { cookie: invitee.cookie, form: { intent: "accept" } });
    expect(joined.status).toBe(302);
    expect(joined.headers.get("Location")).toBe(`/app/${org.id}`);
  });

  it("knowledge characters: a source past the limit is refused, then accepted on Starter", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Know");
    const now = Date.now();
    await db.insert(knowledgeSources).values({
      id: newId("ks_"),
      orgId: org.id,
      chatbotId: bot.id,
      type: "text",
      title: "Big manual",
      charCount: 999_990,
      status: "ready",
      createdAt: now,
      updatedAt: now,
    });
    const path = `/app/${org.id}/${bot.id}/kb`;
    const form = { intent: "add-text", title: "Opening hours", text: "We are open from nine to five on weekdays." };
    const refused = await request(path, { cookie: owner.cookie, form });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("This would pass your knowledge limit");
    expect(html).toContain("1 M knowledge characters of the Free plan");
    expect(html).toContain("moving to the Starter plan (10 M characters)");

    expect((await changePlan(owner.cookie, org.id, "starter")).status).toBe(200);
    const ok = await request(path, { cookie: owner.cookie, form });
    expect(ok.status).toBe(200);
  });

  it("replies: at the limit the widget gets its polite fallback; a larger plan answers again", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Replies");
    const row = await db.select().from(organisations).where(eq(organisations.id, org.id)).get();
    const period = currentPeriod(row!.periodStart).start;
    await db.insert(usageCounters).values({ orgId: org.id, period, replies: 100 });
    const ask = () =>
      (exports as unknown as { default: Worker }).default.fetch(
        new Request(`${BASE}/api/chat/${bot.id}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.8.0.1" },
          body: JSON.stringify({ visitorId: `v_${newId().slice(0, 20)}`, message: "hello" }),
        }),
      );
    const refusal = await readReply((await ask()).body!);
    expect(refusal.metadata.kind).toBe("limit");
    expect(refusal.text).toMatch(/cannot answer more questions right now/);

    expect((await changePlan(owner.cookie, org.id, "starter")).status).toBe(200);
    const answer = await readReply((await ask()).body!);
    expect(answer.metadata.kind).not.toBe("limit");
    const counter = await db
      .select()
      .from(usageCounters)
      .where(and(eq(usageCounters.orgId, org.id), eq(usageCounters.period, period)))
      .get();
    expect(counter?.replies).toBe(101);
  });
});

describe("/app/plans", () => {
  it("shows each organisation's plan and usage figures from the data", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Usage", { plan: "starter" });
    const row = (await db.select().from(organisations).where(eq(organisations.id, org.id)).get())!;
    await db.insert(usageCounters).values({ orgId: org.id, period: currentPeriod(row.periodStart).start, replies: 37 });
    // An older period's replies are not this period's.
    await db.insert(usageCounters).values({ orgId: org.id, period: row.periodStart - 40 * 86_400_000, replies: 999 });
    const now = Date.now();
    for (const chars of [1200, 34]) {
      await db.insert(knowledgeSources).values({
        id: newId("ks_"),
        orgId: org.id,
        chatbotId: bot.id,
        type: "text",
        title: `S${chars}`,
        charCount: chars,
        status: "ready",
        createdAt: now,
        updatedAt: now,
      });
    }
    await addMember(org.id, (await makeUser()).id, "editor");
    await db
      .insert(invitations)
      .values({ id: newId("inv_"), orgId: org.id, email: "pending@example.test", role: "agent", tokenHash: newId(), expiresAt: now + 1e6, createdAt: now });
    const other = await makeUser();
    const { org: foreign } = await makeOrg(other.id, "Foreign Secret Org");

    const res = await request("/app/plans", { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    const bar = (key: string) => {
      const m = html.match(new RegExp(`<progress id="usage-${org.id}-${key}" max="(\\d+)" value="(\\d+)"`));
      return m ? { max: Number(m[1]), value: Number(m[2]) } : null;
    };
    expect(bar("repliesPerMonth")).toEqual({ max: 2000, value: 37 });
    expect(bar("chatbots")).toEqual({ max: 3, value: 1 });
    expect(bar("knowledgeChars")).toEqual({ max: 10_000_000, value: 1234 });
    expect(bar("members")).toEqual({ max: 3, value: 2 });
    expect(html).toContain(`<label for="usage-${org.id}-repliesPerMonth"`);
    expect(html).toContain("37 of 2,000");
    expect(html).toContain("1,234 of 10 M");
    expect(html).toContain("Plus 1 pending invitation");
    expect(html).toContain("Starter plan");
    expect(html).toContain("Billing is not configured");
    expect(html).toContain("Switch to Growth");
    // Members of other organisations never see this one, nor this user theirs.
    expect(html).not.toContain(foreign.id);
    expect(html).not.toContain("Foreign Secret Org");
    const theirs = await (await request("/app/plans", { cookie: other.cookie })).text();
    expect(theirs).not.toContain(org.id);
  });

  it("only an owner changes plan: admins see it read-only and get 403; outsiders 404", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Owned");
    const admin = await makeUser();
    await addMember(org.id, admin.id, "admin");
    const page = await (await request("/app/plans", { cookie: admin.cookie })).text();
    expect(page).toContain("Only an owner can change the plan of Owned: ask an owner");
    expect(page).not.toContain("Switch to Starter");
    expect((await changePlan(admin.cookie, org.id, "scale")).status).toBe(403);
    const outsider = await makeUser();
    expect((await changePlan(outsider.cookie, org.id, "scale")).status).toBe(404);
    expect((await request("/app/plans", { form: { intent: "change-plan", orgId: org.id, plan: "scale" } })).status).toBe(302);
    expect(await planOf(org.id)).toBe("free");
    // Invalid input from the owner: a clear 400, nothing changes.
    expect((await changePlan(owner.cookie, org.id, "platinum")).status).toBe(400);
    expect(await planOf(org.id)).toBe("free");
  });

  it("a downgrade below current usage is allowed, explains what is over and deletes nothing", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Down", { plan: "growth" });
    expect((await request(`/app/${org.id}?index`, { cookie: owner.cookie, form: { intent: "create-chatbot", name: "Two" } })).status).toBe(302);
    await addMember(org.id, (await makeUser()).id, "agent");
    const res = await changePlan(owner.cookie, org.id, "free");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Down is now on the Free plan.");
    expect(html).toContain("2 chatbots; the Free plan allows 1. They all keep working, but new chatbots are refused until you are under the limit.");
    expect(html).toContain("2 members; the Free plan allows 1. Nobody is removed, but new invitations are refused");
    expect(await planOf(org.id)).toBe("free");
    const bots = await (await request(`/app/${org.id}`, { cookie: owner.cookie })).text();
    expect(bots).toContain("Two");
  });

  it("production without Stripe refuses a plan change with a clear message", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Prod");
    const { token } = await createSession(db, owner.id);
    const cookie = `${sessionCookieName(true)}=${token}`;
    const page = await requestWithEnv({ ENVIRONMENT: "production" }, "/app/plans", { cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("Switch to Starter");
    const res = await requestWithEnv({ ENVIRONMENT: "production" }, "/app/plans", { cookie, form: { intent: "change-plan", orgId: org.id, plan: "starter" } });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("Plans cannot be changed on this server because billing is not configured");
    expect(await planOf(org.id)).toBe("free");
  });
});

// ——— Stripe ———

const STRIPE_BASE = "http://localhost:12111"; // stripe-mock's usual port; answered by the stub below, never dialled
const WEBHOOK_SECRET = "whsec_test_secret";
const STRIPE_ENV: Partial<Env> = {
  STRIPE_SECRET_KEY: "sk_test_123",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PRICE_STARTER: "price_starter",
  STRIPE_PRICE_GROWTH: "price_growth",
  STRIPE_PRICE_SCALE: "price_scale",
  STRIPE_API_BASE: STRIPE_BASE,
};

/**
 * A stub of Stripe's API inside the isolate: vitest-pool-workers 0.14 has no fetchMock and workerd
 * cannot reach a Node server, but the Worker runs in the test's isolate, so replacing the global
 * fetch for STRIPE_API_BASE answers its calls. Anything else still goes to the real fetch.
 */
function stubStripe(handler: (req: Request) => Response | Promise<Response>) {
  const calls: { method: string; path: string; auth: string | null; form: URLSearchParams }[] = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (!req.url.startsWith(STRIPE_BASE)) return real(input as RequestInfo, init);
    calls.push({
      method: req.method,
      path: new URL(req.url).pathname,
      auth: req.headers.get("Authorization"),
      form: new URLSearchParams(await req.clone().text()),
    });
    return handler(req);
  });
  return calls;
}

afterEach(() => vi.restoreAllMocks());

describe("Stripe Checkout", () => {
  it("an owner's upgrade creates a subscription Checkout Session and redirects to it", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Paying");
    const calls = stubStripe(() => Response.json({ id: "cs_test_1", url: "https://checkout.stripe.com/c/pay/cs_test_1" }));
    const res = await requestWithEnv(STRIPE_ENV, "/app/plans", {
      cookie: `${sessionCookieName(false)}=${(await createSession(db, owner.id)).token}`,
      form: { intent: "change-plan", orgId: org.id, plan: "growth" },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("https://checkout.stripe.com/c/pay/cs_test_1");
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call).toMatchObject({ method: "POST", path: "/v1/checkout/sessions", auth: "Bearer sk_test_123" });
    expect(Object.fromEntries(call.form)).toMatchObject({
      mode: "subscription",
      "line_items[0][price]": "price_growth",
      "line_items[0][quantity]": "1",
      client_reference_id: org.id,
      "metadata[orgId]": org.id,
      "metadata[plan]": "growth",
      customer_email: owner.email,
      success_url: `${BASE}/app/plans?checkout=success&org=${org.id}`,
      cancel_url: `${BASE}/app/plans?checkout=cancelled&org=${org.id}`,
    });
    // Nothing changes until Stripe confirms through the webhook.
    expect(await planOf(org.id)).toBe("free");
  });

  it("a Stripe error is explained and changes nothing", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Declined");
    stubStripe(() => Response.json({ error: { message: "No such price: 'price_growth'" } }, { status: 400 }));
    const res = await requestWithEnv(STRIPE_ENV, "/app/plans", {
      cookie: `${sessionCookieName(false)}=${(await createSession(db, owner.id)).token}`,
      form: { intent: "change-plan", orgId: org.id, plan: "growth" },
    });
    expect(res.status).toBe(502);
    const html = await res.text();
    expect(html, html.match(/Stripe[^<]*/g)?.join(" | ")).toContain(
      "Stripe refused the request: No such price: &#x27;price_growth&#x27;. The plan was not changed.",
    );
    expect(await planOf(org.id)).toBe("free");
  });
});

describe("POST /api/stripe/webhook", () => {
  const send = async (event: unknown, opts: { secret?: string; timestamp?: number; header?: string } = {}) => {
    const body = JSON.stringify(event);
    const header = opts.header ?? (await signStripePayload(opts.secret ?? WEBHOOK_SECRET, body, opts.timestamp));
    return requestWithEnv(STRIPE_ENV, "/api/stripe/webhook", {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json", "Stripe-Signature": header },
    });
  };
  const completed = (orgId: string, plan: string, id = `evt_${newId()}`, created = Math.floor(Date.now() / 1000)) => ({
    id,
    type: "checkout.session.completed",
    created,
    data: {
      object: {
        id: "cs_1",
        object: "checkout.session",
        mode: "subscription",
        payment_status: "paid",
        client_reference_id: orgId,
        customer: `cus_${orgId}`,
        subscription: `sub_${orgId}`,
        metadata: { orgId, plan },
      },
    },
  });

  it("a valid signature updates the plan and stores the Stripe ids", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Hooked");
    const res = await send(completed(org.id, "growth"));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, handled: true, plan: "growth" });
    const row = await db.select().from(organisations).where(eq(organisations.id, org.id)).get();
    expect(row).toMatchObject({ plan: "growth", stripeCustomerId: `cus_${org.id}`, stripeSubscriptionId: `sub_${org.id}` });
  });

  it("several v1 signatures: any one matching is enough (secret rotation)", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Rotated");
    const event = completed(org.id, "starter");
    const body = JSON.stringify(event);
    const good = await signStripePayload(WEBHOOK_SECRET, body);
    const t = good.split(",")[0];
    const header = `${t},v1=${"0".repeat(64)},v0=ignored,${good.split(",")[1]}`;
    const res = await requestWithEnv(STRIPE_ENV, "/api/stripe/webhook", { method: "POST", body, headers: { "Stripe-Signature": header } });
    expect(res.status).toBe(200);
    expect(await planOf(org.id)).toBe("starter");
  });

  it("a wrong signature, a stale timestamp, a missing header → 400, plan unchanged", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Forged");
    const wrong = await send(completed(org.id, "scale"), { secret: "whsec_someone_else" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: { code: "invalid_signature", message: "No signature matches the payload." } });
    const stale = await send(completed(org.id, "scale"), { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(400);
    expect(((await stale.json()) as { error: { message: string } }).error.message).toContain("outside the tolerance");
    const none = await requestWithEnv(STRIPE_ENV, "/api/stripe/webhook", { method: "POST", body: JSON.stringify(completed(org.id, "scale")) });
    expect(none.status).toBe(400);
    // The body is what is signed: a signature over another body fails.
    const tampered = await requestWithEnv(STRIPE_ENV, "/api/stripe/webhook", {
      method: "POST",
      body: JSON.stringify(completed(org.id, "scale")),
      headers: { "Stripe-Signature": await signStripePayload(WEBHOOK_SECRET, JSON.stringify(completed(org.id, "starter"))) },
    });
    expect(tampered.status).toBe(400);
    expect(await planOf(org.id)).toBe("free");
  });

  it("an unknown organisation is acknowledged with 200 and ignored", async () => {
    const res = await send(completed("org_doesnotexist", "scale"));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, handled: false, note: "No organisation matches this event." });
  });

  it("a replayed event is idempotent; an older event arriving late changes nothing", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Replayed");
    const now = Math.floor(Date.now() / 1000);
    const first = completed(org.id, "starter", `evt_${newId()}`, now - 60);
    expect((await send(first)).status).toBe(200);
    expect(await planOf(org.id)).toBe("starter");

    // The subscription moves to Scale (its price decides), then the first event is delivered again.
    const upgraded = {
      id: `evt_${newId()}`,
      type: "customer.subscription.updated",
      created: now,
      data: {
        object: {
          id: `sub_${org.id}`,
          object: "subscription",
          customer: `cus_${org.id}`,
          status: "active",
          metadata: { orgId: org.id },
          items: { data: [{ id: "si_1", price: { id: "price_scale" } }] },
        },
      },
    };
    expect((await send(upgraded)).status).toBe(200);
    expect(await planOf(org.id)).toBe("scale");
    const replay = await send(first);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ duplicate: true });
    expect(await planOf(org.id)).toBe("scale");
    expect(await db.select().from(stripeEvents).where(eq(stripeEvents.id, first.id)).all()).toHaveLength(1);

    // A different event that is older than the last applied one does not roll the plan back.
    const late = completed(org.id, "growth", `evt_${newId()}`, now - 30);
    expect(await (await send(late)).json()).toMatchObject({ note: "A newer event already set this organisation's plan." });
    expect(await planOf(org.id)).toBe("scale");

    // Cancelling the subscription returns the organisation to Free and forgets the subscription.
    const deleted = {
      ...upgraded,
      id: `evt_${newId()}`,
      type: "customer.subscription.deleted",
      created: now + 1,
      data: { object: { ...upgraded.data.object, status: "canceled" } },
    };
    expect((await send(deleted)).status).toBe(200);
    const row = await db.select().from(organisations).where(eq(organisations.id, org.id)).get();
    expect(row).toMatchObject({ plan: "free", stripeSubscriptionId: null, stripeCustomerId: `cus_${org.id}` });
  });
});
