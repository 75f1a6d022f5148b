// Countries as Cloudflare reports them on a request (`CF-IPCountry`: ISO 3166-1 alpha-2, "XX" when
// unknown, "T1" for Tor) and as the analytics screen names them.

/** The visitor's country code from the CF-IPCountry header, or null when unknown or malformed. */
export function countryFromHeader(value: string | null | undefined): string | null {
  const code = value?.trim().toUpperCase() ?? "";
  if (code === "T1") return code;
  return /^[A-Z]{2}$/.test(code) && code !== "XX" ? code : null;
}

let names: Intl.DisplayNames | null = null;

/** "FR" → "France"; "" (not known) → "Unknown"; "T1" → "Tor network". */
export function countryName(code: string): string {
  if (!code) return "Unknown";
  if (code === "T1") return "Tor network";
  try {
    names ??= new Intl.DisplayNames(["en"], { type: "region" });
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
