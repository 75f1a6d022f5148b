import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useNavigation, useSearchParams } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { AuthLayout, throttledMessage } from "~/components/auth/auth-layout";
import { Alert, Button, Field } from "~/components/ui";
import { logIn } from "~/.server/auth/accounts";
import { invalidateSession } from "~/.server/auth/session";
import { parseForm } from "~/lib/forms";
import { safeRedirect } from "~/lib/safe-redirect";
import { loginSchema } from "~/lib/schemas/auth";
import { readForm } from "~/.server/http/read-form";

export const meta: MetaFunction = () => [{ title: "Sign in · Parley" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await context.app.getAuth()) throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo")));
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const parsed = parseForm(loginSchema, form);
  if (!parsed.ok) return data({ fieldErrors: parsed.fieldErrors, values: parsed.values, formError: null }, { status: 400 });
  const result = await logIn(context.app, parsed.data.email, parsed.data.password);
  if (result.kind === "throttled") return data({ fieldErrors: {}, values: parsed.values, formError: throttledMessage(result.retryAfterS) }, { status: 429 });
  if (result.kind === "invalid")
    return data({ fieldErrors: {}, values: parsed.values, formError: "That email and password do not match an account." }, { status: 400 });
  if (result.kind === "unverified") {
    const next = new URLSearchParams({ email: parsed.data.email, sent: "1", unverified: "1" });
    throw redirect(`/auth/verify?${next}`);
  }
  // A session this browser already had is replaced, never reused (fixation).
  const previous = await context.app.getAuth();
  if (previous) await invalidateSession(context.app.db, previous.session.id);
  throw redirect(safeRedirect(parsed.data.redirectTo), { headers: { "Set-Cookie": result.cookie } });
}

export default function Login() {
  const result = useFormReply<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const v = result?.values ?? {};
  const e: Record<string, string[]> = result?.fieldErrors ?? {};
  return (
    <AuthLayout
      title="Sign in to Parley"
      footer={
        <>
          New to Parley?{" "}
          <Link
            className="font-medium text-brand-700 underline dark:text-brand-300"
            to={`/signup${params.get("redirectTo") ? `?redirectTo=${encodeURIComponent(params.get("redirectTo")!)}` : ""}`}
          >
            Create an account
          </Link>
        </>
      }
    >
      <Form method="post" className="space-y-4" noValidate>
        {params.get("reset") === "1" ? <Alert tone="success">Your password was changed. Sign in with the new one.</Alert> : null}
        {result?.formError ? (
          <Alert tone="error" dismissible={result}>
            {result.formError}
          </Alert>
        ) : null}
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? v.redirectTo ?? ""} />
        <Field label="Email" name="email" type="email" autoComplete="email" defaultValue={v.email} error={e.email} required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" error={e.password} required />
        <div className="flex items-center justify-between text-sm">
          <Link className="font-medium text-brand-700 underline dark:text-brand-300" to="/auth/forgot-password">
            Forgot your password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </Button>
      </Form>
    </AuthLayout>
  );
}
