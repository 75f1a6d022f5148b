import { Form } from "@remix-run/react";
import {
  Alert,
  Badge,
  IntentForm,
  IntentSubmit,
  Card,
  CardBody,
  CardHeader,
  ConfirmDialog,
  EmptyState,
  Field,
  PageHeader,
  Select,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
  ReplyBanner,
} from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import { assignableRoles, ROLE_DESCRIPTIONS, ROLE_LABELS, type Role } from "~/lib/permissions";

/** The members screen (route: app.$orgId.members). */

export type MembersScreenData = {
  org: { id: string; name: string };
  role: Role;
  meId: string;
  members: { userId: string; name: string; email: string; role: Role; joinedAt: number }[];
  invitations: { id: string; email: string; role: Role; expiresAt: number; invitedByName: string | null; expired: boolean }[];
  /** Why nobody more can be invited on this plan (names the plan that allows more), or null. */
  inviteLimit: string | null;
};

/** The action's reply; `invitationId`: the invitation just sent, so the invite form can start empty again. */
export type MembersActionData = FormReply<{ invitationId: string | null }>;

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const dateTimeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

function InviteForm({ role, result, limit }: { role: Role; result: MembersActionData | undefined; limit: string | null }) {
  const roles = assignableRoles(role);
  const mine = result?.intent === "invite";
  const sent = mine && result?.invitationId;
  const values = mine && !sent ? result?.values : undefined;
  const errors = mine ? result?.fieldErrors : undefined;
  return (
    <Form key={sent || "invite"} method="post" className="space-y-4" noValidate>
      <input type="hidden" name="intent" value="invite" />
      {limit ? (
        <Alert tone="info" id="invite-limit-note" title="The plan's member limit is reached">
          {limit}
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <Field
          label="Email address"
          name="email"
          type="email"
          autoComplete="off"
          placeholder="colleague@example.com"
          defaultValue={values?.email}
          error={errors?.email}
          disabled={!!limit}
          aria-describedby={limit ? "invite-limit-note" : undefined}
          required
        />
        <Field label="Role" name="role" id="invite-role" error={errors?.role} required>
          <Select defaultValue={values?.role ?? "editor"} disabled={!!limit} options={roles.map((r) => ({ value: r, label: ROLE_LABELS[r] }))} />
        </Field>
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm text-zinc-600 sm:grid-cols-[6rem_1fr] dark:text-zinc-400">
        {roles.map((r) => (
          <div key={r} className="contents">
            <dt className="font-medium text-zinc-900 dark:text-zinc-100">{ROLE_LABELS[r]}</dt>
            <dd>{ROLE_DESCRIPTIONS[r]}</dd>
          </div>
        ))}
      </dl>
      <div className="flex justify-end">
        <IntentSubmit intent="invite" busyLabel="Sending…" disabled={limit ? true : undefined} aria-describedby={limit ? "invite-limit-note" : undefined}>
          Send invitation
        </IntentSubmit>
      </div>
    </Form>
  );
}

export function MembersScreen({ data, result }: { data: MembersScreenData; result: MembersActionData | undefined }) {
  const { org, role, meId, members, invitations } = data;
  const roles = assignableRoles(role);
  // Invite fields show their own messages; anything else invalid (a tampered hidden field) is one status line.
  const shownAtField = (field: string) => result?.intent === "invite" && (field === "email" || field === "role");

  return (
    <div className="space-y-6">
      <PageHeader title="Members" description={`People in ${org.name} and what each of them can do.`} />

      <ReplyBanner reply={result} shownAtField={shownAtField} />

      <Card>
        <CardHeader title="Invite a teammate" description="They get an email with a link to join, valid for 72 hours." />
        <CardBody>
          <InviteForm role={role} result={result} limit={data.inviteLimit} />
        </CardBody>
      </Card>

      <Card>
        <CardHeader title={`Members (${members.length})`} />
        <CardBody className="px-0 py-0 sm:px-0">
          <Table wrapperClassName="rounded-none border-0">
            <THead>
              <tr>
                <TH>Member</TH>
                <TH>Role</TH>
                <TH>Joined</TH>
                <TH className="text-right">Actions</TH>
              </tr>
            </THead>
            <TBody>
              {members.map((m) => {
                const isMe = m.userId === meId;
                // Admins cannot touch owners; nobody edits their own row here (use Leave or Transfer).
                const editable = !isMe && (m.role !== "owner" || role === "owner");
                return (
                  <TR key={m.userId}>
                    <TD>
                      <div className="font-medium text-zinc-900 dark:text-zinc-100">
                        {m.name} {isMe ? <Badge tone="brand">You</Badge> : null}
                      </div>
                      <div className="text-xs text-zinc-600 dark:text-zinc-400">{m.email}</div>
                    </TD>
                    <TD>
                      {editable ? (
                        <Form key={`${m.userId}:${m.role}`} method="post" className="flex items-center gap-2">
                          <input type="hidden" name="intent" value="change-role" />
                          <input type="hidden" name="userId" value={m.userId} />
                          <label htmlFor={`role-${m.userId}`} className="sr-only">
                            Role of {m.name}
                          </label>
                          <Select
                            id={`role-${m.userId}`}
                            name="role"
                            defaultValue={m.role}
                            className="h-8 w-32"
                            options={roles.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
                          />
                          <IntentSubmit intent="change-role" match={{ name: "userId", value: m.userId }} busyLabel="Saving…" variant="secondary" size="sm">
                            Change<span className="sr-only"> role of {m.name}</span>
                          </IntentSubmit>
                        </Form>
                      ) : (
                        <Badge tone={m.role === "owner" ? "brand" : "neutral"}>{ROLE_LABELS[m.role]}</Badge>
                      )}
                    </TD>
                    <TD className="whitespace-nowrap">{dateFormat.format(m.joinedAt)}</TD>
                    <TD>
                      <div className="flex flex-wrap justify-end gap-2">
                        {isMe ? (
                          <ConfirmDialog
                            trigger="Leave"
                            triggerVariant="ghost"
                            triggerSize="sm"
                            title={`Leave ${org.name}?`}
                            description={
                              m.role === "owner"
                                ? "An organisation keeps at least one owner: if you are the only one, transfer ownership to another member first."
                                : `You will lose access to ${org.name} until someone invites you again.`
                            }
                          >
                            <Form method="post">
                              <input type="hidden" name="intent" value="leave-org" />
                              <IntentSubmit intent="leave-org" busyLabel="Leaving…" variant="danger" className="w-full sm:w-auto">
                                Leave organisation
                              </IntentSubmit>
                            </Form>
                          </ConfirmDialog>
                        ) : null}
                        {!isMe && role === "owner" && m.role !== "owner" ? (
                          <ConfirmDialog
                            trigger={
                              <>
                                Make owner<span className="sr-only"> ({m.name})</span>
                              </>
                            }
                            triggerVariant="ghost"
                            triggerSize="sm"
                            title={`Transfer ownership to ${m.name}?`}
                            description={`${m.name} becomes an owner of ${org.name} and you become an admin: you keep managing members and chatbots, but no longer the plan or ownership.`}
                          >
                            <IntentForm
                              intent="transfer-ownership"
                              field={{ name: "userId", value: m.userId }}
                              busyLabel="Transferring…"
                              className="w-full sm:w-auto"
                            >
                              Transfer ownership
                            </IntentForm>
                          </ConfirmDialog>
                        ) : null}
                        {editable ? (
                          <ConfirmDialog
                            trigger={
                              <>
                                Remove<span className="sr-only"> {m.name}</span>
                              </>
                            }
                            triggerVariant="ghost"
                            triggerSize="sm"
                            title={`Remove ${m.name}?`}
                            description={`${m.name} (${m.email}) loses access to ${org.name} and its chatbots at once. Their account stays, and you can invite them again later.`}
                          >
                            <IntentForm
                              intent="remove-member"
                              field={{ name: "userId", value: m.userId }}
                              busyLabel="Removing…"
                              variant="danger"
                              className="w-full sm:w-auto"
                            >
                              Remove member
                            </IntentForm>
                          </ConfirmDialog>
                        ) : null}
                      </div>
                    </TD>
                  </TR>
                );
              })}
            </TBody>
          </Table>
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          title={`Pending invitations (${invitations.length})`}
          description="Invitations not accepted yet. Resending issues a new link and restarts the 72 hours."
        />
        <CardBody className={invitations.length ? "px-0 py-0 sm:px-0" : undefined}>
          {invitations.length === 0 ? (
            <EmptyState as="h3" title="No pending invitations" description="Invite a teammate above; their invitation shows here until they accept it." />
          ) : (
            <Table wrapperClassName="rounded-none border-0">
              <THead>
                <tr>
                  <TH>Email</TH>
                  <TH>Role</TH>
                  <TH>Expires</TH>
                  <TH className="text-right">Actions</TH>
                </tr>
              </THead>
              <TBody>
                {invitations.map((i) => {
                  const manageable = roles.includes(i.role);
                  return (
                    <TR key={i.id}>
                      <TD>
                        <div className="font-medium text-zinc-900 dark:text-zinc-100">{i.email}</div>
                        {i.invitedByName ? <div className="text-xs text-zinc-600 dark:text-zinc-400">Invited by {i.invitedByName}</div> : null}
                      </TD>
                      <TD>
                        <Badge tone={i.role === "owner" ? "brand" : "neutral"}>{ROLE_LABELS[i.role]}</Badge>
                      </TD>
                      <TD className="whitespace-nowrap">
                        {i.expired ? (
                          <Badge tone="warning">Expired</Badge>
                        ) : (
                          <time dateTime={new Date(i.expiresAt).toISOString()}>{dateTimeFormat.format(i.expiresAt)} UTC</time>
                        )}
                      </TD>
                      <TD>
                        {manageable ? (
                          <div className="flex flex-wrap justify-end gap-2">
                            <IntentForm intent="resend-invite" field={{ name: "invitationId", value: i.id }} busyLabel="Sending…" variant="ghost" size="sm">
                              Resend<span className="sr-only"> invitation to {i.email}</span>
                            </IntentForm>
                            <IntentForm intent="revoke-invite" field={{ name: "invitationId", value: i.id }} busyLabel="Revoking…" variant="ghost" size="sm">
                              Revoke<span className="sr-only"> invitation to {i.email}</span>
                            </IntentForm>
                          </div>
                        ) : (
                          <p className="text-right text-xs text-zinc-500 dark:text-zinc-400">Only an owner can manage this invitation.</p>
                        )}
                      </TD>
                    </TR>
                  );
                })}
              </TBody>
            </Table>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
