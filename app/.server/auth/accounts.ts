import { eq } from "drizzle-orm";
import type { AppContext } from "../context";
import { users } from "../db/schema";
import { sendMail } from "../mail";
import { resetPasswordMail, verifyEmailMail } from "../mail/templates";
import { isCommonPassword } from "./common-passwords";
import { newId } from "./crypto";
import { consumeToken, consumeVerifyCode, findLiveToken, issueEmailToken } from "./email-tokens";
import { DUMMY_HASH, hashPassword, verifyPassword } from "./password";
import { createSession, invalidateUserSessions, serializeSessionCookie } from "./session";
import { hitAll, LIMITS } from "./throttle";

const COMMON_PASSWORD_MESSAGE = "This password is too common. Choose one that is harder to guess.";

/** Server-side password rules beyond length (which the zod schema checks). */
export function passwordProblem(password: string, email?: string): string | null {
  if (isCommonPassword(password)) return COMMON_PASSWORD_MESSAGE;
  if (email && password.toLowerCase() === email.toLowerCase()) return "Do not use your email address as your password.";
  return null;
}

export async function findUserByEmail(ctx: AppContext, email: string) {
  return ctx.db.select().from(users).where(eq(users.email, email.toLowerCase())).get();
}

async function sendVerification(ctx: AppContext, user: { id: string; name: string; email: string }) {
  const { token, code } = await issueEmailToken(ctx.db, user.id, "verify");
  const link = `${ctx.origin}/auth/verify?token=${token}`;
  await sendMail(ctx, { to: user.email, ...verifyEmailMail({ name: user.name, link, code: code! }) });
}

export type Throttled = { kind: "throttled"; retryAfterS: number };

/**
 * Creates an unverified account and mails a verification link + code. When the email is taken,
 * the answer is the same and the owner gets the verification mail again if unverified — so the
 * form never reveals whether an address has an account.
 */
export async function signUp(ctx: AppContext, input: { name: string; email: string; password: string }): Promise<{ kind: "sent" } | Throttled> {
  const t = await hitAll(ctx.db, [
    [`signup:ip:${ctx.ip}`, LIMITS.signupPerIp],
    [`signup:email:${input.email}`, LIMITS.resendPerUser],
  ]);
  if (!t.ok) return { kind: "throttled", retryAfterS: t.retryAfterS };
  const existing = await findUserByEmail(ctx, input.email);
  if (existing) {
    if (!existing.emailVerifiedAt) await sendVerification(ctx, existing);
    else await hashPassword(input.password); // spend the same time as a real signup
    return { kind: "sent" };
  }
  const user = { id: newId("u_"), name: input.name, email: input.email, passwordHash: await hashPassword(input.password) };
  // A concurrent signup with the same email loses on the unique index and gets the same answer.
  const inserted = await ctx.db.insert(users).values(user).onConflictDoNothing().returning({ id: users.id });
  if (inserted.length) await sendVerification(ctx, user);
  return { kind: "sent" };
}

export async function resendVerification(ctx: AppContext, email: string): Promise<{ kind: "sent" } | Throttled> {
  const t = await hitAll(ctx.db, [
    [`resend:ip:${ctx.ip}`, LIMITS.signupPerIp],
    [`resend:email:${email}`, LIMITS.resendPerUser],
  ]);
  if (!t.ok) return { kind: "throttled", retryAfterS: t.retryAfterS };
  const user = await findUserByEmail(ctx, email);
  if (user && !user.emailVerifiedAt) await sendVerification(ctx, user);
  return { kind: "sent" };
}

async function startSession(ctx: AppContext, userId: string) {
  const { token, session } = await createSession(ctx.db, userId);
  return serializeSessionCookie(token, session.expiresAt, ctx.production);
}

async function markVerified(ctx: AppContext, userId: string) {
  await ctx.db.update(users).set({ emailVerifiedAt: Date.now() }).where(eq(users.id, userId));
}

/** Verifies by emailed link; signs the user in (the link proves control of the inbox). */
export async function verifyEmailByToken(ctx: AppContext, token: string): Promise<{ cookie: string } | null> {
  const row = await findLiveToken(ctx.db, token, "verify");
  if (!row || !(await consumeToken(ctx.db, row.id))) return null;
  await markVerified(ctx, row.userId);
  return { cookie: await startSession(ctx, row.userId) };
}

export async function verifyEmailByCode(
  ctx: AppContext,
  email: string,
  code: string,
): Promise<{ kind: "ok"; cookie: string } | { kind: "invalid" } | Throttled> {
  const t = await hitAll(ctx.db, [
    [`verify:ip:${ctx.ip}`, LIMITS.loginPerIp],
    [`verify:email:${email}`, LIMITS.verifyPerUser],
  ]);
  if (!t.ok) return { kind: "throttled", retryAfterS: t.retryAfterS };
  const user = await findUserByEmail(ctx, email);
  if (!user || !(await consumeVerifyCode(ctx.db, user.id, code))) return { kind: "invalid" };
  await markVerified(ctx, user.id);
  return { kind: "ok", cookie: await startSession(ctx, user.id) };
}

export type LoginResult = { kind: "ok"; cookie: string; userId: string } | { kind: "invalid" } | { kind: "unverified" } | Throttled;

/** Same answer for an unknown email and a wrong password; the hash runs either way. */
export async function logIn(ctx: AppContext, email: string, password: string): Promise<LoginResult> {
  const t = await hitAll(ctx.db, [
    [`login:ip:${ctx.ip}`, LIMITS.loginPerIp],
    [`login:email:${email}`, LIMITS.loginPerEmail],
  ]);
  if (!t.ok) return { kind: "throttled", retryAfterS: t.retryAfterS };
  const user = await findUserByEmail(ctx, email);
  const valid = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !valid) return { kind: "invalid" };
  if (!user.emailVerifiedAt) {
    await resendVerification(ctx, user.email);
    return { kind: "unverified" };
  }
  return { kind: "ok", cookie: await startSession(ctx, user.id), userId: user.id };
}

/** Always answers the same; mails a 1-hour single-use link when the account exists. */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<{ kind: "sent" } | Throttled> {
  const t = await hitAll(ctx.db, [
    [`reset:ip:${ctx.ip}`, LIMITS.resetPerIp],
    [`reset:email:${email}`, LIMITS.resetPerEmail],
  ]);
  if (!t.ok) return { kind: "throttled", retryAfterS: t.retryAfterS };
  const user = await findUserByEmail(ctx, email);
  if (user) {
    const { token } = await issueEmailToken(ctx.db, user.id, "reset");
    const link = `${ctx.origin}/auth/reset-password?token=${token}`;
    await sendMail(ctx, { to: user.email, ...resetPasswordMail({ name: user.name, link }) });
  }
  return { kind: "sent" };
}

export async function isResetTokenLive(ctx: AppContext, token: string) {
  return (await findLiveToken(ctx.db, token, "reset")) !== null;
}

/** Sets the new password, ends every session of the user, and signs this browser in afresh. */
export async function resetPassword(
  ctx: AppContext,
  token: string,
  password: string,
): Promise<{ kind: "ok"; cookie: string } | { kind: "invalid" } | { kind: "weak"; message: string }> {
  const row = await findLiveToken(ctx.db, token, "reset");
  if (!row) return { kind: "invalid" };
  const user = await ctx.db.select().from(users).where(eq(users.id, row.userId)).get();
  if (!user) return { kind: "invalid" };
  const problem = passwordProblem(password, user.email);
  if (problem) return { kind: "weak", message: problem };
  if (!(await consumeToken(ctx.db, row.id))) return { kind: "invalid" };
  const passwordHash = await hashPassword(password);
  // Following the link proves control of the inbox, so it also verifies the address.
  await ctx.db
    .update(users)
    .set({ passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? Date.now() })
    .where(eq(users.id, user.id));
  await invalidateUserSessions(ctx.db, user.id);
  return { kind: "ok", cookie: await startSession(ctx, user.id) };
}
