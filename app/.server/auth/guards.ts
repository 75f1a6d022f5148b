import { and, eq } from "drizzle-orm";
import { can, type Permission, type Role } from "~/lib/permissions";
import type { AppContext } from "../context";
import { chatbots, memberships, organisations } from "../db/schema";
import type { SessionUser } from "./session";

export function notFound(): never {
  throw new Response("Not found", { status: 404, statusText: "Not Found" });
}
export function forbidden(): never {
  throw new Response("Forbidden", { status: 403, statusText: "Forbidden" });
}

function loginRedirect(request: Request): never {
  const url = new URL(request.url);
  const redirectTo = url.pathname + url.search;
  throw new Response(null, { status: 302, headers: { Location: `/login?redirectTo=${encodeURIComponent(redirectTo)}` } });
}

/** Signed-in user or a redirect to /login that comes back here afterwards. */
export async function requireUser(ctx: AppContext, request: Request): Promise<SessionUser> {
  const auth = await ctx.getAuth();
  if (!auth) loginRedirect(request);
  return auth.user;
}

export type OrgAccess = {
  user: SessionUser;
  org: typeof organisations.$inferSelect;
  role: Role;
};

/**
 * The user's membership in `orgId`. Not a member (or no such org) → 404, so ids of other
 * organisations reveal nothing. With `permission`, a member whose role lacks it → 403.
 */
export async function requireOrg(ctx: AppContext, request: Request, orgId: string | undefined, permission: Permission = "org:view"): Promise<OrgAccess> {
  const user = await requireUser(ctx, request);
  if (!orgId) notFound();
  const row = await ctx.db
    .select({ org: organisations, role: memberships.role })
    .from(memberships)
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, user.id)))
    .get();
  if (!row) notFound();
  if (!can(row.role, permission)) forbidden();
  return { user, org: row.org, role: row.role };
}

export async function requireChatbot(
  ctx: AppContext,
  request: Request,
  params: { orgId?: string; chatbotId?: string },
  permission: Permission = "chatbot:view",
) {
  const access = await requireOrg(ctx, request, params.orgId, "org:view");
  if (!params.chatbotId) notFound();
  const chatbot = await ctx.db
    .select()
    .from(chatbots)
    .where(and(eq(chatbots.id, params.chatbotId), eq(chatbots.orgId, access.org.id)))
    .get();
  if (!chatbot) notFound();
  if (!can(access.role, permission)) forbidden();
  return { ...access, chatbot };
}
