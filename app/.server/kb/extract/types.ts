/** What every extractor returns: a title and markdown-ish text (`#` headings, `- ` lists). */
export type ExtractedDocument = { title: string; text: string; format: "markdown" | "text" };

/** A problem with the user's file or page, in plain words safe to show on the source row. */
export class ExtractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExtractError";
  }
}

/** File name without directories and extension, as a fallback title. */
export function titleFromFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? filename;
  return (
    base
      .replace(/\.[^.]+$/, "")
      .replace(/[_-]+/g, " ")
      .trim() || base
  );
}

/** Collapses runs of blank lines and trailing spaces. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const utf8 = new TextDecoder("utf-8");
/** UTF-8 text of a file (a BOM is dropped). */
export function decodeText(bytes: Uint8Array): string {
  return utf8.decode(bytes).replace(/^\uFEFF/, "");
}
