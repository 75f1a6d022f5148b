import { Form, Link } from "@remix-run/react";
import {
  Alert,
  Badge,
  ButtonLink,
  Card,
  CardBody,
  CardHeader,
  CheckboxField,
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
  Textarea,
} from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import { TOOL_CALL_LOG, TOOL_HEADER_ROWS, TOOL_METHOD_OPTIONS, TOOL_TIMEOUT_MAX_S, type ToolParameters } from "~/lib/schemas/custom-tools";

/** The tools the bot may call (route: app.$orgId.$chatbotId.tools): built-in switches, custom HTTP tools, test runner, call log. */

export type ToolsActionExtra = {
  test?: { toolId: string; outcome: string; httpStatus: number | null; durationMs: number; body: string; truncated: boolean; error: string | null };
};

type ToolView = {
  id: string;
  name: string;
  description: string;
  examples: string[];
  method: string;
  urlTemplate: string;
  headers: { name: string; value: string; secret: boolean }[];
  parameters: ToolParameters;
  timeoutMs: number;
  confirm: boolean;
  resultTemplate: string;
  enabled: boolean;
};

export type ToolsScreenData = {
  orgId: string;
  chatbot: { id: string; name: string };
  tools: ToolView[];
  editing: string | null;
  calls: {
    id: string;
    toolName: string;
    conversationId: string | null;
    source: "chat" | "test";
    outcome: string;
    httpStatus: number | null;
    durationMs: number;
    createdAt: number;
  }[];
  builtIn: { name: string; label: string; description: string; on: boolean; needsWooCommerce: boolean; blockedBy: string | null }[];
  wooConnected: boolean | null;
  privateAllowed: boolean;
};

type Reply = FormReply<ToolsActionExtra> | undefined;

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
const OUTCOME_LABELS: Record<string, string> = {
  ok: "OK",
  http_error: "HTTP error",
  timeout: "Timed out",
  blocked: "Address refused",
  too_large: "Response too large",
  error: "Failed",
};

const EMPTY_SCHEMA = `{
  "type": "object",
  "properties": {
    "booking_id": { "type": "string", "description": "the booking number" }
  },
  "required": ["booking_id"]
}`;

function sampleFor(schema: ToolParameters): string {
  const sample: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema.properties))
    sample[name] = p.enum
      ? p.enum[0]
      : p.type === "string"
        ? p.format === "email"
          ? "visitor@example.com"
          : p.format === "date"
            ? "2026-12-01"
            : ""
        : p.type === "boolean"
          ? true
          : 1;
  return JSON.stringify(sample);
}

function BuiltInTools({ data }: { data: ToolsScreenData }) {
  const wooHref = `/app/${data.orgId}/${data.chatbot.id}/integrations/woocommerce`;
  return (
    <Card aria-labelledby="builtin-title">
      <CardHeader title={<span id="builtin-title">Built-in tools</span>} description="Tools Parley provides. Switch one off and the bot stops using it." />
      <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
        {data.builtIn.map((t) => (
          <li key={t.name} className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-start sm:justify-between sm:px-6" id={`builtin-${t.name}`}>
            <div className="min-w-0">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t.label}</h3>
                <Badge tone={t.on ? "success" : "neutral"}>{t.on ? "On" : "Off"}</Badge>
              </div>
              <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t.description}</p>
              {t.on && t.blockedBy ? (
                <p className="mt-1 text-sm text-amber-800 dark:text-amber-300">
                  {t.blockedBy}{" "}
                  <Link to={`/app/${data.orgId}/${data.chatbot.id}/settings/ui`} className="font-medium underline">
                    Open Look &amp; feel
                  </Link>
                </p>
              ) : null}
              {t.needsWooCommerce && data.wooConnected !== true ? (
                <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                  Needs the WooCommerce connection:{" "}
                  <Link to={wooHref} className="font-medium text-brand-700 underline dark:text-brand-400">
                    connect your store
                  </Link>
                  .
                </p>
              ) : null}
            </div>
            <Form method="post" className="shrink-0">
              <input type="hidden" name="intent" value="builtin" />
              <input type="hidden" name="tool" value={t.name} />
              <input type="hidden" name="on" value={t.on ? "false" : "true"} />
              <IntentSubmit
                intent="builtin"
                match={{ name: "tool", value: t.name }}
                busyLabel="Saving…"
                variant="secondary"
                size="sm"
                aria-label={`${t.on ? "Turn off" : "Turn on"} ${t.label}`}
              >
                {t.on ? "Turn off" : "Turn on"}
              </IntentSubmit>
            </Form>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function TestRunner({ tool, result }: { tool: ToolView; result: Reply }) {
  const mine = result?.test?.toolId === tool.id ? result.test : null;
  const sampleError = result?.fieldErrors?.[`sample-${tool.id}`];
  const typed = result?.values?.toolId === tool.id ? result.values.sample : undefined;
  return (
    <div className="mt-4 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <Form method="post" className="space-y-3" aria-label={`Test ${tool.name}`}>
        <input type="hidden" name="intent" value="test" />
        <input type="hidden" name="toolId" value={tool.id} />
        <Field
          label="Sample parameters (JSON)"
          name="sample"
          id={`sample-${tool.id}`}
          error={sampleError}
          hint="The call is made for real, with the tool's headers."
        >
          <Textarea rows={2} defaultValue={typed ?? sampleFor(tool.parameters)} className="font-mono text-xs" />
        </Field>
        <IntentSubmit intent="test" match={{ name: "toolId", value: tool.id }} busyLabel="Running…" variant="secondary" size="sm">
          Run test
        </IntentSubmit>
      </Form>
      {mine ? (
        <div className="mt-3 space-y-2" role="status" aria-label={`Test result of ${tool.name}`}>
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <Badge tone={mine.outcome === "ok" ? "success" : "danger"}>{OUTCOME_LABELS[mine.outcome] ?? mine.outcome}</Badge>
            <span>Status {mine.httpStatus ?? "—"}</span>
            <span>· {mine.durationMs} ms</span>
          </p>
          {mine.error ? <p className="text-sm text-red-700 dark:text-red-400">{mine.error}</p> : null}
          {mine.body ? (
            <pre
              className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-zinc-50 p-2 text-xs [overflow-wrap:anywhere] dark:bg-zinc-800"
              data-testid="test-body"
            >
              {mine.body}
            </pre>
          ) : null}
          {mine.truncated ? <p className="text-xs text-zinc-500 dark:text-zinc-400">Response cut to its first 2,000 characters.</p> : null}
        </div>
      ) : null}
    </div>
  );
}

function ToolCard({ tool, base, result }: { tool: ToolView; base: string; result: Reply }) {
  return (
    <li id={`tool-${tool.id}`}>
      <Card>
        <CardBody className="space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-mono text-sm font-semibold text-zinc-900 dark:text-zinc-100">{tool.name}</h3>
            <Badge tone={tool.enabled ? "success" : "neutral"}>{tool.enabled ? "On" : "Off"}</Badge>
            {tool.confirm ? <Badge tone="brand">Asks first</Badge> : null}
          </div>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{tool.description}</p>
          <p className="font-mono text-xs text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400">
            {tool.method} {tool.urlTemplate}
          </p>
          {tool.headers.length ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Headers: {tool.headers.map((h) => `${h.name}${h.secret ? " (•••• set)" : ""}`).join(", ")}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2 pt-1">
            <ButtonLink to={`${base}?edit=${encodeURIComponent(tool.id)}#tool-form`} variant="secondary" size="sm" aria-label={`Edit ${tool.name}`}>
              Edit
            </ButtonLink>
            <IntentForm
              intent="delete"
              field={{ name: "toolId", value: tool.id }}
              busyLabel="Deleting…"
              variant="danger"
              size="sm"
              aria-label={`Delete ${tool.name}`}
            >
              Delete
            </IntentForm>
          </div>
          <TestRunner tool={tool} result={result} />
        </CardBody>
      </Card>
    </li>
  );
}

function ToolForm({ data, result, base }: { data: ToolsScreenData; result: Reply; base: string }) {
  const editing = data.tools.find((t) => t.id === data.editing) ?? null;
  const mine = result?.intent === "save" && result.tone === "error" ? result : null;
  const v = (name: string, fallback: string) => mine?.values?.[name] ?? fallback;
  const err = (name: string) => mine?.fieldErrors?.[name];
  const checked = (name: string, fallback: boolean) => (mine ? mine.values?.[name] === "on" : fallback);
  return (
    <Card aria-labelledby="tool-form-title" id="tool-form" className="scroll-mt-20">
      <CardHeader
        title={<span id="tool-form-title">{editing ? `Edit ${editing.name}` : "Add a tool"}</span>}
        description="The bot calls your API when a visitor asks for it. With a configured model, the model decides from the description; with the built-in engine, from the example phrases."
        actions={
          editing ? (
            <ButtonLink to={base} variant="ghost" size="sm">
              Cancel editing
            </ButtonLink>
          ) : null
        }
      />
      <CardBody>
        <Form method="post" noValidate className="space-y-5" aria-label={editing ? `Edit ${editing.name}` : "Add a tool"}>
          <input type="hidden" name="intent" value="save" />
          {editing ? <input type="hidden" name="toolId" value={editing.id} /> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Name"
              name="name"
              defaultValue={v("name", editing?.name ?? "")}
              error={err("name")}
              hint="snake_case, e.g. check_booking"
              autoComplete="off"
            />
            <Field
              label="Timeout (seconds)"
              name="timeout"
              type="number"
              min={1}
              max={TOOL_TIMEOUT_MAX_S}
              defaultValue={v("timeout", String((editing?.timeoutMs ?? 5000) / 1000))}
              error={err("timeout")}
              hint={`At most ${TOOL_TIMEOUT_MAX_S} s.`}
            />
          </div>
          <Field label="Description for the model" name="description" error={err("description")} hint="What the tool does and when to use it.">
            <Textarea rows={2} defaultValue={v("description", editing?.description ?? "")} />
          </Field>
          <Field
            label="Example phrases"
            name="examples"
            error={err("examples")}
            hint="One per line: what visitors say when they want this (the built-in engine calls the tool only for messages close to one of them). {param} marks where a value goes."
          >
            <Textarea
              rows={3}
              defaultValue={v("examples", editing?.examples.join("\n") ?? "")}
              placeholder={"what is the status of my booking {booking_id}\ncheck my booking"}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
            <Field label="Method" name="method" error={err("method")}>
              <Select defaultValue={v("method", editing?.method ?? "GET")} options={[...TOOL_METHOD_OPTIONS]} />
            </Field>
            <Field
              label="URL"
              name="url"
              defaultValue={v("url", editing?.urlTemplate ?? "")}
              error={err("url")}
              placeholder="https://api.example.com/bookings/{booking_id}"
              hint={
                <>
                  {"{param}"} placeholders are filled from the parameters (URL-encoded); the other parameters go in the query (GET, DELETE) or a JSON body.
                  {data.privateAllowed ? " This deployment allows local and private addresses (development)." : " Local and private addresses are refused."}
                </>
              }
            />
          </div>
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium text-zinc-900 dark:text-zinc-100">Headers</legend>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              Secret values are stored encrypted and never shown again; leave a set secret empty to keep it.
            </p>
            {Array.from({ length: TOOL_HEADER_ROWS }, (_, i) => {
              const h = editing?.headers[i];
              return (
                <div key={i} className="grid items-start gap-2 sm:grid-cols-[1fr_1.5fr_auto]">
                  <Field
                    label={`Header ${i + 1} name`}
                    name={`headerName${i}`}
                    defaultValue={v(`headerName${i}`, h?.name ?? "")}
                    error={err(`headerName${i}`)}
                    autoComplete="off"
                  />
                  <Field
                    label={`Header ${i + 1} value`}
                    name={`headerValue${i}`}
                    defaultValue={h?.secret ? "" : v(`headerValue${i}`, h?.value ?? "")}
                    placeholder={h?.secret ? "•••• set" : ""}
                    error={err(`headerValue${i}`)}
                    autoComplete="off"
                  />
                  <CheckboxField
                    name={`headerSecret${i}`}
                    id={`headerSecret${i}`}
                    label="Secret"
                    defaultChecked={checked(`headerSecret${i}`, h?.secret ?? false)}
                    className="sm:pt-7"
                  />
                </div>
              );
            })}
          </fieldset>
          <Field
            label="Parameters (JSON schema)"
            name="parameters"
            error={err("parameters")}
            hint='An object schema: properties with a type (string, number, integer, boolean), optional description, enum and format ("email", "date"); "required" lists what the bot must ask for.'
          >
            <Textarea
              rows={7}
              className="font-mono text-xs"
              defaultValue={v("parameters", editing ? JSON.stringify(editing.parameters, null, 2) : EMPTY_SCHEMA)}
            />
          </Field>
          <Field
            label="Reply to the visitor (built-in engine)"
            name="resultTemplate"
            defaultValue={v("resultTemplate", editing?.resultTemplate ?? "")}
            error={err("resultTemplate")}
            placeholder="Your booking {{result.id}} is {{result.status}}."
            hint="{{result.field}} and {{params.name}} are replaced with the API's JSON answer and the parameters. Empty: a short list of the answer's fields."
          />
          <CheckboxField
            name="confirm"
            label="Ask the visitor to confirm first"
            hint="The bot asks “Shall I …?” and calls only after the visitor says yes."
            defaultChecked={checked("confirm", editing?.confirm ?? false)}
          />
          <CheckboxField
            name="enabled"
            label="On"
            hint="Off: the bot does not use this tool (the test runner still works)."
            defaultChecked={checked("enabled", editing?.enabled ?? true)}
          />
          <IntentSubmit intent="save" busyLabel="Saving…">
            {editing ? "Save tool" : "Add tool"}
          </IntentSubmit>
        </Form>
      </CardBody>
    </Card>
  );
}

function CallLog({ data }: { data: ToolsScreenData }) {
  const home = `/app/${data.orgId}/${data.chatbot.id}`;
  return (
    <Card aria-labelledby="calls-title">
      <CardHeader title={<span id="calls-title">Call log</span>} description={`The last ${TOOL_CALL_LOG} calls: no parameters, bodies or headers are kept.`} />
      {data.calls.length ? (
        <Table label="Call log">
          <THead>
            <TR>
              <TH>Time (UTC)</TH>
              <TH>Tool</TH>
              <TH>Result</TH>
              <TH>Status</TH>
              <TH>Duration</TH>
              <TH>From</TH>
            </TR>
          </THead>
          <TBody>
            {data.calls.map((c) => (
              <TR key={c.id}>
                <TD className="whitespace-nowrap">{dateTime.format(c.createdAt)}</TD>
                <TD className="font-mono text-xs">{c.toolName}</TD>
                <TD>
                  <Badge tone={c.outcome === "ok" ? "success" : "danger"}>{OUTCOME_LABELS[c.outcome] ?? c.outcome}</Badge>
                </TD>
                <TD>{c.httpStatus ?? "—"}</TD>
                <TD>{c.durationMs} ms</TD>
                <TD>
                  {c.source === "test" ? (
                    "Test runner"
                  ) : c.conversationId ? (
                    <Link to={`${home}?c=${encodeURIComponent(c.conversationId)}#transcript`} className="text-brand-700 underline dark:text-brand-400">
                      Conversation
                    </Link>
                  ) : (
                    "A deleted conversation"
                  )}
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      ) : (
        <CardBody>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No calls yet. Calls from conversations and the test runner appear here.</p>
        </CardBody>
      )}
    </Card>
  );
}

export function ToolsScreen({ data, result }: { data: ToolsScreenData; result: Reply }) {
  const base = `/app/${data.orgId}/${data.chatbot.id}/tools`;
  const formFields = new Set(["name", "description", "examples", "method", "url", "parameters", "timeout", "resultTemplate"]);
  return (
    <div className="space-y-6">
      <PageHeader title="Tools" description={`What ${data.chatbot.name} can do besides answering: built-in tools and calls to your own APIs.`} />
      <ReplyBanner reply={result} shownAtField={(f) => formFields.has(f) || f.startsWith("header") || f.startsWith("sample-")} />
      <BuiltInTools data={data} />
      <section aria-labelledby="custom-title" className="space-y-3">
        <h2 id="custom-title" className="text-lg font-semibold text-zinc-900 dark:text-zinc-100">
          Custom tools
        </h2>
        {data.tools.length ? (
          <ul className="space-y-3">
            {data.tools.map((t) => (
              <ToolCard key={t.id} tool={t} base={base} result={result} />
            ))}
          </ul>
        ) : (
          <EmptyState as="h3" title="No custom tools yet" description="Add one below: e.g. look up a booking or an order in your own system." />
        )}
      </section>
      {/* A new form after every save (typed values, a typed secret above all, do not linger) and for each tool edited. */}
      <ToolForm
        key={`${data.editing ?? "new"}:${result?.intent === "save" && result.tone === "success" ? result.message : ""}:${data.tools.length}`}
        data={data}
        result={result}
        base={base}
      />
      <CallLog data={data} />
      {data.privateAllowed ? null : (
        <Alert tone="info">
          Tools call public https:// or http:// addresses only; responses are cut at 100 KB and calls at {TOOL_TIMEOUT_MAX_S} seconds at most.
        </Alert>
      )}
    </div>
  );
}
