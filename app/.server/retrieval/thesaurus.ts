// A general English thesaurus behind the hand-written support lexicon (ADR 041): synonyms of common
// words from Princeton WordNet 3.0, kept only where the shared sense is one both words mostly mean
// (scripts/build-thesaurus.mjs says how). The lexicon reads it for a question word it does not know
// itself; its alternatives count less than the lexicon's own, and only in ranking.
import { THESAURUS_FORMS, THESAURUS_WORDS } from "./thesaurus-data";

export type ThesaurusEntry = { synonyms: string[]; broader: string[] };

// The data stays one sorted string per kind, split into lines on first use and binary-searched:
// building a Map of every entry would cost far more at an isolate's first question than the few
// look-ups a question makes.
let words: string[] | null = null;
let forms: string[] | null = null;

/** The line of sorted `lines` whose key (text before `sep`) is `key`, if any. */
function find(lines: string[], key: string, sep: string): string | undefined {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const line = lines[mid];
    const end = line.indexOf(sep);
    const k = end < 0 ? line : line.slice(0, end);
    if (k === key) return line;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

function entryOf(word: string): ThesaurusEntry | undefined {
  const line = find(words!, word, " ");
  if (!line) return undefined;
  const [syn, wide = ""] = line.split(">");
  return { synonyms: syn.split(" ").slice(1).filter(Boolean), broader: wide.split(" ").filter(Boolean) };
}

/** WordNet's detachment rules (morphy): an inflected ending and the base ending it may come from. */
const DETACH: [string, string][] = [
  ["ies", "y"],
  ["ses", "s"],
  ["xes", "x"],
  ["zes", "z"],
  ["ches", "ch"],
  ["shes", "sh"],
  ["men", "man"],
  ["es", "e"],
  ["es", ""],
  ["s", ""],
  ["ed", "e"],
  ["ed", ""],
  ["ing", "e"],
  ["ing", ""],
  ["er", ""],
  ["est", ""],
  ["er", "e"],
  ["est", "e"],
];

/** The thesaurus entry for a word as written: its own, its irregular base form's ("children"), or a regular one's ("tablets"). */
export function thesaurusEntry(word: string): ThesaurusEntry | undefined {
  if (!words) {
    words = THESAURUS_WORDS.split("\n").filter(Boolean);
    forms = THESAURUS_FORMS.split("\n").filter(Boolean);
  }
  const own = entryOf(word);
  if (own) return own;
  const irregular = find(forms!, word, "=");
  if (irregular) return entryOf(irregular.slice(irregular.indexOf("=") + 1));
  for (const [from, to] of DETACH) {
    if (word.length <= from.length + 1 || !word.endsWith(from)) continue;
    const hit = entryOf(word.slice(0, -from.length) + to);
    if (hit) return hit;
  }
  return undefined;
}
