import { encodeHexLowerCase } from "@oslojs/encoding";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../context";
import { openSecret, sealSecret } from "../crypto/secret-box";
import { chatbots } from "../db/schema";

// The identity-verification secret of a chatbot: the customer's server signs visitor ids with
// HMAC-SHA256(secret, visitorId). It must be readable again (members copy it into their backend,
// the chat API verifies with it), so it is encrypted at rest rather than hashed.

type Ctx = Pick<AppContext, "db" | "env">;
type Ref = { orgId: string; chatbotId: string };

/** 32 random bytes as 64 lowercase hex characters. */
function newSecret(): string {
  return encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * Generates a secret, or replaces the current one (rotation: hashes made with the old secret stop
 * verifying at once). Returns false when the chatbot does not exist in this organisation.
 */
export async function rotateIdentitySecret(ctx: Ctx, ref: Ref): Promise<boolean> {
  const sealed = await sealSecret(ctx.env, newSecret());
  const row = await ctx.db
    .update(chatbots)
    .set({ identitySecret: sealed, updatedAt: Date.now() })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id })
    .get();
  return !!row;
}

/** The plaintext secret, or null when none was generated. */
export async function revealIdentitySecret(ctx: Ctx, ref: Ref): Promise<string | null> {
  const row = await ctx.db
    .select({ sealed: chatbots.identitySecret })
    .from(chatbots)
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .get();
  return row?.sealed ? openSecret(ctx.env, row.sealed) : null;
}
