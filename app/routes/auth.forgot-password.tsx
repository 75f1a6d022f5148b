import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { AuthLayout, throttledMessage } from "~/components/auth/auth-layout";
import { Alert, Button, Field } from "~/components/ui";
import { requestPasswordReset } from "~/.server/auth/accounts";
import { parseForm } from "~/lib/forms";
import { forgotSchema } from "~/lib/schemas/auth";
import { readForm } from "~/.server/http/read-form";

export const meta: MetaFunction = () => [{ title: "Forgot your password · Parley" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = parseForm(forgotSchema, await readForm(request));
  if (!parsed.ok) return data({ fieldErrors: parsed.fieldErrors, values: parsed.values, formError: null, sentTo: null }, { status: 400 });
  const r = await requestPasswordReset(context.app, parsed.data.email);
  if (r.kind === "throttled")
    return data({ fieldErrors: {}, values: parsed.values, formError: throttledMessage(r.retryAfterS), sentTo: null }, { status: 429 });
  // The same answer whether or not the address has an account.
  return { fieldErrors: {}, values: parsed.values, formError: null, sentTo: parsed.data.email };
}

export default function ForgotPassword() {
  const result = useFormReply<typeof action>();
  const busy = useNavigation().state !== "idle";
  const e: Record<string, string[]> = result?.fieldErrors ?? {};
  return (
    <AuthLayout
      title="Reset your password"
      description="Enter the email you signed up with and we will send you a link to choose a new password."
      footer={
        <Link className="font-medium text-brand-700 underline dark:text-brand-300" to="/login">
          Back to sign in
        </Link>
      }
    >
      {result?.sentTo ? (
        <Alert tone="success" title="Check your email">
          {`If an account exists for ${result.sentTo}, we have sent it a link to reset the password. The link works once, for 1 hour.`}
        </Alert>
      ) : (
        <Form method="post" className="space-y-4" noValidate>
          {result?.formError ? (
            <Alert tone="error" dismissible={result}>
              {result.formError}
            </Alert>
          ) : null}
          <Field label="Email" name="email" type="email" autoComplete="email" defaultValue={result?.values?.email} error={e.email} required />
          <Button type="submit" className="w-full" disabled={busy}>
            Send reset link
          </Button>
        </Form>
      )}
    </AuthLayout>
  );
}
