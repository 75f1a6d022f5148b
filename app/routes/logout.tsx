import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { invalidateSession, serializeBlankSessionCookie } from "~/.server/auth/session";
import { safeRedirect } from "~/lib/safe-redirect";

// POST only: a link or prefetch must not sign anyone out.
export async function loader() {
  return redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await context.app.getAuth();
  if (auth) await invalidateSession(context.app.db, auth.session.id);
  const form = await request.formData().catch(() => new FormData());
  return redirect(safeRedirect(form.get("redirectTo"), "/login"), { headers: { "Set-Cookie": serializeBlankSessionCookie(context.app.production) } });
}
