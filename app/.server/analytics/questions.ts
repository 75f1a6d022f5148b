import { hashEmbedTerms } from "../ai/embeddings";
import { isLightWord, questionWords } from "../retrieval/lexicon";
import { QUESTION_FILLERS, stem, STOP_WORDS } from "../retrieval/text";

// Visitor questions grouped by what they ask about, with the retrieval text utilities (no second
// way to read text): a question's key is its content terms — chat spelling expanded, stop words and
// question fillers dropped, Porter-stemmed — unique and sorted, so "What's your refund policy?" and
// "refund policy please" share one key as they arrive. Reading a range then merges keys whose terms
// are close (the local embedder's hashed word + character n-gram vectors, cosine), so "When are you
// open?" joins "What are your opening hours?".

export const QUESTION_TEXT_MAX = 200;
const KEY_MAX = 160;
/**
 * Cosine of two keys' hashed n-gram vectors from which they are one group: "open" joins "hour open"
 * (0.73), while "cost ship" and "long ship" (0.49) stay apart.
 */
export const SIMILAR_KEYS = 0.7;

/** Light words ("policy", "new", "work") count only when the question has no other content word. */
function contentTerms(text: string): string[] {
  const content = questionWords(text).filter((w) => !STOP_WORDS.has(w) && !QUESTION_FILLERS.has(w));
  const heavy = content.filter((w) => !isLightWord(w));
  return [...new Set((heavy.length ? heavy : content).map(stem))].sort();
}

/** The group key of a question; a question of stop words only keys on its normalised words. */
export function questionKey(text: string): string {
  const terms = contentTerms(text);
  const key = terms.length ? terms.join(" ") : questionWords(text).join(" ");
  return (key || text.trim().toLowerCase()).slice(0, KEY_MAX);
}

/**
 * What is kept as the group's sample: the question as asked, shortened, with email addresses and
 * long digit runs (phone and order numbers) masked — the sample outlives the conversation's lead.
 */
export function questionSample(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const masked = flat.replace(/[^\s@]+@[^\s@]+\.[^\s@]+/g, "[email]").replace(/\+?\d[\d\s().-]{5,}\d/g, "[number]");
  return masked.length > QUESTION_TEXT_MAX ? `${masked.slice(0, QUESTION_TEXT_MAX - 1)}…` : masked;
}

export type KeyedCount = { key: string; text: string; asked: number; unanswered: number };
export type QuestionGroup = { key: string; text: string; asked: number; unanswered: number; keys: string[] };

/**
 * Merges keyed counts (most asked first) into groups of similar questions: each key joins the first
 * group whose leading key is close enough, else starts a group. The group shows its most asked text.
 */
export function groupSimilar(rows: KeyedCount[], threshold = SIMILAR_KEYS): QuestionGroup[] {
  const groups: (QuestionGroup & { vector: Float32Array })[] = [];
  for (const row of rows) {
    const vector = hashEmbedTerms(row.key.split(" "));
    const home = groups.find((g) => cosine(g.vector, vector) >= threshold);
    if (home) {
      home.asked += row.asked;
      home.unanswered += row.unanswered;
      home.keys.push(row.key);
    } else groups.push({ key: row.key, text: row.text, asked: row.asked, unanswered: row.unanswered, keys: [row.key], vector });
  }
  return groups.map(({ vector: _vector, ...g }) => g);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot; // both are L2-normalised
}
