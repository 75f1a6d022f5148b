/** Only same-site paths: "/x" but never "//host" or "/\host", which browsers treat as other origins. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/app"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}
