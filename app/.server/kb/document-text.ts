import type { KbContext, KnowledgeSource } from "./sources";

// A document's text read a slice at a time, so an ingestion step holds its own slice and not the
// document (issue #21, ADR 043). Two places hold the text of a document source:
//   "content" — a text source's own text, in knowledge_source_contents (D1), in parts under D1's
//     byte cap (ADR 045). A slice is read with SQLite's substr() on the parts it spans, offsets in
//     characters (code points): the isolate receives only the slice.
//   "staged"  — the text extracted from a file or a page, written once to R2 by the first step and
//     read with ranged gets, offsets in bytes of its UTF-8.
// A slice ends just after a line break (or at the end of the text), so a step resumes on a new line;
// a single line longer than the slice is read whole (the only case a step holds more than a slice).

export type TextStore = "content" | "staged";

/**
 * About how much of the text one read brings (characters, or bytes when staged): about 200 chunks'
 * worth, so an indexing step reads one or two slices, and a pass over a 2 M-character text (the
 * first step's count) makes 8 queries — D1 allows 1,000 per invocation on the paid plan, and a queue
 * batch runs up to 10 steps in one.
 */
export const SLICE = 256 * 1024;

/** Where a file or page's extracted text is kept while it is indexed (under the source's prefix, so deleting the source removes it). */
export const stagedTextKey = (row: Pick<KnowledgeSource, "orgId" | "chatbotId" | "id">) => `org/${row.orgId}/${row.chatbotId}/${row.id}/_ingest-text.txt`;

/** Code points of a string (SQLite counts characters as code points; JavaScript's length counts UTF-16 units). */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

// ——— a source's content in parts (ADR 045) ———

/**
 * The most UTF-8 bytes one part of a source's content holds. D1 refuses a string or row over
 * 2,000,000 bytes (SQLITE_TOOBIG); older D1 documents said 1 MB a row, so a part stays under both.
 */
export const PART_BYTES = 900_000;

/**
 * A text cut into parts of at most `maxBytes` of UTF-8 each, never inside a character; `start` is
 * where each part begins in characters (code points, as SQLite's substr() counts them). A lone
 * surrogate counts as one character of 3 bytes (it is stored as U+FFFD).
 */
export function textParts(text: string, maxBytes = PART_BYTES): { start: number; content: string }[] {
  const parts: { start: number; content: string }[] = [];
  let from = 0; // UTF-16 index where the current part begins
  let start = 0; // …and in code points
  let chars = 0;
  let bytes = 0;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes && i > from) {
      parts.push({ start, content: text.slice(from, i) });
      from = i;
      start += chars;
      chars = 0;
      bytes = 0;
    }
    bytes += size;
    chars++;
    i += pair ? 2 : 1;
  }
  parts.push({ start, content: text.slice(from) });
  return parts;
}

/**
 * Q&A pairs as parts, each a JSON array of whole pairs of at most `maxBytes` of UTF-8 (one pair is
 * at most ~21k characters, far under it); `start` is the index of the part's first pair.
 */
export function qaParts(pairs: readonly { question: string; answer: string }[], maxBytes = PART_BYTES): { start: number; content: string }[] {
  const enc = new TextEncoder();
  const parts: { start: number; content: string }[] = [];
  let items: string[] = [];
  let bytes = 2; // "[" and "]"
  let start = 0;
  pairs.forEach((p, i) => {
    const item = JSON.stringify(p);
    const size = enc.encode(item).length + 1; // and its comma
    if (items.length && bytes + size > maxBytes) {
      parts.push({ start, content: `[${items.join(",")}]` });
      items = [];
      bytes = 2;
      start = i;
    }
    items.push(item);
    bytes += size;
  });
  parts.push({ start, content: `[${items.join(",")}]` });
  return parts;
}

/**
 * Characters `offset` … `offset + length - 1` of a text source's content (0-based, code points),
 * across its parts: the part holding `offset` and the ones after it that the range reaches, each
 * cut with substr() so only the slice leaves the database. Null when the source has no content.
 */
async function contentSlice(ctx: KbContext, sourceId: string, offset: number, length: number): Promise<string | null> {
  const { results } = await ctx.env.DB.prepare(
    `WITH first AS (SELECT coalesce(max(start), 0) AS f FROM knowledge_source_contents WHERE source_id = ?3 AND start <= ?1)
     SELECT substr(content, max(?1 - start, 0) + 1, ?1 + ?2 - max(?1, start)) AS s FROM knowledge_source_contents, first
     WHERE source_id = ?3 AND start >= f AND (start = f OR start < ?1 + ?2)
     ORDER BY start`,
  )
    .bind(offset, length, sourceId)
    .all<{ s: string | null }>();
  return results.length ? results.map((r) => r.s ?? "").join("") : null;
}

/**
 * Where a text source's text starts and ends once trimmed (as `text.trim()` would), in characters,
 * and its trimmed length in UTF-16 units (what the product counts as knowledge characters); null
 * when the source has no text. Reads the text once, a slice at a time.
 */
export async function contentBounds(ctx: KbContext, sourceId: string, slice = SLICE): Promise<{ start: number; end: number; chars: number } | null> {
  let offset = 0;
  let units = 0;
  let start = -1;
  let end = 0;
  let startUnits = 0;
  let endUnits = 0;
  for (;;) {
    const s = await contentSlice(ctx, sourceId, offset, slice);
    if (s === null || s === "") break;
    const first = s.search(/\S/);
    if (first >= 0) {
      if (start < 0) {
        start = offset + codePoints(s.slice(0, first));
        startUnits = units + first;
      }
      const last = s.trimEnd().length;
      end = offset + codePoints(s.slice(0, last));
      endUnits = units + last;
    }
    const n = codePoints(s);
    offset += n;
    units += s.length;
    if (n < slice) break;
  }
  return start < 0 ? null : { start, end, chars: endUnits - startUnits };
}

/**
 * Writes a file or page's extracted text (trimmed) to R2 for the steps that index it; returns its
 * length in bytes (the end offset of a staged text).
 */
export async function stageText(ctx: KbContext, row: KnowledgeSource, text: string): Promise<number> {
  const bytes = new TextEncoder().encode(text.trim());
  await ctx.env.FILES.put(stagedTextKey(row), bytes, { httpMetadata: { contentType: "text/plain; charset=utf-8" } });
  return bytes.length;
}

export async function dropStagedText(ctx: KbContext, row: KnowledgeSource) {
  await ctx.env.FILES.delete(stagedTextKey(row));
}

const utf8 = new TextDecoder("utf-8");

/**
 * The text from `offset` up to `slice` further, ending just after a line break or at `end`
 * (exclusive); `next` is where the following read starts. Reads more when a single line is longer.
 */
export async function readSlice(
  ctx: KbContext,
  row: KnowledgeSource,
  from: TextStore,
  offset: number,
  end: number,
  slice = SLICE,
): Promise<{ text: string; next: number }> {
  for (let n = Math.min(slice, end - offset); ; n = Math.min(n * 2, end - offset)) {
    if (from === "content") {
      const s = await contentSlice(ctx, row.id, offset, n);
      if (s === null) throw new Error(`the text of ${row.id} is gone`);
      if (offset + n >= end) return { text: s, next: end };
      const cut = s.lastIndexOf("\n");
      if (cut >= 0) {
        const text = s.slice(0, cut + 1);
        return { text, next: offset + codePoints(text) };
      }
    } else {
      const obj = await ctx.env.FILES.get(stagedTextKey(row), { range: { offset, length: n } });
      if (!obj) throw new Error(`the staged text of ${row.id} is gone`);
      const bytes = new Uint8Array(await obj.arrayBuffer());
      if (offset + n >= end) return { text: utf8.decode(bytes), next: end };
      // "\n" is one byte in UTF-8 and never part of another character: cutting after it splits no character.
      const cut = bytes.lastIndexOf(10);
      if (cut >= 0) return { text: utf8.decode(bytes.subarray(0, cut + 1)), next: offset + cut + 1 };
    }
  }
}

// ——— Q&A sources: their pairs, a page at a time (SQLite's JSON functions read the stored array) ———

/** How many pairs a Q&A source's stored JSON holds (all its parts); "invalid" when a part is not JSON, null when there is none. */
export async function qaPairCount(ctx: KbContext, sourceId: string): Promise<number | "invalid" | null> {
  const row = await ctx.env.DB.prepare(
    `SELECT count(*) AS parts, min(content = '') AS empty, min(json_valid(content)) AS valid,
       sum(CASE WHEN json_valid(content) THEN json_array_length(content) ELSE 0 END) AS n
     FROM knowledge_source_contents WHERE source_id = ?`,
  )
    .bind(sourceId)
    .first<{ parts: number; empty: number | null; valid: number | null; n: number | null }>();
  if (!row || !row.parts || row.empty) return null;
  if (!row.valid) return "invalid";
  return row.n ?? 0;
}

/** Pairs `offset` … `offset + limit - 1` of a Q&A source, in order (a part's `start` is its first pair's index). */
export async function qaPairs(ctx: KbContext, sourceId: string, offset: number, limit: number): Promise<{ question: string; answer: string }[]> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT j.value AS value, j.type AS type FROM knowledge_source_contents c, json_each(c.content) j
     WHERE c.source_id = ?1 AND c.start < ?2 + ?3 AND c.start + j.key >= ?2 AND c.start + j.key < ?2 + ?3
     ORDER BY c.start, j.key`,
  )
    .bind(sourceId, offset, limit)
    .all<{ value: string; type: string }>();
  return results.map((r) => (r.type === "object" || r.type === "array" ? JSON.parse(r.value) : r.value));
}
