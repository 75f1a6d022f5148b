import { z } from "zod";
import { missingFields, type FieldErrors } from "../forms";
import {
  accessSettingsSchema,
  normaliseOriginPattern,
  ORIGINS_MAX,
  RATE_PER_HOUR_MAX,
  RATE_PER_MINUTE_MAX,
  readUiSettings,
  uiSettingsSchema,
  type AccessSettings,
  type UiSettings,
} from "./widget-settings";

// The HTML forms of settings/ui, settings/oryg and settings/embed. The stored sections are defined
// in widget-settings.ts; this maps flat form fields onto them. Client-safe: the ui page builds its
// live preview from the same mapping.

type Values = Record<string, string>;

export type SettingsFormResult<T> = { ok: true; data: T; values: Values } | { ok: false; fieldErrors: FieldErrors; values: Values };

function toValues(form: FormData | Values): Values {
  if (!(form instanceof FormData)) return { ...form };
  const values: Values = {};
  for (const [k, v] of form.entries()) if (typeof v === "string") values[k] = v;
  return values;
}

/**
 * The items of a list sent as `prefix.0`, `prefix.1`… (the index need not be contiguous), in index
 * order, with the input each came from; blank items are skipped unless `keepBlank`.
 */
export function listItems(values: Values, prefix: string, suffix = "", keepBlank = false): { name: string; index: number; value: string }[] {
  const re = new RegExp(`^${prefix.replace(/\./g, "\\.")}\\.(\\d+)${suffix.replace(/\./g, "\\.")}$`);
  return Object.keys(values)
    .map((name) => ({ name, m: re.exec(name) }))
    .filter((x): x is { name: string; m: RegExpExecArray } => !!x.m)
    .sort((a, b) => Number(a.m[1]) - Number(b.m[1]))
    .map(({ name, m }) => ({ name, index: Number(m[1]), value: values[name] }))
    .filter((x) => keepBlank || x.value.trim() !== "");
}

const checked = (values: Values, name: string) => values[name] === "on";

/**
 * The ui section as the form describes it, plus where each list item came from so an error on
 * item n is shown at the input that holds it (blank inputs are skipped, which shifts indexes).
 */
function uiDraft(values: Values) {
  const welcome = listItems(values, "welcomeMessages");
  const suggested = listItems(values, "suggestedQuestions");
  const custom = listItems(values, "leadForm.custom", ".label");
  const draft = {
    theme: values.theme,
    brandColor: values.brandColor,
    avatarUrl: values.avatarUrl ?? "",
    displayName: values.displayName ?? "",
    position: values.position,
    welcomeMessages: welcome.map((w) => w.value),
    welcomeBubble: checked(values, "welcomeBubble"),
    suggestedQuestions: suggested.map((s) => s.value),
    placeholder: values.placeholder ?? "",
    showSources: checked(values, "showSources"),
    leadForm: {
      timing: values["leadForm.timing"],
      title: values["leadForm.title"] ?? "",
      name: values["leadForm.name"],
      email: values["leadForm.email"],
      phone: values["leadForm.phone"],
      custom: custom.map((c) => ({ label: c.value, required: checked(values, `leadForm.custom.${c.index}.required`) })),
    },
    humanHandoff: checked(values, "humanHandoff"),
    removeBranding: checked(values, "removeBranding"),
  };
  const sources: Record<string, string[]> = {
    welcomeMessages: welcome.map((w) => w.name),
    suggestedQuestions: suggested.map((s) => s.name),
    "leadForm.custom": custom.map((c) => `leadForm.custom.${c.index}`),
  };
  return { draft, sources };
}

/** The field an issue belongs to, named like the form input ("welcomeMessages.3", "leadForm.custom.1.label"). */
function fieldKey(path: PropertyKey[], sources: Record<string, string[]>): string {
  const parts = path.map(String);
  for (const [list, names] of Object.entries(sources)) {
    const depth = list.split(".").length;
    if (parts.slice(0, depth).join(".") === list && parts.length > depth) {
      const name = names[Number(parts[depth])];
      if (name) return [name, ...parts.slice(depth + 1)].join(".");
    }
  }
  return parts.join(".") || "_form";
}

/** The settings/ui inputs every save must carry (lists and checkboxes may be absent). */
export const UI_FORM_FIELDS = [
  "theme",
  "brandColor",
  "avatarUrl",
  "displayName",
  "position",
  "placeholder",
  "leadForm.timing",
  "leadForm.title",
  "leadForm.name",
  "leadForm.email",
  "leadForm.phone",
] as const;

/** Validates the settings/ui form: the ui section, or field errors keyed by input name. */
export function parseUiSettingsForm(form: FormData | Values): SettingsFormResult<UiSettings> {
  const values = toValues(form);
  const missing = missingFields(values, UI_FORM_FIELDS);
  if (missing) return { ok: false, fieldErrors: missing, values };
  const { draft, sources } = uiDraft(values);
  const parsed = uiSettingsSchema.safeParse(draft);
  if (parsed.success) return { ok: true, data: parsed.data, values };
  const fieldErrors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = fieldKey(issue.path, sources);
    const message = issue.code === "invalid_value" ? "Choose one of the options." : issue.message;
    (fieldErrors[key] ??= []).push(message);
  }
  return { ok: false, fieldErrors, values };
}

/** The preview's best reading of a form being edited: each invalid field falls back to its default. */
export function previewUiSettings(form: FormData | Values): UiSettings {
  return readUiSettings({ ui: uiDraft(toValues(form)).draft });
}

// ——— Origins & access ———

/** The settings/oryg "save" inputs every save must carry ("require verified" is a checkbox). */
export const ACCESS_FORM_FIELDS = ["visibility", "allowedOrigins", "rateLimitPerMinute", "rateLimitPerHour"] as const;

/** One origin pattern per line; blank lines are ignored, duplicates kept once. */
const allowedOriginsField = z
  .string()
  .max(20_000, "Use fewer lines.")
  .default("")
  .transform((text, ctx) => {
    const patterns: string[] = [];
    text.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      const pattern = normaliseOriginPattern(line);
      if (!pattern) {
        const shown = line.trim().length > 80 ? `${line.trim().slice(0, 80)}…` : line.trim();
        ctx.addIssue({
          code: "custom",
          message: `Line ${i + 1}: “${shown}” is not a website origin. Use a host like shop.example.com, https://shop.example.com or *.example.com.`,
        });
      } else if (!patterns.includes(pattern)) patterns.push(pattern);
    });
    if (patterns.length > ORIGINS_MAX) ctx.addIssue({ code: "custom", message: `List at most ${ORIGINS_MAX} origins.` });
    return patterns;
  });

const wholeNumber = (max: number) => {
  const message = `Enter a whole number from 1 to ${max}.`;
  return z
    .string({ error: message })
    .trim()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(1, message).max(max, message));
};

const VISIBILITIES = ["public", "private"] as const;

export const accessFormSchema = z
  .object({
    visibility: z.enum(VISIBILITIES, { error: "Choose public or private." }),
    allowedOrigins: allowedOriginsField,
    rateLimitPerMinute: wholeNumber(RATE_PER_MINUTE_MAX),
    rateLimitPerHour: wholeNumber(RATE_PER_HOUR_MAX),
    requireVerified: z
      .literal("on")
      .optional()
      .transform((v) => v === "on"),
  })
  .superRefine((v, ctx) => {
    if (v.rateLimitPerHour < v.rateLimitPerMinute) {
      ctx.addIssue({ code: "custom", path: ["rateLimitPerHour"], message: "The hourly limit cannot be lower than the per-minute limit." });
    }
  })
  .transform(({ visibility, ...access }) => ({ visibility, access: accessSettingsSchema.parse(access) as AccessSettings }));

// ——— API keys ———

export const createApiKeySchema = z.object({
  intent: z.literal("create-key"),
  name: z.string({ error: "Enter a name for the key." }).trim().min(1, "Enter a name for the key.").max(60, "Use at most 60 characters."),
});
export const revokeApiKeySchema = z.object({ intent: z.literal("revoke-key"), keyId: z.string().trim().min(1).max(64) });

// ——— Sites seen on Origins & access ———

/** "Allow this site": the site as recorded (an origin like https://shop.example.com). */
export const allowSiteSchema = z.object({
  site: z.string({ error: "Choose a site to allow." }).trim().min(1, "Choose a site to allow.").max(300, "That is not a website origin."),
});
