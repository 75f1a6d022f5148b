import { Form, Link } from "@remix-run/react";
import {
  Alert,
  Badge,
  Button,
  ButtonLink,
  Card,
  ConfirmDialog,
  CardBody,
  CardHeader,
  EmptyState,
  Field,
  PageHeader,
  Pager,
  Select,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
  Textarea,
} from "~/components/ui";
import { leadContactRows } from "~/components/conversations/transcript-parts";
import type { FormReply } from "~/lib/forms";
import { LEAD_NOTES_MAX, LEAD_SEARCH_MAX, LEAD_STATUS_LABELS, LEAD_STATUSES, leadListSearch, type LeadCursor, type LeadStatus } from "~/lib/schemas/leads";

/** The leads of one chatbot: filters in the URL, a table, and one lead's detail (route: app.$orgId.$chatbotId.leads). */

export type LeadView = {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  custom: Record<string, string>;
  status: LeadStatus;
  notes: string | null;
  source: string;
  createdAt: number;
};

export type LeadsScreenData = {
  orgId: string;
  chatbot: { id: string; name: string };
  list: {
    q: string;
    status: LeadStatus | null;
    from: string | null;
    to: string | null;
    /** The typed values of the filter form (shown even when invalid). */
    typed: { q: string; from: string; to: string };
    errors: Partial<Record<"q" | "from" | "to", string>>;
    rows: LeadView[];
    older: LeadCursor | null;
    /** The position this page starts after (null on the first page). */
    at: LeadCursor | null;
  };
  detail: {
    lead: LeadView;
    conversations: { id: string; createdAt: number; lastMessageAt: number; messageCount: number; channel: string }[];
    events: { id: string; actorLabel: string; kind: string; fromValue: string | null; toValue: string | null; createdAt: number }[];
  } | null;
};

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const format = (ms: number) => `${dateTime.format(ms)} UTC`;

const STATUS_TONES: Record<LeadStatus, "neutral" | "brand" | "success" | "warning" | "danger"> = {
  new: "brand",
  contacted: "neutral",
  qualified: "warning",
  won: "success",
  lost: "danger",
};

const SOURCE_LABELS: Record<string, string> = {
  widget: "Widget",
  bot: "Widget, asked by the bot",
  api: "REST API",
  test: "Test page",
  "test-bot": "Test page, asked by the bot",
};

function StatusBadge({ status }: { status: LeadStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{LEAD_STATUS_LABELS[status]}</Badge>;
}

function describeEvent(e: LeadsScreenData["detail"] extends infer D ? (D extends { events: (infer E)[] } ? E : never) : never): string {
  const status = (v: string | null) => (v && v in LEAD_STATUS_LABELS ? LEAD_STATUS_LABELS[v as LeadStatus] : (v ?? "—"));
  switch (e.kind) {
    case "created":
      return `Lead captured (${SOURCE_LABELS[e.toValue ?? ""] ?? e.toValue ?? "unknown"})`;
    case "updated":
      return `Came back with new details: ${e.toValue ?? "contact details"}`;
    case "conversation":
      return "Left details again in another conversation";
    case "status":
      return `Status ${status(e.fromValue)} → ${status(e.toValue)}`;
    case "notes":
      return e.toValue ? (e.fromValue ? "Notes changed" : "Notes added") : "Notes cleared";
    default:
      return e.kind;
  }
}

function FilterForm({ list, base }: { list: LeadsScreenData["list"]; base: string }) {
  return (
    <Form method="get" action={base} role="search" aria-label="Leads" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto] lg:items-start">
      <Field
        label="Search"
        name="q"
        type="search"
        defaultValue={list.typed.q}
        maxLength={LEAD_SEARCH_MAX + 50}
        error={list.errors.q}
        hint="Name, email, phone or notes"
      />
      <Field label="Status" name="status" id="filter-status">
        <Select
          defaultValue={list.status ?? ""}
          options={[{ value: "", label: "Any status" }, ...LEAD_STATUSES.map((s) => ({ value: s, label: LEAD_STATUS_LABELS[s] }))]}
        />
      </Field>
      <Field label="From (UTC)" name="from" type="date" defaultValue={list.typed.from} error={list.errors.from} />
      <Field label="To (UTC)" name="to" type="date" defaultValue={list.typed.to} error={list.errors.to} />
      <div className="flex gap-2 lg:pt-6">
        <Button type="submit">Filter</Button>
        {list.q || list.status || list.from || list.to ? (
          <ButtonLink to={base} variant="ghost">
            Clear
          </ButtonLink>
        ) : null}
      </div>
    </Form>
  );
}

function LeadDetail({
  detail,
  closeHref,
  homeHref,
  result,
}: {
  detail: NonNullable<LeadsScreenData["detail"]>;
  closeHref: string;
  homeHref: string;
  result?: FormReply | null;
}) {
  const { lead } = detail;
  const mine = result && result.values?.leadId === lead.id ? result : null;
  const contact = leadContactRows(lead);
  return (
    <Card id="lead" aria-labelledby="lead-title">
      <CardHeader
        title={<span id="lead-title">{lead.name ?? lead.email ?? lead.phone ?? "Lead without contact details"}</span>}
        description={
          <>
            Captured {format(lead.createdAt)} · {SOURCE_LABELS[lead.source] ?? lead.source} · <StatusBadge status={lead.status} />
          </>
        }
        actions={
          <ButtonLink to={closeHref} variant="ghost" size="sm">
            Close lead
          </ButtonLink>
        }
      />
      <CardBody className="space-y-6">
        {mine?.message ? (
          <Alert tone={mine.tone ?? "info"} dismissible={mine}>
            {mine.message}
          </Alert>
        ) : null}
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
          {contact.map(([k, v], i) => (
            <div key={i} className="contents">
              <dt className="font-medium text-zinc-600 dark:text-zinc-400">{k}</dt>
              <dd className="break-words text-zinc-900 dark:text-zinc-100">{v}</dd>
            </div>
          ))}
        </dl>

        <Form method="post" className="space-y-4" aria-label="Work this lead">
          <input type="hidden" name="leadId" value={lead.id} />
          <Field label="Status" name="status" id="lead-status" error={mine?.fieldErrors.status}>
            <Select
              key={`${lead.id}-${lead.status}`}
              defaultValue={mine?.values.status ?? lead.status}
              options={LEAD_STATUSES.map((s) => ({ value: s, label: LEAD_STATUS_LABELS[s] }))}
            />
          </Field>
          <Field label="Notes" name="notes" id="lead-notes" error={mine?.fieldErrors.notes} hint="Only your team sees these.">
            <Textarea key={`${lead.id}-${lead.notes}`} defaultValue={mine?.values.notes ?? lead.notes ?? ""} maxLength={LEAD_NOTES_MAX} rows={4} />
          </Field>
          <Button type="submit" name="intent" value="save-lead">
            Save lead
          </Button>
        </Form>

        <ConfirmDialog
          trigger="Delete lead"
          triggerVariant="danger"
          triggerSize="sm"
          title="Delete this lead?"
          description="Its name, email, phone, other fields, notes and history are deleted, and its contact details are removed from its conversations in the conversation list. What the visitor typed in the chat itself stays in the transcript. This cannot be undone."
        >
          <Form method="post" action={closeHref}>
            <input type="hidden" name="leadId" value={lead.id} />
            <Button type="submit" name="intent" value="delete-lead" variant="danger">
              Delete lead
            </Button>
          </Form>
        </ConfirmDialog>

        <section aria-labelledby="lead-conversations">
          <h3 id="lead-conversations" className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
            Conversations
          </h3>
          {detail.conversations.length ? (
            <ul className="mt-2 space-y-1 text-sm">
              {detail.conversations.map((c) => (
                <li key={c.id}>
                  <Link to={`${homeHref}?c=${encodeURIComponent(c.id)}#transcript`} className="text-brand-700 underline dark:text-brand-300">
                    Conversation of {format(c.createdAt)}
                  </Link>{" "}
                  <span className="text-zinc-600 dark:text-zinc-400">
                    · {c.messageCount} {c.messageCount === 1 ? "message" : "messages"}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
              {lead.source === "api" ? "Sent through the REST API, without a conversation." : "Left before the first message: no conversation yet."}
            </p>
          )}
        </section>

        <section aria-labelledby="lead-history">
          <h3 id="lead-history" className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
            History
          </h3>
          <ol className="mt-2 space-y-2 text-sm">
            {detail.events.map((e) => (
              <li key={e.id} className="text-zinc-700 dark:text-zinc-300">
                <span className="font-medium text-zinc-900 dark:text-zinc-100">{describeEvent(e)}</span>
                <span className="block text-zinc-600 dark:text-zinc-400">
                  {e.actorLabel} · <time dateTime={new Date(e.createdAt).toISOString()}>{format(e.createdAt)}</time>
                </span>
              </li>
            ))}
          </ol>
        </section>
      </CardBody>
    </Card>
  );
}

export function LeadsScreen({ data, result }: { data: LeadsScreenData; result?: FormReply | null }) {
  const { list } = data;
  const base = `/app/${data.orgId}/${data.chatbot.id}/leads`;
  const homeHref = `/app/${data.orgId}/${data.chatbot.id}`;
  const state = { q: list.q, status: list.status, from: list.from, to: list.to };
  const filtered = !!(list.q || list.status || list.from || list.to);
  const banner = result && !data.detail ? result : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Leads"
        description={`Contact details visitors left with ${data.chatbot.name}, one lead per email address.`}
        actions={
          list.rows.length ? (
            // Every lead of the current filter, not only this page.
            <ButtonLink to={`${base}.csv${leadListSearch(state)}`} reloadDocument variant="secondary">
              Export CSV
            </ButtonLink>
          ) : null
        }
      />
      {banner?.message ? (
        <Alert tone={banner.tone ?? "info"} dismissible={banner}>
          {banner.message}
        </Alert>
      ) : null}
      <FilterForm key={`${list.typed.q}\n${list.status}\n${list.typed.from}\n${list.typed.to}`} list={list} base={base} />
      {data.detail ? (
        <LeadDetail detail={data.detail} closeHref={base + leadListSearch({ ...state, older: list.at })} homeHref={homeHref} result={result} />
      ) : null}
      {list.rows.length === 0 ? (
        <EmptyState
          title={filtered ? "No lead matches" : "No leads yet"}
          description={
            filtered
              ? "Change the search or the filters, or clear them."
              : "When a visitor fills in the widget's contact form, or your server sends one through the REST API, the lead appears here."
          }
        />
      ) : (
        <Table label="Leads (scrolls sideways)">
          <THead>
            <tr>
              <TH>Name</TH>
              <TH>Status</TH>
              <TH>Email</TH>
              <TH>Phone</TH>
              <TH>Captured</TH>
            </tr>
          </THead>
          <TBody>
            {list.rows.map((l) => (
              <TR key={l.id} aria-current={data.detail?.lead.id === l.id ? "true" : undefined}>
                <TD className="whitespace-nowrap">
                  <Link
                    to={`${base}${leadListSearch({ ...state, older: list.at }, l.id)}#lead`}
                    className="font-medium text-brand-700 underline dark:text-brand-300"
                  >
                    {l.name ?? l.email ?? l.phone ?? "No name"}
                  </Link>
                </TD>
                <TD>
                  <StatusBadge status={l.status} />
                </TD>
                <TD className="whitespace-nowrap">{l.email ?? "—"}</TD>
                <TD className="whitespace-nowrap">{l.phone ?? "—"}</TD>
                <TD className="whitespace-nowrap">{format(l.createdAt)}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
      <Pager
        noun="leads"
        newestHref={list.at ? base + leadListSearch(state) : null}
        olderHref={list.older ? base + leadListSearch({ ...state, older: list.older }) : null}
      />
    </div>
  );
}
