// The one shape of a refused domain operation. Domain functions return it instead of throwing or
// choosing HTTP statuses; pages turn it into a field error or an error screen, the API into
// `{ error: { code, message } }` with `failureStatus(code)`. Nothing decides what an error is by
// reading its message.

const FAILURE_STATUS = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  plan_required: 403,
  not_found: 404,
  conflict: 409,
  limit_reached: 409,
  /** A plan limit stops this (knowledge characters, file size, crawl pages): raise the plan. */
  plan_limit: 403,
  rate_limited: 429,
  /** The plan's monthly bot replies are used up. */
  reply_limit_reached: 429,
  /** The configured language model failed. */
  model_error: 502,
  /** Another service the request depends on (e.g. Twilio) could not be reached or refused. */
  upstream_error: 502,
} as const;

export type FailureCode = keyof typeof FAILURE_STATUS;

export type Failure = {
  code: FailureCode;
  /** Plain words for the person who asked, safe to show as is. */
  message: string;
  /** The form field the failure belongs to, when it is about one. */
  field?: string;
  /** A finer, machine-readable reason a page can act on (e.g. "private_address": offer pasting the text instead). */
  reason?: string;
};

export type Result<T> = ({ ok: true } & T) | ({ ok: false } & Failure);

export function fail(code: FailureCode, message: string, field?: string): { ok: false } & Failure {
  return field ? { ok: false, code, message, field } : { ok: false, code, message };
}

export function failureStatus(code: FailureCode): (typeof FAILURE_STATUS)[FailureCode] {
  return FAILURE_STATUS[code];
}
