import { Form, Link, useRevalidator, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useState } from "react";
import {
  Alert,
  Badge,
  Button,
  ButtonLink,
  Card,
  CardBody,
  CardHeader,
  ConfirmDialog,
  EmptyState,
  Field,
  IntentForm,
  IntentSubmit,
  Input,
  PageHeader,
  Select,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
  Textarea,
  UsageBar,
  type BadgeTone,
  ReplyBanner,
} from "~/components/ui";
import { RetrievalPreview, type RetrievalPreviewData } from "~/components/kb/retrieval-preview";
import { cn } from "~/lib/cn";
import { ACCEPTED_FILE_TYPES, FILE_ACCEPT, SCHEDULABLE_TYPES, type KnowledgeMoveNotice, type SourceType } from "~/lib/kb";
import type { FormReply } from "~/lib/forms";
import { formatBytes, formatCount } from "~/lib/plans";

/** The knowledge screen (route: app.$orgId.$chatbotId.kb). */

/** A source as the screen shows it (what the loader's source summaries carry). */
export type KbSource = {
  id: string;
  type: SourceType;
  title: string;
  location: string | null;
  status: "queued" | "processing" | "ready" | "failed";
  progressDone: number;
  progressTotal: number;
  error: string | null;
  charCount: number;
  schedule: "off" | "daily" | "weekly";
  lastSyncedAt: number | null;
  config: Record<string, unknown>;
};

export type KnowledgeScreenData = {
  orgId: string;
  chatbot: { id: string; name: string };
  sources: KbSource[];
  usage: { used: number; limit: number; planName: string };
  preview: RetrievalPreviewData;
  move: KnowledgeMoveNotice | null;
  plan: { crawlPages: number; fileSize: number; charsHint: string };
};

/**
 * The action's reply; `addedId` is set after a source was added, so its form starts empty again;
 * `reason` refines a refusal (e.g. "private_address": offer the text and file tabs instead).
 */
export type KbActionData = FormReply<{ addedId: string | null; reason?: string | null }>;

const TABS = [
  { key: "text", label: "Text" },
  { key: "qa", label: "Q&A" },
  { key: "file", label: "File" },
  { key: "url", label: "Website URL" },
  { key: "site", label: "Whole site" },
] as const;
type TabKey = (typeof TABS)[number]["key"];

const TYPE_LABELS: Record<KbSource["type"], string> = { text: "Text", qa: "Q&A", file: "File", url: "Web page", site: "Website", woocommerce: "WooCommerce" };
const STATUS: Record<KbSource["status"], { label: string; tone: BadgeTone }> = {
  queued: { label: "Queued", tone: "neutral" },
  processing: { label: "Processing", tone: "brand" },
  ready: { label: "Ready", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
};
const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

function progressLabel(s: KbSource): string | null {
  if (s.status !== "processing" && s.status !== "queued") return null;
  if (!s.progressTotal) return s.status === "queued" ? null : "starting…";
  const unit = s.type === "site" ? "pages" : "chunks";
  return `${formatCount(s.progressDone)} / ${formatCount(s.progressTotal)} ${unit}`;
}

function MoveStatus({ move }: { move: KnowledgeMoveNotice }) {
  if (move.state === "failed")
    return (
      <Alert tone="warning" title="Moving this chatbot's knowledge to its own storage did not finish" data-testid="knowledge-move">
        {`${move.error} The chatbot answers from its current storage as before, and nothing was lost. The move is tried again automatically after ${dateTime.format(move.retryAfter)} UTC.`}
      </Alert>
    );
  const meanwhile = "The chatbot keeps answering from its current storage meanwhile, and you can keep changing its sources.";
  if (!move.detail)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="knowledge-move">
        This chatbot&apos;s knowledge is being moved to its own storage; it keeps answering meanwhile.
      </p>
    );
  const { phase, copied, total } = move.detail;
  const where =
    phase === "copy"
      ? `${formatCount(copied)} of ${formatCount(total)} chunks copied.`
      : phase === "texts"
        ? `${formatCount(copied)} chunks copied; copying the texts of text and Q&A sources.`
        : phase === "verify"
          ? `${formatCount(copied)} chunks copied; checking the copy against the original.`
          : "The copy is checked; switching over as soon as no source is being processed.";
  return (
    <Alert tone="info" title="Moving this chatbot's knowledge to its own storage" data-testid="knowledge-move">
      {`${where} ${meanwhile}`}
    </Alert>
  );
}

function QaRows({ initial, error }: { initial: { question: string; answer: string }[]; error?: string[] }) {
  const [rows, setRows] = useState(initial.length ? initial : [{ question: "", answer: "" }]);
  return (
    <div className="space-y-3">
      {rows.map((row, i) => (
        <fieldset key={i} className="grid gap-2 rounded-lg border border-zinc-200 p-3 sm:grid-cols-2 dark:border-zinc-800">
          <legend className="px-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">Pair {i + 1}</legend>
          <label className="block text-sm">
            <span className="font-medium">Question</span>
            <Input name="question" defaultValue={row.question} className="mt-1" aria-invalid={error ? true : undefined} />
          </label>
          <label className="block text-sm">
            <span className="font-medium">Answer</span>
            <Textarea name="answer" rows={2} defaultValue={row.answer} className="mt-1" aria-invalid={error ? true : undefined} />
          </label>
        </fieldset>
      ))}
      {error?.length ? <p className="text-sm text-red-600 dark:text-red-400">{error[0]}</p> : null}
      <Button variant="secondary" size="sm" onClick={() => setRows((r) => [...r, { question: "", answer: "" }])}>
        Add another pair
      </Button>
    </div>
  );
}

/** Offered when an address cannot be read (local or private): the tabs that work without it. */
function OtherWays() {
  return (
    <>
      <ButtonLink to="?add=text" replace preventScrollReset size="sm" variant="secondary">
        Paste the text instead
      </ButtonLink>
      <ButtonLink to="?add=file" replace preventScrollReset size="sm" variant="secondary">
        Upload a file instead
      </ButtonLink>
    </>
  );
}

function AddSource({ tab, result, plan }: { tab: TabKey; result: KbActionData | undefined; plan: { crawlPages: number; fileSize: number } }) {
  const mine = result?.intent === `add-${tab}`;
  const done = mine && !!result?.addedId;
  const values = mine && !done ? result?.values : undefined;
  const errors = mine ? result?.fieldErrors : undefined;
  const formKey = `${tab}:${done ? result?.addedId : "form"}`;
  const initialPairs = (() => {
    try {
      return values?.pairs ? (JSON.parse(values.pairs) as { question: string; answer: string }[]) : [];
    } catch {
      return [];
    }
  })();
  switch (tab) {
    case "text":
      return (
        <Form key={formKey} method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="add-text" />
          <Field label="Title" name="title" defaultValue={values?.title} error={errors?.title} hint="Shown with answers that cite this text." />
          <Field label="Text" name="text" error={errors?.text} required>
            <Textarea rows={8} defaultValue={values?.text} placeholder="Paste policies, product details, opening hours…" />
          </Field>
          <div className="flex justify-end">
            <IntentSubmit intent="add-text" busyLabel="Adding…">
              Add text
            </IntentSubmit>
          </div>
        </Form>
      );
    case "qa":
      return (
        <Form key={formKey} method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="add-qa" />
          <Field label="Title" name="title" id="qa-title" defaultValue={values?.title} error={errors?.title} hint="Optional: names this set of answers." />
          <QaRows initial={initialPairs} error={errors?.pairs} />
          <div className="flex justify-end">
            <IntentSubmit intent="add-qa" busyLabel="Adding…">
              Add questions and answers
            </IntentSubmit>
          </div>
        </Form>
      );
    case "file":
      return (
        <Form key={formKey} method="post" encType="multipart/form-data" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="add-file" />
          <Field
            label="File"
            name="file"
            type="file"
            accept={FILE_ACCEPT}
            error={errors?.file}
            hint={`${ACCEPTED_FILE_TYPES}; up to ${formatBytes(plan.fileSize)} on your plan.`}
            required
          />
          <div className="flex justify-end">
            <IntentSubmit intent="add-file" busyLabel="Uploading…">
              Upload file
            </IntentSubmit>
          </div>
        </Form>
      );
    case "url":
      return (
        <Form key={formKey} method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="add-url" />
          <Field
            label="Page address"
            name="url"
            id="url-single"
            type="url"
            placeholder="https://example.com/faq"
            defaultValue={values?.url}
            error={errors?.url}
            errorActions={result?.reason === "private_address" ? <OtherWays /> : null}
            hint="One page. To read a whole site, use “Whole site”."
            required
          />
          <div className="flex justify-end">
            <IntentSubmit intent="add-url" busyLabel="Adding…">
              Add page
            </IntentSubmit>
          </div>
        </Form>
      );
    case "site":
      return (
        <Form key={formKey} method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="add-site" />
          <div className="grid gap-4">
            <Field
              label="Start address"
              name="url"
              id="url-site"
              type="url"
              placeholder="https://example.com"
              defaultValue={values?.url}
              error={errors?.url}
              errorActions={result?.reason === "private_address" ? <OtherWays /> : null}
              hint="Pages on the same site are followed from here and from its sitemap.xml; robots.txt is respected."
              required
            />
            <Field
              label="Page cap"
              name="pageCap"
              type="number"
              min={1}
              max={plan.crawlPages}
              defaultValue={values?.pageCap ?? String(plan.crawlPages)}
              error={errors?.pageCap}
              hint={`At most ${formatCount(plan.crawlPages)} pages on your plan.`}
              inputClassName="max-w-40"
              required
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Only pages matching" name="include" error={errors?.include} hint="One pattern per line, e.g. /docs/* (empty: every page).">
              <Textarea rows={3} defaultValue={values?.include} placeholder="/docs/*" />
            </Field>
            <Field label="Skip pages matching" name="exclude" error={errors?.exclude} hint="One pattern per line, e.g. /blog/* or *?page=*.">
              <Textarea rows={3} defaultValue={values?.exclude} placeholder="/blog/*" />
            </Field>
          </div>
          <div className="flex justify-end">
            <IntentSubmit intent="add-site" busyLabel="Adding…">
              Crawl site
            </IntentSubmit>
          </div>
        </Form>
      );
  }
}

function ScheduleForm({ source }: { source: KbSource }) {
  const submit = useSubmit();
  return (
    <Form method="post" className="flex items-center gap-2" onChange={(e) => submit(e.currentTarget)}>
      <input type="hidden" name="intent" value="schedule" />
      <input type="hidden" name="sourceId" value={source.id} />
      <label className="sr-only" htmlFor={`schedule-${source.id}`}>
        Re-sync schedule for {source.title}
      </label>
      <Select
        id={`schedule-${source.id}`}
        name="schedule"
        defaultValue={source.schedule}
        className="h-9 min-w-32 py-1"
        options={[
          { value: "off", label: "Manual" },
          { value: "daily", label: "Daily" },
          { value: "weekly", label: "Weekly" },
        ]}
      />
      <noscript>
        <Button type="submit" size="sm" variant="secondary">
          Save
        </Button>
      </noscript>
    </Form>
  );
}

function SourceRow({ source, base }: { source: KbSource; base: string }) {
  const status = STATUS[source.status];
  const progress = progressLabel(source);
  const cfg = source.config as { filename?: string; size?: number; pageCap?: number; lastCrawl?: { pages: number; skippedCount: number } };
  const where =
    source.type === "file"
      ? `${cfg.filename ?? ""}${cfg.size ? ` · ${formatBytes(cfg.size)}` : ""}`
      : source.type === "site"
        ? `${source.location} · up to ${formatCount(cfg.pageCap ?? 0)} pages`
        : source.type === "url"
          ? source.location
          : null;
  return (
    <TR>
      <TD className="max-w-[11rem] sm:max-w-xs">
        <div className="truncate font-medium text-zinc-900 dark:text-zinc-100" title={source.title}>
          {source.title}
        </div>
        <div className="truncate text-xs text-zinc-600 dark:text-zinc-400" title={where ?? undefined}>
          {where ? `${TYPE_LABELS[source.type]} · ${where}` : TYPE_LABELS[source.type]}
        </div>
        {source.status === "ready" && cfg.lastCrawl?.skippedCount ? (
          <div className="text-xs text-zinc-600 dark:text-zinc-400">
            {formatCount(cfg.lastCrawl.pages)} pages read, {formatCount(cfg.lastCrawl.skippedCount)} skipped
          </div>
        ) : null}
        {source.status === "failed" && source.error ? (
          <p className="mt-1 text-sm text-red-700 dark:text-red-400" data-testid="source-error">
            {source.error}
          </p>
        ) : null}
      </TD>
      <TD className="whitespace-nowrap">
        <Badge tone={status.tone}>{status.label}</Badge>
        {progress ? <div className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{progress}</div> : null}
      </TD>
      <TD className="whitespace-nowrap text-right tabular-nums">{source.charCount ? formatCount(source.charCount) : "—"}</TD>
      <TD className="whitespace-nowrap text-xs">
        <div>{source.lastSyncedAt ? dateTime.format(source.lastSyncedAt) : "Never"}</div>
        {SCHEDULABLE_TYPES.includes(source.type) ? (
          <div className="mt-1">
            <ScheduleForm source={source} />
          </div>
        ) : null}
      </TD>
      <TD>
        <div className="flex flex-wrap justify-end gap-2">
          {source.status === "failed" ? (
            <IntentForm intent="retry" field={{ name: "sourceId", value: source.id }} size="sm" variant="secondary" busyLabel="Retrying…">
              Retry
            </IntentForm>
          ) : null}
          {source.status === "ready" && (source.type === "url" || source.type === "site") ? (
            <IntentForm intent="resync" field={{ name: "sourceId", value: source.id }} size="sm" variant="ghost" busyLabel="Syncing…">
              Sync now
            </IntentForm>
          ) : null}
          {source.type === "woocommerce" ? (
            // The store's products go with the connection: Disconnect on the WooCommerce page.
            <ButtonLink to={`${base}/integrations/woocommerce`} size="sm" variant="ghost">
              Manage on the WooCommerce page
            </ButtonLink>
          ) : (
            <ConfirmDialog
              trigger="Delete"
              triggerSize="sm"
              triggerVariant="ghost"
              title={`Delete “${source.title}”?`}
              description="The bot stops answering from it at once. Its text, chunks and any uploaded file are removed; this cannot be undone."
            >
              <IntentForm intent="delete-source" field={{ name: "sourceId", value: source.id }} variant="danger" busyLabel="Deleting…">
                Delete source
              </IntentForm>
            </ConfirmDialog>
          )}
        </div>
      </TD>
    </TR>
  );
}

export function KnowledgeScreen({ data, result }: { data: KnowledgeScreenData; result: KbActionData | undefined }) {
  const { chatbot, sources, usage, plan, preview, move } = data;
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const fromResult = result?.intent?.startsWith("add-") && !result.addedId ? (result.intent.slice(4) as TabKey) : null;
  const requested = params.get("add") as TabKey | null;
  const tab: TabKey = fromResult ?? (TABS.some((t) => t.key === requested) ? requested! : "text");
  const active = sources.some((s) => s.status === "queued" || s.status === "processing");
  const full = usage.used >= usage.limit;

  // Live progress: poll while anything is queued or processing.
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, 2000);
    return () => clearInterval(timer);
  }, [active, revalidator]);

  // A move takes minutes: its progress line refreshes every 10 seconds while it runs.
  const moving = move?.state === "moving";
  useEffect(() => {
    if (!moving || active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, 10_000);
    return () => clearInterval(timer);
  }, [moving, active, revalidator]);

  return (
    <div className="space-y-6">
      <PageHeader title="Knowledge" description={`What ${chatbot.name} answers from: text, questions and answers, files and websites.`} />

      {move ? <MoveStatus move={move} /> : null}

      <RetrievalPreview preview={preview} />

      {/* An add form shows its own field messages; any other field error is one line here. */}
      <ReplyBanner reply={result} shownAtField={() => !!result?.intent?.startsWith("add-")} />

      <Card>
        <CardBody>
          <UsageBar
            id="usage-knowledge"
            label="Knowledge characters"
            used={usage.used}
            limit={usage.limit}
            unit="knowledge characters used"
            note={`${usage.planName} plan, all chatbots`}
            hint={plan.charsHint}
          />
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Add knowledge" description="Each source is processed in the background; its status below updates by itself." />
        <CardBody className="space-y-5">
          {full ? (
            // At the limit every new source would be refused: say so instead of offering forms that fail.
            <Alert tone="warning" title="Knowledge limit reached">
              {`All ${formatCount(usage.limit)} knowledge characters of the ${usage.planName} plan are used, so no source can be added. Remove sources you no longer need, or raise the limit: ${plan.charsHint} `}
              <Link to="/app/plans" className="font-medium underline">
                Plans and usage
              </Link>
            </Alert>
          ) : null}
          {full ? null : (
            <nav className="flex flex-wrap gap-1 border-b border-zinc-200 dark:border-zinc-800" aria-label="Kind of source">
              {TABS.map((t) => (
                <Link
                  key={t.key}
                  to={`?add=${t.key}`}
                  replace
                  preventScrollReset
                  aria-current={t.key === tab ? "page" : undefined}
                  className={cn(
                    "-mb-px border-b-2 px-3 py-2 text-sm font-medium",
                    t.key === tab
                      ? "border-brand-600 text-brand-700 dark:text-brand-300"
                      : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100",
                  )}
                >
                  {t.label}
                </Link>
              ))}
            </nav>
          )}
          {full ? null : <AddSource tab={tab} result={result} plan={plan} />}
        </CardBody>
      </Card>

      <Card>
        <CardHeader title={`Sources (${sources.length})`} />
        <CardBody className="px-0 py-0 sm:px-0">
          {sources.length ? (
            <Table wrapperClassName="rounded-none border-0">
              <THead>
                <tr>
                  <TH>Source</TH>
                  <TH>Status</TH>
                  <TH className="text-right">Characters</TH>
                  <TH>Last synced · re-sync</TH>
                  <TH className="text-right">Actions</TH>
                </tr>
              </THead>
              <TBody>
                {sources.map((s) => (
                  <SourceRow key={s.id} source={s} base={`/app/${data.orgId}/${chatbot.id}`} />
                ))}
              </TBody>
            </Table>
          ) : (
            <div className="p-4 sm:p-6">
              <EmptyState
                title="No knowledge yet"
                description="Add text, questions and answers, a file or a website above; the bot answers only from what it knows."
              />
            </div>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
