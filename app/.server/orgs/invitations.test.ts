import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "../auth/password";
import { validateSessionToken } from "../auth/session";
import { sha256Hex } from "../auth/crypto";
import { devOutbox, invitations, memberships, organisations, users } from "../db/schema";
import {
  acceptInvitation,
  acceptInvitationAsNewUser,
  findInvitationByToken,
  INVITATION_TTL_MS,
  inviteMember,
  listPendingInvitations,
  resendInvitation,
  revokeInvitation,
} from "./invitations";
import { removeMember } from "./members";
import { createOrganisation } from "./organisations";
import { makeOrgOnly, makeUser, testContext } from "../../../tests/factories";

async function setup() {
  const ctx = testContext();
  const owner = await makeUser({ name: "Olivia Owner" });
  // Growth: room for the several people these tests invite (the member limit has its own tests below).
  const org = await makeOrgOnly(owner.id, "Acme", { plan: "growth" });
  const inviter = { id: owner.id, name: owner.name, role: "owner" as const };
  const membership = async (userId: string) =>
    (await ctx.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.orgId, org.id), eq(memberships.userId, userId)))
      .get()) ?? null;
  return { ctx, owner, org, inviter, membership };
}

function invited<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r as Extract<T, { ok: true }>;
}

const uniqueEmail = () => `Person-${crypto.randomUUID().slice(0, 8)}@Example.test`;

describe("invitations", () => {
  it("stores only the token's hash, expires in 72 h and mails the link", async () => {
    const { ctx, org, inviter } = await setup();
    const email = uniqueEmail();
    const before = Date.now();
    const { token, invitation, mailError } = invited(await inviteMember(ctx, { orgId: org.id, inviter, email, role: "editor" }));
    expect(mailError).toBeNull();
    expect(invitation.email).toBe(email.toLowerCase());

    const row = await ctx.db.select().from(invitations).where(eq(invitations.id, invitation.id)).get();
    expect(row!.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.expiresAt - before).toBeGreaterThanOrEqual(INVITATION_TTL_MS);
    expect(row!.expiresAt - Date.now()).toBeLessThanOrEqual(INVITATION_TTL_MS);

    const mail = await ctx.db.select().from(devOutbox).where(eq(devOutbox.to, email.toLowerCase())).get();
    expect(mail!.subject).toBe("Olivia Owner invited you to Acme on Parley");
    expect(mail!.text).toContain(`http://localhost/invite/${token}`);
    expect(mail!.text).toContain("as Editor");

    expect(await findInvitationByToken(ctx, token)).toMatchObject({
      orgId: org.id,
      orgName: "Acme",
      role: "editor",
      invitedByName: "Olivia Owner",
    });
    expect((await listPendingInvitations(ctx, org.id)).map((i) => i.id)).toEqual([invitation.id]);
  });

  it("validates the role against the inviter's and refuses current members", async () => {
    const { ctx, org, owner } = await setup();
    const asAdmin = { id: owner.id, name: "Ad Min", role: "admin" as const };
    expect(await inviteMember(ctx, { orgId: org.id, inviter: asAdmin, email: uniqueEmail(), role: "owner" })).toEqual({
      ok: false,
      message: "Only an owner can invite an owner.",
    });
    const asEditor = { id: owner.id, name: "Ed", role: "editor" as const };
    expect((await inviteMember(ctx, { orgId: org.id, inviter: asEditor, email: uniqueEmail(), role: "agent" })).ok).toBe(false);
    const already = await inviteMember(ctx, { orgId: org.id, inviter: asAdmin, email: owner.email.toUpperCase(), role: "agent" });
    expect(already).toEqual({ ok: false, message: `${owner.email} is already a member of this organisation.` });
    expect(await listPendingInvitations(ctx, org.id)).toEqual([]);
  });

  it("replaces a pending invitation for the same email", async () => {
    const { ctx, org, inviter } = await setup();
    const email = uniqueEmail();
    const first = invited(await inviteMember(ctx, { orgId: org.id, inviter, email, role: "agent" }));
    const second = invited(await inviteMember(ctx, { orgId: org.id, inviter, email, role: "admin" }));
    const pending = await listPendingInvitations(ctx, org.id);
    expect(pending.map((i) => [i.id, i.role])).toEqual([[second.invitation.id, "admin"]]);
    expect(await findInvitationByToken(ctx, first.token)).toBeNull();
  });

  it("accepts for a signed-in user with the invited email: membership with the invited role, single use", async () => {
    const { ctx, org, inviter, membership } = await setup();
    const user = await makeUser({ name: "Ivan Invitee" });
    const { token } = invited(await inviteMember(ctx, { orgId: org.id, inviter, email: user.email.toUpperCase(), role: "editor" }));

    expect(await acceptInvitation(ctx, token, user)).toEqual({ ok: true, orgId: org.id });
    expect((await membership(user.id))?.role).toBe("editor");
    expect((await ctx.db.select().from(users).where(eq(users.id, user.id)).get())!.lastOrgId).toBe(org.id);
    expect(await listPendingInvitations(ctx, org.id)).toEqual([]);

    // used: no longer valid, even after the member is removed again
    expect(await findInvitationByToken(ctx, token)).toBeNull();
    await removeMember(ctx, { orgId: org.id, actorRole: "owner", userId: user.id });
    expect(await acceptInvitation(ctx, token, user)).toMatchObject({ ok: false, reason: "invalid" });
    expect(await membership(user.id)).toBeNull();
  });

  it("refuses a signed-in user whose email is not the invited one", async () => {
    const { ctx, org, inviter, membership } = await setup();
    const intruder = await makeUser({ name: "Mallory" });
    const email = uniqueEmail();
    const { token } = invited(await inviteMember(ctx, { orgId: org.id, inviter, email, role: "admin" }));

    const r = await acceptInvitation(ctx, token, intruder);
    expect(r).toMatchObject({ ok: false, reason: "wrong-email" });
    expect(!r.ok && r.message).toContain(email.toLowerCase());
    expect(await membership(intruder.id)).toBeNull();
    expect(await findInvitationByToken(ctx, token)).not.toBeNull(); // still usable by the right person
  });

  it("creates a verified account, the membership and a session for someone without an account", async () => {
    const { ctx, org, inviter, membership } = await setup();
    const email = uniqueEmail();
    const { token } = invited(await inviteMember(ctx, { orgId: org.id, inviter, email, role: "agent" }));

    const r = await acceptInvitationAsNewUser(ctx, token, { name: " Nina New ", password: "a long pass phrase" });
    if (!r.ok) throw new Error(r.message);
    expect(r.orgId).toBe(org.id);
    const user = await ctx.db.select().from(users).where(eq(users.id, r.userId)).get();
    expect(user).toMatchObject({ email: email.toLowerCase(), name: "Nina New", lastOrgId: org.id });
    expect(user!.emailVerifiedAt).toBeTypeOf("number");
    expect(await verifyPassword(user!.passwordHash, "a long pass phrase")).toBe(true);
    expect((await membership(r.userId))?.role).toBe("agent");

    const cookieToken = /^parley_session=([a-z2-7]{32});/.exec(r.cookie)?.[1];
    expect(cookieToken).toBeTruthy();
    expect((await validateSessionToken(ctx.db, cookieToken!))?.user.id).toBe(r.userId);

    // single use
    expect(await acceptInvitationAsNewUser(ctx, token, { name: "Again", password: "another long phrase" })).toMatchObject({
      ok: false,
      reason: "invalid",
    });
  });

  it("new-user path: refuses weak passwords and existing accounts without saving anything", async () => {
    const { ctx, org, inviter } = await setup();
    const email = uniqueEmail();
    const { token } = invited(await inviteMember(ctx, { orgId: org.id, inviter, email, role: "agent" }));

    expect(await acceptInvitationAsNewUser(ctx, token, { name: "W", password: "password" })).toMatchObject({
      ok: false,
      reason: "weak-password",
    });
    expect(await acceptInvitationAsNewUser(ctx, token, { name: "W", password: email.toLowerCase() })).toMatchObject({
      ok: false,
      reason: "weak-password",
    });
    expect(await ctx.db.select().from(users).where(eq(users.email, email.toLowerCase())).get()).toBeUndefined();
    expect(await findInvitationByToken(ctx, token)).not.toBeNull();

    const existing = await makeUser();
    const second = invited(await inviteMember(ctx, { orgId: org.id, inviter, email: existing.email, role: "agent" }));
    expect(await acceptInvitationAsNewUser(ctx, second.token, { name: "X", password: "a long pass phrase" })).toMatchObject({
      ok: false,
      reason: "has-account",
    });
    expect(await findInvitationByToken(ctx, second.token)).not.toBeNull();
  });

  it("refuses expired, revoked and replaced tokens, and unknown ones", async () => {
    const { ctx, org, inviter, membership } = await setup();
    const user = await makeUser();

    const expired = invited(await inviteMember(ctx, { orgId: org.id, inviter, email: user.email, role: "agent" }));
    await ctx.db
      .update(invitations)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(invitations.id, expired.invitation.id));
    expect(await findInvitationByToken(ctx, expired.token)).toBeNull();
    expect(await acceptInvitation(ctx, expired.token, user)).toMatchObject({ ok: false, reason: "invalid" });
    expect(await acceptInvitationAsNewUser(ctx, expired.token, { name: "X", password: "a long pass phrase" })).toMatchObject({
      ok: false,
      reason: "invalid",
    });
    expect((await listPendingInvitations(ctx, org.id))[0]).toMatchObject({ id: expired.invitation.id, expired: true });

    const revoked = invited(await inviteMember(ctx, { orgId: org.id, inviter, email: user.email, role: "agent" }));
    expect(await revokeInvitation(ctx, { orgId: org.id, invitationId: revoked.invitation.id, actorRole: "admin" })).toEqual({
      ok: true,
      email: user.email,
    });
    expect(await acceptInvitation(ctx, revoked.token, user)).toMatchObject({ ok: false, reason: "invalid" });
    expect((await revokeInvitation(ctx, { orgId: org.id, invitationId: revoked.invitation.id, actorRole: "owner" })).ok).toBe(false);

    expect(await findInvitationByToken(ctx, "notarealtoken")).toBeNull();
    expect(await findInvitationByToken(ctx, "")).toBeNull();
    expect(await membership(user.id)).toBeNull();
  });

  it("resend issues a new token and 72 h, and mails again; the old link dies", async () => {
    const { ctx, org, inviter, owner } = await setup();
    const email = uniqueEmail();
    const first = invited(await inviteMember(ctx, { orgId: org.id, inviter, email, role: "editor" }));
    await ctx.db
      .update(invitations)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(invitations.id, first.invitation.id));

    const again = invited(await resendInvitation(ctx, { orgId: org.id, invitationId: first.invitation.id, inviter }));
    expect(again.token).not.toBe(first.token);
    expect(again.invitation.expiresAt).toBeGreaterThan(Date.now() + INVITATION_TTL_MS - 60_000);
    expect(await findInvitationByToken(ctx, first.token)).toBeNull();
    expect(await findInvitationByToken(ctx, again.token)).toMatchObject({ id: first.invitation.id, role: "editor" });
    const mails = await ctx.db.select().from(devOutbox).where(eq(devOutbox.to, email.toLowerCase())).orderBy(desc(devOutbox.createdAt)).all();
    expect(mails).toHaveLength(2);
    expect(mails.some((m) => m.text.includes(`/invite/${again.token}`))).toBe(true);

    // an admin cannot resend or revoke an invitation to become owner
    const ownerInvite = invited(await inviteMember(ctx, { orgId: org.id, inviter, email: uniqueEmail(), role: "owner" }));
    const asAdmin = { id: owner.id, name: "Ad Min", role: "admin" as const };
    expect((await resendInvitation(ctx, { orgId: org.id, invitationId: ownerInvite.invitation.id, inviter: asAdmin })).ok).toBe(false);
    expect((await revokeInvitation(ctx, { orgId: org.id, invitationId: ownerInvite.invitation.id, actorRole: "admin" })).ok).toBe(false);
  });

  it("is scoped by organisation: another organisation cannot resend, revoke or list an invitation", async () => {
    const { ctx, org, inviter } = await setup();
    const other = await makeUser();
    const otherOrg = await createOrganisation(ctx, other.id, { name: "Other" });
    const inv = invited(await inviteMember(ctx, { orgId: org.id, inviter, email: uniqueEmail(), role: "agent" }));
    const otherInviter = { id: other.id, name: other.name, role: "owner" as const };
    expect((await resendInvitation(ctx, { orgId: otherOrg.id, invitationId: inv.invitation.id, inviter: otherInviter })).ok).toBe(false);
    expect((await revokeInvitation(ctx, { orgId: otherOrg.id, invitationId: inv.invitation.id, actorRole: "owner" })).ok).toBe(false);
    expect(await listPendingInvitations(ctx, otherOrg.id)).toEqual([]);
    expect(await findInvitationByToken(ctx, inv.token)).not.toBeNull();
  });

  it("counts members and pending invitations against the plan's member limit", async () => {
    const ctx = testContext();
    const owner = await makeUser({ name: "Olivia Owner" });
    const org = await makeOrgOnly(owner.id, "Small", { plan: "starter" }); // 3 members
    const inviter = { id: owner.id, name: owner.name, role: "owner" as const };
    const first = invited(await inviteMember(ctx, { orgId: org.id, inviter, email: uniqueEmail(), role: "agent" }));
    invited(await inviteMember(ctx, { orgId: org.id, inviter, email: uniqueEmail(), role: "agent" }));
    // 1 member + 2 pending = 3: the next one is refused, naming the limit and how to raise it.
    const refused = await inviteMember(ctx, { orgId: org.id, inviter, email: uniqueEmail(), role: "agent" });
    expect(refused).toEqual({
      ok: false,
      message:
        "The Starter plan allows 3 members; this organisation has 1 member and 2 pending invitations (they count until accepted or revoked). An owner can raise it by moving to the Growth plan (10 members) on the Plans page.",
    });
    // Re-inviting an address already pending replaces its invitation, so it still fits.
    invited(await inviteMember(ctx, { orgId: org.id, inviter, email: first.invitation.email, role: "editor" }));
    // Revoking frees a seat.
    expect((await revokeInvitation(ctx, { orgId: org.id, invitationId: (await listPendingInvitations(ctx, org.id))[0].id, actorRole: "owner" })).ok).toBe(true);
    invited(await inviteMember(ctx, { orgId: org.id, inviter, email: uniqueEmail(), role: "agent" }));
  });

  it("on Free nobody can be invited; moving to Starter raises the limit", async () => {
    const ctx = testContext();
    const owner = await makeUser({ name: "Olivia Owner" });
    const org = await createOrganisation(ctx, owner.id, { name: "Solo" });
    const inviter = { id: owner.id, name: owner.name, role: "owner" as const };
    const refused = await inviteMember(ctx, { orgId: org.id, inviter, email: uniqueEmail(), role: "agent" });
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.message).toMatch(
        /^The Free plan allows 1 member; this organisation has 1 member\. An owner can raise it by moving to the Starter plan \(3 members\)/,
      );
    await ctx.db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, org.id));
    invited(await inviteMember(ctx, { orgId: org.id, inviter, email: uniqueEmail(), role: "agent" }));
  });

  it("accepting re-checks the member limit (after a downgrade), for existing and new accounts", async () => {
    const { ctx, org, inviter, membership } = await setup();
    const user = await makeUser({ name: "Late Comer" });
    const forUser = invited(await inviteMember(ctx, { orgId: org.id, inviter, email: user.email, role: "agent" }));
    const newEmail = uniqueEmail();
    const forNew = invited(await inviteMember(ctx, { orgId: org.id, inviter, email: newEmail, role: "agent" }));
    await ctx.db.update(organisations).set({ plan: "free" }).where(eq(organisations.id, org.id));

    const full = await acceptInvitation(ctx, forUser.token, user);
    expect(full).toMatchObject({ ok: false, reason: "full" });
    if (!full.ok) expect(full.message).toContain("the Free plan allows 1 member and it has 1");
    expect(await membership(user.id)).toBeNull();
    expect(await acceptInvitationAsNewUser(ctx, forNew.token, { name: "New", password: "a long pass phrase" })).toMatchObject({ ok: false, reason: "full" });
    expect(await findUserByEmailLower(ctx, newEmail)).toBeNull();

    // The invitations stay usable: once the plan allows it, both are accepted.
    await ctx.db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, org.id));
    expect(await acceptInvitation(ctx, forUser.token, user)).toEqual({ ok: true, orgId: org.id });
    expect((await acceptInvitationAsNewUser(ctx, forNew.token, { name: "New", password: "a long pass phrase" })).ok).toBe(true);
  });
});

async function findUserByEmailLower(ctx: ReturnType<typeof testContext>, email: string) {
  return (await ctx.db.select().from(users).where(eq(users.email, email.toLowerCase())).get()) ?? null;
}
