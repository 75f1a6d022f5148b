import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { AuthLayout } from "~/components/auth/auth-layout";
import { Alert, Button, ButtonLink, Field } from "~/components/ui";
import { findUserByEmail } from "~/.server/auth/accounts";
import { requireUser } from "~/.server/auth/guards";
import { acceptInvitation, acceptInvitationAsNewUser, findInvitationByToken } from "~/.server/orgs/invitations";
import { parseForm, type FieldErrors } from "~/lib/forms";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, type Role } from "~/lib/permissions";
import { acceptInviteSchema, joinWithNewAccountSchema } from "~/lib/schemas/orgs";
import { readForm } from "~/.server/http/read-form";

// No discriminated union here: the two forms never appear together (which one shows depends on
// whether a session exists), and the new-account schema carries a refinement.

type Invitation = { orgName: string; role: Role; email: string; invitedByName: string | null };
type LoaderData =
  { state: "invalid" } | ({ state: "accept" | "login" | "signup" } & Invitation) | ({ state: "wrong-account"; signedInAs: string } & Invitation);

type ActionData = { intent: string | null; formError: string | null; fieldErrors: FieldErrors; values: Record<string, string> };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: !data || data.state === "invalid" ? "Invitation no longer valid · Parley" : `Join ${data.orgName} · Parley` },
  { name: "robots", content: "noindex" },
];

export async function loader({ context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const inv = await findInvitationByToken(ctx, params.token ?? "");
  if (!inv) return data<LoaderData>({ state: "invalid" }, { status: 404 });
  const invitation: Invitation = { orgName: inv.orgName, role: inv.role, email: inv.email, invitedByName: inv.invitedByName };
  const auth = await ctx.getAuth();
  if (auth) {
    if (auth.user.email.toLowerCase() === inv.email.toLowerCase()) return data<LoaderData>({ state: "accept", ...invitation });
    return data<LoaderData>({ state: "wrong-account", signedInAs: auth.user.email, ...invitation });
  }
  // The link went to this inbox, so telling its holder whether the address has an account reveals nothing new.
  const existing = await findUserByEmail(ctx, inv.email);
  return data<LoaderData>({ state: existing ? "login" : "signup", ...invitation });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const token = params.token ?? "";
  const form = await readForm(request);
  const intent = form.get("intent");
  const reply = (status: number, d: Partial<ActionData>) =>
    data<ActionData>({ intent: typeof intent === "string" ? intent : null, formError: null, fieldErrors: {}, values: {}, ...d }, { status });

  if (intent === "accept") {
    const parsed = parseForm(acceptInviteSchema, form);
    if (!parsed.ok) return reply(400, { formError: "Reload the page and try again." });
    const user = await requireUser(ctx, request);
    const r = await acceptInvitation(ctx, token, user);
    if (!r.ok) return reply(r.reason === "invalid" ? 404 : r.reason === "full" ? 409 : 403, { formError: r.message });
    throw redirect(`/app/${r.orgId}`);
  }

  if (intent === "create-account") {
    if (await ctx.getAuth()) return reply(400, { formError: "You are signed in already. Sign out first to create a new account for this invitation." });
    const parsed = parseForm(joinWithNewAccountSchema, form);
    if (!parsed.ok) return reply(400, { fieldErrors: parsed.fieldErrors, values: parsed.values });
    const r = await acceptInvitationAsNewUser(ctx, token, { name: parsed.data.name, password: parsed.data.password });
    if (r.ok) throw redirect(`/app/${r.orgId}`, { headers: { "Set-Cookie": r.cookie } });
    if (r.reason === "weak-password") return reply(400, { fieldErrors: { password: [r.message] }, values: parsed.values });
    return reply(r.reason === "invalid" ? 404 : r.reason === "full" ? 409 : 400, { formError: r.message, values: parsed.values });
  }

  return reply(400, { formError: "Reload the page and try again." });
}

function Invalid() {
  return (
    <AuthLayout
      title="This invitation is no longer valid"
      description="Invitation links work once and expire after 72 hours, and an admin may have revoked this one. Ask the person who invited you to send a new invitation."
    >
      <div className="flex flex-wrap gap-3">
        <ButtonLink to="/app">Go to your dashboard</ButtonLink>
        <ButtonLink to="/" variant="secondary">
          Parley home
        </ButtonLink>
      </div>
    </AuthLayout>
  );
}

export default function AcceptInvitation() {
  const loaderData = useLoaderData<typeof loader>() as LoaderData;
  const result = useFormReply<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  if (loaderData.state === "invalid") return <Invalid />;

  const inv = loaderData;
  const description = (
    <>
      {inv.invitedByName ? `${inv.invitedByName} invited you` : "You are invited"} to join <strong>{inv.orgName}</strong> on Parley as{" "}
      <strong>{ROLE_LABELS[inv.role]}</strong>. {ROLE_DESCRIPTIONS[inv.role]}
    </>
  );
  const errors = result?.fieldErrors ?? {};
  const values = result?.values ?? {};

  return (
    <AuthLayout title={`Join ${inv.orgName}`} description={description}>
      <div className="space-y-4">
        {result?.formError ? (
          <Alert tone="error" dismissible={result}>
            {result.formError}
          </Alert>
        ) : null}

        {inv.state === "accept" ? (
          <Form method="post" className="space-y-4">
            <input type="hidden" name="intent" value="accept" />
            <p className="text-sm text-zinc-600 dark:text-zinc-300">
              You are signed in as <strong className="text-zinc-900 dark:text-zinc-100">{inv.email}</strong>.
            </p>
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? "Joining…" : "Accept invitation"}
            </Button>
          </Form>
        ) : null}

        {inv.state === "wrong-account" ? (
          <>
            <Alert tone="warning" title="This invitation is for another email address">
              It was sent to <strong>{inv.email}</strong>, but you are signed in as <strong>{inv.signedInAs}</strong>. Sign out, then open the invitation link
              again and sign in (or create an account) with {inv.email}.
            </Alert>
            <div className="flex flex-wrap gap-3">
              <Form method="post" action="/logout">
                <SignOutReturnField />
                <Button type="submit" disabled={busy}>
                  Sign out
                </Button>
              </Form>
              <ButtonLink to="/app" variant="secondary">
                Go to your dashboard
              </ButtonLink>
            </div>
          </>
        ) : null}

        {inv.state === "login" ? (
          <>
            <p className="text-sm text-zinc-600 dark:text-zinc-300">
              There is already a Parley account for <strong className="text-zinc-900 dark:text-zinc-100">{inv.email}</strong>. Sign in with it to accept the
              invitation.
            </p>
            <InviteLoginLink />
          </>
        ) : null}

        {inv.state === "signup" ? (
          <Form method="post" className="space-y-4" noValidate>
            <input type="hidden" name="intent" value="create-account" />
            <p className="text-sm text-zinc-600 dark:text-zinc-300">Create your Parley account to join.</p>
            <Field
              label="Email"
              name="email-display"
              id="invite-email"
              type="email"
              value={inv.email}
              readOnly
              disabled
              hint="The invitation was sent to this address."
            />
            <Field label="Your name" name="name" autoComplete="name" defaultValue={values.name} error={errors.name} maxLength={100} required />
            <Field
              label="Password"
              name="password"
              type="password"
              autoComplete="new-password"
              error={errors.password}
              hint="At least 8 characters. Avoid common passwords."
              minLength={8}
              maxLength={128}
              required
            />
            <Field label="Repeat password" name="confirm" type="password" autoComplete="new-password" error={errors.confirm} maxLength={128} required />
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? "Creating your account…" : "Create account and join"}
            </Button>
          </Form>
        ) : null}
      </div>
    </AuthLayout>
  );
}

/** Sign-in link that brings the user back to this invitation afterwards. */
function InviteLoginLink() {
  const { pathname } = useLocation();
  return (
    <ButtonLink to={`/login?redirectTo=${encodeURIComponent(pathname)}`} className="w-full">
      Sign in to accept
    </ButtonLink>
  );
}

/** Where /logout may send the user back to (here), so they can sign in with the invited address. */
function SignOutReturnField() {
  const { pathname } = useLocation();
  return <input type="hidden" name="redirectTo" value={`/login?redirectTo=${encodeURIComponent(pathname)}`} />;
}
