import { Form, Link } from "@remix-run/react";
import {
  Alert,
  Badge,
  Button,
  ButtonLink,
  Card,
  CardBody,
  EmptyState,
  Field,
  IntentSubmit,
  PageHeader,
  Pager,
  Select,
  Textarea,
  type BadgeTone,
} from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import {
  BUG_ANSWER_MAX,
  BUG_QUESTION_MAX,
  BUG_REPORT_SOURCE_LABELS,
  BUG_REPORT_SOURCES,
  BUG_REPORT_STATUS_LABELS,
  BUG_REPORT_STATUSES,
  bugReportListSearch,
  type BugReportCursor,
  type BugReportSource,
  type BugReportRow,
  type BugReportStatus,
} from "~/lib/schemas/bug-reports";

/** Bug reports of one chatbot and their fix (route: app.$orgId.$chatbotId.settings.bug). */

export type BugReportView = BugReportRow;

export type BugReportsScreenData = {
  orgId: string;
  chatbot: { id: string; name: string };
  openCount: number;
  list: {
    status: BugReportStatus | null;
    source: BugReportSource | null;
    from: string | null;
    to: string | null;
    typed: { from: string; to: string };
    errors: Partial<Record<"from" | "to", string>>;
    rows: BugReportView[];
    older: BugReportCursor | null;
    at: BugReportCursor | null;
  };
};

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const format = (ms: number) => `${dateTime.format(ms)} UTC`;
const STATUS_TONES: Record<BugReportStatus, BadgeTone> = { open: "warning", fixed: "success", dismissed: "neutral" };
const SOURCE_STATUS: Record<string, string> = { queued: "waiting to be indexed", processing: "being indexed", ready: "in use", failed: "indexing failed" };

function FilterForm({ list, base }: { list: BugReportsScreenData["list"]; base: string }) {
  const filtered = list.status !== "open" || list.source || list.from || list.to;
  return (
    <Form
      method="get"
      action={base}
      role="search"
      aria-label="Bug reports"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_1fr_auto] lg:items-start"
    >
      <Field label="Status" name="status" id="filter-status">
        <Select
          defaultValue={list.status ?? "all"}
          options={[...BUG_REPORT_STATUSES.map((s) => ({ value: s, label: BUG_REPORT_STATUS_LABELS[s] })), { value: "all", label: "Any status" }]}
        />
      </Field>
      <Field label="Reported by" name="source" id="filter-source">
        <Select
          defaultValue={list.source ?? ""}
          options={[{ value: "", label: "Anyone" }, ...BUG_REPORT_SOURCES.map((s) => ({ value: s, label: BUG_REPORT_SOURCE_LABELS[s] }))]}
        />
      </Field>
      <Field label="From (UTC)" name="from" type="date" defaultValue={list.typed.from} error={list.errors.from} />
      <Field label="To (UTC)" name="to" type="date" defaultValue={list.typed.to} error={list.errors.to} />
      <div className="flex gap-2 lg:pt-6">
        <Button type="submit">Filter</Button>
        {filtered ? (
          <ButtonLink to={base} variant="ghost">
            Clear
          </ButtonLink>
        ) : null}
      </div>
    </Form>
  );
}

function Quote({ label, children }: { label: string; children: string }) {
  return (
    <div>
      <p className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{label}</p>
      <p className="mt-1 whitespace-pre-line rounded-md bg-zinc-50 px-3 py-2 text-sm text-zinc-900 [overflow-wrap:anywhere] dark:bg-zinc-800 dark:text-zinc-100">
        {children}
      </p>
    </div>
  );
}

function ReportCard({ r, homeHref, kbHref, result }: { r: BugReportView; homeHref: string; kbHref: string; result?: FormReply | null }) {
  const mine = result && result.values?.reportId === r.id ? result : null;
  const fixing = mine?.intent === "fix" && mine.tone === "error";
  const transcriptHref = r.conversationId
    ? `${homeHref}?c=${encodeURIComponent(r.conversationId)}${r.messageId ? `#msg-${encodeURIComponent(r.messageId)}` : "#transcript"}`
    : null;
  const by = r.source === "member" ? `${r.reporterName ?? "A former member"} (team)` : "A visitor";
  return (
    <li id={`report-${r.id}`} className="scroll-mt-20">
      <Card aria-labelledby={`report-${r.id}-title`}>
        <CardBody className="space-y-4">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Badge tone={STATUS_TONES[r.status]}>{BUG_REPORT_STATUS_LABELS[r.status]}</Badge>
            <h3 id={`report-${r.id}-title`} className="font-semibold text-zinc-900 dark:text-zinc-100">
              {by} reported an answer
            </h3>
            <span className="text-zinc-600 dark:text-zinc-400">
              <time dateTime={new Date(r.createdAt).toISOString()}>{format(r.createdAt)}</time>
            </span>
            {r.feedback === -1 ? <Badge tone="danger">Rated not helpful</Badge> : null}
          </div>
          {mine?.message ? (
            <Alert tone={mine.tone ?? "info"} dismissible={mine}>
              {mine.message}
            </Alert>
          ) : null}
          <Quote label="What was wrong">{r.comment}</Quote>
          <div className="grid gap-3 md:grid-cols-2">
            {r.question ? <Quote label="Question">{r.question}</Quote> : null}
            {r.answer ? (
              <Quote label="The bot's answer">{r.answer}</Quote>
            ) : (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                {r.messageId || r.conversationId ? "The reported message is no longer in the conversation." : "Reported without naming an answer."}
              </p>
            )}
          </div>
          {r.expectedAnswer ? <Quote label="Expected answer">{r.expectedAnswer}</Quote> : null}
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
            {transcriptHref ? (
              <Link to={transcriptHref} className="font-medium text-brand-700 underline dark:text-brand-300">
                Open the conversation at this answer
              </Link>
            ) : null}
            {r.status !== "open" && r.resolvedAt ? (
              <span className="text-zinc-600 dark:text-zinc-400">
                {`${BUG_REPORT_STATUS_LABELS[r.status]} ${r.resolverName ? `by ${r.resolverName} ` : ""}on ${format(r.resolvedAt)}`}
              </span>
            ) : null}
            {r.fixSourceId ? (
              <span className="text-zinc-700 dark:text-zinc-300">
                Correction:{" "}
                <Link to={kbHref} className="font-medium text-brand-700 underline dark:text-brand-300">
                  {r.fixSourceTitle ?? "Q&A source"}
                </Link>{" "}
                ({SOURCE_STATUS[r.fixSourceStatus ?? ""] ?? r.fixSourceStatus ?? "removed"})
              </span>
            ) : r.status === "fixed" ? (
              <span className="text-zinc-600 dark:text-zinc-400">Marked fixed without a correction here.</span>
            ) : null}
          </div>
          {r.status !== "fixed" ? (
            <details open={fixing || undefined} className="rounded-lg border border-zinc-200 dark:border-zinc-700">
              <summary className="cursor-pointer px-4 py-2 text-sm font-medium text-zinc-900 dark:text-zinc-100">Fix with the correct answer</summary>
              <Form
                method="post"
                noValidate
                className="space-y-4 border-t border-zinc-200 px-4 py-4 dark:border-zinc-700"
                aria-label="Fix with the correct answer"
              >
                <input type="hidden" name="reportId" value={r.id} />
                <p className="text-sm text-zinc-600 dark:text-zinc-400">
                  Adds this question and answer to the knowledge as a Q&amp;A source. When someone asks the same question, in these or other words, the bot
                  gives this answer instead of one pieced together from other sources.
                </p>
                <Field label="Question" name="question" id={`fix-question-${r.id}`} required error={fixing ? mine?.fieldErrors.question : undefined}>
                  <Textarea rows={2} maxLength={BUG_QUESTION_MAX} defaultValue={(fixing ? mine?.values.question : undefined) ?? r.question ?? ""} />
                </Field>
                <Field label="Correct answer" name="answer" id={`fix-answer-${r.id}`} required error={fixing ? mine?.fieldErrors.answer : undefined}>
                  <Textarea rows={5} maxLength={BUG_ANSWER_MAX} defaultValue={(fixing ? mine?.values.answer : undefined) ?? r.expectedAnswer ?? ""} />
                </Field>
                <IntentSubmit intent="fix" name="intent" value="fix" match={{ name: "reportId", value: r.id }} busyLabel="Fixing…">
                  Add to knowledge and mark fixed
                </IntentSubmit>
              </Form>
            </details>
          ) : null}
          <Form method="post" className="flex flex-wrap items-end gap-2" aria-label="Change the status">
            <input type="hidden" name="reportId" value={r.id} />
            <Field label="Status" name="status" id={`status-${r.id}`} className="w-44">
              <Select
                key={`${r.id}-${r.status}`}
                defaultValue={r.status}
                options={BUG_REPORT_STATUSES.map((s) => ({ value: s, label: BUG_REPORT_STATUS_LABELS[s] }))}
              />
            </Field>
            <IntentSubmit
              intent="set-status"
              name="intent"
              value="set-status"
              match={{ name: "reportId", value: r.id }}
              busyLabel="Saving…"
              variant="secondary"
            >
              Save status
            </IntentSubmit>
          </Form>
        </CardBody>
      </Card>
    </li>
  );
}

export function BugReportsScreen({ data, result }: { data: BugReportsScreenData; result?: FormReply | null }) {
  const { list } = data;
  const homeHref = `/app/${data.orgId}/${data.chatbot.id}`;
  const base = `${homeHref}/settings/bug`;
  const state = { status: list.status, source: list.source, from: list.from, to: list.to };
  const filtered = list.status !== "open" || !!(list.source || list.from || list.to);
  // A reply about a report not on this page (or a bad form) shows above the list.
  const banner = result && !list.rows.some((r) => r.id === result.values?.reportId) ? result : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Bug reports"
        description={
          <>
            Answers of {data.chatbot.name} that visitors flagged with “Report a problem” in the chat, or that your team reported from a conversation. Fix one
            with the correct answer: the bot gives it the next time the question is asked, in the same or other words.{" "}
            {data.openCount ? <Badge tone="warning">{`${data.openCount} open`}</Badge> : null}
          </>
        }
      />
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Where reports are sent: new bug reports go to the destinations chosen for “Bug report” in{" "}
        <Link to={`${homeHref}/settings/notifications`} className="font-medium text-brand-700 underline dark:text-brand-300">
          Notifications
        </Link>
        . Members can report any answer from a conversation’s transcript on the{" "}
        <Link to={homeHref} className="font-medium text-brand-700 underline dark:text-brand-300">
          conversations
        </Link>{" "}
        screen.
      </p>
      {banner?.message ? (
        <Alert tone={banner.tone ?? "info"} dismissible={banner}>
          {banner.message}
        </Alert>
      ) : null}
      <FilterForm key={`${list.status}\n${list.source}\n${list.typed.from}\n${list.typed.to}`} list={list} base={base} />
      {list.rows.length === 0 ? (
        <EmptyState
          title={filtered ? "No report matches" : "No open reports"}
          description={
            filtered
              ? "Change the filters, or clear them."
              : "When a visitor uses “Report a problem” under an answer, or a member reports an answer from a transcript, it appears here."
          }
        />
      ) : (
        <ol className="space-y-4" aria-label="Reports, newest first">
          {list.rows.map((r) => (
            <ReportCard key={r.id} r={r} homeHref={homeHref} kbHref={`${homeHref}/kb`} result={result} />
          ))}
        </ol>
      )}
      <Pager
        noun="reports"
        newestHref={list.at ? base + bugReportListSearch(state) : null}
        olderHref={list.older ? base + bugReportListSearch({ ...state, older: list.older }) : null}
      />
    </div>
  );
}
