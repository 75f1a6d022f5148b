import { data } from "@remix-run/cloudflare";
import type { FieldErrors, FormReply } from "~/lib/forms";
import { failureStatus, type Failure } from "../failure";

// The one way an action answers its form: which form (intent), a banner, and field errors with the
// typed values. A domain Failure becomes a field error when it names a field, otherwise a banner.

export const CHECK_FIELDS = "Check the highlighted fields.";

export function formReply<Extra extends object = Record<never, never>>(intent: string | null, status: number, reply: Partial<FormReply<Extra>> = {}) {
  return data({ intent, tone: null, message: null, fieldErrors: {} as FieldErrors, values: {}, ...reply } as FormReply<Extra>, { status });
}

/** `banner`: what the page says above a field error (default: CHECK_FIELDS). */
export function failureReply<Extra extends object = Record<never, never>>(
  intent: string | null,
  failure: Failure,
  values: Record<string, string> = {},
  banner = CHECK_FIELDS,
) {
  // A refusal shown at a field is a form error (400) whatever its cause; otherwise the failure's status.
  return formReply<Extra>(intent, failure.field ? 400 : failureStatus(failure.code), {
    tone: "error",
    message: failure.field ? banner : failure.message,
    fieldErrors: failure.field ? { [failure.field]: [failure.message] } : {},
    values,
  } as Partial<FormReply<Extra>>);
}
