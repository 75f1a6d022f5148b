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

/**
 * What the page keeps of its last form reply. Remix drops `useActionData` on every revalidation
 * (polling, a fetcher, another tab's focus), which made errors vanish a second after they were
 * shown; the page instead keeps the reply it was given until something the user did replaces it.
 */
export type KeptReply<T> = {
  /** The reply the page shows (undefined: none). */
  reply: T | undefined;
  /** The last reply object seen from the router, so a revalidation that drops it is not mistaken for a new one. */
  seen: T | undefined;
  /** The page (path + query) the reply belongs to. */
  where: string;
  /** A form was being submitted on the previous render. */
  submitting: boolean;
};

export type ReplyInput<T> = {
  /** The router's action data right now (undefined after any revalidation). */
  actionData: T | undefined;
  /** Path + query of the page right now. */
  where: string;
  /** A non-GET navigation (a form post) is in flight. */
  submitting: boolean;
};

/**
 * The next kept reply: a new reply replaces the kept one; a finished submission without a reply
 * (it redirected) or going to another page clears it; a revalidation that only drops the action
 * data keeps it. Returns `prev` unchanged when nothing changed (so React can skip a re-render).
 */
export function nextKeptReply<T>(prev: KeptReply<T>, input: ReplyInput<T>): KeptReply<T> {
  const { actionData, where, submitting } = input;
  let next: KeptReply<T>;
  if (actionData !== undefined && actionData !== prev.seen) next = { reply: actionData, seen: actionData, where, submitting };
  else if (prev.submitting && !submitting) next = { reply: actionData, seen: actionData, where, submitting };
  else if (where !== prev.where) next = { reply: undefined, seen: actionData, where, submitting };
  else next = { ...prev, submitting };
  return next.reply === prev.reply && next.seen === prev.seen && next.where === prev.where && next.submitting === prev.submitting ? prev : next;
}
