import { extractText as pdfText, getDocumentProxy, getMeta } from "unpdf";
import { ExtractError, tidy, titleFromFilename, type ExtractedDocument } from "./types";

/** PDF text with unpdf (PDF.js built for serverless runtimes); one `## Page n` section per page when there are several. */
export async function extractPdf(bytes: Uint8Array, filename: string): Promise<ExtractedDocument> {
  if (bytes.length < 5 || new TextDecoder().decode(bytes.subarray(0, 5)) !== "%PDF-") throw new ExtractError("The file is not a valid PDF.");
  let pages: string[];
  let title: string | undefined;
  try {
    // PDF.js may detach the buffer it is given: hand it a copy.
    const pdf = await getDocumentProxy(bytes.slice());
    const result = await pdfText(pdf, { mergePages: false });
    pages = result.text;
    try {
      const meta = await getMeta(pdf);
      const t = (meta.info as Record<string, unknown> | undefined)?.Title;
      if (typeof t === "string" && t.trim()) title = t.trim();
    } catch {
      // metadata is optional
    }
  } catch (e) {
    if (e instanceof Error && /password/i.test(e.message)) throw new ExtractError("This PDF is password-protected; upload an unprotected copy.");
    throw new ExtractError("The file is not a valid PDF (it could not be read).");
  }
  const cleaned = pages.map((p) => tidy(p));
  if (!cleaned.some((p) => p.replace(/\s/g, "").length > 0)) throw new ExtractError("This PDF has no extractable text (scanned images?)");
  const text =
    cleaned.length === 1
      ? cleaned[0]
      : cleaned
          .map((p, i) => (p ? `## Page ${i + 1}\n\n${p}` : ""))
          .filter(Boolean)
          .join("\n\n");
  return { title: title || titleFromFilename(filename), text, format: "markdown" };
}
