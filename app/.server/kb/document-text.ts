import type { KnowledgeStore } from "../retrieval/knowledge-store";
import type { KbContext, KnowledgeSource, QaPair } from "./sources";

// A document's text read a slice at a time, so an ingestion step holds its own slice and not the
// document (issue #21, ADR 043). Two places hold the text of a document source:
//   "content" — a text source's own text, in knowledge_source_contents, in parts under D1's byte
//     cap (ADR 045), in the database that holds the chatbot's knowledge: D1, or its shard (ADR 075).
//     A slice is read with SQLite's substr() on the parts it spans, offsets in characters (code
//     points): the isolate (or the shard's reply) carries only the slice.
//   "staged"  — the text extracted from a file or a page, written once to R2 by the first step and
//     read with ranged gets, offsets in bytes of its UTF-8.
// A slice ends just after a line break (or at the end of the text), so a step resumes on a new line;
// a single line longer than the slice is read whole (the only case a step holds more than a slice).

export type TextStore = "content" | "staged";

/** Where a text or Q&A source's content is read from: the chatbot's knowledge store (D1 or its shard). */
export type SourceTexts = Pick<KnowledgeStore, "contentSlice" | "qaPairCount" | "qaPairs">;

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

/** One part of a source's content: where it starts in the whole (characters, or the index of its first Q&A pair). */
export type ContentPart = { start: number; content: string };

/**
 * A text cut into parts of at most `maxBytes` of UTF-8 each, never inside a character; `start` is
 * where each part begins in characters (code points, as SQLite's substr() counts them). A lone
 * surrogate counts as one character of 3 bytes (it is stored as U+FFFD).
 */
export function textParts(text: string, maxBytes = PART_BYTES): ContentPart[] {
  const parts: ContentPart[] = [];
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
export function qaParts(pairs: readonly QaPair[], maxBytes = PART_BYTES): ContentPart[] {
  const enc = new TextEncoder();
  const parts: ContentPart[] = [];
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
 * `db` is D1 or a shard's storage (the knowledge store runs it in either).
 */
export async function contentSliceIn(db: D1Database, sourceId: string, offset: number, length: number): Promise<string | null> {
  const { results } = await db
    .prepare(
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
 * A shard chatbot's source whose content was written to D1 — by the demo seed (which reaches only
 * D1), or just as the chatbot's knowledge moved into its shard (ADR 034) — has it moved into the
 * shard, replacing what the shard held for it, before its first ingestion step reads it (ADR 075).
 * Nothing when D1 holds no content for the source (every other case: one indexed read).
 */
export async function adoptD1Content(d1: D1Database, texts: Pick<KnowledgeStore, "putContent">, source: { sourceId: string; type: string }) {
  const { results } = await d1
    .prepare("SELECT start, content FROM knowledge_source_contents WHERE source_id = ? ORDER BY start")
    .bind(source.sourceId)
    .all<ContentPart>();
  if (!results.length) return;
  await texts.putContent(source, results);
  await d1.prepare("DELETE FROM knowledge_source_contents WHERE source_id = ?").bind(source.sourceId).run();
}

/** The statements that store a source's content parts (replacing a part already there: a re-run write adds nothing twice). */
export const putContentStatements = (db: D1Database, sourceId: string, parts: readonly ContentPart[]) =>
  parts.map((p) =>
    db
      .prepare(
        "INSERT INTO knowledge_source_contents (source_id, start, content) VALUES (?, ?, ?) ON CONFLICT (source_id, start) DO UPDATE SET content = excluded.content",
      )
      .bind(sourceId, p.start, p.content),
  );

/**
 * Where a text source's text starts and ends once trimmed (as `text.trim()` would), in characters,
 * and its trimmed length in UTF-16 units (what the product counts as knowledge characters); null
 * when the source has no text. Reads the text once, a slice at a time.
 */
export async function contentBounds(texts: SourceTexts, sourceId: string, slice = SLICE): Promise<{ start: number; end: number; chars: number } | null> {
  let offset = 0;
  let units = 0;
  let start = -1;
  let end = 0;
  let startUnits = 0;
  let endUnits = 0;
  for (;;) {
    const s = await texts.contentSlice(sourceId, offset, slice);
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
  texts: SourceTexts,
  row: KnowledgeSource,
  from: TextStore,
  offset: number,
  end: number,
  slice = SLICE,
): Promise<{ text: string; next: number }> {
  for (let n = Math.min(slice, end - offset); ; n = Math.min(n * 2, end - offset)) {
    if (from === "content") {
      const s = await texts.contentSlice(row.id, offset, n);
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
export async function qaPairCountIn(db: D1Database, sourceId: string): Promise<number | "invalid" | null> {
  const row = await db
    .prepare(
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
export async function qaPairsIn(db: D1Database, sourceId: string, offset: number, limit: number): Promise<QaPair[]> {
  const { results } = await db
    .prepare(
      `SELECT j.value AS value, j.type AS type FROM knowledge_source_contents c, json_each(c.content) j
     WHERE c.source_id = ?1 AND c.start < ?2 + ?3 AND c.start + j.key >= ?2 AND c.start + j.key < ?2 + ?3
     ORDER BY c.start, j.key`,
    )
    .bind(sourceId, offset, limit)
    .all<{ value: string; type: string }>();
  return results.map((r) => (r.type === "object" || r.type === "array" ? JSON.parse(r.value) : r.value));
}
