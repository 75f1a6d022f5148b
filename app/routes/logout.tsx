import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { invalidateSession, serializeBlankSessionCookie } from "~/.server/auth/session";
import { safeRedirect } from "~/lib/safe-redirect";
import { readForm } from "~/.server/http/read-form";

// POST only: a link or prefetch must not sign anyone out.
export async function loader() {
  return redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await context.app.getAuth();
  if (auth) await invalidateSession(context.app.db, auth.session.id);
  const form = await readForm(request);
  return redirect(safeRedirect(form.get("redirectTo"), "/login"), { headers: { "Set-Cookie": serializeBlankSessionCookie(context.app.production) } });
}
