import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { z } from "zod";
import { Badge, Button, ButtonLink, Card, CardBody, CardHeader, EmptyState, Field, PageHeader } from "~/components/ui";
import { requireUser } from "~/.server/auth/guards";
import { createOrganisation, listMyOrganisations } from "~/.server/orgs/organisations";
import { parseForm } from "~/lib/forms";
import { ROLE_LABELS } from "~/lib/permissions";
import { createOrgSchema } from "~/lib/schemas/orgs";
import { readForm } from "~/.server/http/read-form";

const actionSchema = z.discriminatedUnion("intent", [createOrgSchema]);

export const meta: MetaFunction = () => [{ title: "Your organisations · Parley" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context.app, request);
  const orgs = await listMyOrganisations(context.app, user.id);
  const showAll = new URL(request.url).searchParams.get("all") === "1";
  // The last used organisation is offered, never forced: this page stays the place to switch.
  const last = showAll ? undefined : orgs.find((o) => o.id === user.lastOrgId);
  return { userName: user.name, orgs, lastOrg: last ? { id: last.id, name: last.name } : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context.app, request);
  const parsed = parseForm(actionSchema, await readForm(request));
  if (!parsed.ok) return data({ fieldErrors: parsed.fieldErrors, values: parsed.values, intent: parsed.values.intent ?? null }, { status: 400 });
  const org = await createOrganisation(context.app, user.id, { name: parsed.data.name });
  throw redirect(`/app/${org.id}`);
}

function CreateOrgForm() {
  const result = useFormReply<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "create-org";
  const errors: Record<string, string[]> = result?.fieldErrors ?? {};
  return (
    <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
      <input type="hidden" name="intent" value="create-org" />
      <Field
        className="flex-1"
        label="Organisation name"
        name="name"
        placeholder="e.g. Acme Inc."
        maxLength={80}
        autoComplete="organization"
        defaultValue={result?.values?.name}
        error={errors.name}
        hint="Usually your company or team. You can rename it later."
        required
      />
      <Button type="submit" className="sm:mt-7" disabled={busy}>
        {busy ? "Creating…" : "Create organisation"}
      </Button>
    </Form>
  );
}

export default function Organisations() {
  const { userName, orgs, lastOrg } = useLoaderData<typeof loader>();
  const firstName = userName.split(/\s+/)[0];

  if (orgs.length === 0)
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <PageHeader title={`Welcome to Parley, ${firstName}`} />
        <EmptyState
          title="Create your first organisation"
          description="Everything in Parley lives in an organisation: its chatbots, their knowledge, conversations and leads, and the teammates you invite. Name yours to get started."
          action={
            <div className="w-full max-w-md text-left">
              <CreateOrgForm />
            </div>
          }
        />
        <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
          Invited by a colleague? Open the link in the invitation email to join their organisation.
        </p>
      </div>
    );

  return (
    <div className="mx-auto max-w-5xl space-y-8 px-4 py-10">
      <PageHeader title="Your organisations" description="Choose an organisation to work in, or create a new one." />

      {lastOrg ? (
        <div className="flex flex-col gap-3 rounded-lg border border-brand-200 bg-brand-50 px-5 py-4 sm:flex-row sm:items-center sm:justify-between dark:border-brand-800 dark:bg-brand-900/30">
          <div className="min-w-0">
            <p className="text-sm text-zinc-600 dark:text-zinc-300">Last used</p>
            <p className="truncate text-lg font-semibold">{lastOrg.name}</p>
          </div>
          <ButtonLink to={`/app/${lastOrg.id}`}>Continue to {lastOrg.name} →</ButtonLink>
        </div>
      ) : null}

      <section aria-labelledby="orgs-heading">
        <h2 id="orgs-heading" className="sr-only">
          Organisations
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {orgs.map((o) => (
            <li key={o.id}>
              <Link
                to={`/app/${o.id}`}
                className="block h-full rounded-lg border border-zinc-200 bg-white p-5 shadow-sm transition-colors hover:border-brand-400 hover:bg-brand-50/40 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-brand-600 dark:hover:bg-zinc-800"
              >
                <div className="flex items-start justify-between gap-2">
                  <h3 className="truncate font-semibold">{o.name}</h3>
                  <Badge tone={o.role === "owner" ? "brand" : "neutral"}>{ROLE_LABELS[o.role]}</Badge>
                </div>
                <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
                  {o.chatbotCount} {o.chatbotCount === 1 ? "chatbot" : "chatbots"} · {o.memberCount} {o.memberCount === 1 ? "member" : "members"}
                </p>
                <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{o.plan.charAt(0).toUpperCase() + o.plan.slice(1)} plan</p>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <Card>
        <CardHeader title="Create an organisation" description="A separate space with its own chatbots, members and plan." />
        <CardBody>
          <CreateOrgForm />
        </CardBody>
      </Card>
    </div>
  );
}
