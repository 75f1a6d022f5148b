import Papa from "papaparse";
import { decodeText, ExtractError, titleFromFilename, type ExtractedDocument } from "./types";

/** CSV: one block per row of `column: value` lines (empty cells left out), blocks separated by a blank line. */
export function extractCsv(bytes: Uint8Array, filename: string): ExtractedDocument {
  const source = decodeText(bytes);
  const parsed = Papa.parse<Record<string, string>>(source, { header: true, skipEmptyLines: "greedy", transformHeader: (h) => h.trim() });
  const fields = (parsed.meta.fields ?? []).filter(Boolean);
  if (!fields.length || !parsed.data.length) throw new ExtractError("The CSV file has no rows (it needs a header row and at least one data row).");
  const blocks: string[] = [];
  for (const row of parsed.data) {
    const lines = fields
      .map(
        (f) =>
          [
            f,
            String(row[f] ?? "")
              .replace(/\s+/g, " ")
              .trim(),
          ] as const,
      )
      .filter(([, v]) => v)
      .map(([f, v]) => `${f}: ${v}`);
    if (lines.length) blocks.push(lines.join("\n"));
  }
  if (!blocks.length) throw new ExtractError("The CSV file has no values to learn from.");
  return { title: titleFromFilename(filename), text: blocks.join("\n\n"), format: "text" };
}
