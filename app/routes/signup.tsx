import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useNavigation, useSearchParams } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { AuthLayout, throttledMessage } from "~/components/auth/auth-layout";
import { Alert, Button, Field } from "~/components/ui";
import { passwordProblem, signUp } from "~/.server/auth/accounts";
import { parseForm, type FieldErrors } from "~/lib/forms";
import { safeRedirect } from "~/lib/safe-redirect";
import { signupSchema } from "~/lib/schemas/auth";
import { readForm } from "~/.server/http/read-form";

export const meta: MetaFunction = () => [{ title: "Create your account · Parley" }];

export async function loader({ context }: LoaderFunctionArgs) {
  if (await context.app.getAuth()) throw redirect("/app");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const parsed = parseForm(signupSchema, form);
  if (!parsed.ok) return data({ fieldErrors: parsed.fieldErrors, values: parsed.values, formError: null }, { status: 400 });
  const problem = passwordProblem(parsed.data.password, parsed.data.email);
  if (problem) return data({ fieldErrors: { password: [problem] } as FieldErrors, values: parsed.values, formError: null }, { status: 400 });
  const result = await signUp(context.app, parsed.data);
  if (result.kind === "throttled")
    return data({ fieldErrors: {} as FieldErrors, values: parsed.values, formError: throttledMessage(result.retryAfterS) }, { status: 429 });
  const next = new URLSearchParams({ email: parsed.data.email, sent: "1" });
  const redirectTo = safeRedirect(form.get("redirectTo"), "");
  if (redirectTo) next.set("redirectTo", redirectTo);
  throw redirect(`/auth/verify?${next}`);
}

export default function Signup() {
  const result = useFormReply<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const v = result?.values ?? {};
  const e = result?.fieldErrors ?? {};
  return (
    <AuthLayout
      title="Create your account"
      description="Build chatbots that answer from your organisation's own knowledge."
      footer={
        <>
          Already have an account?{" "}
          <Link className="font-medium text-brand-700 underline dark:text-brand-300" to="/login">
            Sign in
          </Link>
        </>
      }
    >
      <Form method="post" className="space-y-4" noValidate>
        {result?.formError ? (
          <Alert tone="error" dismissible={result}>
            {result.formError}
          </Alert>
        ) : null}
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
        <Field label="Name" name="name" autoComplete="name" defaultValue={v.name} error={e.name} required />
        <Field label="Work email" name="email" type="email" autoComplete="email" defaultValue={v.email ?? params.get("email") ?? ""} error={e.email} required />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          error={e.password}
          hint="8 to 128 characters. Common passwords are refused."
          required
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Creating account…" : "Create account"}
        </Button>
      </Form>
    </AuthLayout>
  );
}
