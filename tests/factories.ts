// The one module of test factories: users, organisations, chatbots, knowledge sources and the
// contexts domain code runs with. Everything is written straight to the local D1 of the workerd
// test pool. Arguments follow one order everywhere: who owns it, what it is called, options.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { newId } from "~/.server/auth/crypto";
import { hashPassword } from "~/.server/auth/password";
import { createSession, sessionCookieName } from "~/.server/auth/session";
import { createServiceContext, type AppContext, type ServiceContext } from "~/.server/context";
import { createDb } from "~/.server/db/client";
import { chatbots, memberships, organisations, users } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import type { IngestMessage } from "~/.server/kb/queue";
import { createAppContext } from "~/.server/request-context";
import type { Role } from "~/lib/permissions";
import type { PlanId } from "~/lib/plans";

export const db = createDb(env.DB);

let counter = 0;
const tag = () => `${Date.now().toString(36)}${counter++}${Math.random().toString(36).slice(2, 6)}`;

export function uniqueEmail(prefix = "user") {
  return `${prefix}-${tag()}@example.test`;
}

// ——— Users and organisations ———

/** A verified user with a live session (`cookie`). */
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

export type TestOrganisation = typeof organisations.$inferSelect;

/** An organisation owned by `ownerId`, on the Free plan unless `opts.plan` says otherwise, without chatbots. */
export async function makeOrgOnly(ownerId: string, name = "Acme", opts: { plan?: PlanId } = {}): Promise<TestOrganisation> {
  const org = {
    id: newId("org_"),
    name,
    slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${newId()}`,
    periodStart: Date.now(),
    plan: opts.plan ?? "free",
  };
  await db.insert(organisations).values(org);
  await db.insert(memberships).values({ orgId: org.id, userId: ownerId, role: "owner" });
  return (await db.select().from(organisations).where(eq(organisations.id, org.id)).get())!;
}

/** An organisation owned by `ownerId` with one chatbot ("<name> bot"). */
export async function makeOrg(ownerId: string, name = "Acme", opts: { plan?: PlanId } = {}) {
  const org = await makeOrgOnly(ownerId, name, opts);
  const bot = await makeChatbot(org.id, `${name} bot`);
  return { org, bot };
}

/**
 * Where the tests' chatbots keep their messages (ADR 040): in their own shard, as every chatbot
 * created since does (`createChatbot`); `TEST_MESSAGE_STORE=d1` runs the same tests on D1's tables,
 * the path of chatbots created before and not yet moved. A chatbot a test inserts itself takes this
 * value (`messageStore: testMessageStore`); a test about one store sets it explicitly.
 */
export const testMessageStore: "shard" | "d1" = env.TEST_MESSAGE_STORE === "d1" ? "d1" : "shard";

/**
 * Where the tests' chatbots keep their conversation index (ADR 044): in their shard, next to their
 * messages, as every chatbot created since does (`createChatbot`); `TEST_CONVERSATION_STORE=d1`
 * keeps it in D1, the path of chatbots created before and not yet moved (ADR 051). Messages in D1
 * (`TEST_MESSAGE_STORE=d1`) mean the index is in D1 too: a shard index needs its messages next to it.
 * A chatbot a test inserts itself takes this value (`conversationStore: testConversationStore`).
 */
export const testConversationStore: "shard" | "d1" = env.TEST_CONVERSATION_STORE === "d1" || testMessageStore === "d1" ? "d1" : "shard";

/**
 * Where the tests' chatbots keep their knowledge: D1 unless `TEST_KNOWLEDGE_STORE=shard`, the stage
 * that runs the tests of the product's knowledge paths again with it in each chatbot's shard, as
 * every chatbot created now keeps it (scripts/lib/message-store-tests.mjs, KNOWLEDGE_SHARD_FILES).
 * Tests about one store set it explicitly.
 */
export const testKnowledgeStore: "shard" | "d1" = env.TEST_KNOWLEDGE_STORE === "shard" ? "shard" : "d1";

export async function makeChatbot(orgId: string, name = "Test bot") {
  const bot = { id: newId("cb_"), orgId, name, messageStore: testMessageStore, conversationStore: testConversationStore, knowledgeStore: testKnowledgeStore };
  await db.insert(chatbots).values(bot);
  return bot;
}

export async function addMember(orgId: string, userId: string, role: Role) {
  await db.insert(memberships).values({ orgId, userId, role });
}

// ——— Knowledge ———

/**
 * A chatbot of a fresh organisation with knowledge sources named `sources` (empty, status queued),
 * and a service context whose queue records what is sent instead of running it (`sent`), so tests
 * decide when ingestion steps run.
 */
export async function makeBot(opts: { plan?: PlanId; sources?: string[] } = {}) {
  const t = tag();
  const orgId = `org_t_${t}`;
  const chatbotId = `cb_t_${t}`;
  const sourceIds = (opts.sources ?? []).map((s) => `ks_t_${t}_${s}`);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO organisations (id, name, slug, plan, period_start) VALUES (?, 'Test org', ?, ?, ?)").bind(
      orgId,
      `t-${t}`,
      opts.plan ?? "free",
      Date.now(),
    ),
    env.DB.prepare("INSERT INTO chatbots (id, org_id, name, message_store, conversation_store, knowledge_store) VALUES (?, ?, 'Test bot', ?, ?, ?)").bind(
      chatbotId,
      orgId,
      testMessageStore,
      testConversationStore,
      testKnowledgeStore,
    ),
    ...sourceIds.map((id) =>
      env.DB.prepare("INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title) VALUES (?, ?, ?, 'text', 'Src')").bind(id, orgId, chatbotId),
    ),
  ]);
  const { ctx, sent } = recordingContext();
  return { ctx, sent, ref: { orgId, chatbotId }, sourceIds };
}

// ——— Contexts ———

/** A service context (no request) whose ingest queue only records messages. */
export function recordingContext(): { ctx: ServiceContext; sent: IngestMessage[] } {
  const sent: IngestMessage[] = [];
  const queue = {
    async send(m: IngestMessage) {
      sent.push(m);
    },
    async sendBatch(ms: { body: IngestMessage }[]) {
      for (const m of ms) sent.push(m.body);
    },
  };
  return { ctx: createServiceContext({ ...(env as unknown as Env), INGEST_QUEUE: queue as unknown as Queue }), sent };
}

/** A request context for domain calls; with `cookie`, getAuth() resolves that session. */
export function testContext(cookie?: string): AppContext {
  const headers = cookie ? { Cookie: cookie } : undefined;
  return createAppContext(new Request("http://localhost/", { headers }), env as unknown as Env, { waitUntil() {} });
}

/** A request carrying a session of `userId`, and a context built from it. */
export async function signedIn(userId: string) {
  const { token } = await createSession(db, userId);
  const cookie = `${sessionCookieName(false)}=${token}`;
  return { ctx: testContext(cookie), request: new Request("http://localhost/app", { headers: { Cookie: cookie } }) };
}

// ——— Assertions ———

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

/** The value of an { ok: true, … } result; throws with the refusal's message otherwise. */
export function okResult<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r as Extract<T, { ok: true }>;
}
