import { strFromU8, unzipSync } from "fflate";
import { ExtractError, tidy, titleFromFilename, type ExtractedDocument } from "./types";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e] ?? m;
  });
}

/** Heading level of a paragraph style (Heading1…Heading6, Title), or 0. */
function headingLevel(style: string | undefined): number {
  if (!style) return 0;
  if (/^title$/i.test(style)) return 1;
  const m = /^heading\s*([1-6])$/i.exec(style) ?? /^berschrift([1-6])$/i.exec(style);
  return m ? Number(m[1]) : 0;
}

/** DOCX: unzip, read word/document.xml paragraph by paragraph; Heading styles become `#` headings, numbered/bulleted paragraphs `- ` items. */
export function extractDocx(bytes: Uint8Array, filename: string): ExtractedDocument {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => f.name === "word/document.xml" || f.name === "docProps/core.xml" });
  } catch {
    throw new ExtractError("The file is not a valid DOCX (it is not a Word document archive).");
  }
  const docXml = files["word/document.xml"];
  if (!docXml) throw new ExtractError("The file is not a valid DOCX (word/document.xml is missing).");
  const xml = strFromU8(docXml);
  const body = /<w:body[^>]*>([\s\S]*)<\/w:body>/.exec(xml)?.[1] ?? xml;
  const lines: string[] = [];
  let firstHeading: string | undefined;
  for (const p of body.match(/<w:p[\s>][\s\S]*?<\/w:p>|<w:p\/>/g) ?? []) {
    const style = /<w:pStyle\s+w:val="([^"]+)"/.exec(p)?.[1];
    const list = /<w:numPr>/.test(p) || /^list/i.test(style ?? "");
    let text = "";
    for (const m of p.matchAll(/<w:t(?:\s[^>]*)?>([\s\S]*?)<\/w:t>|<w:tab\/>|<w:br\/>|<w:cr\/>/g)) {
      if (m[1] !== undefined) text += decodeXml(m[1]);
      else text += m[0] === "<w:tab/>" ? "\t" : "\n";
    }
    text = text.replace(/[ \t]+/g, " ").trim();
    if (!text) {
      lines.push("");
      continue;
    }
    const level = headingLevel(style);
    if (level) {
      firstHeading ??= text;
      lines.push("", `${"#".repeat(level)} ${text}`, "");
    } else if (list) lines.push(`- ${text}`);
    else lines.push(text, "");
  }
  const text = tidy(lines.join("\n"));
  if (!text) throw new ExtractError("The DOCX file has no text.");
  const core = files["docProps/core.xml"] ? strFromU8(files["docProps/core.xml"]) : "";
  const coreTitle = /<dc:title>([\s\S]*?)<\/dc:title>/.exec(core)?.[1];
  const title = (coreTitle && decodeXml(coreTitle).trim()) || firstHeading || titleFromFilename(filename);
  return { title, text, format: "markdown" };
}
