import type { FieldErrors } from "~/lib/forms";
import { qaPairsSchema } from "~/lib/schemas/kb";

// The generated pairs travel as editable form rows: question.N, answer.N and a "keep" checkbox
// keep.N (checked by default). Client-safe.

export type Pair = { question: string; answer: string };

/** The heading over the generated pairs: "1 question and answer", "12 questions and answers". */
export function pairsTitle(n: number): string {
  return n === 1 ? "1 question and answer" : `${n} questions and answers`;
}

/** Every row of the form (kept or not), in index order, as typed. */
export function rowsFromForm(values: Record<string, string>): (Pair & { index: number; keep: boolean })[] {
  const indexes = new Set<number>();
  for (const k of Object.keys(values)) {
    const m = /^(question|answer)\.(\d{1,3})$/.exec(k);
    if (m) indexes.add(Number(m[2]));
  }
  return [...indexes]
    .sort((a, b) => a - b)
    .slice(0, 500)
    .map((index) => ({ index, question: values[`question.${index}`] ?? "", answer: values[`answer.${index}`] ?? "", keep: values[`keep.${index}`] === "on" }));
}

/** The kept rows as pairs, validated with the knowledge base's own Q&A schema; errors keyed by row input. */
export function parseKeptPairs(values: Record<string, string>): { ok: true; pairs: Pair[] } | { ok: false; fieldErrors: FieldErrors } {
  const rows = rowsFromForm(values).filter((r) => r.keep);
  const fieldErrors: FieldErrors = {};
  if (!rows.length) return { ok: false, fieldErrors: { pairs: ["Keep at least one question with its answer."] } };
  for (const r of rows) {
    if (!r.question.trim()) (fieldErrors[`question.${r.index}`] ??= []).push("Enter the question, or untick this pair.");
    if (!r.answer.trim()) (fieldErrors[`answer.${r.index}`] ??= []).push("Enter the answer, or untick this pair.");
  }
  const parsed = qaPairsSchema.safeParse(rows.map((r) => ({ question: r.question, answer: r.answer })));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [i, field] = issue.path;
      const row = typeof i === "number" ? rows[i] : undefined;
      const key = row && typeof field === "string" ? `${field}.${row.index}` : "pairs";
      (fieldErrors[key] ??= []).push(issue.message);
    }
  }
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };
  return { ok: true, pairs: parsed.success ? parsed.data : [] };
}
