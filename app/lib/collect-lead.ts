import type { LeadFormSettings } from "./schemas/widget-settings";

// The bot's "collect lead" step: a reply may carry it to ask the visitor for their contact details
// with the chatbot's lead form (fields and required-ness from Look & feel → Lead form). The chat API
// sends it as a `data-collect-lead` part of the UI message stream and as `message.collectLead` in
// the JSON reply; the widget renders its lead form under the reply, and a client of the API can
// render the form from the fields alone. Client-safe: the server, the widget and the docs share it.

/**
 * Why the bot asks: the visitor showed buying intent (a price, a quote, a demo, to be contacted),
 * the bot did not know the answer, or a configured model decided to (the collect_lead tool).
 */
export const COLLECT_LEAD_REASONS = ["intent", "fallback", "tool"] as const;
export type CollectLeadReason = (typeof COLLECT_LEAD_REASONS)[number];

export type CollectLeadField = {
  /** "name", "email", "phone", or "custom.<label>" — the key the lead form and POST …/leads use. */
  key: string;
  label: string;
  type: "text" | "email" | "tel";
  required: boolean;
};

export type CollectLeadStep = { type: "collect-lead"; reason: CollectLeadReason; title: string; fields: CollectLeadField[] };

/** The lead form's fields, in order, with what the settings require. */
export function leadFormFields(form: Pick<LeadFormSettings, "name" | "email" | "phone" | "custom">): CollectLeadField[] {
  const fields: CollectLeadField[] = [];
  if (form.name !== "off") fields.push({ key: "name", label: "Name", type: "text", required: form.name === "required" });
  if (form.email !== "off") fields.push({ key: "email", label: "Email", type: "email", required: form.email === "required" });
  if (form.phone !== "off") fields.push({ key: "phone", label: "Phone", type: "tel", required: form.phone === "required" });
  for (const f of form.custom) fields.push({ key: `custom.${f.label}`, label: f.label, type: "text", required: f.required });
  return fields;
}

/** Reads a step sent by the server (a stream part's data), or null when it is not one. */
export function readCollectLeadStep(data: unknown): CollectLeadStep | null {
  if (!data || typeof data !== "object") return null;
  const s = data as Partial<CollectLeadStep>;
  if (s.type !== "collect-lead" || typeof s.title !== "string" || !Array.isArray(s.fields)) return null;
  if (!COLLECT_LEAD_REASONS.includes(s.reason as CollectLeadReason)) return null;
  return s as CollectLeadStep;
}
