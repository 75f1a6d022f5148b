import { Form, Link } from "@remix-run/react";
import {
  Alert,
  Badge,
  IntentForm,
  IntentSubmit,
  Button,
  ButtonLink,
  buttonClasses,
  Card,
  CardBody,
  CardHeader,
  ConfirmDialog,
  EmptyState,
  Field,
  PageHeader,
  Select,
} from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import { can, ROLE_LABELS, type Role } from "~/lib/permissions";
import { getPlan, raiseLimitHint, type PlanId } from "~/lib/plans";

/** The organisation's home: its chatbots (route: app.$orgId._index). */

export type OrgHomeScreenData = {
  org: { id: string; name: string; plan: PlanId; timeZone: string };
  role: Role;
  chatbots: { id: string; name: string; visibility: "public" | "private"; createdAt: number }[];
  /** IANA zones to choose from (only for those who may change the organisation). */
  timeZones: string[];
};

/** The action's reply; `chatbotId`: the chatbot a rename concerned (to reopen the right form). A created chatbot redirects to its home. */
export type OrgHomeActionData = FormReply<{ chatbotId: string | null }>;

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/** `blockedBy`: id of the note saying which plan allows another chatbot; the form is shown disabled. */
function CreateChatbotForm({ result, blockedBy }: { result: OrgHomeActionData | undefined; blockedBy?: string }) {
  const mine = result?.intent === "create-chatbot";
  return (
    <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
      <input type="hidden" name="intent" value="create-chatbot" />
      <Field
        className="flex-1"
        label="Chatbot name"
        name="name"
        id="new-chatbot-name"
        placeholder="e.g. Support assistant"
        maxLength={80}
        defaultValue={mine ? result?.values.name : undefined}
        error={mine ? result?.fieldErrors.name : undefined}
        disabled={!!blockedBy}
        aria-describedby={blockedBy}
        required
      />
      <IntentSubmit intent="create-chatbot" busyLabel="Creating…" className="sm:mt-7" disabled={blockedBy ? true : undefined} aria-describedby={blockedBy}>
        Create chatbot
      </IntentSubmit>
    </Form>
  );
}

function RenameChatbot({ bot, result }: { bot: { id: string; name: string }; result: OrgHomeActionData | undefined }) {
  const failed = result?.intent === "rename-chatbot" && result.chatbotId === bot.id && Object.keys(result.fieldErrors).length > 0;
  return (
    // Keyed by name: a successful rename remounts it closed; a failed one stays open with the error.
    // Open, it moves to its own full-width line at the end of the card's action bar.
    <details key={`${bot.id}:${bot.name}`} open={failed || undefined} className="group open:order-last open:basis-full">
      <summary className={buttonClasses({ variant: "ghost", size: "sm", className: "list-none [&::-webkit-details-marker]:hidden" })}>
        <span className="group-open:hidden">Rename</span>
        <span className="hidden group-open:inline">Cancel rename</span>
        <span className="sr-only"> {bot.name}</span>
      </summary>
      <Form method="post" className="mt-2 flex items-start gap-2 pb-1" noValidate>
        <input type="hidden" name="intent" value="rename-chatbot" />
        <input type="hidden" name="chatbotId" value={bot.id} />
        <Field
          className="min-w-0 flex-1"
          label={<span className="sr-only">New name for {bot.name}</span>}
          name="name"
          id={`rename-${bot.id}`}
          maxLength={80}
          defaultValue={failed ? result?.values.name : bot.name}
          error={failed ? result?.fieldErrors.name : undefined}
        />
        <IntentSubmit intent="rename-chatbot" match={{ name: "chatbotId", value: bot.id }} busyLabel="Saving…">
          Save
        </IntentSubmit>
      </Form>
    </details>
  );
}

/** The zones the server knows (sent by the loader, so server and browser render the same list), the current one kept. */
function zoneOptions(names: string[], current: string) {
  return (names.includes(current) ? names : [current, ...names]).map((z) => ({ value: z, label: z.replaceAll("_", " ") }));
}

export function OrgHomeScreen({ data, result }: { data: OrgHomeScreenData; result: OrgHomeActionData | undefined }) {
  const { org, role, chatbots } = data;
  const canCreate = can(role, "chatbot:create");
  const canEdit = can(role, "chatbot:edit");
  const canDelete = can(role, "chatbot:delete");
  const canRenameOrg = can(role, "org:rename");
  const base = `/app/${org.id}`;
  const orgFailed = result?.intent === "rename-org" && Object.keys(result.fieldErrors).length > 0;
  const zoneFailed = result?.intent === "set-time-zone" && Object.keys(result.fieldErrors).length > 0;
  const plan = getPlan(org.plan);
  // At the plan's chatbot limit "New chatbot" stays visible but disabled, naming the plan that allows more.
  const atLimit = chatbots.length >= plan.limits.chatbots;
  // Field errors show next to their field; other outcomes (and invalid hidden fields) as one status line.
  const generalError =
    result && !result.message && Object.keys(result.fieldErrors).some((k) => k !== "name" && k !== "timeZone")
      ? "Something in that form was not valid. Reload the page and try again."
      : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title={org.name}
        description={
          <>
            Your role: <Badge tone={role === "owner" ? "brand" : "neutral"}>{ROLE_LABELS[role]}</Badge>{" "}
            <span>
              · <Link to={`/app/plans#org-${org.id}`}>{`${getPlan(org.plan).name} plan`}</Link>
            </span>
          </>
        }
        actions={
          canCreate && chatbots.length > 0 ? (
            atLimit ? (
              <Button disabled aria-describedby="chatbot-limit-note">
                New chatbot
              </Button>
            ) : (
              <a className={buttonClasses({ variant: "primary" })} href="#new-chatbot">
                New chatbot
              </a>
            )
          ) : null
        }
      />

      {result?.message ? (
        <Alert tone={result.tone === "success" ? "success" : "error"} dismissible={result}>
          {result.message}
        </Alert>
      ) : null}
      {generalError ? (
        <Alert tone="error" dismissible={result}>
          {generalError}
        </Alert>
      ) : null}

      <section aria-labelledby="chatbots-heading" className="space-y-3">
        <h2 id="chatbots-heading" className="text-base font-semibold">
          Chatbots <span className="font-normal text-zinc-500 dark:text-zinc-400">({chatbots.length})</span>
        </h2>
        {chatbots.length === 0 ? (
          <EmptyState
            title="No chatbots yet"
            description={
              canCreate
                ? "A chatbot answers your visitors from the knowledge you give it. Name your first one; you can add knowledge and change its look next."
                : "Nobody has built a chatbot here yet. Editors, admins and owners can create one."
            }
            action={
              canCreate ? (
                <div className="w-full max-w-md text-left">
                  <CreateChatbotForm result={result} />
                </div>
              ) : null
            }
          />
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {chatbots.map((b) => (
              <li key={b.id}>
                <Card className="flex h-full flex-col">
                  <div className="flex-1 px-4 py-4">
                    <div className="flex items-start justify-between gap-3">
                      <h3 className="min-w-0 font-semibold [overflow-wrap:anywhere]">
                        <Link to={`${base}/${b.id}`} className="text-zinc-900 hover:underline dark:text-zinc-100">
                          {b.name}
                        </Link>
                      </h3>
                      <Badge tone={b.visibility === "public" ? "success" : "neutral"}>{b.visibility === "public" ? "Public" : "Private"}</Badge>
                    </div>
                    <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                      Created <time dateTime={new Date(b.createdAt).toISOString()}>{dateFormat.format(b.createdAt)}</time>
                    </p>
                  </div>
                  <div className="flex flex-wrap items-center gap-1 border-t border-zinc-200 px-2 py-2 dark:border-zinc-800">
                    <ButtonLink to={`${base}/${b.id}`} variant="ghost" size="sm">
                      Open<span className="sr-only"> {b.name}</span>
                    </ButtonLink>
                    {canEdit ? <RenameChatbot bot={b} result={result} /> : null}
                    {canDelete ? (
                      <ConfirmDialog
                        trigger={
                          <>
                            Delete<span className="sr-only"> {b.name}</span>
                          </>
                        }
                        triggerVariant="ghost"
                        triggerSize="sm"
                        triggerClassName="text-red-700 hover:text-red-800 dark:text-red-400"
                        title={`Delete “${b.name}”?`}
                        description={`This permanently deletes the chatbot “${b.name}” with its knowledge, conversations, leads and settings. Websites that embed it will stop showing it. This cannot be undone.`}
                      >
                        <IntentForm
                          intent="delete-chatbot"
                          field={{ name: "chatbotId", value: b.id }}
                          busyLabel="Deleting…"
                          variant="danger"
                          className="w-full sm:w-auto"
                        >
                          Delete chatbot
                        </IntentForm>
                      </ConfirmDialog>
                    ) : null}
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>

      {canCreate && chatbots.length > 0 ? (
        <Card id="new-chatbot">
          <CardHeader title="New chatbot" description="Start from scratch; you can add knowledge and change its look next." />
          <CardBody className="space-y-4">
            {atLimit ? (
              <p id="chatbot-limit-note" className="text-sm text-zinc-700 dark:text-zinc-300">
                {`This organisation has ${chatbots.length} of the ${plan.limits.chatbots} chatbot${plan.limits.chatbots === 1 ? "" : "s"} the ${plan.name} plan allows. ${raiseLimitHint(org.plan, "chatbots")} `}
                <Link to={`/app/plans#org-${org.id}`}>See plans and usage</Link>
              </p>
            ) : null}
            <CreateChatbotForm result={result} blockedBy={atLimit ? "chatbot-limit-note" : undefined} />
          </CardBody>
        </Card>
      ) : null}

      {canRenameOrg ? (
        <Card>
          <CardHeader title="Organisation" description="The name members see in the organisation switcher and in invitations, and the time zone of its days." />
          <CardBody>
            <Form key={org.name} method="post" className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
              <input type="hidden" name="intent" value="rename-org" />
              <Field
                className="flex-1"
                label="Organisation name"
                name="name"
                id="org-name"
                maxLength={80}
                autoComplete="organization"
                defaultValue={orgFailed ? result?.values.name : org.name}
                error={orgFailed ? result?.fieldErrors.name : undefined}
                required
              />
              <IntentSubmit intent="rename-org" busyLabel="Saving…" variant="secondary" className="sm:mt-7">
                Rename
              </IntentSubmit>
            </Form>
            <Form key={org.timeZone} method="post" className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-start" noValidate id="time-zone">
              <input type="hidden" name="intent" value="set-time-zone" />
              <Field
                className="flex-1"
                label="Time zone"
                name="timeZone"
                id="org-time-zone"
                hint="Analytics count days from midnight to midnight here. Days already counted stay as they were."
                error={zoneFailed ? result?.fieldErrors.timeZone : undefined}
              >
                <Select defaultValue={zoneFailed ? result?.values.timeZone : org.timeZone} options={zoneOptions(data.timeZones, org.timeZone)} />
              </Field>
              <IntentSubmit intent="set-time-zone" busyLabel="Saving…" variant="secondary" className="sm:mt-7">
                Save time zone
              </IntentSubmit>
            </Form>
          </CardBody>
        </Card>
      ) : null}

      <Card>
        <CardHeader
          title="Leave organisation"
          description={
            role === "owner"
              ? `You lose access to ${org.name} and its chatbots. An organisation keeps at least one owner: if you are the only one, transfer ownership on the Members page first.`
              : `You lose access to ${org.name} and its chatbots. An admin or owner can invite you again.`
          }
          actions={
            <ConfirmDialog
              trigger="Leave organisation"
              triggerVariant="secondary"
              title={`Leave ${org.name}?`}
              description={`You will lose access to ${org.name} and its chatbots until someone invites you again.`}
            >
              <Form method="post">
                <input type="hidden" name="intent" value="leave-org" />
                <IntentSubmit intent="leave-org" busyLabel="Leaving…" variant="danger" className="w-full sm:w-auto">
                  Leave
                </IntentSubmit>
              </Form>
            </ConfirmDialog>
          }
        />
      </Card>
    </div>
  );
}
