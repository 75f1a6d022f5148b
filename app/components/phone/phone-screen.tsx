import { Form, Link } from "@remix-run/react";
import {
  Alert,
  Badge,
  Card,
  CardBody,
  CardHeader,
  ConfirmDialog,
  EmptyState,
  Field,
  IntentForm,
  IntentSubmit,
  PageHeader,
  ReplyBanner,
  Select,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
} from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import { CALL_LOG_SIZE, CALL_OUTCOME_LABELS, formatCallDuration, type CallLogEntry, type CallOutcome } from "~/lib/schemas/phone";

/** /app/phone (route: app.phone): a Twilio account, its numbers attached to chatbots, and the call log. */

type NumberRow = {
  sid: string;
  number: string;
  friendlyName: string;
  voiceUrl: string | null;
  attached: { id: string; chatbotId: string; chatbotName: string } | null;
  elsewhere: boolean;
};

export type PhoneScreenData = {
  orgs: { id: string; name: string }[];
  screen: {
    org: { id: string; name: string };
    allowed: boolean;
    planHint: string;
    canManage: boolean;
    account: { hint: string; name: string | null; connectedAt: number } | null;
    numbers: NumberRow[];
    numbersError: string | null;
    chatbots: { id: string; name: string }[];
    calls: CallLogEntry[];
  } | null;
};

/** A call's transcript in the log itself: a native disclosure (no JavaScript), then the inbox link. */
function CallTranscript({ call }: { call: CallLogEntry }) {
  const lines = call.transcript.length;
  return (
    <details data-call-transcript={call.id}>
      <summary className="cursor-pointer whitespace-nowrap">{`Transcript (${lines} ${lines === 1 ? "line" : "lines"})`}</summary>
      <ol className="mt-2 max-w-prose space-y-1 text-sm">
        {call.transcript.map((t, i) => (
          <li key={i} data-speaker={t.speaker}>
            <span className="font-medium">{t.speaker === "caller" ? "Caller:" : "Bot:"}</span> {t.text}
          </li>
        ))}
      </ol>
      {call.transcriptHref ? (
        <Link to={call.transcriptHref} className="mt-2 inline-block text-sm">
          Open in the inbox
        </Link>
      ) : null}
    </details>
  );
}

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

const OUTCOME_TONES: Record<CallOutcome, "success" | "brand" | "warning" | "neutral"> = {
  answered: "success",
  transferred: "brand",
  max_length: "warning",
  no_input: "neutral",
  caller_hung_up: "neutral",
};

const SHOWN_FIELDS = new Set(["accountSid", "authToken", "numberSid", "chatbotId"]);

function OrgSwitcher({ orgs, current }: { orgs: PhoneScreenData["orgs"]; current: string }) {
  if (orgs.length < 2) return null;
  return (
    <nav aria-label="Organisations" className="flex flex-wrap gap-2 text-sm">
      {orgs.map((o) => (
        <Link
          key={o.id}
          to={`/app/phone?org=${o.id}`}
          aria-current={o.id === current ? "page" : undefined}
          className="rounded-full border border-zinc-300 px-3 py-1 no-underline aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-50 aria-[current=page]:font-medium dark:border-zinc-700 dark:aria-[current=page]:bg-brand-900/30"
        >
          {o.name}
        </Link>
      ))}
    </nav>
  );
}

function ConnectForm({ orgId, reply }: { orgId: string; reply: FormReply | undefined }) {
  const mine = reply?.intent === "connect" ? reply : undefined;
  return (
    <Form method="post" className="space-y-4" noValidate autoComplete="off">
      <input type="hidden" name="intent" value="connect" />
      <input type="hidden" name="orgId" value={orgId} />
      <Field
        label="Account SID"
        name="accountSid"
        required
        defaultValue={mine?.values.accountSid ?? ""}
        error={mine?.fieldErrors.accountSid}
        placeholder="AC…"
        spellCheck={false}
        hint="Twilio Console → Account info. Starts with AC."
      />
      <Field
        label="Auth token"
        name="authToken"
        type="password"
        required
        error={mine?.fieldErrors.authToken}
        spellCheck={false}
        hint="Checked with Twilio when you save, then stored encrypted. It is never shown again."
      />
      <IntentSubmit intent="connect" busyLabel="Checking with Twilio…">
        Connect Twilio
      </IntentSubmit>
    </Form>
  );
}

function AttachForm({
  orgId,
  row,
  chatbots,
  reply,
}: {
  orgId: string;
  row: NumberRow;
  chatbots: { id: string; name: string }[];
  reply: FormReply | undefined;
}) {
  const mine = reply?.intent === "attach" && reply.values.numberSid === row.sid ? reply : undefined;
  return (
    <Form method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <input type="hidden" name="intent" value="attach" />
      <input type="hidden" name="orgId" value={orgId} />
      <input type="hidden" name="numberSid" value={row.sid} />
      <Field
        label={<span className="sr-only">Chatbot for {row.number}</span>}
        name="chatbotId"
        id={`bot-${row.sid}`}
        error={mine?.fieldErrors.chatbotId}
        className="min-w-48"
      >
        <Select defaultValue={row.attached?.chatbotId ?? ""} placeholder="Choose a chatbot" options={chatbots.map((b) => ({ value: b.id, label: b.name }))} />
      </Field>
      <IntentSubmit intent="attach" match={{ name: "numberSid", value: row.sid }} busyLabel="Saving…" variant="secondary" size="sm" className="h-10">
        {row.attached ? "Change chatbot" : "Attach"}
        <span className="sr-only"> {row.number}</span>
      </IntentSubmit>
    </Form>
  );
}

export function PhoneScreen({ data, reply }: { data: PhoneScreenData; reply: FormReply | undefined }) {
  const { orgs, screen } = data;
  if (!screen)
    return (
      <main className="mx-auto max-w-5xl px-4 py-6 md:py-8" id="main">
        <PageHeader title="Phone numbers" />
        <EmptyState title="No organisation yet" description="Phone numbers belong to an organisation." action={<Link to="/app">Create one</Link>} />
      </main>
    );
  const { org, account, canManage, allowed } = screen;
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-6 md:py-8" id="main">
      <PageHeader
        title="Phone numbers"
        description={`Callers to a Twilio number talk to one of ${org.name}'s chatbots: it listens, answers from its knowledge, and puts them through to a person when they ask.`}
      />
      <OrgSwitcher orgs={orgs} current={org.id} />
      <ReplyBanner reply={reply} shownAtField={(f) => SHOWN_FIELDS.has(f)} />

      {!allowed ? (
        <Alert tone="info" title="Not on this plan">
          {screen.planHint} <Link to={`/app/plans#org-${org.id}`}>See plans</Link>
        </Alert>
      ) : null}

      <Card aria-labelledby="twilio-account">
        <CardHeader
          title={<span id="twilio-account">Twilio account</span>}
          description={
            account ? (
              <>
                Connected: {account.name ? `${account.name} · ` : ""}
                <span className="font-mono">{account.hint}</span> since {when.format(account.connectedAt)} UTC
              </>
            ) : (
              "Connect the Twilio account that owns your phone numbers. Calls are billed by Twilio to that account."
            )
          }
          actions={
            account && canManage ? (
              <ConfirmDialog
                trigger="Disconnect"
                triggerVariant="danger"
                triggerSize="sm"
                title="Disconnect the Twilio account?"
                description="Parley clears the voice webhook of every attached number and deletes the account's credentials. Calls to those numbers are no longer answered by a chatbot; the call log stays."
              >
                <IntentForm intent="disconnect" field={{ name: "orgId", value: org.id }} busyLabel="Disconnecting…" variant="danger">
                  Disconnect
                </IntentForm>
              </ConfirmDialog>
            ) : null
          }
        />
        <CardBody>
          {!account && canManage && allowed ? <ConnectForm orgId={org.id} reply={reply} /> : null}
          {!account && !canManage ? <p className="text-sm">No Twilio account is connected. An owner, admin or editor can connect one.</p> : null}
          {!account && canManage && !allowed ? <p className="text-sm">Connecting an account needs a plan with phone numbers.</p> : null}
          {account ? (
            screen.numbersError ? (
              <Alert tone="error">{screen.numbersError}</Alert>
            ) : screen.numbers.length === 0 ? (
              <p className="text-sm">This Twilio account has no phone numbers yet. Buy one in the Twilio Console, then reload this page.</p>
            ) : (
              <Table label="Phone numbers of the Twilio account">
                <THead>
                  <TR>
                    <TH>Number</TH>
                    <TH>Answered by</TH>
                    {canManage ? <TH>Change</TH> : null}
                  </TR>
                </THead>
                <TBody>
                  {screen.numbers.map((n) => (
                    <TR key={n.sid}>
                      <TD>
                        <span className="font-medium whitespace-nowrap">{n.number}</span>
                        {n.friendlyName !== n.number ? <span className="block text-xs text-zinc-500 dark:text-zinc-400">{n.friendlyName}</span> : null}
                      </TD>
                      <TD>
                        {n.attached ? (
                          <Badge tone="success">{n.attached.chatbotName}</Badge>
                        ) : n.elsewhere ? (
                          <span className="text-sm text-zinc-600 dark:text-zinc-400">Another app (attaching replaces its voice webhook)</span>
                        ) : (
                          <span className="text-sm text-zinc-600 dark:text-zinc-400">Not attached</span>
                        )}
                      </TD>
                      {canManage ? (
                        <TD>
                          <div className="flex flex-col gap-2">
                            {allowed ? <AttachForm orgId={org.id} row={n} chatbots={screen.chatbots} reply={reply} /> : null}
                            {n.attached ? (
                              <Form method="post">
                                <input type="hidden" name="intent" value="detach" />
                                <input type="hidden" name="orgId" value={org.id} />
                                <input type="hidden" name="phoneNumberId" value={n.attached.id} />
                                <IntentSubmit
                                  intent="detach"
                                  match={{ name: "phoneNumberId", value: n.attached.id }}
                                  busyLabel="Detaching…"
                                  variant="ghost"
                                  size="sm"
                                >
                                  Detach<span className="sr-only"> {n.number}</span>
                                </IntentSubmit>
                              </Form>
                            ) : null}
                          </div>
                        </TD>
                      ) : null}
                    </TR>
                  ))}
                </TBody>
              </Table>
            )
          ) : null}
        </CardBody>
      </Card>

      <Card aria-labelledby="call-log">
        <CardHeader
          title={<span id="call-log">Call log</span>}
          description={`The latest ${CALL_LOG_SIZE} calls, each with what the caller and the bot said. Each call with something said is also a conversation (channel: phone) in its chatbot's inbox and analytics.`}
        />
        <CardBody>
          {screen.calls.length === 0 ? (
            <p className="text-sm">No calls yet.</p>
          ) : (
            <Table label="Call log">
              <THead>
                <TR>
                  <TH>When (UTC)</TH>
                  <TH>Caller</TH>
                  <TH>Number · chatbot</TH>
                  <TH>Duration</TH>
                  <TH>Outcome</TH>
                  <TH>Transcript</TH>
                </TR>
              </THead>
              <TBody>
                {screen.calls.map((c) => (
                  <TR key={c.id}>
                    <TD className="whitespace-nowrap">{when.format(c.startedAt)}</TD>
                    <TD className="whitespace-nowrap">{c.caller ?? "Unknown"}</TD>
                    <TD>
                      <span className="whitespace-nowrap">{c.number ?? "—"}</span>
                      <span className="block text-xs text-zinc-500 dark:text-zinc-400">{c.chatbotName}</span>
                    </TD>
                    <TD className="whitespace-nowrap">{c.inProgress ? "In progress" : formatCallDuration(c.durationS)}</TD>
                    <TD>{c.outcome ? <Badge tone={OUTCOME_TONES[c.outcome]}>{CALL_OUTCOME_LABELS[c.outcome]}</Badge> : "—"}</TD>
                    <TD className="min-w-48 align-top">
                      {c.transcript.length ? (
                        <CallTranscript call={c} />
                      ) : c.transcriptHref ? (
                        <Link to={c.transcriptHref}>Open in the inbox</Link>
                      ) : (
                        <span className="text-zinc-500">Nothing said</span>
                      )}
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </CardBody>
      </Card>
    </main>
  );
}
