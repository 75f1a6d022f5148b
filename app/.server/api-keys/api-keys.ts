import { and, desc, eq, isNull } from "drizzle-orm";
import { newId, randomToken, sha256Hex } from "../auth/crypto";
import type { AppContext } from "../context";
import { apiKeys } from "../db/schema";
import { extraPlanHint, planExtras } from "~/lib/plans";
import type { Organisation } from "../chatbots/find-chatbot";
import { fail, type Result } from "../failure";

// REST API keys (one chatbot each). The full key is returned once at creation; D1 keeps only its
// SHA-256 (lookup by hash, so no timing side channel on a compare) and a short visible prefix.

type Ctx = Pick<AppContext, "db">;
type Ref = { orgId: string; chatbotId: string };

const API_KEY_PREFIX = "pk_";
export const API_KEYS_PER_CHATBOT = 20;
const KEY_RE = /^pk_[a-z2-7]{32}$/;

export type ApiKeyRow = { id: string; name: string; prefix: string; createdAt: number; lastUsedAt: number | null; revokedAt: number | null };

export async function listApiKeys(ctx: Ctx, ref: Ref): Promise<ApiKeyRow[]> {
  return ctx.db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, ref.orgId), eq(apiKeys.chatbotId, ref.chatbotId)))
    .orderBy(desc(apiKeys.createdAt))
    .all();
}

export type CreatedApiKey = { ok: true; key: string; row: ApiKeyRow } | { ok: false; message: string };

export async function createApiKey(ctx: Ctx, ref: Ref, input: { name: string; userId: string | null }): Promise<CreatedApiKey> {
  const live = (await listApiKeys(ctx, ref)).filter((k) => !k.revokedAt).length;
  if (live >= API_KEYS_PER_CHATBOT)
    return { ok: false, message: `A chatbot can have at most ${API_KEYS_PER_CHATBOT} active keys. Revoke one you no longer use first.` };
  const key = API_KEY_PREFIX + randomToken(20); // 160 bits, base32 → 32 characters
  const now = Date.now();
  const row = { id: newId("key_"), name: input.name.trim(), prefix: key.slice(0, 10), createdAt: now, lastUsedAt: null, revokedAt: null };
  await ctx.db.insert(apiKeys).values({ ...row, orgId: ref.orgId, chatbotId: ref.chatbotId, keyHash: sha256Hex(key), createdBy: input.userId });
  return { ok: true, key, row };
}

/** The REST API's name in plan hints (Settings → Embed & API, the API's own 403). */
export const API_FEATURE = "The REST API";

/** A new key for the chatbot, on a plan that includes the API (createApiKey itself does not look at plans: an org that moved down keeps its keys, refused at use). */
export async function issueApiKey(
  ctx: Ctx,
  ref: { org: Pick<Organisation, "id" | "plan">; chatbotId: string },
  input: { name: string; userId: string | null },
): Promise<Result<{ key: string; row: ApiKeyRow }>> {
  if (!planExtras(ref.org.plan).api) return fail("plan_required", extraPlanHint("api", API_FEATURE));
  const created = await createApiKey(ctx, { orgId: ref.org.id, chatbotId: ref.chatbotId }, input);
  return created.ok ? created : fail("limit_reached", created.message);
}

/** Revokes a key of this chatbot; false when there is no such live key. */
export async function revokeApiKey(ctx: Ctx, ref: Ref, keyId: string): Promise<boolean> {
  const row = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.orgId, ref.orgId), eq(apiKeys.chatbotId, ref.chatbotId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
    .get();
  return !!row;
}

export type ApiKeyAuth = { keyId: string; orgId: string; chatbotId: string };

/** The live key matching a presented token, or null (malformed, unknown or revoked). */
export async function authenticateApiKey(ctx: Ctx, token: string): Promise<ApiKeyAuth | null> {
  if (!KEY_RE.test(token)) return null;
  const row = await ctx.db
    .select({ keyId: apiKeys.id, orgId: apiKeys.orgId, chatbotId: apiKeys.chatbotId, revokedAt: apiKeys.revokedAt, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, sha256Hex(token)))
    .get();
  if (!row || row.revokedAt) return null;
  // Touch lastUsedAt at most once a minute to keep writes off the hot path.
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt > 60_000) await ctx.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.keyId));
  return { keyId: row.keyId, orgId: row.orgId, chatbotId: row.chatbotId };
}
