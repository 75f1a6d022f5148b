import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { z } from "zod";
import { AuthLayout, throttledMessage } from "~/components/auth/auth-layout";
import { Alert, Button, Field } from "~/components/ui";
import { resendVerification, verifyEmailByCode, verifyEmailByToken } from "~/.server/auth/accounts";
import { findLiveToken } from "~/.server/auth/email-tokens";
import { parseForm } from "~/lib/forms";
import { safeRedirect } from "~/lib/safe-redirect";
import { resendSchema, verifyCodeSchema } from "~/lib/schemas/auth";
import { readForm } from "~/.server/http/read-form";

export const meta: MetaFunction = () => [{ title: "Verify your email · Parley" }];

const intentSchema = z.enum(["code", "resend", "token"]);

// Opening the emailed link shows a confirm button instead of verifying on GET, so mail scanners
// that prefetch links cannot use up the single-use token.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) return { link: null as null | "valid" | "invalid" };
  const live = await findLiveToken(context.app.db, token, "verify");
  return { link: live ? ("valid" as const) : ("invalid" as const) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = intentSchema.safeParse(form.get("intent"));
  const redirectTo = safeRedirect(form.get("redirectTo"));
  if (!intent.success)
    return data({ intent: null, fieldErrors: {}, values: {} as Record<string, string>, formError: "Unknown action.", sent: false }, { status: 400 });

  if (intent.data === "token") {
    const done = await verifyEmailByToken(context.app, String(form.get("token") ?? ""));
    if (!done)
      return data(
        {
          intent: "token",
          fieldErrors: {},
          values: {} as Record<string, string>,
          formError: "This verification link has expired or was already used. Request a new code below.",
          sent: false,
        },
        { status: 400 },
      );
    throw redirect(redirectTo, { headers: { "Set-Cookie": done.cookie } });
  }

  if (intent.data === "resend") {
    const parsed = parseForm(resendSchema, form);
    if (!parsed.ok) return data({ intent: "resend", fieldErrors: parsed.fieldErrors, values: parsed.values, formError: null, sent: false }, { status: 400 });
    const r = await resendVerification(context.app, parsed.data.email);
    if (r.kind === "throttled")
      return data({ intent: "resend", fieldErrors: {}, values: parsed.values, formError: throttledMessage(r.retryAfterS), sent: false }, { status: 429 });
    return { intent: "resend", fieldErrors: {}, values: parsed.values, formError: null, sent: true };
  }

  const parsed = parseForm(verifyCodeSchema, form);
  if (!parsed.ok) return data({ intent: "code", fieldErrors: parsed.fieldErrors, values: parsed.values, formError: null, sent: false }, { status: 400 });
  const r = await verifyEmailByCode(context.app, parsed.data.email, parsed.data.code);
  if (r.kind === "throttled")
    return data({ intent: "code", fieldErrors: {}, values: parsed.values, formError: throttledMessage(r.retryAfterS), sent: false }, { status: 429 });
  if (r.kind === "invalid")
    return data(
      {
        intent: "code",
        fieldErrors: { code: ["That code is not right, or it has expired. Check the latest email or send a new code."] },
        values: parsed.values,
        formError: null,
        sent: false,
      },
      { status: 400 },
    );
  throw redirect(redirectTo, { headers: { "Set-Cookie": r.cookie } });
}

export default function Verify() {
  const { link } = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const email = result?.values?.email ?? params.get("email") ?? "";
  const e: Record<string, string[]> = result?.fieldErrors ?? {};
  const redirectTo = params.get("redirectTo") ?? "";

  if (link === "valid" && result?.intent !== "token")
    return (
      <AuthLayout title="Confirm your email" description="One click and your account is ready.">
        <Form method="post">
          <input type="hidden" name="intent" value="token" />
          <input type="hidden" name="token" value={params.get("token") ?? ""} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Button type="submit" className="w-full" disabled={busy}>
            Confirm my email
          </Button>
        </Form>
      </AuthLayout>
    );

  return (
    <AuthLayout
      title="Check your email"
      description={
        email ? (
          <>
            If <strong>{email}</strong> needs verifying, we have sent it a link and a 6-digit code. Both work for 24 hours.
          </>
        ) : (
          "Enter your email and the 6-digit code we sent you."
        )
      }
      footer={
        <Link className="font-medium text-brand-700 underline dark:text-brand-300" to="/login">
          Back to sign in
        </Link>
      }
    >
      <div className="space-y-4">
        {params.get("unverified") === "1" && !result ? (
          <Alert tone="warning">Verify your email address before signing in. We have sent you a new code.</Alert>
        ) : null}
        {link === "invalid" || (result?.intent === "token" && result.formError) ? (
          <Alert tone="error">This verification link has expired or was already used. Request a new code below.</Alert>
        ) : null}
        {result?.formError && result.intent !== "token" ? (
          <Alert tone="error" dismissible={result}>
            {result.formError}
          </Alert>
        ) : null}
        {result?.sent ? <Alert tone="success">If that address has an account waiting for verification, a new code is on its way.</Alert> : null}
        <Form method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="code" />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={email}
            error={result?.intent === "code" ? e.email : undefined}
            required
          />
          <Field
            label="6-digit code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            defaultValue={result?.values?.code}
            error={result?.intent === "code" ? e.code : undefined}
            required
          />
          <Button type="submit" className="w-full" disabled={busy}>
            Verify email
          </Button>
        </Form>
        <Form method="post" className="border-t border-zinc-200 pt-4 dark:border-zinc-800">
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="email" value={email} />
          {result?.intent === "resend" && e.email ? <p className="mb-2 text-sm text-red-600">{e.email[0]}</p> : null}
          <Button type="submit" variant="ghost" size="sm" disabled={busy}>
            Send a new code
          </Button>
        </Form>
      </div>
    </AuthLayout>
  );
}
