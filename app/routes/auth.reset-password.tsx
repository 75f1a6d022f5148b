import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { AuthLayout } from "~/components/auth/auth-layout";
import { Alert, Button, Field } from "~/components/ui";
import { isResetTokenLive, resetPassword } from "~/.server/auth/accounts";
import { parseForm } from "~/lib/forms";
import { resetSchema } from "~/lib/schemas/auth";
import { readForm } from "~/.server/http/read-form";

export const meta: MetaFunction = () => [{ title: "Choose a new password · Parley" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, live: token ? await isResetTokenLive(context.app, token) : false };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = parseForm(resetSchema, await readForm(request));
  if (!parsed.ok) return data({ fieldErrors: parsed.fieldErrors, invalid: false }, { status: 400 });
  const r = await resetPassword(context.app, parsed.data.token, parsed.data.password);
  if (r.kind === "invalid") return data({ fieldErrors: {}, invalid: true }, { status: 400 });
  if (r.kind === "weak") return data({ fieldErrors: { password: [r.message] }, invalid: false }, { status: 400 });
  throw redirect("/app", { headers: { "Set-Cookie": r.cookie } });
}

export default function ResetPassword() {
  const { token, live } = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  const busy = useNavigation().state !== "idle";
  const e: Record<string, string[]> = result?.fieldErrors ?? {};
  if (!live || result?.invalid)
    return (
      <AuthLayout title="This link no longer works">
        <Alert tone="error">Reset links work once and expire after 1 hour. Ask for a new one and use the latest email.</Alert>
        <Link className="mt-4 inline-block font-medium text-brand-700 underline dark:text-brand-300" to="/auth/forgot-password">
          Send a new reset link
        </Link>
      </AuthLayout>
    );
  return (
    <AuthLayout title="Choose a new password" description="Setting a new password signs you out on every other device.">
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="token" value={token} />
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          error={e.password}
          hint="8 to 128 characters. Common passwords are refused."
          required
        />
        <Field label="Repeat the new password" name="confirm" type="password" autoComplete="new-password" error={e.confirm} required />
        <Button type="submit" className="w-full" disabled={busy}>
          Save new password
        </Button>
      </Form>
    </AuthLayout>
  );
}
