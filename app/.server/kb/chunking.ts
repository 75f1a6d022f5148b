import type { ChunkInput } from "../retrieval/types";

export type ChunkDocumentInput = { title: string; text: string; url?: string | null; format: "markdown" | "text" };
export type ChunkOptions = { targetChars?: number; overlapChars?: number };
/** What a Chunker needs besides the text. `frontMatter: false` reads a first `---` line as text (see chunkDocument). */
export type ChunkerDocument = { title: string; url?: string | null; format: "markdown" | "text"; frontMatter?: boolean };

const SEP = " › ";
const MAX_HEADING_PART = 60;

type Section = { path: string[]; body: string; headingLine: string | null };

/** A section being cut into pieces, line by line: the paragraph being read and the piece being filled. */
type SplitState = { heading: string | null; para: string[]; long: boolean; first: boolean; cur: string; fresh: boolean };

/**
 * Where a Chunker stands in a document, as plain JSON: ingestion stores it between steps so each step
 * reads only its own slice of the text (ingest.ts). Bounded by a few sections of about `targetChars`
 * and the longest line, never by the document.
 */
export type ChunkerState = {
  /** The next chunk's position (chunks emitted so far). */
  position: number;
  /** Text written after the last line break (an unfinished line). */
  partial: string;
  /** Lines read (after normalising). */
  lines: number;
  /** The last line read was empty: further empty lines are dropped (runs of blank lines count as one). */
  blank: boolean;
  /** Inside YAML front matter: lines read since its opening `---`; null outside. */
  frontMatter: number | null;
  inFence: boolean;
  stack: { level: number; text: string }[];
  /** The section being read: its body lines while it may still be merged with a neighbour. */
  section: { path: string[]; headingLine: string | null; lines: string[] };
  /** Set once the section is longer than any merge could take: its lines are cut into pieces as they come. */
  split: SplitState | null;
  /** A tiny section waiting to join the next one. */
  carry: Section | null;
  /** The last section completed, kept back because a tiny section at the very end may still join it. */
  held: Section | null;
};

/**
 * Splits a document into chunks for indexing. Markdown headings (# … ######, outside code fences)
 * start sections and every chunk records its nearest heading path ("Pricing › Annual plans", at most
 * the last two levels). Long sections are split on paragraph, then sentence, then word boundaries to
 * about `targetChars`, consecutive pieces of one section overlapping by about `overlapChars`; tiny
 * sections are merged into the following one when it lives under the same parent. Pure and
 * deterministic: the same input always gives the same chunks and positions.
 *
 * A whole-text wrapper around Chunker, which reads the text in pieces and can stop and resume
 * anywhere between lines with the same result (ingestion reads large documents a slice per step).
 */
export function chunkDocument(doc: ChunkDocumentInput, opts: ChunkOptions = {}): ChunkInput[] {
  const text = doc.text.trim();
  const run = (frontMatter: boolean) => {
    const chunker = new Chunker({ ...doc, frontMatter }, opts);
    const out: ChunkInput[] = [];
    const add = (chunks: ChunkInput[]) => {
      for (const c of chunks) out.push(c);
    };
    for (let i = 0; i < text.length;) {
      const next = pieceEnd(text, i, 64 * 1024);
      add(chunker.write(text.slice(i, next)));
      i = next;
    }
    add(chunker.end());
    return { out, unclosed: chunker.unclosedFrontMatter };
  };
  const first = run(true);
  // A first `---` line that is never closed is not front matter: read it as text.
  return first.unclosed ? run(false).out : first.out;
}

/** The end of a piece of about `size` characters of `text` from `from`, just after a line break when there is one. */
function pieceEnd(text: string, from: number, size: number): number {
  if (from + size >= text.length) return text.length;
  const nl = text.lastIndexOf("\n", from + size - 1);
  return nl >= from ? nl + 1 : Math.min(text.length, from + size);
}

/**
 * The chunker of chunkDocument as a stream: `write` pieces of the document's trimmed text in order
 * (any boundaries; ingestion cuts them after a line break so the stored state holds no partial line),
 * then `end`. Each call returns the chunks completed so far, positions counting from 0 over the
 * whole document. `state` is plain JSON; a Chunker made from it continues exactly where that one
 * stood. When the first line is `---` the text up to the next `---` line is front matter and
 * dropped; if that never closes, `unclosedFrontMatter` is true after `end` and the document must be
 * chunked again with `frontMatter: false` (chunkDocument does).
 */
export class Chunker {
  private readonly s: ChunkerState;
  private out: ChunkInput[] = [];
  private readonly target: number;
  private readonly overlap: number;
  private readonly minSection: number;
  /** A section longer than this can neither merge with a neighbour nor be a single piece. */
  private readonly mergeMax: number;
  private readonly title: string;
  private readonly url: string | null;
  private readonly markdown: boolean;
  private readonly frontMatter: boolean;
  private ended = false;

  constructor(doc: ChunkerDocument, opts: ChunkOptions = {}, state?: ChunkerState) {
    this.target = Math.max(200, opts.targetChars ?? 1200);
    this.overlap = Math.max(0, Math.min(opts.overlapChars ?? 150, Math.floor(this.target / 3)));
    this.minSection = Math.floor(this.target / 4);
    this.mergeMax = this.target * 1.5;
    this.title = doc.title.trim();
    this.url = doc.url ?? null;
    this.markdown = doc.format === "markdown";
    this.frontMatter = this.markdown && doc.frontMatter !== false;
    this.s = state
      ? (JSON.parse(JSON.stringify(state)) as ChunkerState)
      : {
          position: 0,
          partial: "",
          lines: 0,
          blank: false,
          frontMatter: null,
          inFence: false,
          stack: [],
          section: { path: [], headingLine: null, lines: [] },
          split: null,
          carry: null,
          held: null,
        };
  }

  /** A copy of where this chunker stands (plain JSON). */
  get state(): ChunkerState {
    return JSON.parse(JSON.stringify(this.s)) as ChunkerState;
  }

  /** After `end`: the document opened front matter that never closed (chunk it again with `frontMatter: false`). */
  get unclosedFrontMatter(): boolean {
    return this.ended && this.s.frontMatter !== null;
  }

  write(piece: string): ChunkInput[] {
    let text = this.s.partial + piece;
    // A "\r" at the end may be the first half of "\r\n": keep it for the next piece.
    const keep = text.endsWith("\r") ? "\r" : "";
    if (keep) text = text.slice(0, -1);
    const lines = text.replace(/\r\n?/g, "\n").split("\n");
    this.s.partial = lines.pop()! + keep;
    for (const l of lines) this.line(l);
    return this.take();
  }

  end(): ChunkInput[] {
    if (this.s.partial) for (const l of this.s.partial.replace(/\r\n?/g, "\n").split("\n")) this.line(l);
    this.s.partial = "";
    this.ended = true;
    if (this.s.frontMatter !== null) return this.take();
    this.endSection();
    const s = this.s;
    const carry = s.carry;
    if (carry) {
      s.carry = null;
      // The tiny last section joins the one before it (the one held back) when they are related.
      const last = s.held;
      const sameParent = last && parentOf(last.path).length === parentOf(carry.path).length && isPrefix(parentOf(last.path), parentOf(carry.path));
      if (last && (sameParent || isPrefix(last.path, carry.path)) && last.body.length + carry.body.length <= this.mergeMax) {
        last.body = `${last.body}\n\n${carry.headingLine ? `${carry.headingLine}\n` : ""}${carry.body}`;
      } else this.push(carry);
    }
    this.emitHeld();
    return this.take();
  }

  private take(): ChunkInput[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  // ——— lines → sections ———

  /** One line of the text: normalised (trailing blanks dropped, blank runs collapsed), then front matter, headings, body. */
  private line(raw: string) {
    const s = this.s;
    const l = raw.replace(/[ \t]+$/, "");
    if (l === "") {
      if (s.blank) return;
      s.blank = true;
    } else s.blank = false;
    const first = s.lines++ === 0;
    if (this.markdown) {
      // YAML front matter is metadata, not content: from a first `---` line to the next `---` line
      // (not the one right after it).
      if (s.frontMatter !== null) {
        if (l === "---" && s.frontMatter >= 1) s.frontMatter = null;
        else s.frontMatter++;
        return;
      }
      if (first && this.frontMatter && l === "---") {
        s.frontMatter = 0;
        return;
      }
      if (/^\s*(```|~~~)/.test(l)) s.inFence = !s.inFence;
      const m = !s.inFence && /^(#{1,6})\s+(.+)$/.exec(l);
      if (m) {
        this.endSection();
        const level = m[1].length;
        while (s.stack.length && s.stack[s.stack.length - 1].level >= level) s.stack.pop();
        s.stack.push({ level, text: cleanHeading(m[2]) });
        const title = this.title.toLowerCase();
        const path = s.stack.map((h) => h.text).filter((t, i) => !(i === 0 && t.toLowerCase() === title));
        s.section = { path, headingLine: cleanHeading(m[2]), lines: [] };
        return;
      }
    }
    this.bodyLine(l);
  }

  private bodyLine(l: string) {
    const s = this.s;
    if (s.split) return this.splitLine(s.split, l);
    const sec = s.section;
    sec.lines.push(l);
    if (sec.lines.join("\n").trim().length <= this.mergeMax) return;
    // Longer than any merge could take: the sections before it are final, and it is cut as it comes.
    if (s.carry) this.push(s.carry);
    s.carry = null;
    this.emitHeld();
    s.split = newSplit(headingOf(sec.path));
    for (const x of sec.lines) this.splitLine(s.split, x);
    sec.lines = [];
  }

  private endSection() {
    const s = this.s;
    if (s.split) {
      this.splitEnd(s.split);
      s.split = null;
    } else {
      const body = s.section.lines.join("\n").trim();
      if (body) this.merge({ path: s.section.path, body, headingLine: s.section.headingLine });
    }
    s.section = { path: s.section.path, headingLine: s.section.headingLine, lines: [] };
  }

  /** Tiny sections join the next one when it is their child or sibling (same parent). */
  private merge(next: Section) {
    const s = this.s;
    let cur = next;
    const carry = s.carry;
    if (carry) {
      s.carry = null;
      const related =
        isPrefix(carry.path, cur.path) || (isPrefix(parentOf(carry.path), parentOf(cur.path)) && parentOf(carry.path).length === parentOf(cur.path).length);
      if (related && carry.body.length + cur.body.length <= this.mergeMax) {
        // A parent's intro merged into its child reads as the child's section; merged siblings are
        // labelled by their parent, and each keeps its own heading line in the text.
        const intoChild = isPrefix(carry.path, cur.path);
        const parent = parentOf(carry.path);
        const path = intoChild ? cur.path : parent.length ? parent : carry.path;
        const first =
          !intoChild && parent.length && carry.headingLine && !carry.body.startsWith(carry.headingLine) ? `${carry.headingLine}\n${carry.body}` : carry.body;
        const body = [first, cur.headingLine && cur.body ? `${cur.headingLine}\n${cur.body}` : cur.body].filter(Boolean).join("\n\n");
        cur = { path, body, headingLine: carry.headingLine };
      } else this.push(carry);
    }
    if (cur.body.length < this.minSection) s.carry = cur;
    else this.push(cur);
  }

  /** A completed section: the previous one is now final; this one waits in case the last tiny section joins it. */
  private push(section: Section) {
    this.emitHeld();
    this.s.held = section;
  }

  private emitHeld() {
    const held = this.s.held;
    if (!held) return;
    this.s.held = null;
    const heading = headingOf(held.path);
    if (held.body.length <= this.target) return this.emit(heading, held.body);
    const split = newSplit(heading);
    for (const l of held.body.split("\n")) this.splitLine(split, l);
    this.splitEnd(split);
  }

  private emit(heading: string | null, text: string) {
    this.out.push({ title: this.title, heading, url: this.url, text, position: this.s.position++ });
  }

  // ——— a long section → pieces of about `target` characters ———
  // Paragraphs; a paragraph longer than target becomes sentences; a sentence longer than target, word
  // runs. The units fill pieces in order, consecutive pieces overlapping by about `overlap`.

  private splitLine(sp: SplitState, l: string) {
    if (l.trim() === "") return this.paragraphEnd(sp);
    if (sp.long) return this.sentences(sp, l);
    sp.para.push(l);
    if (sp.para.join("\n").trim().length <= this.target) return;
    sp.long = true;
    sp.first = true;
    const lines = sp.para;
    sp.para = [];
    for (const x of lines) this.sentences(sp, x);
  }

  private paragraphEnd(sp: SplitState) {
    if (!sp.long && sp.para.length) {
      const p = sp.para.join("\n").trim();
      if (p) this.unit(sp, p, "\n\n");
    }
    sp.para = [];
    sp.long = false;
  }

  private splitEnd(sp: SplitState) {
    this.paragraphEnd(sp);
    if (sp.cur && sp.fresh) this.emit(sp.heading, sp.cur);
    sp.cur = "";
    sp.fresh = false;
  }

  /** One line of a long paragraph: its sentences, and a sentence longer than target as word runs. */
  private sentences(sp: SplitState, line: string) {
    const target = this.target;
    for (const sentence of line.split(/(?<=[.!?…:;])\s+(?=\S)|\n+/)) {
      const s = sentence.trim();
      if (!s) continue;
      const sep = sp.first ? "\n\n" : " ";
      sp.first = false;
      if (s.length <= target) {
        this.unit(sp, s, sep);
        continue;
      }
      let run = "";
      let runSep = sep;
      for (const w of s.split(/\s+/)) {
        if (run && run.length + 1 + w.length > target) {
          this.unit(sp, run, runSep);
          run = "";
          runSep = " ";
        }
        // A single "word" longer than target (a URL, base64…) is cut hard; nothing else ever is.
        if (w.length > target) {
          for (let i = 0; i < w.length; i += target) this.unit(sp, w.slice(i, i + target), " ");
          continue;
        }
        run = run ? `${run} ${w}` : w;
      }
      if (run) this.unit(sp, run, runSep);
    }
  }

  private unit(sp: SplitState, text: string, sep: string) {
    const target = this.target;
    if (sp.cur && sp.cur.length + sep.length + text.length > target) {
      if (sp.fresh) {
        this.emit(sp.heading, sp.cur);
        const t = tail(sp.cur, this.overlap);
        sp.cur = t && t.length + 1 + text.length <= target ? t : "";
      } else if (sp.cur.length + sep.length + text.length > target) {
        sp.cur = ""; // the carried overlap does not fit with this unit: drop it
      }
    }
    sp.cur = sp.cur ? sp.cur + (sep === "\n\n" && sp.cur.endsWith(" ") ? " " : sep) + text : text;
    sp.fresh = true; // cur holds more than the overlap carried from the previous piece
  }
}

const newSplit = (heading: string | null): SplitState => ({ heading, para: [], long: false, first: true, cur: "", fresh: false });

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

const isPrefix = (a: string[], b: string[]) => a.length <= b.length && a.every((x, i) => x === b[i]);
const parentOf = (p: string[]) => p.slice(0, -1);

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
