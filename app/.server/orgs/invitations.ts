import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { assignableRoles, ROLE_LABELS, type Role } from "~/lib/permissions";
import { findUserByEmail, passwordProblem } from "../auth/accounts";
import { newId, randomToken, sha256Hex } from "../auth/crypto";
import { hashPassword } from "../auth/password";
import { createSession, serializeSessionCookie } from "../auth/session";
import { hitAll, LIMITS } from "../auth/throttle";
import { checkInviteLimit, checkJoinLimit } from "../billing/limits";
import type { AppContext } from "../context";
import { invitations, memberships, organisations, users } from "../db/schema";
import { sendMail } from "../mail";
import { invitationMail } from "../mail/templates";
import type { Refusal, Result } from "./members";

export const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;

export type PendingInvitation = {
  id: string;
  email: string;
  role: Role;
  expiresAt: number;
  createdAt: number;
  invitedByName: string | null;
  expired: boolean;
};

export type LiveInvitation = {
  id: string;
  orgId: string;
  orgName: string;
  email: string;
  role: Role;
  expiresAt: number;
  invitedByName: string | null;
};

type Inviter = { id: string; name: string; role: Role };

const NO_LONGER_VALID = "This invitation is no longer valid. Ask the person who invited you to send a new one.";

function throttledMessage(retryAfterS: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterS / 60));
  return `This organisation has sent too many invitations recently. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

async function throttleInvites(ctx: AppContext, orgId: string): Promise<Refusal | null> {
  const t = await hitAll(ctx.db, [[`invite:org:${orgId}`, LIMITS.invitePerOrg]]);
  return t.ok ? null : { ok: false, message: throttledMessage(t.retryAfterS) };
}

/** Mails the link; a mail failure is reported (the invitation stays, and can be resent) rather than thrown. */
async function mailInvitation(ctx: AppContext, p: { to: string; inviter: string; orgName: string; role: Role; token: string }) {
  const link = `${ctx.origin}/invite/${p.token}`;
  try {
    await sendMail(ctx, {
      to: p.to,
      ...invitationMail({ inviter: p.inviter, orgName: p.orgName, role: ROLE_LABELS[p.role], link }),
    });
    return null;
  } catch (err) {
    console.error("[invitations] mail failed", err);
    return `The invitation was saved, but the email to ${p.to} could not be sent. Try "Resend" in a moment.`;
  }
}

async function orgName(ctx: AppContext, orgId: string) {
  const org = await ctx.db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, orgId)).get();
  return org?.name ?? "an organisation";
}

/**
 * Invites `email` to the organisation with `role` (which the inviter's role must be allowed to
 * give) and mails a 72-hour link. A pending invitation for the same address is replaced. The raw
 * token only travels in the email (and the return value, for tests); the database keeps its hash.
 */
export async function inviteMember(
  ctx: AppContext,
  input: { orgId: string; inviter: Inviter; email: string; role: Role },
): Promise<Result<{ invitation: PendingInvitation; token: string; mailError: string | null }>> {
  const email = input.email.trim().toLowerCase();
  if (!assignableRoles(input.inviter.role).includes(input.role))
    return {
      ok: false,
      message: input.role === "owner" ? "Only an owner can invite an owner." : `You cannot invite someone as ${ROLE_LABELS[input.role]}.`,
    };
  const already = await ctx.db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, input.orgId), eq(users.email, email)))
    .get();
  if (already) return { ok: false, message: `${email} is already a member of this organisation.` };
  const org = await ctx.db.select({ id: organisations.id, plan: organisations.plan }).from(organisations).where(eq(organisations.id, input.orgId)).get();
  if (!org) return { ok: false, message: "That organisation no longer exists." };
  const full = await checkInviteLimit(ctx, org, email);
  if (full) return full;
  const throttled = await throttleInvites(ctx, input.orgId);
  if (throttled) return throttled;

  const token = randomToken();
  const now = Date.now();
  const row = {
    id: newId("inv_"),
    orgId: input.orgId,
    email,
    role: input.role,
    tokenHash: sha256Hex(token),
    invitedBy: input.inviter.id,
    expiresAt: now + INVITATION_TTL_MS,
    createdAt: now,
  };
  await ctx.db.batch([
    ctx.db.delete(invitations).where(and(eq(invitations.orgId, input.orgId), eq(invitations.email, email), isNull(invitations.acceptedAt))),
    ctx.db.insert(invitations).values(row),
  ]);
  const mailError = await mailInvitation(ctx, {
    to: email,
    inviter: input.inviter.name,
    orgName: await orgName(ctx, input.orgId),
    role: input.role,
    token,
  });
  return {
    ok: true,
    token,
    mailError,
    invitation: {
      id: row.id,
      email,
      role: row.role,
      expiresAt: row.expiresAt,
      createdAt: now,
      invitedByName: input.inviter.name,
      expired: false,
    },
  };
}

/** Invitations not yet accepted, newest first; expired ones are included (flagged) so they can be resent. */
export async function listPendingInvitations(ctx: AppContext, orgId: string, now = Date.now()): Promise<PendingInvitation[]> {
  const inviter = alias(users, "inviter");
  const rows = await ctx.db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      expiresAt: invitations.expiresAt,
      createdAt: invitations.createdAt,
      invitedByName: inviter.name,
    })
    .from(invitations)
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(and(eq(invitations.orgId, orgId), isNull(invitations.acceptedAt)))
    .orderBy(asc(invitations.email))
    .all();
  return rows.map((r) => ({ ...r, expired: r.expiresAt <= now }));
}

async function pendingInvitation(ctx: AppContext, orgId: string, invitationId: string) {
  const row = await ctx.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.orgId, orgId), isNull(invitations.acceptedAt)))
    .get();
  return row ?? null;
}

const GONE = "That invitation no longer exists: it was accepted or revoked.";

/** New token and a fresh 72 hours; the old link stops working. */
export async function resendInvitation(
  ctx: AppContext,
  input: { orgId: string; invitationId: string; inviter: Inviter },
): Promise<Result<{ invitation: PendingInvitation; token: string; mailError: string | null }>> {
  const inv = await pendingInvitation(ctx, input.orgId, input.invitationId);
  if (!inv) return { ok: false, message: GONE };
  if (!assignableRoles(input.inviter.role).includes(inv.role)) return { ok: false, message: "Only an owner can manage an invitation to become owner." };
  const throttled = await throttleInvites(ctx, input.orgId);
  if (throttled) return throttled;
  const token = randomToken();
  const expiresAt = Date.now() + INVITATION_TTL_MS;
  const updated = await ctx.db
    .update(invitations)
    .set({ tokenHash: sha256Hex(token), expiresAt, invitedBy: input.inviter.id })
    .where(and(eq(invitations.id, inv.id), eq(invitations.orgId, input.orgId), isNull(invitations.acceptedAt)))
    .returning({ id: invitations.id })
    .get();
  if (!updated) return { ok: false, message: GONE };
  const mailError = await mailInvitation(ctx, {
    to: inv.email,
    inviter: input.inviter.name,
    orgName: await orgName(ctx, input.orgId),
    role: inv.role,
    token,
  });
  return {
    ok: true,
    token,
    mailError,
    invitation: {
      id: inv.id,
      email: inv.email,
      role: inv.role,
      expiresAt,
      createdAt: inv.createdAt,
      invitedByName: input.inviter.name,
      expired: false,
    },
  };
}

export async function revokeInvitation(ctx: AppContext, input: { orgId: string; invitationId: string; actorRole: Role }): Promise<Result<{ email: string }>> {
  const inv = await pendingInvitation(ctx, input.orgId, input.invitationId);
  if (!inv) return { ok: false, message: GONE };
  if (!assignableRoles(input.actorRole).includes(inv.role)) return { ok: false, message: "Only an owner can manage an invitation to become owner." };
  const deleted = await ctx.db
    .delete(invitations)
    .where(and(eq(invitations.id, inv.id), eq(invitations.orgId, input.orgId), isNull(invitations.acceptedAt)))
    .returning({ email: invitations.email })
    .get();
  if (!deleted) return { ok: false, message: GONE };
  return { ok: true, email: deleted.email };
}

/** The live invitation (not accepted, not expired) a raw token belongs to, with its organisation's name. */
export async function findInvitationByToken(ctx: AppContext, token: string, now = Date.now()): Promise<LiveInvitation | null> {
  if (!token || token.length > 128) return null;
  const inviter = alias(users, "inviter");
  const row = await ctx.db
    .select({
      id: invitations.id,
      orgId: invitations.orgId,
      orgName: organisations.name,
      email: invitations.email,
      role: invitations.role,
      expiresAt: invitations.expiresAt,
      invitedByName: inviter.name,
    })
    .from(invitations)
    .innerJoin(organisations, eq(organisations.id, invitations.orgId))
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(and(eq(invitations.tokenHash, sha256Hex(token)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)))
    .get();
  return row ?? null;
}

// Statements of the accept batches. Each is conditioned on the invitation still being live, and the
// batch runs as one transaction, so an invitation is used once and a refusal changes nothing.
const isLive = (invitationId: string, now: number) =>
  sql`${invitations.id} = ${invitationId} AND ${invitations.acceptedAt} IS NULL AND ${invitations.expiresAt} > ${now}`;

function insertMembershipFromInvitation(ctx: AppContext, invitationId: string, userId: string, now: number) {
  // INSERT … SELECT lists every column in the table's order. "WHERE" is required before ON CONFLICT
  // in INSERT … SELECT (SQLite's parsing rule); someone who is already a member keeps their role.
  return ctx.db
    .insert(memberships)
    .select(
      ctx.db
        .select({
          orgId: invitations.orgId,
          userId: sql<string>`${userId}`.as("user_id"),
          role: invitations.role,
          createdAt: sql<number>`${now}`.as("created_at"),
        })
        .from(invitations)
        .where(isLive(invitationId, now)),
    )
    .onConflictDoNothing();
}

function markAccepted(ctx: AppContext, invitationId: string, now: number) {
  return ctx.db.update(invitations).set({ acceptedAt: now }).where(isLive(invitationId, now)).returning({ orgId: invitations.orgId });
}

export type AcceptRefusal = Refusal & { reason: "invalid" | "wrong-email" | "has-account" | "weak-password" | "full" };

/** The plan's member limit, re-checked when an invitation is accepted (unless the user is already a member). */
async function joinRefusal(ctx: AppContext, orgId: string, userId: string | null): Promise<AcceptRefusal | null> {
  if (userId) {
    const member = await ctx.db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
      .get();
    if (member) return null;
  }
  const org = await ctx.db.select({ id: organisations.id, plan: organisations.plan }).from(organisations).where(eq(organisations.id, orgId)).get();
  if (!org) return { ok: false, reason: "invalid", message: NO_LONGER_VALID };
  const full = await checkJoinLimit(ctx, org);
  return full ? { ...full, reason: "full" } : null;
}

/**
 * The signed-in user accepts: their email must be the invited one. Creates the membership with the
 * invited role (an existing member keeps theirs), marks the invitation used, and makes the
 * organisation their last used one.
 */
export async function acceptInvitation(
  ctx: AppContext,
  token: string,
  user: { id: string; email: string },
): Promise<{ ok: true; orgId: string } | AcceptRefusal> {
  const now = Date.now();
  const inv = await findInvitationByToken(ctx, token, now);
  if (!inv) return { ok: false, reason: "invalid", message: NO_LONGER_VALID };
  if (inv.email.toLowerCase() !== user.email.toLowerCase())
    return {
      ok: false,
      reason: "wrong-email",
      message: `This invitation was sent to ${inv.email}, but you are signed in as ${user.email}. Sign out and sign in (or create an account) with ${inv.email} to accept it.`,
    };
  const full = await joinRefusal(ctx, inv.orgId, user.id);
  if (full) return full;
  const [, accepted] = await ctx.db.batch([
    insertMembershipFromInvitation(ctx, inv.id, user.id, now),
    markAccepted(ctx, inv.id, now),
    ctx.db
      .update(users)
      .set({ lastOrgId: inv.orgId })
      .where(and(eq(users.id, user.id), sql`EXISTS (SELECT 1 FROM ${memberships} m WHERE m.org_id = ${inv.orgId} AND m.user_id = ${user.id})`)),
  ]);
  if (accepted.length === 0) return { ok: false, reason: "invalid", message: NO_LONGER_VALID };
  return { ok: true, orgId: inv.orgId };
}

/**
 * Someone without an account accepts: creates their account for the invited address (verified,
 * since the emailed link proves the inbox), the membership, and marks the invitation used — in one
 * batch — then signs them in. Returns the Set-Cookie value of the new session.
 */
export async function acceptInvitationAsNewUser(
  ctx: AppContext,
  token: string,
  input: { name: string; password: string },
): Promise<{ ok: true; orgId: string; userId: string; cookie: string } | AcceptRefusal> {
  const inv = await findInvitationByToken(ctx, token);
  if (!inv) return { ok: false, reason: "invalid", message: NO_LONGER_VALID };
  const hasAccount = {
    ok: false as const,
    reason: "has-account" as const,
    message: `An account already exists for ${inv.email}. Sign in to accept the invitation.`,
  };
  if (await findUserByEmail(ctx, inv.email)) return hasAccount;
  const full = await joinRefusal(ctx, inv.orgId, null);
  if (full) return full;
  const problem = passwordProblem(input.password, inv.email);
  if (problem) return { ok: false, reason: "weak-password", message: problem };
  const passwordHash = await hashPassword(input.password);
  const now = Date.now(); // after hashing, which takes a while
  const userId = newId("u_");
  let accepted: { orgId: string }[];
  try {
    [, , accepted] = await ctx.db.batch([
      ctx.db.insert(users).select(
        ctx.db
          .select({
            id: sql<string>`${userId}`.as("id"),
            email: sql<string>`lower(${invitations.email})`.as("email"),
            name: sql<string>`${input.name.trim()}`.as("name"),
            passwordHash: sql<string>`${passwordHash}`.as("password_hash"),
            emailVerifiedAt: sql<number>`${now}`.as("email_verified_at"),
            lastOrgId: invitations.orgId,
            createdAt: sql<number>`${now}`.as("created_at"),
          })
          .from(invitations)
          .where(isLive(inv.id, now)),
      ),
      insertMembershipFromInvitation(ctx, inv.id, userId, now),
      markAccepted(ctx, inv.id, now),
    ]);
  } catch (err) {
    // The unique email index refused: an account was created for this address meanwhile.
    if (await findUserByEmail(ctx, inv.email)) return hasAccount;
    throw err;
  }
  if (accepted.length === 0) return { ok: false, reason: "invalid", message: NO_LONGER_VALID };
  const { token: sessionToken, session } = await createSession(ctx.db, userId);
  return { ok: true, orgId: inv.orgId, userId, cookie: serializeSessionCookie(sessionToken, session.expiresAt, ctx.production) };
}
