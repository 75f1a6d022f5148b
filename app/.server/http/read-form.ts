// The one way a page action reads its form. Browsers send forms as urlencoded or multipart; anything
// else (JSON, text/plain, a multipart body without its boundary, a truncated upload) is a client
// error, answered with the shared error screen, never a 500.

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

function refuse(status: 400 | 415, statusText: string, message: string): never {
  throw new Response(message, { status, statusText, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

function isEmpty(request: Request): boolean {
  if (request.body === null) return true;
  const length = request.headers.get("Content-Length");
  return length === "0" || (length === null && !request.headers.has("Transfer-Encoding"));
}

export async function readForm(request: Request): Promise<FormData> {
  // No body at all (a bare POST such as fetch("/logout", { method: "POST" })) is an empty form: the
  // action's own validation then says what is missing.
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!contentType && isEmpty(request)) return new FormData();
  const mediaType = contentType.split(";")[0].trim().toLowerCase();
  if (!FORM_TYPES.includes(mediaType)) refuse(415, "Unsupported Media Type", "This address accepts form submissions only.");
  if (mediaType === "multipart/form-data" && !/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(contentType))
    refuse(400, "Bad Request", "The form could not be read: its multipart boundary is missing.");
  try {
    return await request.formData();
  } catch {
    refuse(400, "Bad Request", "The form could not be read. Reload the page and try again.");
  }
}
