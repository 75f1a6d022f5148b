import { z } from "zod";

// The "ui" (look & feel) and "access" (origins & access) sections of chatbots.settings.
// Client-safe: the settings forms, the widget config endpoint and the widget share these.

const THEMES = ["auto", "light", "dark"] as const;
const POSITIONS = ["bottom-right", "bottom-left"] as const;
/**
 * When the in-chat lead form appears. The default is "on-intent": the bot offers it when the visitor
 * asks for a price, a quote, a demo or to be contacted (ai/buying-intent.ts), and when it does not
 * know — the default fallback message asks the visitor to leave their contact, so the form must be
 * there when it does.
 */
export const LEAD_TIMINGS = [
  { value: "on-intent", label: "On buying intent or when the bot does not know" },
  { value: "on-fallback", label: "When the bot does not know" },
  { value: "after-first-answer", label: "After the first answer" },
  { value: "before-chat", label: "Before the first message" },
  { value: "off", label: "Never" },
] as const;
export const DEFAULT_LEAD_TIMING = "on-intent";
export const LEAD_FIELD_MODES = ["off", "optional", "required"] as const;

export const WELCOME_MAX = 5;
export const SUGGESTED_MAX = 6;
export const CUSTOM_LEAD_FIELDS_MAX = 3;
export const DEFAULT_BRAND_COLOR = "#4f46e5";

const hexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "Use a colour like #4f46e5.")
  .transform((v) => v.toLowerCase());

const httpsUrlOrEmpty = z
  .string()
  .trim()
  .max(500, "Use a shorter address.")
  .refine((v) => v === "" || /^https:\/\/[^\s"'<>]+$/i.test(v), "Use an https:// image address, or leave it empty.");

const fieldMode = z.enum(LEAD_FIELD_MODES);

export const leadFormSchema = z.object({
  timing: z.enum(["off", "before-chat", "after-first-answer", "on-fallback", "on-intent"]).default(DEFAULT_LEAD_TIMING),
  title: z.string().trim().max(80, "Use at most 80 characters.").default("Leave your details and we will get back to you."),
  name: fieldMode.default("optional"),
  email: fieldMode.default("required"),
  phone: fieldMode.default("off"),
  /** Extra free-text questions ("Company", "Order number"…). */
  custom: z
    .array(z.object({ label: z.string().trim().min(1, "Enter a label.").max(40, "Use at most 40 characters."), required: z.boolean().default(false) }))
    .max(CUSTOM_LEAD_FIELDS_MAX, `Use at most ${CUSTOM_LEAD_FIELDS_MAX} extra fields.`)
    .default([]),
});
export type LeadFormSettings = z.output<typeof leadFormSchema>;

export const uiSettingsSchema = z.object({
  theme: z.enum(THEMES).default("auto"),
  brandColor: hexColor.default(DEFAULT_BRAND_COLOR),
  avatarUrl: httpsUrlOrEmpty.default(""),
  /** Shown in the chat header; empty = the chatbot's name. */
  displayName: z.string().trim().max(40, "Use at most 40 characters.").default(""),
  position: z.enum(POSITIONS).default("bottom-right"),
  welcomeMessages: z
    .array(z.string().trim().min(1).max(300, "Keep each welcome message under 300 characters."))
    .max(WELCOME_MAX, `Use at most ${WELCOME_MAX} welcome messages.`)
    .default(["Hi! How can I help you today?"]),
  /** The first welcome message as a small bubble beside the closed launcher on the host page. */
  welcomeBubble: z.boolean().default(true),
  suggestedQuestions: z
    .array(z.string().trim().min(1).max(120, "Keep each suggested question under 120 characters."))
    .max(SUGGESTED_MAX, `Use at most ${SUGGESTED_MAX} suggested questions.`)
    .default([]),
  placeholder: z.string().trim().max(80, "Use at most 80 characters.").default("Ask a question…"),
  showSources: z.boolean().default(true),
  leadForm: leadFormSchema.default(leadFormSchema.parse({})),
  /** Offer "Talk to a human": marks the conversation as waiting for a person (shown in the conversation list). */
  humanHandoff: z.boolean().default(false),
  /** Hide "Powered by Parley" (only honoured on plans with removeBranding). */
  removeBranding: z.boolean().default(false),
});
export type UiSettings = z.output<typeof uiSettingsSchema>;
export const DEFAULT_UI_SETTINGS: UiSettings = uiSettingsSchema.parse({});

/**
 * What a visitor can do after the bot's fallback message ("I don't know"), in words for the
 * settings screens: the General fallback message and the Look & feel lead form and handoff say it,
 * so an owner never writes a fallback that promises something the widget does not offer.
 */
export function fallbackOffers(ui: Pick<UiSettings, "leadForm" | "humanHandoff">): { leadForm: boolean; human: boolean; summary: string } {
  const timing = ui.leadForm.timing;
  const leadForm = timing === "on-intent" || timing === "on-fallback" || timing === "after-first-answer";
  const human = ui.humanHandoff;
  const form = timing === "before-chat" ? "they have already left their contact details (the form is asked before the first message)" : "the contact form";
  const summary =
    leadForm && human
      ? "After the fallback message, the visitor is offered the contact form and can press “Talk to a human”."
      : leadForm
        ? "After the fallback message, the visitor is offered the contact form."
        : timing === "before-chat"
          ? `After the fallback message, ${human ? "the visitor can press “Talk to a human”, and " : ""}${form}.`
          : human
            ? "After the fallback message, the visitor can press “Talk to a human” (the contact form is set to “Never”)."
            : "After the fallback message, nothing else is offered: the contact form is set to “Never” and “Talk to a human” is off (Look & feel). Do not ask visitors to leave their contact, or turn one of them on.";
  const intent = timing === "on-intent" ? " It is also offered under the answer when the visitor asks for a price, a quote, a demo or a call." : "";
  return { leadForm: leadForm || timing === "before-chat", human, summary: summary + intent };
}

export const ORIGINS_MAX = 50;
export const RATE_PER_MINUTE_MAX = 120;
export const RATE_PER_HOUR_MAX = 5000;

export const accessSettingsSchema = z.object({
  /** Normalised origin patterns (see normaliseOriginPattern); empty = any site may embed the bot. */
  allowedOrigins: z.array(z.string()).max(ORIGINS_MAX).default([]),
  rateLimitPerMinute: z.number().int().min(1).max(RATE_PER_MINUTE_MAX).default(10),
  rateLimitPerHour: z.number().int().min(1).max(RATE_PER_HOUR_MAX).default(100),
  /** Refuse visitors whose id is not signed with the identity secret. */
  requireVerified: z.boolean().default(false),
});
export type AccessSettings = z.output<typeof accessSettingsSchema>;
const DEFAULT_ACCESS_SETTINGS: AccessSettings = accessSettingsSchema.parse({});

/** A section of chatbots.settings, tolerant of missing or old data: invalid fields fall back to defaults. */
function readSection<S extends z.ZodObject>(settings: unknown, key: string, schema: S, defaults: z.output<S>): z.output<S> {
  const section = settings && typeof settings === "object" ? (settings as Record<string, unknown>)[key] : undefined;
  if (!section || typeof section !== "object") return structuredClone(defaults);
  const raw = section as Record<string, unknown>;
  const out: Record<string, unknown> = structuredClone(defaults) as Record<string, unknown>;
  for (const [field, fieldSchema] of Object.entries(schema.shape)) {
    if (!(field in raw)) continue;
    const parsed = (fieldSchema as z.ZodType).safeParse(raw[field]);
    if (parsed.success) out[field] = parsed.data;
  }
  return out as z.output<S>;
}

export const readUiSettings = (settings: unknown): UiSettings => readSection(settings, "ui", uiSettingsSchema, DEFAULT_UI_SETTINGS);
export const readAccessSettings = (settings: unknown): AccessSettings => readSection(settings, "access", accessSettingsSchema, DEFAULT_ACCESS_SETTINGS);

// ——— Origin patterns ———
// Stored as `[scheme://]host[:port]` where host may start with `*.`; the same text is a valid CSP
// source expression, so frame-ancestors is built from it directly. Only [a-z0-9.-] hosts are
// accepted, which also keeps anything that could inject into a header out.

const PATTERN_RE = /^(?:(https?):\/\/)?(\*\.)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::(\d{1,5}))?$/;

/**
 * "https://Shop.Example.com/path" → "https://shop.example.com"; "*.example.com" stays; "example.com"
 * matches both http and https. Returns null (with no partial result) for anything else.
 */
export function normaliseOriginPattern(input: string): string | null {
  let v = input.trim().toLowerCase();
  if (!v) return null;
  // Tolerate a pasted URL: drop path, query and fragment.
  v = v.replace(/^([a-z]+:\/\/[^/?#]+)[/?#].*$/, "$1").replace(/\/+$/, "");
  const m = PATTERN_RE.exec(v);
  if (!m) return null;
  const [, scheme, wildcard, host, port] = m;
  if (port && (Number(port) < 1 || Number(port) > 65535)) return null;
  if (wildcard && !host.includes(".")) return null; // "*.com" would allow a whole TLD
  // Browsers leave the scheme's default port out of Origin: "https://a.com:443" must match "https://a.com".
  const keepPort = port && !((scheme === "https" && port === "443") || (scheme === "http" && port === "80"));
  return `${scheme ? `${scheme}://` : ""}${wildcard ?? ""}${host}${keepPort ? `:${port}` : ""}`;
}

/** Whether a browser Origin header value (e.g. "https://shop.example.com") matches one of the patterns. */
export function originMatches(origin: string, patterns: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  const scheme = url.protocol.slice(0, -1);
  const host = url.hostname.toLowerCase();
  const port = url.port; // "" for the scheme's default port
  for (const pattern of patterns) {
    const m = PATTERN_RE.exec(pattern);
    if (!m) continue;
    const [, pScheme, wildcard, pHost, pPort] = m;
    if (pScheme && pScheme !== scheme) continue;
    if ((pPort ?? "") !== port) continue;
    if (wildcard ? host.endsWith(`.${pHost}`) : host === pHost) return true;
  }
  return false;
}

/** Any site may embed the bot when no origin is listed. */
export function isOriginAllowed(origin: string | null | undefined, access: Pick<AccessSettings, "allowedOrigins">): boolean {
  if (access.allowedOrigins.length === 0) return true;
  if (!origin) return false;
  return originMatches(origin, access.allowedOrigins);
}

/** The frame-ancestors directive for the widget iframe: Parley itself (previews) plus the allowed origins. */
export function frameAncestors(access: Pick<AccessSettings, "allowedOrigins">): string {
  if (access.allowedOrigins.length === 0) return "frame-ancestors *";
  const valid = access.allowedOrigins.filter((p) => PATTERN_RE.test(p));
  return `frame-ancestors 'self' ${valid.join(" ")}`.trim();
}
