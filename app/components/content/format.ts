/** "2 November 2026" for a YYYY-MM-DD date (UTC, so it never shifts a day). */
export function formatDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
}

/** "knowledge-base" → "knowledge base" for display; the slug stays in URLs. */
export const tagLabel = (tag: string) => tag.replaceAll("-", " ");
