import type { z } from "zod";

export type FieldErrors = Record<string, string[]>;

export type FormResult<T> = { ok: true; data: T; values: Record<string, string> } | { ok: false; fieldErrors: FieldErrors; values: Record<string, string> };

/** Values echoed back to the form after an error: everything but secrets. */
export function formValues(form: FormData, omit: string[] = ["password", "confirm", "currentPassword"]) {
  const values: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !omit.includes(k)) values[k] = v;
  return values;
}

export const NOT_SENT_MESSAGE = "This field was not sent with the form. Reload the page and try again; nothing was saved.";

/**
 * An error for each of `names` that the post does not carry at all. An empty value counts as sent
 * (clearing a field is a choice); a missing one means a broken or forged post, which must not
 * reset the setting to its default. Checkboxes are never listed: browsers leave unticked ones out.
 */
export function missingFields(values: Record<string, string>, names: readonly string[]): FieldErrors | null {
  const errors: FieldErrors = {};
  for (const name of names) if (!(name in values)) errors[name] = [NOT_SENT_MESSAGE];
  return Object.keys(errors).length ? errors : null;
}

/** Validates a form; with `sent`, those fields must be present in the post (see missingFields). */
export function parseForm<S extends z.ZodType>(schema: S, form: FormData, sent: readonly string[] = []): FormResult<z.output<S>> {
  const raw: Record<string, unknown> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string") raw[k] = v;
  const values = formValues(form);
  const missing = missingFields(raw as Record<string, string>, sent);
  if (missing) return { ok: false, fieldErrors: missing, values };
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data, values };
  const fieldErrors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : "_form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return { ok: false, fieldErrors, values };
}

/** What a multi-form page's action returns: which form (intent), a banner, and field errors with the typed values. */
export type FormReply<Extra extends object = Record<never, never>> = {
  intent: string | null;
  tone: "success" | "warning" | "error" | null;
  message: string | null;
  fieldErrors: FieldErrors;
  values: Record<string, string>;
} & Extra;
