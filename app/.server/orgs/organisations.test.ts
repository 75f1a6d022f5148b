import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { requireOrg } from "../auth/guards";
import { createChatbot } from "../chatbots/chatbots";
import { memberships, organisations, users } from "../db/schema";
import { createOrganisation, listMyOrganisations, rememberLastOrganisation, renameOrganisation, slugify } from "./organisations";
import { makeOrgOnly, makeUser, signedIn, testContext } from "../../../tests/factories";

describe("organisations", () => {
  it("creating an organisation makes the creator its owner, on the free plan, and their last used org", async () => {
    const ctx = testContext();
    const user = await makeUser();
    const before = Date.now();
    const org = await createOrganisation(ctx, user.id, { name: "  Acme Café  " });

    const saved = await ctx.db.select().from(organisations).where(eq(organisations.id, org.id)).get();
    expect(saved).toMatchObject({ name: "Acme Café", plan: "free", slug: "acme-cafe" });
    expect(saved!.periodStart).toBeGreaterThanOrEqual(before);
    const membership = await ctx.db.select().from(memberships).where(eq(memberships.orgId, org.id)).all();
    expect(membership).toEqual([expect.objectContaining({ userId: user.id, role: "owner" })]);
    const u = await ctx.db.select().from(users).where(eq(users.id, user.id)).get();
    expect(u!.lastOrgId).toBe(org.id);

    // and the guard agrees
    const { ctx: authed, request } = await signedIn(user.id);
    const access = await requireOrg(authed, request, org.id, "org:delete");
    expect(access.role).toBe("owner");
  });

  it("gives every organisation a unique slug", async () => {
    const ctx = testContext();
    const user = await makeUser();
    const a = await createOrganisation(ctx, user.id, { name: "Same Name" });
    const b = await createOrganisation(ctx, user.id, { name: "Same Name" });
    expect(a.slug).toBe("same-name");
    expect(b.slug).not.toBe(a.slug);
    expect(b.slug).toMatch(/^same-name-[a-z2-7]{4}$/);
    expect(slugify("!!!")).toBe("org");
  });

  it("lists only my organisations, with role and counts", async () => {
    const ctx = testContext();
    const me = await makeUser();
    const other = await makeUser();
    const mine = await makeOrgOnly(me.id, "Beta", { plan: "starter" });
    const theirs = await createOrganisation(ctx, other.id, { name: "Alpha" });
    await ctx.db.insert(memberships).values({ orgId: theirs.id, userId: me.id, role: "agent" });
    await createOrganisation(ctx, other.id, { name: "Not mine" });
    await createChatbot(ctx, mine.id, { name: "Bot 1" });
    await createChatbot(ctx, mine.id, { name: "Bot 2" });

    const list = await listMyOrganisations(ctx, me.id);
    expect(list.map((o) => [o.name, o.role, o.memberCount, o.chatbotCount])).toEqual([
      ["Alpha", "agent", 2, 0],
      ["Beta", "owner", 1, 2],
    ]);
  });

  it("remembers the last organisation only while the user belongs to it", async () => {
    const ctx = testContext();
    const me = await makeUser();
    const other = await makeUser();
    const a = await createOrganisation(ctx, me.id, { name: "A" });
    const b = await createOrganisation(ctx, me.id, { name: "B" });
    const foreign = await createOrganisation(ctx, other.id, { name: "Foreign" });
    const last = async () => (await ctx.db.select().from(users).where(eq(users.id, me.id)).get())!.lastOrgId;
    expect(await last()).toBe(b.id);
    await rememberLastOrganisation(ctx, me.id, a.id);
    expect(await last()).toBe(a.id);
    await rememberLastOrganisation(ctx, me.id, foreign.id);
    expect(await last()).toBe(a.id);
  });

  it("renames an organisation", async () => {
    const ctx = testContext();
    const me = await makeUser();
    const org = await createOrganisation(ctx, me.id, { name: "Old" });
    expect((await renameOrganisation(ctx, org.id, " New "))!.name).toBe("New");
    expect(await renameOrganisation(ctx, "org_missing", "X")).toBeNull();
  });
});
