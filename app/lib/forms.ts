import type { z } from "zod";

export type FieldErrors = Record<string, string[]>;

export type FormResult<T> =
  | { ok: true; data: T; values: Record<string, string> }
  | { ok: false; fieldErrors: FieldErrors; values: Record<string, string> };

/** Values echoed back to the form after an error: everything but secrets. */
export function formValues(form: FormData, omit: string[] = ["password", "confirm", "currentPassword"]) {
  const values: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !omit.includes(k)) values[k] = v;
  return values;
}

export function parseForm<S extends z.ZodType>(schema: S, form: FormData): FormResult<z.output<S>> {
  const raw: Record<string, unknown> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string") raw[k] = v;
  const values = formValues(form);
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
