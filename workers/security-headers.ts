/** Headers every response carries; pages get a nonce-based CSP without 'unsafe-eval'. */
export function applySecurityHeaders(headers: Headers, opts: { nonce: string; production: boolean; isApi: boolean }) {
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Permissions-Policy", "camera=(), geolocation=(), microphone=(self)");
  if (opts.production) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  // A route that must be framed (the widget iframe, a later issue) sets its own CSP first.
  if (headers.has("Content-Security-Policy")) return;
  if (opts.isApi) {
    headers.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
    return;
  }
  headers.set("X-Frame-Options", "DENY");
  headers.set(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src 'self' 'nonce-${opts.nonce}'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      "connect-src 'self'",
      // The voice playground plays OpenAI speech from blob: URLs.
      "media-src 'self' blob:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
}
