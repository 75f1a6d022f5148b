// The one check for every "where to go next" value a request can carry (?redirectTo=, a hidden form
// field): login, signup, email verification and logout all use it. Only a path on this site
// survives; anything else goes to the fallback.
//
// Browsers forgive a lot in a Location header: they drop tabs and newlines ("/\t/evil.example" is
// "//evil.example"), read "\" as "/", and follow "//host" to another site. So the value is refused
// outright when it holds a control character, whitespace or a backslash anywhere, then resolved
// against a stand-in origin and kept only if it stays there. What is returned is the URL parser's
// own serialisation (ASCII, percent-encoded), so it is always a valid header value.

const BASE = "http://same-origin.invalid";
const MAX_LENGTH = 2048;
// C0 and C1 controls, DEL, every Unicode space and separator, zero-width and bidi marks, backslash.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\s\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff\\]/u;

export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/app"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > MAX_LENGTH) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || UNSAFE.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = url.pathname + url.search + url.hash;
  // Dot segments can collapse into a scheme-relative path ("/.//evil.example" → "//evil.example").
  if (!path.startsWith("/") || path.startsWith("//")) return fallback;
  return path;
}
