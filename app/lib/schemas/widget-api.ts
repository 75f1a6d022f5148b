import { z } from "zod";
import { visitorHashSchema, visitorIdSchema } from "./chat";
import type { LeadFormSettings, UiSettings } from "./widget-settings";

// The widget's own endpoints under /api/widget/{chatbotId}/… (workers/api/widget.ts), shared by the
// server and the widget. Every error is `{ error: { code, message } }`.

/** GET /api/widget/{chatbotId}/config — what the loader and the chat UI need, nothing secret. */
export type WidgetConfig = {
  chatbotId: string;
  /** Header title: ui.displayName or the chatbot's name. */
  name: string;
  ui: Omit<UiSettings, "removeBranding">;
  /** false only when the plan allows removing branding and the owner removed it. */
  showBranding: boolean;
  requireVerified: boolean;
  /** Voice in the chat (a microphone button): null unless switched on and allowed by the plan. */
  voice?: WidgetVoice | null;
  /** Content hash of the chat UI bundle; the loader appends it to the iframe URL for caching. */
  version: string;
};

/** What the widget's microphone needs from the voice settings (never the phone fields). */
export type WidgetVoice = { engine: "browser" | "openai"; voice: string; speed: number; language: string };

/** HMAC-SHA256(secret, visitorId) as lowercase hex (defined beside the chat request that carries it). */
export { visitorHashSchema };

const leadFieldValue = z.string().trim().max(200, "Use at most 200 characters.");

/** POST /api/widget/{chatbotId}/leads */
/** Sent by the widget when the host page identified the visitor (identity verification). */
const optionalHash = visitorHashSchema.optional();

export const leadInputSchema = z.object({
  visitorId: visitorIdSchema,
  visitorHash: optionalHash,
  conversationId: z.string().trim().min(1).max(64).optional(),
  /** The bot reply whose "collect lead" step the visitor answered (app/lib/collect-lead.ts): the lead's source is the bot. */
  stepMessageId: z.string().trim().min(1).max(64).optional(),
  name: leadFieldValue.optional(),
  email: z.union([z.literal(""), z.string().trim().max(254, "Use at most 254 characters.").email("Enter a valid email address.")]).optional(),
  phone: z
    .union([
      z.literal(""),
      z
        .string()
        .trim()
        .max(40, "Use at most 40 characters.")
        .regex(/^[+()0-9 .-]{5,40}$/, "Enter a valid phone number."),
    ])
    .optional(),
  /** Answers to the custom fields, keyed by their label. */
  custom: z.record(z.string().max(40), leadFieldValue).optional(),
});
export type LeadInput = z.infer<typeof leadInputSchema>;

/** Required-field check against the chatbot's lead form settings; returns field → message. */
export function missingLeadFields(input: LeadInput, form: LeadFormSettings): Record<string, string> {
  const errors: Record<string, string> = {};
  if (form.name === "required" && !input.name) errors.name = "Enter your name.";
  if (form.email === "required" && !input.email) errors.email = "Enter your email address.";
  if (form.phone === "required" && !input.phone) errors.phone = "Enter your phone number.";
  for (const f of form.custom) if (f.required && !input.custom?.[f.label]?.trim()) errors[`custom.${f.label}`] = `Enter ${f.label.toLowerCase()}.`;
  if (!input.name && !input.email && !input.phone && !Object.values(input.custom ?? {}).some(Boolean)) errors.form = "Fill in at least one field.";
  return errors;
}

/** POST /api/widget/{chatbotId}/feedback — thumbs on one bot message (null clears). */
export const feedbackInputSchema = z.object({
  visitorId: visitorIdSchema,
  visitorHash: optionalHash,
  messageId: z.string().trim().min(1).max(64),
  value: z.union([z.literal(1), z.literal(-1), z.null()]),
});

/** POST /api/widget/{chatbotId}/bug-reports — "report a problem" on a bot message. */
export const bugReportInputSchema = z.object({
  visitorId: visitorIdSchema,
  visitorHash: optionalHash,
  messageId: z.string().trim().min(1).max(64).optional(),
  comment: z.string().trim().min(1, "Tell us what was wrong.").max(1000, "Use at most 1000 characters."),
});

/** POST /api/widget/{chatbotId}/handoff — "talk to a human". */
export const handoffInputSchema = z.object({
  visitorId: visitorIdSchema,
  visitorHash: optionalHash,
  conversationId: z.string().trim().min(1).max(64).optional(),
});

// ——— postMessage protocol between the loader (host page) and the iframe ———
// Every message is `{ parley: 1, type, ...payload }`. The loader only accepts messages whose
// event.source is its iframe and event.origin is Parley's origin; the iframe only accepts messages
// from window.parent whose origin is the (server-checked) host origin, and posts with that
// targetOrigin. The dashboard's UI preview is a parent with Parley's own origin. The loader adds
// `page` (the host page's origin and path, never its query) to every message: agents see it.
export type HostToFrame = { page?: string } & (
  | { parley: 1; type: "identify"; id: string; hash?: string; name?: string; email?: string }
  | { parley: 1; type: "opened" }
  | { parley: 1; type: "preview-settings"; ui: UiSettings; name: string }
);
export type FrameToHost =
  | { parley: 1; type: "ready" }
  /** The frame's visitor id, for the loader to keep in the host page's own storage and hand back as
   * `?vid=` on the next iframe URL: browsers that block storage in third-party iframes would
   * otherwise forget the visitor (and their conversation) on every page load. */
  | { parley: 1; type: "visitor"; id: string }
  | { parley: 1; type: "close" }
  | { parley: 1; type: "lead"; lead: { name?: string; email?: string; phone?: string } }
  | { parley: 1; type: "message"; message: { role: "visitor" | "bot"; content: string } };
