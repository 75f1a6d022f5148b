// Front matter of the site's markdown (content/blog/*.md, content/docs/**/*.md): a small, strict
// YAML subset — `key: value` lines, 'quoted' or "quoted" strings, [a, b] lists, numbers, dates.
// Anything else is a mistake in a content file, and the build (and the tests) fail naming the file.

export class ContentError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "ContentError";
  }
}

export type FrontMatterValue = string | number | boolean | string[];
export type FrontMatter = Record<string, FrontMatterValue>;

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /\r?\n---[ \t]*(?:\r?\n|$)/;

function unquote(raw: string, file: string, line: number): string {
  const q = raw[0];
  if (raw.length < 2 || raw[raw.length - 1] !== q) throw new ContentError(file, `line ${line}: unterminated ${q === '"' ? "double" : "single"}-quoted string`);
  const inner = raw.slice(1, -1);
  if (q === "'") {
    if (/(^|[^'])'($|[^'])/.test(inner)) throw new ContentError(file, `line ${line}: a single quote inside a single-quoted string must be doubled ('')`);
    return inner.replaceAll("''", "'");
  }
  return inner.replace(/\\(["\\nt])/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
}

function splitList(inner: string, file: string, line: number): string[] {
  const items: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const ch of inner) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (ch === ",") {
      items.push(current);
      current = "";
    } else current += ch;
  }
  if (quote) throw new ContentError(file, `line ${line}: unterminated string in list`);
  items.push(current);
  const trimmed = items.map((s) => s.trim());
  if (trimmed.length === 1 && trimmed[0] === "") return [];
  return trimmed.map((item) => {
    if (item === "") throw new ContentError(file, `line ${line}: empty item in list`);
    if (item[0] === '"' || item[0] === "'") return unquote(item, file, line);
    if (/[[\]{}]/.test(item)) throw new ContentError(file, `line ${line}: nested lists or maps are not supported`);
    return item;
  });
}

function parseValue(raw: string, file: string, line: number): FrontMatterValue {
  const v = raw.trim();
  if (v === "") throw new ContentError(file, `line ${line}: empty value`);
  if (v[0] === '"' || v[0] === "'") return unquote(v, file, line);
  if (v[0] === "[") {
    if (v[v.length - 1] !== "]") throw new ContentError(file, `line ${line}: list must end with ]`);
    return splitList(v.slice(1, -1), file, line);
  }
  if (v[0] === "{" || v[0] === "|" || v[0] === ">") throw new ContentError(file, `line ${line}: maps and block strings are not supported; use a quoted string`);
  if (v === "true" || v === "false") return v === "true";
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  // A plain string; a " #" starts a comment in YAML, which is almost always a mistake here.
  if (/\s#/.test(v)) throw new ContentError(file, `line ${line}: quote values that contain " #"`);
  return v;
}

/** Splits `---` front matter from the markdown body. A file without front matter is an error. */
export function parseFrontMatter(raw: string, file: string): { data: FrontMatter; body: string } {
  const text = raw.replace(/^\uFEFF/, "");
  const open = OPEN.exec(text);
  if (!open) throw new ContentError(file, "missing front matter (the file must start with a --- line)");
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec("\n" + rest);
  if (!close) throw new ContentError(file, "front matter is not closed with a --- line");
  const block = ("\n" + rest).slice(1, close.index);
  const body = ("\n" + rest).slice(close.index + close[0].length);
  const data: FrontMatter = {};
  block.split(/\r?\n/).forEach((lineText, i) => {
    const line = i + 2; // line 1 is the opening ---
    if (lineText.trim() === "" || lineText.trimStart().startsWith("#")) return;
    const m = /^([A-Za-z_][\w-]*):(?:\s+(.*)|\s*)$/.exec(lineText);
    if (!m) throw new ContentError(file, `line ${line}: expected "key: value", got ${JSON.stringify(lineText.slice(0, 60))}`);
    const key = m[1];
    if (key in data) throw new ContentError(file, `line ${line}: "${key}" is set twice`);
    data[key] = parseValue(m[2] ?? "", file, line);
  });
  return { data, body };
}

/** A calendar date written as YYYY-MM-DD that exists (2026-02-30 does not). */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}
