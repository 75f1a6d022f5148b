// Docs search, on the server (works without JavaScript): every page is split into sections at its
// h2/h3 headings and ranked with BM25F — the page title weighs 3, the section heading 2, the text 1.
// Terms are lower-cased and lightly stemmed (plural "s"); a query word that matches nothing exactly
// also matches the words it starts ("identi" → "identity"). The snippet is cut around the best
// cluster of matches and comes back as segments, so the page marks them up with <mark> — no HTML here.

export type SearchDoc = {
  url: string;
  pageTitle: string;
  /** null for a page's introduction (before its first heading). */
  heading: string | null;
  anchor: string | null;
  text: string;
};

export type Segment = { text: string; hit: boolean };
export type SearchResult = { url: string; anchor: string | null; pageTitle: string; heading: string | null; score: number; snippet: Segment[] };

const STOP = new Set(
  "a an and are as at be by can do does for from has have how i if in is it its of on or that the their then there this to was what when where which who why will with you your".split(" "),
);

export function stem(word: string): string {
  let w = word.toLowerCase().replace(/'s$/, "");
  if (w.length > 4 && w.endsWith("ies")) w = w.slice(0, -3) + "y";
  else if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  return w;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) {
    const w = stem(m[0].replace("’", "'"));
    if (!STOP.has(w)) out.push(w);
  }
  return out;
}

type Field = { tf: Map<string, number>; len: number };
type Indexed = { doc: SearchDoc; fields: [Field, Field, Field] };
export type SearchIndex = { docs: Indexed[]; df: Map<string, number>; avg: [number, number, number]; vocabulary: string[] };

const WEIGHTS = [3, 2, 1] as const;
const K1 = 1.2;
const B = 0.75;

function field(text: string): Field {
  const tf = new Map<string, number>();
  const tokens = tokenize(text);
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, len: tokens.length };
}

export function buildSearchIndex(docs: SearchDoc[]): SearchIndex {
  const indexed: Indexed[] = docs.map((doc) => ({ doc, fields: [field(doc.pageTitle), field(doc.heading ?? ""), field(doc.text)] }));
  const df = new Map<string, number>();
  for (const d of indexed) {
    const terms = new Set<string>();
    for (const f of d.fields) for (const t of f.tf.keys()) terms.add(t);
    for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const n = Math.max(1, indexed.length);
  const avg = [0, 1, 2].map((i) => Math.max(1, indexed.reduce((s, d) => s + d.fields[i].len, 0) / n)) as [number, number, number];
  return { docs: indexed, df, avg, vocabulary: [...df.keys()].sort() };
}

/** Query words → the index terms they stand for (exact, else the terms they are a prefix of). */
function expand(index: SearchIndex, query: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const q of new Set(tokenize(query))) {
    if (index.df.has(q)) out.set(q, [q]);
    else if (q.length >= 3) out.set(q, index.vocabulary.filter((t) => t.startsWith(q)).slice(0, 20));
    else out.set(q, []);
  }
  return out;
}

export function searchDocs(index: SearchIndex, query: string, opts: { limit?: number; perPage?: number } = {}): SearchResult[] {
  const limit = opts.limit ?? 20;
  const perPage = opts.perPage ?? 2;
  const terms = expand(index, query);
  if (![...terms.values()].some((t) => t.length)) return [];
  const n = index.docs.length;
  const scored: { d: Indexed; score: number; matched: number }[] = [];
  for (const d of index.docs) {
    let score = 0;
    let matched = 0;
    for (const variants of terms.values()) {
      let best = 0;
      for (const t of variants) {
        let tfw = 0;
        d.fields.forEach((f, i) => {
          const tf = f.tf.get(t) ?? 0;
          if (tf) tfw += (WEIGHTS[i] * tf) / (1 - B + (B * f.len) / index.avg[i]);
        });
        if (!tfw) continue;
        const df = index.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        best = Math.max(best, (idf * (tfw * (K1 + 1))) / (tfw + K1));
      }
      if (best) matched++;
      score += best;
    }
    // Sections matching more of the query's words come first.
    if (score > 0) scored.push({ d, score: score * (matched / terms.size), matched });
  }
  scored.sort((a, b) => b.score - a.score);
  const perUrl = new Map<string, number>();
  const results: SearchResult[] = [];
  const allTerms = [...terms.values()].flat();
  for (const s of scored) {
    const count = perUrl.get(s.d.doc.url) ?? 0;
    if (count >= perPage) continue;
    perUrl.set(s.d.doc.url, count + 1);
    const { doc } = s.d;
    results.push({ url: doc.url, anchor: doc.anchor, pageTitle: doc.pageTitle, heading: doc.heading, score: Math.round(s.score * 1000) / 1000, snippet: snippet(doc.text, allTerms) });
    if (results.length >= limit) break;
  }
  return results;
}

const isHit = (word: string, terms: string[]) => {
  const w = stem(word);
  return terms.some((t) => w === t || (t.length >= 3 && w.startsWith(t)));
};

/** ~`size` words of `text` around the densest cluster of hits, as plain/marked segments. */
export function snippet(text: string, terms: string[], size = 32): Segment[] {
  const words = [...text.matchAll(/\S+/g)];
  if (!words.length) return [];
  const hits = words.map((m) => {
    const core = m[0].match(WORD);
    return !!core && core.some((c) => isHit(c, terms));
  });
  let bestStart = 0;
  let bestCount = -1;
  for (let i = 0; i < words.length; i++) {
    if (!hits[i]) continue;
    const start = Math.max(0, i - 6);
    let count = 0;
    for (let j = start; j < Math.min(words.length, start + size); j++) if (hits[j]) count++;
    if (count > bestCount) {
      bestCount = count;
      bestStart = start;
    }
  }
  const end = Math.min(words.length, bestStart + size);
  const from = words[bestStart].index!;
  const to = words[end - 1].index! + words[end - 1][0].length;
  const slice = text.slice(from, to);
  const segments: Segment[] = [];
  const push = (t: string, hit: boolean) => {
    if (!t) return;
    const last = segments[segments.length - 1];
    if (last && last.hit === hit) last.text += t;
    else segments.push({ text: t, hit });
  };
  if (bestStart > 0) push("… ", false);
  let pos = 0;
  for (const m of slice.matchAll(WORD)) {
    push(slice.slice(pos, m.index), false);
    push(m[0], isHit(m[0], terms));
    pos = m.index! + m[0].length;
  }
  push(slice.slice(pos), false);
  if (end < words.length) push(" …", false);
  return segments;
}
