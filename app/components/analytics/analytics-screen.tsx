import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Alert, Button, ButtonLink, Card, CardBody, CardHeader, EmptyState, Field, IntentSubmit, PageHeader, Textarea } from "~/components/ui";
import { dayLabel, formatDuration } from "~/lib/analytics-format";
import { cn } from "~/lib/cn";
import { countryName } from "~/lib/country";
import type { FormReply } from "~/lib/forms";
import { ANSWER_MAX, QUESTION_MAX, RANGE_MAX_DAYS, RANGE_PRESETS, type AnalyticsRange } from "~/lib/schemas/analytics";
import { AnalyticsChart, type ChartView } from "./chart";

/** A chatbot's analytics for a range of days (route: app.$orgId.$chatbotId.analytics). */

type Totals = {
  conversations: number;
  messages: number;
  visitors: number;
  questions: number;
  unanswered: number;
  unresolved: number;
  resolved: number;
  resolutionRate: number | null;
  leads: number;
  handoffs: number;
  reports: number;
  thumbsUp: number;
  thumbsDown: number;
  medianMs: number | null;
  p95Ms: number | null;
  answerSamples: number;
};
type Group = { key: string; text: string; asked: number; unanswered: number; keys: string[] };

export type AnalyticsScreenData = {
  orgId: string;
  chatbot: { id: string; name: string };
  timeZone: string;
  today: string;
  canAnswer: boolean;
  canSetTimeZone: boolean;
  query: { range: AnalyticsRange; errors: Partial<Record<"from" | "to", string>>; typed: { from: string; to: string } };
  report: { totals: Totals; channels: { key: string; count: number }[]; countries: { key: string; count: number }[] };
  charts: ChartView[];
  questions: { top: Group[]; unanswered: Group[] };
};

const CHANNEL_LABELS: Record<string, string> = {
  widget: "Website widget",
  test: "Test page",
  api: "REST API",
  voice: "Voice",
  phone: "Phone",
  playground: "Playground",
};

const count = (n: number) => n.toLocaleString("en-GB");
const percent = (x: number) => `${Math.round(x * 1000) / 10} %`;
function RangePicker({ data, base }: { data: AnalyticsScreenData; base: string }) {
  const { range, errors, typed } = data.query;
  const failed = Object.keys(errors).length > 0;
  return (
    <Card>
      <CardBody className="space-y-4">
        <nav aria-label="Date range presets" className="flex flex-wrap gap-2">
          {RANGE_PRESETS.map((d) => (
            <ButtonLink
              key={d}
              to={`${base}?days=${d}`}
              variant={range.preset === d && !failed ? "primary" : "secondary"}
              size="sm"
              aria-current={range.preset === d && !failed ? "page" : undefined}
            >
              Last {d} days
            </ButtonLink>
          ))}
        </nav>
        <Form method="get" action={base} aria-label="Custom date range" className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
          <Field label="From" name="from" type="date" max={data.today} defaultValue={failed ? typed.from : range.from} error={errors.from} required />
          <Field label="To" name="to" type="date" max={data.today} defaultValue={failed ? typed.to : range.to} error={errors.to} required />
          <Button type="submit" variant="secondary" className="sm:mt-7">
            Show range
          </Button>
        </Form>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {failed ? "That range was not shown; below are the last 30 days. " : null}
          Days run midnight to midnight in <strong>{data.timeZone}</strong>
          {data.canSetTimeZone ? (
            <>
              {" "}
              (<Link to={`/app/${data.orgId}#time-zone`}>change the organisation&rsquo;s time zone</Link>)
            </>
          ) : null}
          . A custom range covers at most {RANGE_MAX_DAYS} days.
        </p>
      </CardBody>
    </Card>
  );
}

function Figure({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900">
      <dt className="text-sm text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-zinc-900 dark:text-zinc-100">{value}</dd>
      {note ? <dd className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{note}</dd> : null}
    </div>
  );
}

function Figures({ totals }: { totals: Totals }) {
  const rated = totals.thumbsUp + totals.thumbsDown;
  return (
    <section aria-labelledby="figures-heading" className="space-y-3">
      <h2 id="figures-heading" className="sr-only">
        Figures of the range
      </h2>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
        <Figure label="Conversations" value={count(totals.conversations)} note="Started in the range" />
        <Figure label="Messages" value={count(totals.messages)} note="From visitors, and replies" />
        <Figure label="Unique visitors" value={count(totals.visitors)} note="Each counted once over the range" />
        <Figure label="Leads" value={count(totals.leads)} note="New contacts captured" />
        <Figure label="Human handoffs" value={count(totals.handoffs)} note="Visitors who asked for a person" />
        <Figure
          label="Resolution rate"
          value={totals.resolutionRate === null ? "—" : percent(totals.resolutionRate)}
          note={totals.resolutionRate === null ? "No conversations in the range" : `${count(totals.resolved)} of ${count(totals.conversations)} conversations`}
        />
        <Figure label="Thumbs up" value={count(totals.thumbsUp)} note={rated ? `${percent(totals.thumbsUp / rated)} of rated replies` : "No rated replies"} />
        <Figure
          label="Thumbs down"
          value={count(totals.thumbsDown)}
          note={rated ? `${percent(totals.thumbsDown / rated)} of rated replies` : "No rated replies"}
        />
        <Figure
          label="Median answer time"
          value={totals.medianMs === null ? "—" : formatDuration(totals.medianMs)}
          note={totals.answerSamples ? `Over ${count(totals.answerSamples)} replies` : "No replies in the range"}
        />
        <Figure
          label="95th percentile answer time"
          value={totals.p95Ms === null ? "—" : formatDuration(totals.p95Ms)}
          note={totals.answerSamples ? "95 % of replies were this fast or faster" : "No replies in the range"}
        />
      </dl>
      <div className="rounded-lg border border-zinc-200 bg-zinc-50 px-4 py-3 text-sm text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900/50 dark:text-zinc-300">
        <p>
          <strong>Resolution rate</strong>: the share of conversations started in the range that ended without a fallback reply (the bot had no answer, hit the
          reply limit or failed), a thumbs-down, a problem report or a request for a person. A conversation that still goes on can still become unresolved.
        </p>
        <p className="mt-2">
          <strong>Answer time</strong>: from the visitor&rsquo;s message to the bot&rsquo;s complete reply, read from per-day histograms (within about 7 % of
          the exact value). <strong>Unanswered</strong>: the bot used its fallback or found no knowledge relevant enough.
        </p>
      </div>
    </section>
  );
}

function SplitTable({ title, rows, label, empty }: { title: string; rows: { key: string; count: number }[]; label: (key: string) => string; empty: string }) {
  const total = rows.reduce((s, r) => s + r.count, 0);
  return (
    <Card>
      <CardHeader title={title} as="h3" description="Conversations started in the range" />
      <CardBody>
        {total === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{empty}</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="sr-only">
              <tr>
                <th scope="col">{title.replace(/^By /, "")}</th>
                <th scope="col">Conversations</th>
                <th scope="col">Share</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800">
                  <th scope="row" className="py-2 pr-3 text-left font-normal">
                    <span className="block">{label(r.key)}</span>
                    <span aria-hidden className="mt-1 block h-1.5 rounded bg-brand-500/70" style={{ width: `${Math.max(2, (r.count / total) * 100)}%` }} />
                  </th>
                  <td className="py-2 pr-3 text-right tabular-nums">{count(r.count)}</td>
                  <td className="py-2 text-right tabular-nums text-zinc-600 dark:text-zinc-400">{percent(r.count / total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardBody>
    </Card>
  );
}

function TopQuestions({ groups }: { groups: Group[] }) {
  return (
    <Card>
      <CardHeader title="Top questions" description="Visitor questions of the range, similar ones grouped; small talk left out." />
      <CardBody>
        {groups.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No questions in this range.</p>
        ) : (
          <ol className="space-y-2 text-sm">
            {groups.map((g) => (
              <li key={g.key} className="flex items-baseline justify-between gap-3 border-b border-zinc-100 pb-2 last:border-0 dark:border-zinc-800">
                <span className="min-w-0 [overflow-wrap:anywhere]">
                  {g.text}
                  {g.keys.length > 1 ? <span className="text-zinc-500 dark:text-zinc-400"> and {g.keys.length - 1} similar</span> : null}
                </span>
                <span className="shrink-0 tabular-nums text-zinc-700 dark:text-zinc-300">
                  {count(g.asked)} {g.asked === 1 ? "time" : "times"}
                  {g.unanswered ? <span className="text-amber-700 dark:text-amber-400"> · {count(g.unanswered)} unanswered</span> : null}
                </span>
              </li>
            ))}
          </ol>
        )}
      </CardBody>
    </Card>
  );
}

function AddAnswer({ group, result }: { group: Group; result: FormReply | undefined }) {
  const keys = group.keys.join("\n");
  const mine = result?.intent === "add-answer" && result.values.keys === keys && result.tone === "error";
  const id = `answer-${group.keys[0].replace(/[^a-z0-9]+/gi, "-").slice(0, 40)}-${group.keys.length}`;
  return (
    <details open={mine || undefined} className="group mt-2">
      <summary className="inline-flex cursor-pointer list-none items-center rounded-md px-2 py-1 text-sm font-medium text-brand-700 underline hover:text-brand-800 dark:text-brand-300">
        <span className="group-open:hidden">Add an answer</span>
        <span className="hidden group-open:inline">Cancel</span>
        <span className="sr-only"> to “{group.text}”</span>
      </summary>
      <Form method="post" className="mt-3 space-y-3" noValidate>
        <input type="hidden" name="intent" value="add-answer" />
        <input type="hidden" name="keys" value={keys} />
        <Field
          label="Question"
          name="question"
          id={`${id}-q`}
          maxLength={QUESTION_MAX}
          defaultValue={mine ? result?.values.question : group.text}
          error={mine ? result?.fieldErrors.question : undefined}
          hint="Saved as a Q&A pair in the knowledge; the bot finds it for this question and ones like it."
          required
        />
        <Field label="Answer" name="answer" id={`${id}-a`} error={mine ? result?.fieldErrors.answer : undefined} required>
          <Textarea rows={4} maxLength={ANSWER_MAX} defaultValue={mine ? result?.values.answer : undefined} />
        </Field>
        <IntentSubmit intent="add-answer" match={{ name: "keys", value: keys }} busyLabel="Adding…">
          Add to knowledge
        </IntentSubmit>
      </Form>
    </details>
  );
}

function UnansweredQuestions({ data, result }: { data: AnalyticsScreenData; result: FormReply | undefined }) {
  const groups = data.questions.unanswered;
  return (
    <Card>
      <CardHeader
        title="Unanswered questions"
        description="Questions the bot answered with its fallback or without knowledge relevant enough, grouped. Adding an answer creates a Q&A source and removes the group from this list."
      />
      <CardBody>
        {groups.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No unanswered questions in this range.</p>
        ) : (
          <ul className="space-y-3 text-sm">
            {groups.map((g) => (
              <li key={g.key} className="border-b border-zinc-100 pb-3 last:border-0 dark:border-zinc-800">
                <div className="flex items-baseline justify-between gap-3">
                  <span className="min-w-0 font-medium [overflow-wrap:anywhere]">
                    {g.text}
                    {g.keys.length > 1 ? <span className="font-normal text-zinc-500 dark:text-zinc-400"> and {g.keys.length - 1} similar</span> : null}
                  </span>
                  <span className="shrink-0 tabular-nums text-zinc-700 dark:text-zinc-300">{count(g.unanswered)} unanswered</span>
                </div>
                {data.canAnswer ? <AddAnswer group={g} result={result} /> : null}
              </li>
            ))}
          </ul>
        )}
        {!data.canAnswer && groups.length ? (
          <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">Editors, admins and owners can add answers to the knowledge.</p>
        ) : null}
      </CardBody>
    </Card>
  );
}

export function AnalyticsScreen({ data, result }: { data: AnalyticsScreenData; result: FormReply | undefined }) {
  const base = `/app/${data.orgId}/${data.chatbot.id}/analytics`;
  const { range } = data.query;
  const { totals } = data.report;
  const empty = totals.conversations === 0 && totals.messages === 0 && totals.leads === 0 && totals.reports === 0;
  const csvQuery = range.preset ? `?days=${range.preset}` : `?from=${range.from}&to=${range.to}`;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Analytics"
        description={`${data.chatbot.name}, ${dayLabel(range.from)} to ${dayLabel(range.to)} (${data.timeZone}).`}
        actions={
          <ButtonLink to={`${base}.csv${csvQuery}`} reloadDocument variant="secondary">
            Export CSV
          </ButtonLink>
        }
      />
      {result?.message ? (
        <Alert tone={result.tone ?? "info"} dismissible={result}>
          {result.message}
        </Alert>
      ) : null}
      <RangePicker data={data} base={base} />
      {empty ? (
        <EmptyState
          title="Nothing happened in this range"
          description="Every figure below is zero: no visitor wrote to this chatbot and no lead or report arrived between these days. Figures count from the moment analytics started recording; try a longer range, or chat on the test page to see them move."
        />
      ) : null}
      <Figures totals={totals} />
      <section aria-labelledby="charts-heading" className="space-y-3">
        <h2 id="charts-heading" className="text-base font-semibold">
          Over time
        </h2>
        <div className="grid gap-4 lg:grid-cols-2">
          {data.charts.map((c) => (
            <AnalyticsChart key={c.id} chart={c} />
          ))}
        </div>
      </section>
      <section aria-labelledby="splits-heading" className="space-y-3">
        <h2 id="splits-heading" className="text-base font-semibold">
          Where conversations come from
        </h2>
        <div className="grid gap-4 lg:grid-cols-2">
          <SplitTable title="By channel" rows={data.report.channels} label={(k) => CHANNEL_LABELS[k] ?? k} empty="No conversations in this range." />
          <SplitTable
            title="By country"
            rows={data.report.countries}
            label={countryName}
            empty="No conversations in this range. Countries come from the visitor's network location as Cloudflare reports it."
          />
        </div>
      </section>
      <div className={cn("grid gap-4", "xl:grid-cols-2")}>
        <TopQuestions groups={data.questions.top} />
        <UnansweredQuestions data={data} result={result} />
      </div>
    </div>
  );
}
