import type { KbContext, KnowledgeSource } from "./sources";

// A document's text read a slice at a time, so an ingestion step holds its own slice and not the
// document (issue #21, ADR 043). Two places hold the text of a document source:
//   "content" — a text source's own text, in knowledge_source_contents (D1). A slice is read with
//     SQLite's substr(), offsets in characters (code points): the isolate receives only the slice.
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

async function contentSlice(ctx: KbContext, sourceId: string, offset: number, length: number): Promise<string | null> {
  const row = await ctx.env.DB.prepare("SELECT substr(content, ?, ?) AS s FROM knowledge_source_contents WHERE source_id = ?")
    .bind(offset + 1, length, sourceId)
    .first<{ s: string | null }>();
  return row ? (row.s ?? "") : null;
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

/** How many pairs a Q&A source's stored JSON holds; "invalid" when it is not JSON, null when there is none. */
export async function qaPairCount(ctx: KbContext, sourceId: string): Promise<number | "invalid" | null> {
  const row = await ctx.env.DB.prepare(
    "SELECT content = '' AS empty, json_valid(content) AS valid, CASE WHEN json_valid(content) THEN json_array_length(content) ELSE 0 END AS n FROM knowledge_source_contents WHERE source_id = ?",
  )
    .bind(sourceId)
    .first<{ empty: number; valid: number; n: number }>();
  if (!row || row.empty) return null;
  if (!row.valid) return "invalid";
  return row.n;
}

/** Pairs `offset` … `offset + limit - 1` of a Q&A source, in order. */
export async function qaPairs(ctx: KbContext, sourceId: string, offset: number, limit: number): Promise<{ question: string; answer: string }[]> {
  const { results } = await ctx.env.DB.prepare(
    "SELECT j.value AS value, j.type AS type FROM knowledge_source_contents c, json_each(c.content) j WHERE c.source_id = ? ORDER BY j.key LIMIT ? OFFSET ?",
  )
    .bind(sourceId, limit, offset)
    .all<{ value: string; type: string }>();
  return results.map((r) => (r.type === "object" || r.type === "array" ? JSON.parse(r.value) : r.value));
}
