import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Role } from "~/lib/permissions";
import { newId, randomToken } from "../auth/crypto";
import type { AppContext } from "../context";
import { chatbots, memberships, organisations, users } from "../db/schema";

export type Organisation = typeof organisations.$inferSelect;

export type MyOrganisation = {
  id: string;
  name: string;
  slug: string;
  plan: Organisation["plan"];
  role: Role;
  memberCount: number;
  chatbotCount: number;
  createdAt: number;
};

/** "Acme Café & Co." → "acme-cafe-co"; never empty. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/g, "");
  return slug || "org";
}

/** A slug no other organisation uses: the name's slug, else the slug with a short random suffix. */
async function uniqueSlug(ctx: AppContext, name: string): Promise<string> {
  const base = slugify(name);
  const candidates = [base, ...Array.from({ length: 4 }, () => `${base}-${randomToken(3).slice(0, 4)}`)];
  const taken = await ctx.db.select({ slug: organisations.slug }).from(organisations).where(inArray(organisations.slug, candidates)).all();
  const used = new Set(taken.map((r) => r.slug));
  return candidates.find((c) => !used.has(c)) ?? `${base}-${randomToken(6)}`;
}

/**
 * Creates an organisation on the free plan with `userId` as its owner and makes it the user's
 * last used organisation — one batch, so nothing half-saves.
 */
export async function createOrganisation(ctx: AppContext, userId: string, input: { name: string }): Promise<Organisation> {
  const now = Date.now();
  const org: Organisation = {
    id: newId("org_"),
    name: input.name.trim(),
    slug: await uniqueSlug(ctx, input.name),
    plan: "free",
    periodStart: now,
    stripeCustomerId: null,
    stripeSubscriptionId: null,
    billingEventAt: null,
    createdAt: now,
    timeZone: "UTC",
  };
  await ctx.db.batch([
    ctx.db.insert(organisations).values(org),
    ctx.db.insert(memberships).values({ orgId: org.id, userId, role: "owner", createdAt: now }),
    ctx.db.update(users).set({ lastOrgId: org.id }).where(eq(users.id, userId)),
  ]);
  return org;
}

/** The organisations `userId` belongs to, by name, with their role and member/chatbot counts. */
export async function listMyOrganisations(ctx: AppContext, userId: string): Promise<MyOrganisation[]> {
  return ctx.db
    .select({
      id: organisations.id,
      name: organisations.name,
      slug: organisations.slug,
      plan: organisations.plan,
      role: memberships.role,
      memberCount: sql<number>`(SELECT count(*) FROM ${memberships} m WHERE m.org_id = ${organisations.id})`.mapWith(Number),
      chatbotCount: sql<number>`(SELECT count(*) FROM ${chatbots} c WHERE c.org_id = ${organisations.id})`.mapWith(Number),
      createdAt: organisations.createdAt,
    })
    .from(memberships)
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(sql`lower(${organisations.name})`), asc(organisations.createdAt))
    .all();
}

/** Remembers the organisation the user last opened; only recorded while they belong to it. */
export async function rememberLastOrganisation(ctx: AppContext, userId: string, orgId: string): Promise<void> {
  await ctx.db
    .update(users)
    .set({ lastOrgId: orgId })
    .where(
      and(
        eq(users.id, userId),
        sql`${users.lastOrgId} IS NOT ${orgId}`,
        sql`EXISTS (SELECT 1 FROM ${memberships} m WHERE m.org_id = ${orgId} AND m.user_id = ${userId})`,
      ),
    );
}

export async function renameOrganisation(ctx: AppContext, orgId: string, name: string): Promise<Organisation | null> {
  const row = await ctx.db.update(organisations).set({ name: name.trim() }).where(eq(organisations.id, orgId)).returning().get();
  return row ?? null;
}

/**
 * The organisation's time zone (an IANA name, validated by the form): the days its analytics count
 * on from now on. Days already counted stay where they were (ADR 020).
 */
export async function setOrganisationTimeZone(ctx: AppContext, orgId: string, timeZone: string): Promise<Organisation | null> {
  const row = await ctx.db.update(organisations).set({ timeZone }).where(eq(organisations.id, orgId)).returning().get();
  return row ?? null;
}
