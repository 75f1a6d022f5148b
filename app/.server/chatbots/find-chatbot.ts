import { and, eq, sql } from "drizzle-orm";
import { can, type Permission, type Role } from "~/lib/permissions";
import { PLANS, PLAN_IDS, planExtras } from "~/lib/plans";
import { authenticateApiKey, type ApiKeyAuth } from "../api-keys/api-keys";
import type { AppContext, ServiceContext } from "../context";
import type { Db } from "../db/client";
import { chatbots, memberships, organisations, wooConnections } from "../db/schema";
import { fail, type Result } from "../failure";

// One way to find a chatbot, for each kind of caller:
//   - a member of its organisation (session + role): the dashboard;
//   - a visitor (public bots for anyone, private ones for signed-in members only): widget, test page;
//   - an API key of that chatbot, on a plan that includes the API: the REST API.
// Anything the caller may not see is "not found", so ids of other organisations reveal nothing.

export type Chatbot = typeof chatbots.$inferSelect & {
  /** Whether a WooCommerce store is connected, when the look-up read it: the shop tools then skip their own look-up. */
  storeConnected?: boolean;
};
export type Organisation = typeof organisations.$inferSelect;
export type ChatbotWithOrg = { chatbot: Chatbot; org: Organisation };

/** Ids longer than this are not ours; refused before any query. */
const MAX_ID_LENGTH = 64;

/**
 * The chatbot with its organisation, the first read of every visitor message: built once per D1
 * client with a placeholder (drizzle's prepared query), so a message does not pay for building the
 * two-table select again (it showed in CPU profiles under load, issue #21).
 */
const prepareLoad = (db: Db) =>
  db
    // Whether a store is connected rides along: most chatbots have none, and the shop tools would
    // otherwise spend a round trip of every turn finding that out (issue #21).
    .select({
      chatbot: chatbots,
      org: organisations,
      store: sql<number>`exists (select 1 from ${wooConnections} where ${wooConnections.chatbotId} = ${chatbots.id})`,
    })
    .from(chatbots)
    .innerJoin(organisations, eq(organisations.id, chatbots.orgId))
    .where(eq(chatbots.id, sql.placeholder("id")))
    .prepare();
const loads = new WeakMap<Db, ReturnType<typeof prepareLoad>>();

async function loadChatbot(ctx: Pick<ServiceContext, "db">, chatbotId: string | undefined): Promise<ChatbotWithOrg | null> {
  if (!chatbotId || chatbotId.length > MAX_ID_LENGTH) return null;
  let load = loads.get(ctx.db);
  if (!load) loads.set(ctx.db, (load = prepareLoad(ctx.db)));
  const row = await load.get({ id: chatbotId });
  return row ? { chatbot: { ...row.chatbot, storeConnected: !!row.store }, org: row.org } : null;
}

async function roleIn(ctx: Pick<ServiceContext, "db">, orgId: string, userId: string): Promise<Role | null> {
  const m = await ctx.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
    .get();
  return m?.role ?? null;
}

/** The user's role in `orgId` with the organisation, or null when they are not a member. */
export async function membershipOf(ctx: Pick<ServiceContext, "db">, orgId: string, userId: string): Promise<{ org: Organisation; role: Role } | null> {
  return (
    (await ctx.db
      .select({ org: organisations, role: memberships.role })
      .from(memberships)
      .innerJoin(organisations, eq(organisations.id, memberships.orgId))
      .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
      .get()) ?? null
  );
}

/**
 * A chatbot of `orgId` for a signed-in member. Not a member, no such chatbot, or the chatbot of
 * another organisation → not_found; a role without `permission` → forbidden.
 */
export async function chatbotForMember(
  ctx: Pick<ServiceContext, "db">,
  userId: string,
  ids: { orgId?: string; chatbotId?: string },
  permission: Permission,
): Promise<Result<ChatbotWithOrg & { role: Role }>> {
  if (!ids.orgId || !ids.chatbotId || ids.chatbotId.length > MAX_ID_LENGTH) return fail("not_found", "No chatbot with this id.");
  const found = await loadChatbot(ctx, ids.chatbotId);
  if (!found || found.org.id !== ids.orgId) return fail("not_found", "No chatbot with this id.");
  const role = await roleIn(ctx, found.org.id, userId);
  if (!role) return fail("not_found", "No chatbot with this id.");
  if (!can(role, permission)) return fail("forbidden", "Your role in this organisation does not allow this.");
  return { ok: true, ...found, role };
}

/** Who may chat with a chatbot. `member` is true for signed-in members of its organisation (the test page). */
export type ChatTarget = ChatbotWithOrg & { member: boolean };

/**
 * A chatbot for a visitor: any public one; a private one only for signed-in members of its organisation.
 * `onPrivate` hears of a refusal because the chatbot is private (the answer stays "not found").
 */
export async function chatbotForVisitor(
  ctx: Pick<AppContext, "db" | "getAuth">,
  chatbotId: string | undefined,
  onPrivate?: (chatbotId: string) => void,
): Promise<ChatTarget | null> {
  const found = await loadChatbot(ctx, chatbotId);
  if (!found) return null;
  const auth = await ctx.getAuth();
  const member = auth ? (await roleIn(ctx, found.org.id, auth.user.id)) !== null : false;
  if (found.chatbot.visibility === "private" && !member) {
    onPrivate?.(found.chatbot.id);
    return null;
  }
  return { ...found, member };
}

const cheapestWithApi = PLAN_IDS.map((id) => PLANS[id]).find((p) => p.extras.api)!;

/** The chatbot an API key belongs to: unknown, revoked or orphaned keys → unauthorized; a plan without the API → plan_required. */
export async function chatbotForApiKey(ctx: Pick<ServiceContext, "db">, token: string): Promise<Result<ChatbotWithOrg & { key: ApiKeyAuth }>> {
  const key = await authenticateApiKey(ctx, token);
  if (!key) return fail("unauthorized", "This API key is not valid or has been revoked.");
  const found = await loadChatbot(ctx, key.chatbotId);
  if (!found || found.org.id !== key.orgId) return fail("unauthorized", "This API key is not valid or has been revoked.");
  if (!planExtras(found.org.plan).api)
    return fail(
      "plan_required",
      `The REST API is included from the ${cheapestWithApi.name} plan ($${cheapestWithApi.priceMonthly}/month). The owner can change plan in Parley.`,
    );
  return { ok: true, ...found, key };
}
