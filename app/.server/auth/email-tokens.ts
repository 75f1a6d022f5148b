import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { emailTokens } from "../db/schema";
import { newId, randomSixDigitCode, randomToken, sha256Hex } from "./crypto";

const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
const RESET_TTL_MS = 60 * 60 * 1000;
const MAX_CODE_ATTEMPTS = 5;

type Purpose = "verify" | "reset";

/** Issues a single-use token (and for verify a 6-digit code); earlier unused ones of the same purpose die. */
export async function issueEmailToken(db: Db, userId: string, purpose: Purpose, now = Date.now()) {
  const token = randomToken(20);
  const code = purpose === "verify" ? randomSixDigitCode() : null;
  await db.batch([
    db
      .update(emailTokens)
      .set({ usedAt: now })
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt))),
    db.insert(emailTokens).values({
      id: newId("t_"),
      userId,
      purpose,
      tokenHash: sha256Hex(token),
      codeHash: code ? sha256Hex(`${userId}:${code}`) : null,
      expiresAt: now + (purpose === "verify" ? VERIFY_TTL_MS : RESET_TTL_MS),
    }),
  ]);
  return { token, code };
}

/** Finds a live token by its raw value without using it. */
export async function findLiveToken(db: Db, token: string, purpose: Purpose, now = Date.now()) {
  const row = await db
    .select()
    .from(emailTokens)
    .where(eq(emailTokens.tokenHash, sha256Hex(token)))
    .get();
  if (!row || row.purpose !== purpose || row.usedAt !== null || row.expiresAt <= now) return null;
  return row;
}

/** Marks the token used; returns false if someone else used it first (single use under races). */
export async function consumeToken(db: Db, id: string, now = Date.now()) {
  const res = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.id, id), isNull(emailTokens.usedAt)))
    .returning({ id: emailTokens.id });
  return res.length === 1;
}

/** Checks a 6-digit code for a user's live verify token; too many wrong tries burn the token. */
export async function consumeVerifyCode(db: Db, userId: string, code: string, now = Date.now()) {
  const row = await db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, "verify"), isNull(emailTokens.usedAt)))
    .get();
  if (!row || row.expiresAt <= now || !row.codeHash) return false;
  if (row.codeHash !== sha256Hex(`${userId}:${code}`)) {
    const attempts = row.attempts + 1;
    await db
      .update(emailTokens)
      .set({ attempts, usedAt: attempts >= MAX_CODE_ATTEMPTS ? now : null })
      .where(eq(emailTokens.id, row.id));
    return false;
  }
  return consumeToken(db, row.id, now);
}
