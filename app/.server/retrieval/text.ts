// Text normalisation shared by the lexical retriever and the local hashed embedder: word tokens,
// English stop words and the Porter stemmer (the same algorithm FTS5's `porter` tokenizer uses,
// so terms counted here line up with what chunks_fts matched).

import { ByteLru, stringBytes } from "../cache/byte-lru";

/** The question's clauses, each with its closing punctuation: split after , ; ! ? and a full stop. */
export function questionClauses(query: string): string[] {
  return query.split(/(?<=[,;!?]|\.(?=\s|$))/).filter((s) => /\p{L}{2,}/u.test(s));
}

/** Lowercased word tokens (letters/digits, Unicode-aware); apostrophes inside words are dropped. */
export function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/['’](s|t|re|ve|ll|d|m)\b/g, "")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

export const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are aren as at be because been before being below between both but by " +
    "can cannot could couldn did didn do does doesn doing don down during each few for from further had hadn has hasn have haven having he her here hers " +
    "herself him himself his how i if in into is isn it its itself just let me more most mustn my myself no nor not now of off on once only or other ought our ours " +
    "ourselves out over own same shan she should shouldn so some such than that the their theirs them themselves then there these they this those through " +
    "to too under until up very was wasn we were weren what when where which while who whom why will with won would wouldn you your yours yourself yourselves " +
    "also may might must shall us via using use used uses get gets got one two e g eg ie etc s t"
  ).split(" "),
);

/** Chat's interjections and sign-offs: never what a question is about. */
export const CHAT_INTERJECTIONS = [
  // Laughter, asides and sign-off kisses ("xx").
  ..."lol lmao haha hahaha omg tbh btw idk xx xxx ugh nah bro hi".split(" "),
  // Spoken fillers: questions dictated to a phone arrive as "um so whats the difference between…",
  // "yeah hi so do you do gift wrapping", "ten of us no sorry eleven".
  ..."um umm uh uhh erm hmm yeah yea yep yup sorry".split(" "),
  // Young people's chat: "ngl", "lowkey", "fr" (for real), "smh", "istg" only colour a question.
  ..."ngl lowkey highkey fr smh istg bruh imo imho lmk tho".split(" "),
];

/** Question words and fillers that carry no topic in a visitor's question, with chat's interjections. */
export const QUESTION_FILLERS = new Set([
  ..."please tell know explain describe way ways like want need help thing things something anything example examples".split(" "),
  ...CHAT_INTERJECTIONS,
]);

// ~2 MB of stems at most (byte-bounded per isolate, app/.server/cache/byte-lru.ts).
const cache = new ByteLru<string, string>({ maxBytes: 2 * 1024 * 1024, sizeOf: (w, s) => stringBytes(w) + stringBytes(s) });

/** Porter (1980) stemmer, memoised. */
export function stem(w: string): string {
  if (w.length < 3) return w;
  // peek, not get: a hit does not reorder (this runs for every word; oldest-first eviction is enough).
  const hit = cache.peek(w);
  if (hit !== undefined) return hit;
  const out = porter(w);
  cache.set(w, out);
  return out;
}

/** Content terms of a text: lowercased, stop words removed, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (!STOP_WORDS.has(w)) out.push(stem(w));
  return out;
}

// --- Porter stemmer -------------------------------------------------------------------------

const isCons = (w: string, i: number): boolean => {
  const c = w[i];
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return false;
  if (c === "y") return i === 0 ? true : !isCons(w, i - 1);
  return true;
};
/** m() of the stem w[0..end): number of VC sequences. */
function measure(w: string, end: number): number {
  let n = 0;
  let i = 0;
  while (i < end && isCons(w, i)) i++;
  while (i < end) {
    while (i < end && !isCons(w, i)) i++;
    if (i >= end) break;
    n++;
    while (i < end && isCons(w, i)) i++;
  }
  return n;
}
const hasVowel = (w: string, end: number) => {
  for (let i = 0; i < end; i++) if (!isCons(w, i)) return true;
  return false;
};
const doubleCons = (w: string, end: number) => end >= 2 && w[end - 1] === w[end - 2] && isCons(w, end - 1);
const cvc = (w: string, end: number) => {
  if (end < 3 || !isCons(w, end - 1) || isCons(w, end - 2) || !isCons(w, end - 3)) return false;
  const c = w[end - 1];
  return c !== "w" && c !== "x" && c !== "y";
};

function replaceIf(w: string, suffix: string, repl: string, minM: number): string | null {
  if (!w.endsWith(suffix)) return null;
  const base = w.length - suffix.length;
  return measure(w, base) > minM ? w.slice(0, base) + repl : w;
}

const STEP2: [string, string][] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];
const STEP3: [string, string][] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];
const STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];

function porter(input: string): string {
  let w = input;
  if (!/^[a-z]+$/.test(w)) return w;
  // 1a
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (w.endsWith("ss")) {
    /* keep */
  } else if (w.endsWith("s")) w = w.slice(0, -1);
  // 1b
  let extra = false;
  if (w.endsWith("eed")) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
  } else if (w.endsWith("ed") && hasVowel(w, w.length - 2)) {
    w = w.slice(0, -2);
    extra = true;
  } else if (w.endsWith("ing") && hasVowel(w, w.length - 3)) {
    w = w.slice(0, -3);
    extra = true;
  }
  if (extra) {
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
    else if (doubleCons(w, w.length) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
    else if (measure(w, w.length) === 1 && cvc(w, w.length)) w += "e";
  }
  // 1c
  if (w.endsWith("y") && hasVowel(w, w.length - 1)) w = w.slice(0, -1) + "i";
  // 2, 3
  for (const table of [STEP2, STEP3]) {
    for (const [s, r] of table) {
      if (w.endsWith(s)) {
        const next = replaceIf(w, s, r, 0);
        if (next !== null) w = next;
        break;
      }
    }
  }
  // 4
  for (const s of STEP4) {
    if (w.endsWith(s)) {
      const base = w.length - s.length;
      if (measure(w, base) > 1) w = w.slice(0, base);
      break;
    }
  }
  if (w.endsWith("ion")) {
    const base = w.length - 3;
    if (measure(w, base) > 1 && /[st]$/.test(w.slice(0, base))) w = w.slice(0, base);
  }
  // 5a
  if (w.endsWith("e")) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !cvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  // 5b
  if (measure(w, w.length) > 1 && doubleCons(w, w.length) && w.endsWith("l")) w = w.slice(0, -1);
  return w;
}

/**
 * Hyphenated words of the texts, joined ("u-bahn" → "ubahn"), each with its longest part: how a
 * customer who writes the word closed finds it.
 */
export function hyphenatedWords(texts: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const text of texts)
    for (const m of text.matchAll(/\p{L}+(?:[-‐‑]\p{L}+)+/gu)) {
      const parts = m[0].toLowerCase().split(/[-‐‑]/);
      out.set(
        parts.join(""),
        parts.reduce((a, b) => (b.length > a.length ? b : a)),
      );
    }
  return out;
}
