import { Form, Link, useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alert, Badge, Button, Card, CardBody, CardHeader, CheckboxField, Field, IntentSubmit, Select, Textarea } from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import { WAIT_MINUTES_MAX, WAIT_MINUTES_MIN, WEEKDAYS, describeOfficeHours, type LiveSettings } from "~/lib/live/office-hours";
import type { LiveAgent } from "~/lib/live/protocol";
import { NOTE_MAX } from "~/lib/schemas/live-agent";

/**
 * The agent's tools around a live conversation (ADR 027): what the plan needs when live chat is not
 * on it, the visitor's details, internal notes, a transfer to another agent, the knowledge's answer
 * as a draft, and the chatbot's office hours. Notes and drafts go through the chatbot home's action;
 * a transfer is a frame on the conversation's socket (like "take over").
 */

export type LiveAgentData = {
  enabled: boolean;
  planHint: string | null;
  agents: LiveAgent[];
  notes: { id: string; authorName: string; body: string; createdAt: number }[];
  settings: LiveSettings;
  timeZone: string;
  canEditSettings: boolean;
};

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** Below the Growth plan: the inbox says what live chat needs instead of connecting. */
export function LivePlanNotice({ hint }: { hint: string }) {
  return (
    <Card id="inbox" aria-label="Live inbox">
      <CardHeader title="Live inbox" description="Take conversations over from the bot and reply in the visitor's chat, in real time." />
      <CardBody className="space-y-2">
        <p className="text-sm">{hint}</p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Until then, visitors who ask for a person are offered the lead form, and the team is told (Settings → Notifications: “Human requested”).
        </p>
        <Link to="/app/plans" className="text-sm font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
          See plans
        </Link>
      </CardBody>
    </Card>
  );
}

/** Who the visitor is, as far as the conversation knows. */
export function VisitorDetails(props: {
  visitorId: string;
  channel: string;
  country: string | null;
  pageUrl: string | null;
  verified: boolean;
  lead: { name: string | null; email: string | null; phone: string | null } | null;
}) {
  const row = (term: string, value: React.ReactNode) => (
    <div className="flex flex-col sm:flex-row sm:gap-2">
      <dt className="text-zinc-600 sm:w-36 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 [overflow-wrap:anywhere]">{value}</dd>
    </div>
  );
  return (
    <section aria-labelledby="visitor-details" className="space-y-2">
      <h3 id="visitor-details" className="text-sm font-semibold">
        Visitor
      </h3>
      <dl className="space-y-1 text-sm">
        {row("Visitor id", <span className="font-mono">{props.visitorId}</span>)}
        {row(
          "Page",
          props.pageUrl ? (
            <a href={props.pageUrl} target="_blank" rel="noopener noreferrer nofollow" className="text-brand-700 underline dark:text-brand-400">
              {props.pageUrl}
            </a>
          ) : (
            "Not known"
          ),
        )}
        {row("Country", props.country ?? "Not known")}
        {row("Identity", props.verified ? <Badge tone="success">Verified by your site</Badge> : "Not verified (anonymous visitor id)")}
        {row(
          "Lead",
          props.lead
            ? [props.lead.name, props.lead.email, props.lead.phone].filter(Boolean).join(" · ") || "Left details without a name or email"
            : "No contact details left",
        )}
      </dl>
    </section>
  );
}

/** Internal notes: stored for the team, never sent to the visitor. */
export function AgentNotes({ action, conversationId, notes }: { action: string; conversationId: string; notes: LiveAgentData["notes"] }) {
  const fetcher = useFetcher<FormReply>();
  const reply = fetcher.data?.intent === "add-note" ? fetcher.data : null;
  const [body, setBody] = useState("");
  useEffect(() => {
    if (fetcher.state === "idle" && reply?.tone === "success") setBody("");
  }, [fetcher.state, reply]);
  return (
    <section aria-labelledby="notes-title" className="space-y-2">
      <h3 id="notes-title" className="text-sm font-semibold">
        Internal notes <span className="font-normal text-zinc-600 dark:text-zinc-400">· only your team sees them</span>
      </h3>
      {notes.length ? (
        <ol className="space-y-2" aria-label="Notes">
          {notes.map((n) => (
            <li key={n.id} className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-700 dark:bg-amber-950">
              <p className="text-xs text-zinc-700 dark:text-zinc-300">
                {n.authorName} · {dateTime.format(n.createdAt)} UTC
              </p>
              <p className="whitespace-pre-line [overflow-wrap:anywhere]">{n.body}</p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No notes yet.</p>
      )}
      <fetcher.Form method="post" action={action} className="space-y-2">
        <input type="hidden" name="intent" value="add-note" />
        <input type="hidden" name="conversationId" value={conversationId} />
        <Field label="Add a note" name="body" id="note-body" error={reply?.fieldErrors?.body} hint="The visitor never sees notes.">
          <Textarea rows={2} maxLength={NOTE_MAX} value={body} onChange={(e) => setBody(e.target.value)} data-shortcut-target="note" />
        </Field>
        <Button type="submit" size="sm" variant="secondary" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? "Adding…" : "Add note"}
        </Button>
      </fetcher.Form>
    </section>
  );
}

/** Hand the conversation to another agent of the organisation. */
export function TransferControl(props: {
  agents: LiveAgent[];
  me: LiveAgent;
  holderId: string | null;
  disabled: boolean;
  onTransfer: (agentId: string) => void;
}) {
  const options = props.agents.filter((a) => a.id !== props.me.id && a.id !== props.holderId);
  const [to, setTo] = useState("");
  if (!options.length) return null;
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (to) props.onTransfer(to);
      }}
    >
      <div className="min-w-48 flex-1 space-y-1.5">
        <label htmlFor="transfer-to" className="block text-sm font-medium">
          Transfer to
        </label>
        <Select
          id="transfer-to"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          placeholder="Choose an agent"
          options={options.map((a) => ({ value: a.id, label: a.name }))}
        />
      </div>
      <Button type="submit" size="sm" variant="secondary" disabled={props.disabled || !to}>
        Transfer
      </Button>
    </form>
  );
}

/** "Suggest a reply": the knowledge's answer to the visitor's last question, put in the composer to edit. */
export function SuggestReply({ action, conversationId, onDraft }: { action: string; conversationId: string; onDraft: (draft: string) => void }) {
  const fetcher = useFetcher<FormReply>();
  const reply = fetcher.data?.intent === "suggest-reply" ? fetcher.data : null;
  const [used, setUsed] = useState<unknown>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && reply && reply !== used) {
      setUsed(reply);
      if (reply.values?.draft) onDraft(reply.values.draft);
    }
  }, [fetcher.state, reply, used, onDraft]);
  return (
    <div className="space-y-2">
      <fetcher.Form method="post" action={action}>
        <input type="hidden" name="intent" value="suggest-reply" />
        <input type="hidden" name="conversationId" value={conversationId} />
        <Button type="submit" size="sm" variant="ghost" disabled={fetcher.state !== "idle"} data-shortcut="suggest">
          {fetcher.state !== "idle" ? "Looking in the knowledge…" : "Suggest a reply"}
        </Button>
      </fetcher.Form>
      {reply?.message ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" role="status">
          {reply.message}
        </p>
      ) : null}
    </div>
  );
}

/** The chatbot's office hours and wait: what visitors who ask for a person are promised. */
export function OfficeHoursSettings({ live, result }: { live: LiveAgentData; result?: FormReply | null }) {
  const mine = result?.intent === "save-live-settings" ? result : null;
  const s = live.settings;
  const values = mine?.tone === "error" ? mine.values : null;
  const summary = s.officeHoursOn ? describeOfficeHours(s, live.timeZone) : "Any time an agent is online";
  return (
    <details className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800" open={!!mine}>
      <summary className="cursor-pointer font-medium">
        Office hours and wait: <span className="font-normal">{summary}</span> · {s.waitMinutes} min wait
      </summary>
      <div className="mt-3 space-y-3">
        <p className="text-zinc-600 dark:text-zinc-400">
          A visitor who asks for a person outside these hours, or when no agent is online, is told so at once and offered the lead form. Otherwise they wait; if
          nobody takes the conversation within the wait, they are offered the lead form then.
        </p>
        {mine?.message ? (
          <Alert tone={mine.tone === "success" ? "success" : "error"} dismissible={mine}>
            {mine.message}
          </Alert>
        ) : null}
        {live.canEditSettings ? (
          <Form method="post" className="space-y-3" preventScrollReset>
            <input type="hidden" name="intent" value="save-live-settings" />
            <CheckboxField
              name="officeHoursOn"
              label="Use office hours"
              hint={`Times are in your organisation's time zone (${live.timeZone}).`}
              defaultChecked={values ? values.officeHoursOn === "on" : s.officeHoursOn}
            />
            <fieldset className="space-y-1.5" aria-describedby={mine?.fieldErrors?.days ? "days-error" : undefined}>
              <legend className="text-sm font-medium">Days</legend>
              <div className="flex flex-wrap gap-3">
                {WEEKDAYS.map((d) => (
                  <label key={d.n} className="inline-flex items-center gap-1.5">
                    <input type="checkbox" name="day" value={d.n} defaultChecked={s.days.includes(d.n)} className="size-4 accent-brand-600" />
                    <span>
                      <span aria-hidden="true">{d.short}</span>
                      <span className="sr-only">{d.label}</span>
                    </span>
                  </label>
                ))}
              </div>
              {mine?.fieldErrors?.days ? (
                <p id="days-error" className="text-sm text-red-600 dark:text-red-400">
                  {mine.fieldErrors.days.join(" ")}
                </p>
              ) : null}
            </fieldset>
            <div className="grid gap-3 sm:grid-cols-3">
              <Field label="From" name="from" type="time" defaultValue={values?.from ?? s.from} error={mine?.fieldErrors?.from} required />
              <Field label="To" name="to" type="time" defaultValue={values?.to ?? s.to} error={mine?.fieldErrors?.to} required />
              <Field
                label="Wait (minutes)"
                name="waitMinutes"
                type="number"
                min={WAIT_MINUTES_MIN}
                max={WAIT_MINUTES_MAX}
                defaultValue={values?.waitMinutes ?? String(s.waitMinutes)}
                error={mine?.fieldErrors?.waitMinutes}
                required
              />
            </div>
            <IntentSubmit intent="save-live-settings" busyLabel="Saving…" size="sm">
              Save office hours
            </IntentSubmit>
          </Form>
        ) : (
          <p className="text-zinc-600 dark:text-zinc-400">An editor, admin or owner can change them.</p>
        )}
      </div>
    </details>
  );
}
