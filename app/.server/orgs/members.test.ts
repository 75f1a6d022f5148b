import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Role } from "~/lib/permissions";
import { requireOrg } from "../auth/guards";
import { createChatbot, listChatbots } from "../chatbots/chatbots";
import { memberships, users } from "../db/schema";
import { changeRole, leaveOrganisation, listMembers, removeMember, transferOwnership } from "./members";
import { createOrganisation } from "./organisations";
import { makeUser, signedIn, testContext, thrownStatus } from "../../../tests/factories";

/** An organisation with one member per role (plus the owner who created it). */
async function team() {
  const ctx = testContext();
  const owner = await makeUser({ name: "Olivia Owner" });
  const org = await createOrganisation(ctx, owner.id, { name: "Team" });
  const add = async (name: string, role: Role) => {
    const u = await makeUser({ name });
    await ctx.db.insert(memberships).values({ orgId: org.id, userId: u.id, role });
    return u;
  };
  const admin = await add("Adam Admin", "admin");
  const editor = await add("Eve Editor", "editor");
  const agent = await add("Aga Agent", "agent");
  const roleOf = async (userId: string) =>
    (
      await ctx.db
        .select()
        .from(memberships)
        .where(and(eq(memberships.orgId, org.id), eq(memberships.userId, userId)))
        .get()
    )?.role ?? null;
  return { ctx, org, owner, admin, editor, agent, roleOf };
}

describe("members", () => {
  it("lists members, owners first", async () => {
    const { ctx, org, owner, admin, editor, agent } = await team();
    const list = await listMembers(ctx, org.id);
    expect(list.map((m) => [m.userId, m.role])).toEqual([
      [owner.id, "owner"],
      [admin.id, "admin"],
      [editor.id, "editor"],
      [agent.id, "agent"],
    ]);
    expect(list[0]).toMatchObject({ name: "Olivia Owner", email: owner.email });
  });

  it("lets an owner change any role and an admin change non-owner roles", async () => {
    const { ctx, org, admin, editor, agent, roleOf } = await team();
    expect(await changeRole(ctx, { orgId: org.id, actorRole: "owner", userId: agent.id, role: "editor" })).toMatchObject({ ok: true });
    expect(await roleOf(agent.id)).toBe("editor");
    expect(await changeRole(ctx, { orgId: org.id, actorRole: "admin", userId: editor.id, role: "admin" })).toMatchObject({ ok: true });
    expect(await roleOf(editor.id)).toBe("admin");
    expect(await changeRole(ctx, { orgId: org.id, actorRole: "owner", userId: admin.id, role: "owner" })).toMatchObject({ ok: true });
    expect(await roleOf(admin.id)).toBe("owner");
  });

  it("refuses an admin promoting to owner or touching an owner", async () => {
    const { ctx, org, owner, editor, roleOf } = await team();
    const promote = await changeRole(ctx, { orgId: org.id, actorRole: "admin", userId: editor.id, role: "owner" });
    expect(promote).toEqual({ ok: false, message: "Only an owner can make someone an owner." });
    expect(await roleOf(editor.id)).toBe("editor");

    const demote = await changeRole(ctx, { orgId: org.id, actorRole: "admin", userId: owner.id, role: "agent" });
    expect(demote).toEqual({ ok: false, message: "Only an owner can change an owner's role." });
    expect(await roleOf(owner.id)).toBe("owner");

    const remove = await removeMember(ctx, { orgId: org.id, actorRole: "admin", userId: owner.id });
    expect(remove).toEqual({ ok: false, message: "Only an owner can remove an owner." });
    expect(await roleOf(owner.id)).toBe("owner");
  });

  it("never demotes, removes or lets go the last owner", async () => {
    const { ctx, org, owner, admin, roleOf } = await team();
    const demote = await changeRole(ctx, { orgId: org.id, actorRole: "owner", userId: owner.id, role: "admin" });
    expect(demote.ok).toBe(false);
    expect(!demote.ok && demote.message).toMatch(/at least one owner/);
    expect(await roleOf(owner.id)).toBe("owner");

    const remove = await removeMember(ctx, { orgId: org.id, actorRole: "owner", userId: owner.id });
    expect(remove.ok).toBe(false);
    expect(!remove.ok && remove.message).toMatch(/last owner/);

    const leave = await leaveOrganisation(ctx, org.id, owner.id);
    expect(leave).toEqual({ ok: false, message: expect.stringMatching(/last owner.*Transfer ownership/) });
    expect(await roleOf(owner.id)).toBe("owner");

    // With a second owner, the first may step down and the second may leave.
    await changeRole(ctx, { orgId: org.id, actorRole: "owner", userId: admin.id, role: "owner" });
    expect(await changeRole(ctx, { orgId: org.id, actorRole: "owner", userId: owner.id, role: "admin" })).toMatchObject({ ok: true });
    expect(await roleOf(owner.id)).toBe("admin");
    expect((await leaveOrganisation(ctx, org.id, admin.id)).ok).toBe(false); // admin is now the last owner
    expect(await leaveOrganisation(ctx, org.id, owner.id)).toEqual({ ok: true });
    expect(await roleOf(owner.id)).toBeNull();
  });

  it("lets any non-last-owner member leave", async () => {
    const { ctx, org, agent, roleOf } = await team();
    expect(await leaveOrganisation(ctx, org.id, agent.id)).toEqual({ ok: true });
    expect(await roleOf(agent.id)).toBeNull();
    expect((await leaveOrganisation(ctx, org.id, agent.id)).ok).toBe(false);
  });

  it("removing a member takes away their access and nothing else", async () => {
    const { ctx, org, editor, roleOf } = await team();
    await createChatbot(ctx, org.id, { name: "Bot" });
    const { ctx: editorCtx, request } = await signedIn(editor.id);
    expect((await requireOrg(editorCtx, request, org.id)).role).toBe("editor");

    expect(await removeMember(ctx, { orgId: org.id, actorRole: "admin", userId: editor.id })).toMatchObject({ ok: true });
    expect(await roleOf(editor.id)).toBeNull();
    const { ctx: after, request: req2 } = await signedIn(editor.id);
    expect(await thrownStatus(requireOrg(after, req2, org.id))).toBe(404);

    // the account and the organisation's chatbots remain
    expect(await ctx.db.select().from(users).where(eq(users.id, editor.id)).get()).toBeTruthy();
    expect(await listChatbots(ctx, org.id)).toHaveLength(1);
    expect(await listMembers(ctx, org.id)).toHaveLength(3);
  });

  it("refuses to act on someone who is not a member of this organisation", async () => {
    const { ctx, org } = await team();
    const stranger = await makeUser();
    const otherOrg = await createOrganisation(ctx, stranger.id, { name: "Elsewhere" });
    expect((await changeRole(ctx, { orgId: org.id, actorRole: "owner", userId: stranger.id, role: "agent" })).ok).toBe(false);
    expect((await removeMember(ctx, { orgId: org.id, actorRole: "owner", userId: stranger.id })).ok).toBe(false);
    // still owner of their own organisation
    const row = await ctx.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.orgId, otherOrg.id), eq(memberships.userId, stranger.id)))
      .get();
    expect(row?.role).toBe("owner");
  });

  it("transfers ownership: the target becomes owner, the previous owner admin", async () => {
    const { ctx, org, owner, editor, agent, roleOf } = await team();
    const result = await transferOwnership(ctx, org.id, owner.id, editor.id);
    expect(result).toMatchObject({ ok: true, to: { userId: editor.id, role: "owner" } });
    expect(await roleOf(editor.id)).toBe("owner");
    expect(await roleOf(owner.id)).toBe("admin");

    // the former owner (now admin) cannot transfer again; nor can anyone transfer to a non-member
    expect(await transferOwnership(ctx, org.id, owner.id, agent.id)).toEqual({
      ok: false,
      message: "Only an owner can transfer ownership.",
    });
    const stranger = await makeUser();
    expect((await transferOwnership(ctx, org.id, editor.id, stranger.id)).ok).toBe(false);
    expect((await transferOwnership(ctx, org.id, editor.id, editor.id)).ok).toBe(false);
    expect(await roleOf(editor.id)).toBe("owner");
    expect(await roleOf(stranger.id)).toBeNull();

    // the new owner now has owner-only access
    const { ctx: editorCtx, request } = await signedIn(editor.id);
    expect((await requireOrg(editorCtx, request, org.id, "billing:manage")).role).toBe("owner");
    const { ctx: formerCtx, request: req2 } = await signedIn(owner.id);
    expect(await thrownStatus(requireOrg(formerCtx, req2, org.id, "billing:manage"))).toBe(403);
  });
});
