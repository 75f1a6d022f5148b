import type { ChunkInput } from "../retrieval/types";

export type ChunkDocumentInput = { title: string; text: string; url?: string | null; format: "markdown" | "text" };
export type ChunkOptions = { targetChars?: number; overlapChars?: number };

const SEP = " › ";
const MAX_HEADING_PART = 60;

type Section = { path: string[]; body: string; headingLine: string | null };

/**
 * Splits a document into chunks for indexing. Markdown headings (# … ######, outside code fences)
 * start sections and every chunk records its nearest heading path ("Pricing › Annual plans", at most
 * the last two levels). Long sections are split on paragraph, then sentence, then word boundaries to
 * about `targetChars`, consecutive pieces of one section overlapping by about `overlapChars`; tiny
 * sections are merged into the following one when it lives under the same parent. Pure and
 * deterministic: the same input always gives the same chunks and positions.
 */
export function chunkDocument(doc: ChunkDocumentInput, opts: ChunkOptions = {}): ChunkInput[] {
  const target = Math.max(200, opts.targetChars ?? 1200);
  const overlap = Math.max(0, Math.min(opts.overlapChars ?? 150, Math.floor(target / 3)));
  const minSection = Math.floor(target / 4);
  const title = doc.title.trim();
  const url = doc.url ?? null;

  const sections = mergeTiny(
    doc.format === "markdown" ? markdownSections(doc.text, title) : [{ path: [], body: normalise(doc.text), headingLine: null }],
    minSection,
    target,
  );

  const out: ChunkInput[] = [];
  for (const s of sections) {
    const heading = headingOf(s.path);
    for (const piece of splitSection(s.body, target, overlap)) out.push({ title, heading, url, text: piece, position: out.length });
  }
  return out;
}

function normalise(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function headingOf(path: string[]): string | null {
  if (path.length === 0) return null;
  return path
    .slice(-2)
    .map((p) =>
      p.length > MAX_HEADING_PART ? p.slice(0, p.lastIndexOf(" ", MAX_HEADING_PART) > 20 ? p.lastIndexOf(" ", MAX_HEADING_PART) : MAX_HEADING_PART) + "…" : p,
    )
    .join(SEP);
}

function cleanHeading(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, "") // closing hashes
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // links → their text
    .replace(/[*_`]/g, "")
    .trim();
}

function markdownSections(text: string, title: string): Section[] {
  // YAML front matter is metadata, not content.
  const lines = normalise(text)
    .replace(/^---\n[\s\S]*?\n---(\n|$)/, "")
    .split("\n");
  const sections: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let body: string[] = [];
  let headingLine: string | null = null;
  let inFence = false;
  const flush = () => {
    const b = normalise(body.join("\n"));
    const path = stack.map((h) => h.text).filter((t, i) => !(i === 0 && t.toLowerCase() === title.toLowerCase()));
    if (b || headingLine) sections.push({ path, body: b, headingLine });
    body = [];
  };
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const m = !inFence && /^(#{1,6})\s+(.+)$/.exec(line);
    if (m) {
      flush();
      const level = m[1].length;
      while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
      stack.push({ level, text: cleanHeading(m[2]) });
      headingLine = cleanHeading(m[2]);
      continue;
    }
    body.push(line);
  }
  flush();
  return sections.filter((s) => s.body.length > 0 || sections.length === 1);
}

const isPrefix = (a: string[], b: string[]) => a.length <= b.length && a.every((x, i) => x === b[i]);
const parentOf = (p: string[]) => p.slice(0, -1);

/** Tiny sections join the next one when it is their child or sibling (same parent). */
function mergeTiny(sections: Section[], minChars: number, target: number): Section[] {
  const out: Section[] = [];
  let carry: Section | null = null;
  for (const s of sections) {
    let cur = s;
    if (carry) {
      const related =
        isPrefix(carry.path, cur.path) || (isPrefix(parentOf(carry.path), parentOf(cur.path)) && parentOf(carry.path).length === parentOf(cur.path).length);
      if (related && carry.body.length + cur.body.length <= target * 1.5) {
        // A parent's intro merged into its child reads as the child's section; merged siblings are
        // labelled by their parent, and each keeps its own heading line in the text.
        const intoChild = isPrefix(carry.path, cur.path);
        const path = intoChild ? cur.path : parentOf(carry.path).length ? parentOf(carry.path) : carry.path;
        const first =
          !intoChild && path !== carry.path && carry.headingLine && !carry.body.startsWith(carry.headingLine)
            ? `${carry.headingLine}\n${carry.body}`
            : carry.body;
        const body = [first, cur.headingLine && cur.body ? `${cur.headingLine}\n${cur.body}` : cur.body].filter(Boolean).join("\n\n");
        cur = { path, body, headingLine: carry.headingLine };
      } else {
        out.push(carry);
      }
      carry = null;
    }
    if (cur.body.length < minChars) carry = cur;
    else out.push(cur);
  }
  if (carry) {
    const last = out[out.length - 1];
    const sameParent = last && parentOf(last.path).length === parentOf(carry.path).length && isPrefix(parentOf(last.path), parentOf(carry.path));
    if (last && (sameParent || isPrefix(last.path, carry.path)) && last.body.length + carry.body.length <= target * 1.5) {
      last.body = `${last.body}\n\n${carry.headingLine ? `${carry.headingLine}\n` : ""}${carry.body}`;
    } else out.push(carry);
  }
  return out.filter((s) => s.body.trim().length > 0);
}

type Unit = { text: string; sep: string };

/** Paragraphs; a paragraph longer than target becomes sentences; a sentence longer than target, word runs. */
function units(body: string, target: number): Unit[] {
  const out: Unit[] = [];
  for (const para of body.split(/\n\s*\n/)) {
    const p = para.trim();
    if (!p) continue;
    if (p.length <= target) {
      out.push({ text: p, sep: "\n\n" });
      continue;
    }
    let first = true;
    for (const sentence of p.split(/(?<=[.!?…:;])\s+(?=\S)|\n+/)) {
      const s = sentence.trim();
      if (!s) continue;
      const sep = first ? "\n\n" : " ";
      first = false;
      if (s.length <= target) {
        out.push({ text: s, sep });
        continue;
      }
      let run = "";
      let runSep = sep;
      for (const w of s.split(/\s+/)) {
        if (run && run.length + 1 + w.length > target) {
          out.push({ text: run, sep: runSep });
          run = "";
          runSep = " ";
        }
        // A single "word" longer than target (a URL, base64…) is cut hard; nothing else ever is.
        if (w.length > target) {
          for (let i = 0; i < w.length; i += target) out.push({ text: w.slice(i, i + target), sep: " " });
          continue;
        }
        run = run ? `${run} ${w}` : w;
      }
      if (run) out.push({ text: run, sep: runSep });
    }
  }
  return out;
}

/** The last ≤ overlap characters of a piece, starting on a sentence or at least a word boundary. */
function tail(piece: string, overlap: number): string {
  if (overlap <= 0 || piece.length <= overlap) return "";
  const start = piece.length - overlap;
  const window = piece.slice(start);
  const sentence = window.search(/(?<=[.!?])\s+\S/);
  if (sentence >= 0 && window.length - sentence > overlap / 3) return window.slice(sentence).trim();
  const space = window.search(/\s/);
  if (space < 0) return "";
  return window.slice(space).trim();
}

function splitSection(body: string, target: number, overlap: number): string[] {
  if (body.length <= target) return [body];
  const pieces: string[] = [];
  let cur = "";
  let fresh = false; // cur holds more than the overlap carried from the previous piece
  for (const u of units(body, target)) {
    if (cur && cur.length + u.sep.length + u.text.length > target) {
      if (fresh) {
        pieces.push(cur);
        const t = tail(cur, overlap);
        cur = t && t.length + 1 + u.text.length <= target ? t : "";
      } else if (cur.length + u.sep.length + u.text.length > target) {
        cur = ""; // the carried overlap does not fit with this unit: drop it
      }
    }
    cur = cur ? cur + (u.sep === "\n\n" && cur.endsWith(" ") ? " " : u.sep) + u.text : u.text;
    fresh = true;
  }
  if (cur && fresh) pieces.push(cur);
  return pieces;
}
