import { z } from "zod";
import type { FieldErrors, FormResult } from "~/lib/forms";
import { formValues } from "~/lib/forms";

// Custom HTTP tools (…/tools) and the built-in tools' switches. Client-safe: the tools page and the
// server share the form's rules. The server adds the address check (app/.server/tools/address-guard.ts).

export const TOOL_NAME_MAX = 48;
export const TOOL_DESCRIPTION_MAX = 500;
export const TOOL_EXAMPLES_MAX = 12;
export const TOOL_EXAMPLE_MAX = 160;
export const TOOL_URL_MAX = 1000;
export const TOOL_HEADER_ROWS = 4;
export const TOOL_PARAMS_MAX = 10;
/** How many of a chatbot's tool calls the log keeps and the tools screen shows (the latest). */
export const TOOL_CALL_LOG = 50;
export const TOOL_TIMEOUT_MAX_S = 10;
export const TOOL_RESULT_TEMPLATE_MAX = 500;
export const TOOLS_PER_CHATBOT = 20;
export const TOOL_METHOD_OPTIONS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ToolMethod = (typeof TOOL_METHOD_OPTIONS)[number];

// ——— built-in tools (chatbots.settings `$.tools.builtIn.<name>`; missing = on) ———

export const BUILT_IN_TOOLS = [
  {
    name: "collect_lead",
    label: "Collect lead",
    description: "Offers the lead form when a visitor wants to buy, asks to be contacted, or the bot cannot answer. Form fields and timing: Look & feel.",
    needs: null,
  },
  {
    name: "hand_to_human",
    label: "Hand to a human",
    description:
      "When a visitor asks for a person in their message, the conversation goes to your team's inbox (live chat) instead of being answered by the bot. The widget's “Talk to a human” button is set in Look & feel.",
    needs: null,
  },
  {
    name: "product_search",
    label: "Product search",
    description: "Finds products in your WooCommerce store by words, category, price and stock, and shows product cards.",
    needs: "woocommerce",
  },
  {
    name: "order_status",
    label: "Order status",
    description: "Tells a customer where their order is once the order number and the billing email match.",
    needs: "woocommerce",
  },
] as const;
export type BuiltInToolName = (typeof BUILT_IN_TOOLS)[number]["name"];
export const BUILT_IN_TOOL_NAMES = BUILT_IN_TOOLS.map((t) => t.name) as [BuiltInToolName, ...BuiltInToolName[]];
/** The shop tools' names: their registry entries, their model tool names and their switch keys are all these. */
export const PRODUCT_SEARCH_TOOL = "product_search" satisfies BuiltInToolName;
export const ORDER_STATUS_TOOL = "order_status" satisfies BuiltInToolName;
export type ShopToolName = typeof PRODUCT_SEARCH_TOOL | typeof ORDER_STATUS_TOOL;

/** Whether any custom tool of the chatbot is on (`$.tools.customEnabled`, kept by app/.server/tools/custom-tools.ts). */
export function customToolsOn(settings: unknown): boolean {
  const n = (settings as { tools?: { customEnabled?: unknown } } | null)?.tools?.customEnabled;
  return typeof n === "number" && n > 0;
}

/** Whether a built-in tool is switched on in a chatbot's settings document (on unless switched off). */
export function builtInToolOn(settings: unknown, name: BuiltInToolName): boolean {
  const tools = (settings as { tools?: { builtIn?: Record<string, unknown> } } | null)?.tools;
  return tools?.builtIn?.[name] !== false;
}

export const builtInSwitchSchema = z.object({
  tool: z.enum(BUILT_IN_TOOL_NAMES, { error: "Choose a built-in tool." }),
  on: z.enum(["true", "false"], { error: "Choose on or off." }).transform((v) => v === "true"),
});

// ——— parameters: a small JSON schema ———

const PARAM_NAME = /^[a-z][a-z0-9_]{0,39}$/;
export const PARAM_TYPES = ["string", "number", "integer", "boolean"] as const;

const propertySchema = z
  .object({
    type: z.enum(PARAM_TYPES, { error: `Each property needs a type: ${PARAM_TYPES.join(", ")}.` }),
    description: z.string().max(200, "A property's description is at most 200 characters.").optional(),
    enum: z
      .array(z.union([z.string().max(80), z.number()]))
      .min(1)
      .max(20)
      .optional(),
    format: z.enum(["email", "date"]).optional(),
  })
  .strict();
export type ToolParamProperty = z.infer<typeof propertySchema>;

export const toolParametersSchema = z
  .object({
    type: z.literal("object", { error: 'The parameters must be an object schema: {"type": "object", "properties": {…}}.' }),
    properties: z.record(z.string().regex(PARAM_NAME, "Property names are snake_case (a–z, 0–9, _), starting with a letter."), propertySchema),
    required: z.array(z.string()).optional(),
  })
  .strict()
  .superRefine((s, c) => {
    const names = Object.keys(s.properties);
    if (names.length > TOOL_PARAMS_MAX) c.addIssue({ code: "custom", message: `At most ${TOOL_PARAMS_MAX} parameters.` });
    for (const r of s.required ?? []) if (!names.includes(r)) c.addIssue({ code: "custom", message: `"${r}" is required but not among the properties.` });
  });
export type ToolParameters = z.infer<typeof toolParametersSchema>;

export const EMPTY_PARAMETERS: ToolParameters = { type: "object", properties: {}, required: [] };

/** Parses the parameters field (JSON text) into a schema, or one plain-words error. */
export function parseToolParameters(text: string): { ok: true; schema: ToolParameters } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (!trimmed) return { ok: true, schema: EMPTY_PARAMETERS };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { ok: false, message: "The parameters are not valid JSON." };
  }
  const parsed = toolParametersSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? ` (at ${issue.path.join(".")})` : "";
    return { ok: false, message: `${issue.message}${where}` };
  }
  return { ok: true, schema: { ...parsed.data, required: parsed.data.required ?? [] } };
}

/** `{name}` placeholders of a URL template, in order. */
export function urlPlaceholders(template: string): string[] {
  return [...template.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((m) => m[1]);
}

// ——— headers ———

/** Stored: a plain value, or a sealed one (secret; never read back to a screen). */
export type ToolHeader = { name: string; value?: string; sealed?: string };
/** Typed on the form: an empty value of a secret header that is already set keeps it. */
export type ToolHeaderInput = { name: string; value: string; secret: boolean };

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
const FORBIDDEN_HEADERS = new Set(["host", "content-length", "connection", "transfer-encoding", "cookie", "upgrade", "te", "trailer"]);

// ——— the tool form ———

export type ToolInput = {
  name: string;
  description: string;
  examples: string[];
  method: ToolMethod;
  urlTemplate: string;
  headers: ToolHeaderInput[];
  parameters: ToolParameters;
  timeoutMs: number;
  confirm: boolean;
  resultTemplate: string;
  enabled: boolean;
};

const baseSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the tool a name.")
    .max(TOOL_NAME_MAX, `At most ${TOOL_NAME_MAX} characters.`)
    .regex(/^[a-z][a-z0-9_]*$/, "Use snake_case: lowercase letters, digits and _, starting with a letter (e.g. check_booking)."),
  description: z
    .string()
    .trim()
    .min(10, "Describe what the tool does in a sentence (the model reads it to decide when to call it).")
    .max(TOOL_DESCRIPTION_MAX, `At most ${TOOL_DESCRIPTION_MAX} characters.`),
  examples: z.string().max(TOOL_EXAMPLES_MAX * (TOOL_EXAMPLE_MAX + 2), "Too many example phrases."),
  method: z.enum(TOOL_METHOD_OPTIONS, { error: "Choose a method." }),
  url: z.string().trim().min(1, "Enter the URL to call.").max(TOOL_URL_MAX, `At most ${TOOL_URL_MAX} characters.`),
  parameters: z.string().max(8000, "The parameters schema is too long."),
  timeout: z.coerce
    .number({ error: "Enter a number of seconds." })
    .int("Whole seconds.")
    .min(1, "At least 1 second.")
    .max(TOOL_TIMEOUT_MAX_S, `At most ${TOOL_TIMEOUT_MAX_S} seconds.`),
  resultTemplate: z.string().trim().max(TOOL_RESULT_TEMPLATE_MAX, `At most ${TOOL_RESULT_TEMPLATE_MAX} characters.`),
});

/** The form fields a save must carry (checkboxes are never listed: unticked ones are left out). */
export const TOOL_FORM_FIELDS = ["name", "description", "examples", "method", "url", "parameters", "timeout", "resultTemplate"] as const;

export function parseToolForm(form: FormData): FormResult<ToolInput> {
  const values = formValues(form);
  // Secret header values are never echoed back to the form.
  for (let i = 0; i < TOOL_HEADER_ROWS; i++) if (values[`headerSecret${i}`]) delete values[`headerValue${i}`];
  const errors: FieldErrors = {};
  for (const f of TOOL_FORM_FIELDS)
    if (!(f in values)) errors[f] = ["This field was not sent with the form. Reload the page and try again; nothing was saved."];
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors, values };
  const parsed = baseSchema.safeParse(Object.fromEntries(TOOL_FORM_FIELDS.map((f) => [f, String(form.get(f) ?? "")])));
  if (!parsed.success) for (const issue of parsed.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);

  const examples = String(form.get("examples") ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (examples.length > TOOL_EXAMPLES_MAX) (errors.examples ??= []).push(`At most ${TOOL_EXAMPLES_MAX} example phrases.`);
  if (examples.some((e) => e.length > TOOL_EXAMPLE_MAX)) (errors.examples ??= []).push(`Each example phrase is at most ${TOOL_EXAMPLE_MAX} characters.`);

  const params = parseToolParameters(String(form.get("parameters") ?? ""));
  if (!params.ok) (errors.parameters ??= []).push(params.message);

  const url = String(form.get("url") ?? "").trim();
  if (url && !errors.url) {
    const problem = urlTemplateProblem(url, params.ok ? params.schema : null);
    if (problem) errors.url = [problem];
  }

  const headers: ToolHeaderInput[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < TOOL_HEADER_ROWS; i++) {
    const name = String(form.get(`headerName${i}`) ?? "").trim();
    const value = String(form.get(`headerValue${i}`) ?? "");
    const secret = form.get(`headerSecret${i}`) === "on";
    if (!name && !value) continue;
    const key = `headerName${i}`;
    if (!HEADER_NAME.test(name)) errors[key] = ["Enter a header name (letters, digits and - only)."];
    else if (FORBIDDEN_HEADERS.has(name.toLowerCase())) errors[key] = [`${name} is set by Parley itself.`];
    else if (seen.has(name.toLowerCase())) errors[key] = [`${name} is listed twice.`];
    else if (/[\r\n]/.test(value) || value.length > 2000) errors[`headerValue${i}`] = ["A header value is one line of at most 2000 characters."];
    seen.add(name.toLowerCase());
    headers.push({ name, value, secret });
  }

  if (parsed.success && (BUILT_IN_TOOL_NAMES as string[]).includes(parsed.data.name))
    (errors.name ??= []).push("That is a built-in tool's name; choose another.");
  if (Object.keys(errors).length || !parsed.success || !params.ok) return { ok: false, fieldErrors: errors, values };
  return {
    ok: true,
    values,
    data: {
      name: parsed.data.name,
      description: parsed.data.description,
      examples,
      method: parsed.data.method,
      urlTemplate: parsed.data.url,
      headers,
      parameters: params.schema,
      timeoutMs: parsed.data.timeout * 1000,
      confirm: form.get("confirm") === "on",
      resultTemplate: parsed.data.resultTemplate,
      enabled: form.get("enabled") === "on",
    },
  };
}

/**
 * What is wrong with a URL template, or null: http(s) only, placeholders only after the host (a
 * visitor's words never choose where the call goes), and every placeholder a required parameter.
 */
export function urlTemplateProblem(template: string, schema: ToolParameters | null): string | null {
  if (!/^https?:\/\//i.test(template)) return "Enter a full URL starting with https:// (or http://).";
  const filled = (v: string) => template.replace(/\{([a-z][a-z0-9_]*)\}/g, v);
  let a: URL, b: URL;
  try {
    a = new URL(filled("a"));
    b = new URL(filled("b"));
  } catch {
    return "This is not a valid URL.";
  }
  if (a.origin !== b.origin || a.username || a.password)
    return "Placeholders can only be used after the address's host (in the path or query), and the URL cannot hold a user name or password.";
  if (schema) {
    const required = new Set(schema.required ?? []);
    for (const p of urlPlaceholders(template)) {
      if (!schema.properties[p]) return `{${p}} is not one of the parameters.`;
      if (!required.has(p)) return `{${p}} must be a required parameter (a URL cannot have a hole in it).`;
    }
  }
  return null;
}

export const testRunSchema = z.object({
  toolId: z.string().min(1, "Choose a tool."),
  sample: z.string().max(4000, "The sample parameters are too long."),
});

/** Sample parameters typed on the test runner: a JSON object. */
export function parseSample(text: string): { ok: true; params: Record<string, unknown> } | { ok: false; message: string } {
  if (!text.trim()) return { ok: true, params: {} };
  try {
    const v = JSON.parse(text);
    if (v && typeof v === "object" && !Array.isArray(v)) return { ok: true, params: v as Record<string, unknown> };
  } catch {
    /* below */
  }
  return { ok: false, message: 'Enter the sample parameters as a JSON object, e.g. {"booking_id": "B-1042"}.' };
}
