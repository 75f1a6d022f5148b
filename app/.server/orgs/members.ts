import { and, eq, ne, sql } from "drizzle-orm";
import { assignableRoles, ROLE_LABELS, type Role } from "~/lib/permissions";
import type { AppContext } from "../context";
import { memberships, users } from "../db/schema";

// Business-rule refusals come back as { ok: false, message } (a sentence for the screen), never as
// exceptions. The rules that keep an organisation owned are also written into the SQL statements
// themselves, so two concurrent requests cannot leave an organisation without an owner.

export type Refusal = { ok: false; message: string };
export type Done<T = object> = { ok: true } & T;
export type Result<T = object> = Done<T> | Refusal;

export type Member = { userId: string; name: string; email: string; role: Role; joinedAt: number };

const ROLE_ORDER: Record<Role, number> = { owner: 0, admin: 1, editor: 2, agent: 3 };

const LAST_OWNER_MESSAGE = "An organisation needs at least one owner. Make another member an owner (transfer ownership) first.";
const NOT_A_MEMBER = "That person is not a member of this organisation.";

/** Members of the organisation: owners first, then by name. */
export async function listMembers(ctx: AppContext, orgId: string): Promise<Member[]> {
  const rows = await ctx.db
    .select({ userId: users.id, name: users.name, email: users.email, role: memberships.role, joinedAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.orgId, orgId))
    .all();
  return rows.sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
}

async function getMember(ctx: AppContext, orgId: string, userId: string): Promise<Member | null> {
  const row = await ctx.db
    .select({ userId: users.id, name: users.name, email: users.email, role: memberships.role, joinedAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
    .get();
  return row ?? null;
}

/** SQL condition: the organisation has another owner besides the member being changed. */
const anotherOwnerExists = (orgId: string, userId: string) =>
  sql`EXISTS (SELECT 1 FROM ${memberships} o WHERE o.org_id = ${orgId} AND o.role = 'owner' AND o.user_id != ${userId})`;

/**
 * Changes a member's role. `actorRole` is the role of whoever asks: admins can neither make anyone
 * an owner nor change an owner's role; the last owner cannot be demoted.
 */
export async function changeRole(ctx: AppContext, input: { orgId: string; actorRole: Role; userId: string; role: Role }): Promise<Result<{ member: Member }>> {
  const member = await getMember(ctx, input.orgId, input.userId);
  if (!member) return { ok: false, message: NOT_A_MEMBER };
  if (member.role === "owner" && input.actorRole !== "owner") return { ok: false, message: "Only an owner can change an owner's role." };
  if (!assignableRoles(input.actorRole).includes(input.role))
    return {
      ok: false,
      message: input.role === "owner" ? "Only an owner can make someone an owner." : `You cannot give the ${ROLE_LABELS[input.role]} role.`,
    };
  if (member.role === input.role) return { ok: true, member };
  const conditions = [eq(memberships.orgId, input.orgId), eq(memberships.userId, input.userId)];
  // Demoting an owner needs another owner to remain; a non-owner actor never touches an owner row.
  if (input.actorRole !== "owner") conditions.push(ne(memberships.role, "owner"));
  if (input.role !== "owner") conditions.push(sql`(${memberships.role} != 'owner' OR ${anotherOwnerExists(input.orgId, input.userId)})`);
  const updated = await ctx.db
    .update(memberships)
    .set({ role: input.role })
    .where(and(...conditions))
    .returning({ role: memberships.role })
    .get();
  if (!updated) {
    const now = await getMember(ctx, input.orgId, input.userId);
    if (!now) return { ok: false, message: NOT_A_MEMBER };
    if (now.role === "owner" && input.actorRole !== "owner") return { ok: false, message: "Only an owner can change an owner's role." };
    return { ok: false, message: LAST_OWNER_MESSAGE };
  }
  return { ok: true, member: { ...member, role: updated.role } };
}

/**
 * Removes a member from the organisation (only the membership: their account, and everything they
 * made, stay). Admins cannot remove owners; the last owner cannot be removed.
 */
export async function removeMember(ctx: AppContext, input: { orgId: string; actorRole: Role; userId: string }): Promise<Result<{ member: Member }>> {
  const member = await getMember(ctx, input.orgId, input.userId);
  if (!member) return { ok: false, message: NOT_A_MEMBER };
  if (member.role === "owner" && input.actorRole !== "owner") return { ok: false, message: "Only an owner can remove an owner." };
  const conditions = [eq(memberships.orgId, input.orgId), eq(memberships.userId, input.userId)];
  if (input.actorRole !== "owner") conditions.push(ne(memberships.role, "owner"));
  conditions.push(sql`(${memberships.role} != 'owner' OR ${anotherOwnerExists(input.orgId, input.userId)})`);
  const removed = await ctx.db
    .delete(memberships)
    .where(and(...conditions))
    .returning({ userId: memberships.userId })
    .get();
  if (!removed) {
    if (!(await getMember(ctx, input.orgId, input.userId))) return { ok: false, message: NOT_A_MEMBER };
    return {
      ok: false,
      message:
        input.actorRole === "owner" ? `${member.name} is the last owner and cannot be removed. ${LAST_OWNER_MESSAGE}` : "Only an owner can remove an owner.",
    };
  }
  return { ok: true, member };
}

/** The signed-in member leaves; the last owner cannot (they transfer ownership first). */
export async function leaveOrganisation(ctx: AppContext, orgId: string, userId: string): Promise<Result> {
  const left = await ctx.db
    .delete(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId), sql`(${memberships.role} != 'owner' OR ${anotherOwnerExists(orgId, userId)})`))
    .returning({ userId: memberships.userId })
    .get();
  if (left) return { ok: true };
  if (!(await getMember(ctx, orgId, userId))) return { ok: false, message: "You are not a member of this organisation." };
  return {
    ok: false,
    message: "You are the last owner, so you cannot leave. Transfer ownership to another member on the Members page first.",
  };
}

/**
 * Hands ownership from `fromUserId` (who must be an owner) to another member: the target becomes
 * owner and the previous owner becomes admin, in one batch.
 */
export async function transferOwnership(ctx: AppContext, orgId: string, fromUserId: string, toUserId: string): Promise<Result<{ to: Member }>> {
  if (fromUserId === toUserId) return { ok: false, message: "Choose another member to transfer ownership to." };
  const [from, to] = await Promise.all([getMember(ctx, orgId, fromUserId), getMember(ctx, orgId, toUserId)]);
  if (!from || from.role !== "owner") return { ok: false, message: "Only an owner can transfer ownership." };
  if (!to) return { ok: false, message: NOT_A_MEMBER };
  if (to.role === "owner") return { ok: false, message: `${to.name} is already an owner.` };
  // Each statement re-checks what it relies on, so a concurrent change cannot leave no owner:
  // the target is promoted only while the giver is still an owner, and the giver steps down only
  // once the target is an owner.
  const [promoted] = await ctx.db.batch([
    ctx.db
      .update(memberships)
      .set({ role: "owner" })
      .where(
        and(
          eq(memberships.orgId, orgId),
          eq(memberships.userId, toUserId),
          sql`EXISTS (SELECT 1 FROM ${memberships} f WHERE f.org_id = ${orgId} AND f.user_id = ${fromUserId} AND f.role = 'owner')`,
        ),
      )
      .returning({ userId: memberships.userId }),
    ctx.db
      .update(memberships)
      .set({ role: "admin" })
      .where(
        and(
          eq(memberships.orgId, orgId),
          eq(memberships.userId, fromUserId),
          eq(memberships.role, "owner"),
          sql`EXISTS (SELECT 1 FROM ${memberships} t WHERE t.org_id = ${orgId} AND t.user_id = ${toUserId} AND t.role = 'owner')`,
        ),
      ),
  ]);
  if (promoted.length === 0) return { ok: false, message: "Ownership could not be transferred: the members changed meanwhile. Reload and try again." };
  return { ok: true, to: { ...to, role: "owner" } };
}
