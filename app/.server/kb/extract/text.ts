import { decodeText, ExtractError, tidy, titleFromFilename, type ExtractedDocument } from "./types";

/** Plain text and Markdown: the text as it is; the title is the first `# ` heading or the file name. */
export function extractText(bytes: Uint8Array, filename: string, format: "markdown" | "text"): ExtractedDocument {
  const text = tidy(decodeText(bytes));
  if (text.includes("\u0000")) throw new ExtractError("The file does not look like text (it contains binary data).");
  if (!text) throw new ExtractError("The file is empty.");
  const heading = format === "markdown" ? /^#\s+(.+)$/m.exec(text)?.[1]?.trim() : undefined;
  return { title: heading || titleFromFilename(filename), text, format };
}
