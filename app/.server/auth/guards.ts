import { can, type Permission, type Role } from "~/lib/permissions";
import { chatbotForMember, membershipOf, type Organisation } from "../chatbots/find-chatbot";
import type { AppContext } from "../context";
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
  org: Organisation;
  role: Role;
};

/**
 * The user's membership in `orgId`. Not a member (or no such org) → 404, so ids of other
 * organisations reveal nothing. With `permission`, a member whose role lacks it → 403.
 */
export async function requireOrg(ctx: AppContext, request: Request, orgId: string | undefined, permission: Permission = "org:view"): Promise<OrgAccess> {
  const user = await requireUser(ctx, request);
  if (!orgId) notFound();
  const membership = await membershipOf(ctx, orgId, user.id);
  if (!membership) notFound();
  if (!can(membership.role, permission)) forbidden();
  return { user, ...membership };
}

/** A chatbot of the organisation in the URL for a signed-in member (chatbots/find-chatbot.ts), or the 302/404/403 page. */
export async function requireChatbot(
  ctx: AppContext,
  request: Request,
  params: { orgId?: string; chatbotId?: string },
  permission: Permission = "chatbot:view",
) {
  const user = await requireUser(ctx, request);
  const found = await chatbotForMember(ctx, user.id, params, permission);
  if (!found.ok) return found.code === "forbidden" ? forbidden() : notFound();
  return { user, org: found.org, role: found.role, chatbot: found.chatbot };
}
