import { and, asc, eq } from "drizzle-orm";
import { can, ROLES } from "~/lib/permissions";
import type { ServiceContext } from "../context";
import { memberships, users } from "../db/schema";
import type { LiveAgent } from "~/lib/live/protocol";

// Who can hold a live conversation (ADR 027): the organisation's members whose role works the
// inbox ("inbox:work"). The transfer list shows them; the conversation object checks a transfer's
// target here, so another organisation's user can never be handed a conversation.

type Ctx = Pick<ServiceContext, "db">;

const INBOX_ROLES = ROLES.filter((r) => can(r, "inbox:work"));

export async function inboxAgents(ctx: Ctx, orgId: string): Promise<LiveAgent[]> {
  const rows = await ctx.db
    .select({ id: users.id, name: users.name, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.orgId, orgId))
    .orderBy(asc(users.name))
    .limit(200)
    .all();
  return rows.filter((r) => INBOX_ROLES.includes(r.role)).map((r) => ({ id: r.id, name: r.name }));
}

/** The member `userId` of `orgId` as a live agent, or null when they may not hold conversations there. */
export async function inboxAgent(ctx: Ctx, orgId: string, userId: string): Promise<LiveAgent | null> {
  const row = await ctx.db
    .select({ id: users.id, name: users.name, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
    .get();
  return row && INBOX_ROLES.includes(row.role) ? { id: row.id, name: row.name } : null;
}
