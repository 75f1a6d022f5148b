import { and, eq, getTableColumns, getTableName } from "drizzle-orm";
import { can, type Permission, type Role } from "~/lib/permissions";
import { PLANS, PLAN_IDS, planExtras } from "~/lib/plans";
import { authenticateApiKey, type ApiKeyAuth } from "../api-keys/api-keys";
import type { AppContext, ServiceContext } from "../context";
import { d1Client } from "../db/client";
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

// The chatbot with its organisation, the first read of every visitor message: fixed SQL built once
// from the schema's columns (drizzle built the two-table select per message, which showed in CPU
// profiles under load, issue #21), each column aliased so that the row keeps both tables' `id` in a
// D1 batch too (D1 answers a batch with rows as objects; chat's gate sends it with the rate limits).
// Whether a store is connected rides along: most chatbots have none, and the shop tools would
// otherwise spend a round trip of every turn finding that out (issue #21).
const CHATBOT_COLUMNS = Object.entries(getTableColumns(chatbots));
const ORG_COLUMNS = Object.entries(getTableColumns(organisations));
const LOAD_SQL = `SELECT ${CHATBOT_COLUMNS.map(([k, c]) => `c."${c.name}" AS "c_${k}"`).join(", ")},
  ${ORG_COLUMNS.map(([k, c]) => `o."${c.name}" AS "o_${k}"`).join(", ")},
  EXISTS (SELECT 1 FROM "${getTableName(wooConnections)}" w WHERE w."${wooConnections.chatbotId.name}" = c."id") AS "store"
  FROM "${getTableName(chatbots)}" c JOIN "${getTableName(organisations)}" o ON o."id" = c."org_id" WHERE c."id" = ?1`;

/** The look-up as one statement, for a caller's own batch; its rows go to `loadedChatbot`. */
export const chatbotLoadStatement = (client: D1Database, chatbotId: string) => client.prepare(LOAD_SQL).bind(chatbotId);

type LoadRow = Record<string, unknown>;
const decode = (columns: [string, { mapFromDriverValue(v: unknown): unknown }][], row: LoadRow, prefix: string) =>
  Object.fromEntries(
    columns.map(([k, c]) => {
      const v = row[prefix + k];
      // As drizzle maps a selected row: NULL stays null, anything else through the column's decoder (JSON, booleans…).
      return [k, v === null || v === undefined ? null : c.mapFromDriverValue(v)];
    }),
  );

/**
 * The chatbot from chatbotLoadStatement's rows (null: no such chatbot). Remembered in this isolate
 * (or forgotten) as found, for chat's gate to try the next message's checks on (widget/gate.ts).
 */
export function loadedChatbot(chatbotId: string, rows: LoadRow[] | undefined): ChatbotWithOrg | null {
  const row = rows?.[0];
  if (!row) {
    forgetChatbot(chatbotId);
    return null;
  }
  const chatbot = decode(CHATBOT_COLUMNS, row, "c_") as typeof chatbots.$inferSelect;
  const found = { chatbot: { ...chatbot, storeConnected: !!row.store }, org: decode(ORG_COLUMNS, row, "o_") as Organisation };
  rememberChatbot(found, String(row.c_settings));
  return found;
}

async function loadChatbot(ctx: Pick<ServiceContext, "db">, chatbotId: string | undefined): Promise<ChatbotWithOrg | null> {
  if (!chatbotId || chatbotId.length > MAX_ID_LENGTH) return null;
  const { results } = await chatbotLoadStatement(d1Client(ctx.db), chatbotId).all<LoadRow>();
  return loadedChatbot(chatbotId, results);
}

// Chatbots this isolate has looked up lately, as they were then, for chat's gate (widget/gate.ts): it
// runs a message's checks on the remembered row and sends the rate limits' statement, guarded by "the
// row still is as remembered", with a fresh look-up in one round trip. Nothing is answered from here
// alone: what the checks used is compared in D1, and everything after them reads the fresh row. The
// cache is bounded by bytes (issue #21: every per-isolate cache is), least recently used first out.
export type RememberedChatbot = { found: ChatbotWithOrg; settingsText: string; bytes: number };
export const REMEMBERED_CHATBOTS_BYTES = 512 * 1024;
const remembered = new Map<string, RememberedChatbot>();
let rememberedBytes = 0;

function forgetChatbot(chatbotId: string) {
  const old = remembered.get(chatbotId);
  if (!old) return;
  remembered.delete(chatbotId);
  rememberedBytes -= old.bytes;
}

function rememberChatbot(found: ChatbotWithOrg, settingsText: string) {
  const id = found.chatbot.id;
  forgetChatbot(id);
  // Strings are counted at two bytes a character (V8 may keep them at one), the settings as their JSON twice (text and object).
  const bytes = 2 * (2 * settingsText.length + JSON.stringify({ ...found.chatbot, settings: null }).length + JSON.stringify(found.org).length);
  if (bytes > REMEMBERED_CHATBOTS_BYTES / 8) return;
  remembered.set(id, { found, settingsText, bytes });
  rememberedBytes += bytes;
  for (const [oldest, entry] of remembered) {
    if (rememberedBytes <= REMEMBERED_CHATBOTS_BYTES) break;
    remembered.delete(oldest);
    rememberedBytes -= entry.bytes;
  }
}

/** The chatbot as this isolate last looked it up (most recently used now), or undefined. */
export function rememberedChatbot(chatbotId: string): RememberedChatbot | undefined {
  const entry = remembered.get(chatbotId);
  if (entry) {
    remembered.delete(chatbotId);
    remembered.set(chatbotId, entry);
  }
  return entry;
}

/** What the cache holds, for tests. */
export const rememberedChatbotsBytes = () => ({ bytes: rememberedBytes, entries: remembered.size });

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
  return found ? visitorTarget(ctx, found, onPrivate) : null;
}

/** chatbotForVisitor's rule on a chatbot already looked up. */
export async function visitorTarget(
  ctx: Pick<AppContext, "db" | "getAuth">,
  found: ChatbotWithOrg,
  onPrivate?: (chatbotId: string) => void,
): Promise<ChatTarget | null> {
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
