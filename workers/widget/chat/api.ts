// Same-origin calls from the chat UI to /api/chat and /api/widget. Errors are `{ error: { code, message, fields? } }`.

export type ApiFailure = { status: number; code: string; message: string; fields?: Record<string, string> };

export class ApiError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

const NETWORK: ApiFailure = { status: 0, code: "network", message: "Could not reach the server. Check your connection and try again." };

export async function failureOf(res: Response): Promise<ApiFailure> {
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string; fields?: Record<string, string> } };
    if (body?.error?.message) return { status: res.status, code: body.error.code ?? "error", message: body.error.message, fields: body.error.fields };
  } catch {
    // not JSON: fall through
  }
  return {
    status: res.status,
    code: "error",
    message: res.status >= 500 ? "Something went wrong on our side. Try again in a moment." : "The request was refused.",
  };
}

/** fetch that turns network failures and error statuses into ApiError. */
export async function request(url: string, init?: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: "same-origin", ...init });
  } catch {
    throw new ApiError(NETWORK);
  }
  if (!res.ok) throw new ApiError(await failureOf(res));
  return res;
}

export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await request(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return (await res.json()) as T;
}

export const failure = (e: unknown): ApiFailure => (e instanceof ApiError ? e.failure : NETWORK);
