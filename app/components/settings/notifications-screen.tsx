import { Form, Link, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import {
  Alert,
  Badge,
  Card,
  CardBody,
  CardHeader,
  CheckboxField,
  ConfirmDialog,
  CopyField,
  EmptyState,
  Field,
  IntentForm,
  IntentSubmit,
  PageHeader,
  Select,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
  type BadgeTone,
} from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import {
  DESTINATION_KIND_LABELS,
  DESTINATION_KINDS,
  eventFieldName,
  NOTIFICATION_EVENT_HINTS,
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_EVENT_TYPES,
  type DeliveryEventType,
  type DestinationFormKind,
  type NotificationEventType,
} from "~/lib/notifications";

/** The notifications screen (route: app.$orgId.$chatbotId.settings.notifications). */

type Destination = {
  id: string;
  kind: "email" | "webhook" | "slack";
  label: string;
  memberName: string | null;
  events: NotificationEventType[];
  state: "active" | "unconfirmed" | "paused";
  pausedAt: number | null;
  pauseReason: string | null;
  failingSince: number | null;
  previousSecretUntil: number | null;
  createdAt: number;
};

type Delivery = {
  id: string;
  destinationId: string;
  eventId: string;
  eventType: string;
  status: "pending" | "retrying" | "delivered" | "failed" | "skipped";
  attempts: number;
  responseCode: number | null;
  durationMs: number | null;
  error: string | null;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  createdAt: number;
  attemptLog: { number: number; ok: boolean; responseCode: number | null; durationMs: number; error: string | null; at: number }[];
};

export type NotificationsScreenData = {
  chatbot: { id: string; name: string };
  destinations: Destination[];
  deliveries: Delivery[];
  members: { userId: string; name: string; email: string }[];
  canUseWebhooks: boolean;
  webhooksHint: string;
  localUrlsAllowed: boolean;
};

/** `secret`: a webhook signing secret just created or rotated, shown once. */
export type NotificationsActionData = FormReply<{ secret?: { label: string; value: string; rotated: boolean } }>;

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
const when = (ms: number) => `${dateTime.format(ms)} UTC`;
const DEFAULT_EVENTS: NotificationEventType[] = ["lead.created", "handoff.requested", "bug_report.created"];

const STATUS: Record<Delivery["status"], { label: string; tone: BadgeTone }> = {
  pending: { label: "Sending", tone: "brand" },
  retrying: { label: "Retrying", tone: "warning" },
  delivered: { label: "Delivered", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  skipped: { label: "Not sent (paused)", tone: "neutral" },
};

const KIND_LABEL: Record<Destination["kind"], string> = { email: "Email", webhook: "Webhook", slack: "Slack" };

function eventLabel(type: string) {
  return NOTIFICATION_EVENT_LABELS[type as DeliveryEventType] ?? type;
}

/** The event checkboxes; `compact` (a destination's own form): labels only, side by side. */
function EventCheckboxes({
  idPrefix,
  checked,
  disabled,
  error,
  compact,
}: {
  idPrefix: string;
  checked: (t: NotificationEventType) => boolean;
  disabled?: boolean;
  error?: string[];
  compact?: boolean;
}) {
  return (
    <fieldset aria-describedby={error?.length ? `${idPrefix}-events-error` : undefined}>
      <legend className="mb-3 text-sm font-medium text-zinc-900 dark:text-zinc-100">Events</legend>
      <div className={compact ? "grid gap-x-6 gap-y-2 sm:grid-cols-2 lg:grid-cols-3" : "space-y-3"}>
        {NOTIFICATION_EVENT_TYPES.map((t) => (
          <CheckboxField
            key={t}
            id={`${idPrefix}-${t.replace(/\W/g, "-")}`}
            name={eventFieldName(t)}
            label={NOTIFICATION_EVENT_LABELS[t]}
            hint={compact ? undefined : NOTIFICATION_EVENT_HINTS[t]}
            defaultChecked={checked(t)}
            disabled={disabled}
          />
        ))}
      </div>
      {error?.length ? (
        <p id={`${idPrefix}-events-error`} className="mt-2 text-sm text-red-600 dark:text-red-400">
          {error[0]}
        </p>
      ) : null}
    </fieldset>
  );
}

function DestinationItem({ d, result, canUseWebhooks }: { d: Destination; result: NotificationsActionData | undefined; canUseWebhooks: boolean }) {
  const mine = result?.values.destinationId === d.id;
  const eventsError = mine && result?.intent === "update-events" ? result.fieldErrors[`events-${d.id}`] : undefined;
  const gated = d.kind !== "email" && !canUseWebhooks;
  return (
    <li className="space-y-4 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="neutral">{KIND_LABEL[d.kind]}</Badge>
        <h3 className="min-w-0 font-medium break-all text-zinc-900 dark:text-zinc-100">{d.label}</h3>
        {d.memberName ? <span className="text-sm text-zinc-600 dark:text-zinc-400">({d.memberName})</span> : null}
        {d.state === "active" ? (
          <Badge tone="success">Active</Badge>
        ) : d.state === "paused" ? (
          <Badge tone="danger">Paused</Badge>
        ) : (
          <Badge tone="warning">Awaiting confirmation</Badge>
        )}
        {gated ? <Badge tone="neutral">Not sent on your plan</Badge> : null}
      </div>
      {d.state === "unconfirmed" ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          We emailed a confirmation link to this address. Nothing is sent to it until the link is opened (it expires after 72 hours).
        </p>
      ) : null}
      {d.kind === "webhook" ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Signed with the secret shown when it was created (header <code>Parley-Signature</code>).
          {d.previousSecretUntil ? ` The previous secret also signs until ${when(d.previousSecretUntil)}.` : ""}
        </p>
      ) : null}
      {d.failingSince && d.state !== "paused" ? (
        <p className="text-sm text-amber-800 dark:text-amber-200">Failing since {when(d.failingSince)}: after 24 hours of failures it is paused.</p>
      ) : null}

      <Form method="post" noValidate className="space-y-3" aria-label={`Events for ${d.label}`}>
        <input type="hidden" name="intent" value="update-events" />
        <input type="hidden" name="destinationId" value={d.id} />
        <EventCheckboxes
          idPrefix={`ev-${d.id}`}
          checked={(t) => (mine && result?.intent === "update-events" && result.tone === "error" ? !!result.values[eventFieldName(t)] : d.events.includes(t))}
          error={eventsError}
          compact
        />
        <IntentSubmit intent="update-events" match={{ name: "destinationId", value: d.id }} busyLabel="Saving…" variant="secondary" size="sm">
          Save events<span className="sr-only">{` for ${d.label}`}</span>
        </IntentSubmit>
      </Form>

      <div className="flex flex-wrap gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800">
        {d.state === "active" ? (
          <IntentForm
            intent="test"
            field={{ name: "destinationId", value: d.id }}
            busyLabel="Queuing…"
            variant="secondary"
            size="sm"
            disabled={gated || undefined}
          >
            Send test event<span className="sr-only">{` to ${d.label}`}</span>
          </IntentForm>
        ) : null}
        {d.state === "unconfirmed" ? (
          <IntentForm intent="resend-confirmation" field={{ name: "destinationId", value: d.id }} busyLabel="Sending…" variant="secondary" size="sm">
            Send the link again
          </IntentForm>
        ) : null}
        {d.kind === "webhook" ? (
          <ConfirmDialog
            trigger={
              <span>
                Rotate secret<span className="sr-only">{` of ${d.label}`}</span>
              </span>
            }
            triggerSize="sm"
            title="Rotate the signing secret?"
            description="You get a new secret, shown once. For 24 hours every delivery is signed with both the old and the new secret, so you can update your server without missing events; then only the new one signs."
          >
            <IntentForm intent="rotate-secret" field={{ name: "destinationId", value: d.id }} busyLabel="Rotating…" className="w-full sm:w-auto">
              Rotate secret
            </IntentForm>
          </ConfirmDialog>
        ) : null}
        <ConfirmDialog
          trigger={
            <span>
              Remove<span className="sr-only">{` ${d.label}`}</span>
            </span>
          }
          triggerSize="sm"
          title={`Remove ${d.label}?`}
          description="It stops receiving notifications and its delivery log is deleted."
        >
          <IntentForm intent="remove" field={{ name: "destinationId", value: d.id }} busyLabel="Removing…" variant="danger" className="w-full sm:w-auto">
            Remove destination
          </IntentForm>
        </ConfirmDialog>
      </div>
    </li>
  );
}

function AddDestination({ data, result }: { data: NotificationsScreenData; result: NotificationsActionData | undefined }) {
  const failed = result?.intent === "add" && result.tone === "error" ? result : undefined;
  const initialKind = (DESTINATION_KINDS as readonly string[]).includes(failed?.values.kind ?? "") ? (failed!.values.kind as DestinationFormKind) : "member";
  const [kind, setKind] = useState<DestinationFormKind>(initialKind);
  const errors = failed?.fieldErrors ?? {};
  const gatedKind = (k: DestinationFormKind) => (k === "webhook" || k === "slack") && !data.canUseWebhooks;
  return (
    <Card>
      <CardHeader title="Add a destination" description="Email a member or another address, post signed JSON to your server, or post to a Slack channel." />
      <CardBody>
        {data.canUseWebhooks ? null : (
          // Shown disabled rather than hidden: the plan that includes them is named here.
          <Alert tone="info" title="Webhooks and Slack are not part of your plan" id="webhooks-plan-note" className="mb-5">
            {data.webhooksHint}
          </Alert>
        )}
        <Form
          method="post"
          noValidate
          aria-label="Add a destination"
          className="space-y-5"
          key={result?.intent === "add" && result.tone === "success" ? (result.message ?? "added") : "add"}
        >
          <input type="hidden" name="intent" value="add" />
          <Field label="Send to" name="kind" error={errors.kind}>
            <Select
              value={kind}
              onChange={(e) => setKind(e.currentTarget.value as DestinationFormKind)}
              options={DESTINATION_KINDS.map((k) => ({
                value: k,
                label: gatedKind(k) ? `${DESTINATION_KIND_LABELS[k]} (Starter plan and above)` : DESTINATION_KIND_LABELS[k],
                disabled: gatedKind(k),
              }))}
              aria-describedby={data.canUseWebhooks ? undefined : "webhooks-plan-note"}
            />
          </Field>
          {kind === "member" ? (
            <Field label="Member" name="userId" error={errors.userId} hint="Members' addresses need no confirmation.">
              <Select
                defaultValue={failed?.values.userId ?? ""}
                placeholder="Choose a member"
                options={data.members.map((m) => ({ value: m.userId, label: `${m.name} (${m.email})` }))}
              />
            </Field>
          ) : kind === "email" ? (
            <Field
              label="Email address"
              name="email"
              type="email"
              autoComplete="off"
              maxLength={254}
              placeholder="ops@example.com"
              defaultValue={failed?.values.email ?? ""}
              error={errors.email}
              hint="We send a confirmation link first; nothing else goes there until it is opened."
            />
          ) : (
            <Field
              label={kind === "slack" ? "Slack incoming-webhook URL" : "Endpoint URL"}
              name="url"
              inputMode="url"
              spellCheck={false}
              maxLength={2000}
              placeholder={kind === "slack" ? "https://hooks.slack.com/services/…" : "https://example.com/parley/webhook"}
              defaultValue={failed?.values.url ?? ""}
              error={errors.url}
              hint={
                kind === "slack" ? (
                  "In Slack: Apps → Incoming Webhooks → Add to a channel, then copy the URL. It is stored encrypted and shown masked."
                ) : (
                  <>
                    Parley POSTs JSON signed with a secret you see once, after adding.{" "}
                    {data.localUrlsAllowed ? "In development, local addresses such as http://localhost:3000 are accepted. " : ""}
                    <Link to="/docs/api/webhooks">How to verify the signature</Link>.
                  </>
                )
              }
              disabled={gatedKind(kind)}
            />
          )}
          <EventCheckboxes idPrefix="add" checked={(t) => (failed ? !!failed.values[eventFieldName(t)] : DEFAULT_EVENTS.includes(t))} error={errors.events} />
          <IntentSubmit intent="add" busyLabel="Adding…" disabled={gatedKind(kind) || undefined}>
            Add destination
          </IntentSubmit>
        </Form>
      </CardBody>
    </Card>
  );
}

function DeliveryLog({ deliveries, destinations }: { deliveries: Delivery[]; destinations: Destination[] }) {
  const labelOf = (id: string) => destinations.find((d) => d.id === id)?.label ?? "Removed destination";
  if (!deliveries.length)
    return (
      <EmptyState title="No deliveries yet" description="Each notification sent appears here with its attempts. Use “Send test event” to try a destination." />
    );
  return (
    <Table label="Delivery log">
      <caption className="sr-only">Delivery log, newest first</caption>
      <THead>
        <tr>
          <TH>Created</TH>
          <TH>Event</TH>
          <TH>Destination</TH>
          <TH>Status</TH>
          <TH>Attempts</TH>
          <TH>
            <span className="sr-only">Actions</span>
          </TH>
        </tr>
      </THead>
      <TBody>
        {deliveries.map((x) => (
          <TR key={x.id}>
            <TD className="whitespace-nowrap">{when(x.createdAt)}</TD>
            <TD className="whitespace-nowrap">{eventLabel(x.eventType)}</TD>
            <TD className="max-w-64 min-w-44 break-all">{labelOf(x.destinationId)}</TD>
            <TD>
              <Badge tone={STATUS[x.status].tone}>{STATUS[x.status].label}</Badge>
              {x.status === "retrying" && x.nextAttemptAt ? (
                <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">Next try {when(x.nextAttemptAt)}</p>
              ) : null}
              {x.error && x.status !== "delivered" ? <p className="mt-1 max-w-64 text-xs break-words text-zinc-600 dark:text-zinc-400">{x.error}</p> : null}
            </TD>
            <TD className="min-w-48">
              {x.attemptLog.length ? (
                <details>
                  <summary className="cursor-pointer">
                    {x.attempts} {x.attempts === 1 ? "attempt" : "attempts"}
                    {x.responseCode ? `, last ${x.responseCode}` : ""}
                    {x.durationMs !== null ? `, ${x.durationMs} ms` : ""}
                  </summary>
                  <ol className="mt-2 space-y-1 text-xs" aria-label={`Attempts of ${eventLabel(x.eventType)} to ${labelOf(x.destinationId)}`}>
                    {x.attemptLog.map((a) => (
                      <li key={a.number}>
                        #{a.number} · {when(a.at)} · {a.ok ? "OK" : "Failed"}
                        {a.responseCode ? ` · HTTP ${a.responseCode}` : ""} · {a.durationMs} ms{a.error ? ` · ${a.error}` : ""}
                      </li>
                    ))}
                  </ol>
                </details>
              ) : (
                <span className="text-zinc-600 dark:text-zinc-400">None yet</span>
              )}
            </TD>
            <TD className="text-right">
              {x.status === "delivered" || x.status === "failed" || x.status === "skipped" ? (
                <IntentForm intent="resend" field={{ name: "deliveryId", value: x.id }} busyLabel="Queuing…" variant="secondary" size="sm">
                  Re-send<span className="sr-only">{` ${eventLabel(x.eventType)} to ${labelOf(x.destinationId)}`}</span>
                </IntentForm>
              ) : null}
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

export function NotificationsScreen({ data, result }: { data: NotificationsScreenData; result: NotificationsActionData | undefined }) {
  const { chatbot, destinations, deliveries } = data;
  const revalidator = useRevalidator();
  const sending = deliveries.some((d) => d.status === "pending" || (d.status === "retrying" && (d.nextAttemptAt ?? 0) - Date.now() < 60_000));
  const paused = destinations.filter((d) => d.state === "paused");

  // The log follows deliveries in flight (a retry due within a minute included).
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, 2000);
    return () => clearInterval(timer);
  }, [sending, revalidator]);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Notifications"
        description={
          <>
            Tell your team when something happens on {chatbot.name}: by email, signed webhook or Slack.{" "}
            <Link to="/docs/api/webhooks" className="font-medium underline">
              Events and payloads
            </Link>
          </>
        }
      />
      {result?.message && !result.secret ? (
        <Alert tone={result.tone === "success" ? "success" : "error"} dismissible={result}>
          {result.message}
        </Alert>
      ) : null}
      {result?.secret ? (
        <Alert tone="warning" title={`Copy the signing secret of ${result.secret.label} now`}>
          <p className="mb-3">
            {result.secret.rotated ? `${result.message} ` : ""}This is the only time the secret is shown. Parley keeps it encrypted to sign deliveries but
            cannot show it again; if you lose it, rotate it.
          </p>
          <CopyField label="Signing secret" value={result.secret.value} />
        </Alert>
      ) : null}
      {paused.map((d) => (
        <Alert key={d.id} tone="warning" title={`Deliveries to ${d.label} are paused`}>
          <p>
            Every attempt failed for 24 hours, so Parley stopped sending there on {d.pausedAt ? when(d.pausedAt) : "—"}
            {d.pauseReason ? ` (last error: ${d.pauseReason})` : ""}. Events meanwhile are kept in the log as not sent. Fix the receiver, then resume it.
          </p>
          <div className="mt-3">
            <IntentForm intent="resume" field={{ name: "destinationId", value: d.id }} busyLabel="Resuming…" size="sm">
              Resume<span className="sr-only">{` ${d.label}`}</span>
            </IntentForm>
          </div>
        </Alert>
      ))}

      <Card>
        <CardHeader title="Destinations" description="Where this chatbot's events go, and which events each one receives." />
        <CardBody>
          {destinations.length ? (
            <ul className="space-y-4">
              {destinations.map((d) => (
                <DestinationItem key={d.id} d={d} result={result} canUseWebhooks={data.canUseWebhooks} />
              ))}
            </ul>
          ) : (
            <EmptyState title="No destinations yet" description="Add one below: nobody is notified until you do." />
          )}
        </CardBody>
      </Card>

      <AddDestination data={data} result={result} />

      <Card>
        <CardHeader
          title="Delivery log"
          description="The 50 newest deliveries with every attempt. Failed attempts are retried with growing delays for about 24 hours; kept 30 days."
        />
        <CardBody>
          <DeliveryLog deliveries={deliveries} destinations={destinations} />
        </CardBody>
      </Card>
    </div>
  );
}
