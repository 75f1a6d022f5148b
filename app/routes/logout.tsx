import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { invalidateSession, serializeBlankSessionCookie } from "~/.server/auth/session";

// POST only: a link or prefetch must not sign anyone out.
export async function loader() {
  return redirect("/");
}

export async function action({ context }: ActionFunctionArgs) {
  const auth = await context.app.getAuth();
  if (auth) await invalidateSession(context.app.db, auth.session.id);
  return redirect("/login", { headers: { "Set-Cookie": serializeBlankSessionCookie(context.app.production) } });
}
