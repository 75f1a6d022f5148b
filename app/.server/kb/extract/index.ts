import { extractCsv } from "./csv";
import { extractDocx } from "./docx";
import { extractHtml, extractHtmlFile } from "./html";
import { extractJson } from "./json";
import { extractPdf } from "./pdf";
import { extractText } from "./text";
import { FILE_EXTENSIONS as EXTENSIONS, FILE_KINDS, type FileKind } from "~/lib/kb";
import { ExtractError, type ExtractedDocument } from "./types";

export { ExtractError, extractHtml, type ExtractedDocument };

export { FILE_KINDS, type FileKind };

/** The kind of an uploaded file from its name (then its MIME type), or null when not accepted. */
export function fileKind(filename: string, mime?: string | null): FileKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (ext && EXTENSIONS[ext]) return EXTENSIONS[ext];
  if (mime) for (const [k, v] of Object.entries(FILE_KINDS)) if ((v.mime as readonly string[]).includes(mime.split(";")[0].trim())) return k as FileKind;
  return null;
}

/** Extracts one file; throws ExtractError with a plain-words reason when it cannot. */
export async function extractFile(bytes: Uint8Array, filename: string, kind: FileKind): Promise<ExtractedDocument> {
  switch (kind) {
    case "pdf":
      return await extractPdf(bytes, filename);
    case "docx":
      return extractDocx(bytes, filename);
    case "txt":
      return extractText(bytes, filename, "text");
    case "md":
      return extractText(bytes, filename, "markdown");
    case "html":
      return extractHtmlFile(bytes, filename);
    case "csv":
      return extractCsv(bytes, filename);
    case "json":
      return extractJson(bytes, filename);
  }
}
