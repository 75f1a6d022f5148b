import { decodeText, ExtractError, titleFromFilename, type ExtractedDocument } from "./types";

const MAX_LINES = 200_000;

/** JSON: every leaf as a `key.path[0].name: value` line, so each fact keeps its context. */
export function extractJson(bytes: Uint8Array, filename: string): ExtractedDocument {
  let data: unknown;
  try {
    data = JSON.parse(decodeText(bytes));
  } catch {
    throw new ExtractError("The file is not valid JSON.");
  }
  const lines: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (lines.length >= MAX_LINES) return;
    if (Array.isArray(value)) {
      if (!value.length) return;
      value.forEach((v, i) => walk(v, `${path}[${i}]`));
    } else if (value && typeof value === "object") {
      const entries = Object.entries(value as Record<string, unknown>);
      for (const [k, v] of entries) walk(v, path ? `${path}.${k}` : k);
    } else if (value !== null && value !== undefined && value !== "") {
      lines.push(`${path || "value"}: ${String(value).replace(/\s+/g, " ").trim()}`);
    }
  };
  walk(data, "");
  if (!lines.length) throw new ExtractError("The JSON file has no values to learn from.");
  const title =
    data && typeof data === "object" && !Array.isArray(data) && typeof (data as Record<string, unknown>).title === "string"
      ? String((data as Record<string, unknown>).title)
      : titleFromFilename(filename);
  return { title, text: lines.join("\n"), format: "text" };
}
