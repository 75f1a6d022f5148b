import { z } from "zod";
import type { FieldErrors } from "./forms";

// Notifications, client-safe: the events a destination can receive, their labels, and the forms of
// settings/notifications. The server side is app/.server/notifications.

export const NOTIFICATION_EVENT_TYPES = ["lead.created", "handoff.requested", "bug_report.created", "digest.daily", "usage.threshold"] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];
/** Every event type a delivery can carry ("test" is only ever sent by "Send test event"). */
export type DeliveryEventType = NotificationEventType | "test";

export const NOTIFICATION_EVENT_LABELS: Record<DeliveryEventType, string> = {
  "lead.created": "New lead",
  "handoff.requested": "Human requested",
  "bug_report.created": "Bug report",
  "digest.daily": "Daily digest",
  "usage.threshold": "Plan usage at 80 % and 100 %",
  test: "Test event",
};

export const NOTIFICATION_EVENT_HINTS: Record<NotificationEventType, string> = {
  "lead.created": "A visitor leaves contact details (a repeat of a known email updates that lead and is not sent again).",
  "handoff.requested": "A visitor asks to talk to a person.",
  "bug_report.created": "A visitor reports a problem with an answer.",
  "digest.daily": "Yesterday's numbers for this chatbot, each morning at 08:00 in the organisation's time zone.",
  "usage.threshold": "The organisation has used 80 %, then 100 %, of its plan's bot replies this period (once each per period).",
};

export const DESTINATION_KINDS = ["member", "email", "webhook", "slack"] as const;
export type DestinationFormKind = (typeof DESTINATION_KINDS)[number];

export const DESTINATION_KIND_LABELS: Record<DestinationFormKind, string> = {
  member: "Email a member",
  email: "Email another address",
  webhook: "Webhook (signed HTTP POST)",
  slack: "Slack incoming webhook",
};

/** Most destinations one chatbot may have. */
export const DESTINATIONS_PER_CHATBOT = 20;

const eventsField = z
  .array(z.enum(NOTIFICATION_EVENT_TYPES, { error: "Choose events from the list." }))
  .min(1, "Choose at least one event.")
  .transform((events) => NOTIFICATION_EVENT_TYPES.filter((e) => events.includes(e)));

const emailField = z
  .string({ error: "Enter an email address." })
  .trim()
  .min(1, "Enter an email address.")
  .max(254, "Use at most 254 characters.")
  .pipe(z.email("Enter an email address like ops@example.com."))
  .transform((e) => e.toLowerCase());

const urlField = z.string({ error: "Enter the URL." }).trim().min(1, "Enter the URL.").max(2000, "Use at most 2,000 characters.");

export const addDestinationSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("member"), userId: z.string({ error: "Choose a member." }).trim().min(1, "Choose a member."), events: eventsField }),
    z.object({ kind: z.literal("email"), email: emailField, events: eventsField }),
    z.object({ kind: z.literal("webhook"), url: urlField, events: eventsField }),
    z.object({ kind: z.literal("slack"), url: urlField, events: eventsField }),
  ],
  { error: "Choose what kind of destination to add." },
);
export type AddDestinationInput = z.output<typeof addDestinationSchema>;

export const updateEventsSchema = z.object({ destinationId: z.string().min(1).max(64), events: eventsField });
export const destinationIdSchema = z.object({ destinationId: z.string().min(1).max(64) });
export const deliveryIdSchema = z.object({ deliveryId: z.string().min(1).max(64) });

/** The checkbox of one event in a destination form (ticked: present). */
export const eventFieldName = (type: NotificationEventType) => `event.${type}`;

/** The form as an object zod can read: `events` lists the ticked event checkboxes. */
export function notificationFormInput(form: FormData): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !k.startsWith("event.")) raw[k] = v;
  raw.events = NOTIFICATION_EVENT_TYPES.filter((t) => form.has(eventFieldName(t)));
  return raw;
}

export function parseNotificationForm<S extends z.ZodType>(
  schema: S,
  form: FormData,
): { ok: true; data: z.output<S>; values: Record<string, string> } | { ok: false; fieldErrors: FieldErrors; values: Record<string, string> } {
  const raw = notificationFormInput(form);
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) values[k] = Array.isArray(v) ? v.join(",") : String(v);
  for (const [k, v] of form.entries()) if (typeof v === "string" && k.startsWith("event.")) values[k] = v;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data, values };
  const fieldErrors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : "kind";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return { ok: false, fieldErrors, values };
}
