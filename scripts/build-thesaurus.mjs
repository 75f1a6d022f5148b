#!/usr/bin/env node
// Builds app/.server/retrieval/thesaurus-data.ts, a compact English synonym list derived from
// Princeton WordNet 3.0, for query expansion behind the hand-written support lexicon (ADR 041).
// Run by hand, not by npm start/test: the output is committed, and CI never rebuilds it.
//
//   mkdir -p /tmp/wn && cd /tmp/wn && apt-get download wordnet-base && dpkg-deb -x wordnet-base_*.deb x
//   node scripts/build-thesaurus.mjs --wordnet /tmp/wn/x/usr/share/wordnet
//
// What is kept, and why (WordNet lists every sense of every word; most are rare, and a rare sense as
// a synonym is noise: "tablet" is first a slab of stone there, "dinner" a party):
// - Only nouns, verbs and adjectives; only single words, as keys and as alternatives.
// - A word is *common* when SemCor tagged it at least --min-count times (WordNet's own sense tag
//   counts, cntlist.rev). Keys and alternatives must both be common.
// - Only a word's *dominant* senses: a sense tagged at least --share of all the word's tags.
// - Two words are synonyms only when they share a synset that is a dominant sense of **both** (a
//   mutual test: "pill" → "tablet" needs the pill sense to be the one people mean by "tablet" too).
// - At most --max-alts alternatives per word, the most common first.
// - With --one-sided, an alternative's shared sense need only be tagged once, not be dominant.
// - With --broader, also the words of a dominant sense's direct hypernym (one level up) that pass
//   the same tests, as one-way broader alternatives ("dinner" → "meal").
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const flag = (name) => args.includes(`--${name}`);
const WN = opt("wordnet", "/tmp/wn/x/usr/share/wordnet");
const MIN_COUNT = Number(opt("min-count", "5"));
const SHARE = Number(opt("share", "0.5"));
const MAX_ALTS = Number(opt("max-alts", "4"));
const BROADER = flag("broader");
const ONE_SIDED = flag("one-sided");
const OUT = opt("out", join(dirname(fileURLToPath(import.meta.url)), "../app/.server/retrieval/thesaurus-data.ts"));

const POS = { noun: "n", verb: "v", adj: "a" };
const SS_POS = { 1: "n", 2: "v", 3: "a", 5: "a" };
const read = (f) => readFileSync(join(WN, f), "utf8").split("\n");
const isWord = (w) => /^[a-z]+$/.test(w) && w.length >= 2;

// Sense tag counts: (lemma, pos, sense number) → count.
const tagCount = new Map();
for (const line of read("cntlist.rev")) {
  const [key, senseNo, count] = line.split(" ");
  if (!key) continue;
  const [lemma, rest] = key.split("%");
  const pos = SS_POS[rest.split(":")[0]];
  if (!pos) continue;
  const k = `${lemma}|${pos}|${senseNo}`;
  tagCount.set(k, (tagCount.get(k) ?? 0) + Number(count));
}

// Index: lemma → senses [{ pos, synset id, count }], in WordNet's frequency order.
const senses = new Map();
for (const [file, pos] of Object.entries(POS)) {
  for (const line of read(`index.${file}`)) {
    if (!line || line.startsWith(" ")) continue;
    const f = line.trim().split(" ");
    const lemma = f[0];
    const synsetCnt = Number(f[2]);
    const ptrCnt = Number(f[3]);
    const offsets = f.slice(4 + ptrCnt + 2, 4 + ptrCnt + 2 + synsetCnt);
    const list = senses.get(lemma) ?? [];
    offsets.forEach((o, i) => list.push({ pos, id: `${pos}${o}`, count: tagCount.get(`${lemma}|${pos}|${i + 1}`) ?? 0 }));
    senses.set(lemma, list);
  }
}
const total = (w) => (senses.get(w) ?? []).reduce((a, s) => a + s.count, 0);
const common = (w) => isWord(w) && total(w) >= MIN_COUNT;
/** Synset ids that are a dominant sense of w (any tagged sense of an alternative, with --one-sided). */
const dominant = (w, alternative = false) => {
  const t = alternative && ONE_SIDED ? 0 : total(w);
  return new Set((senses.get(w) ?? []).filter((s) => s.count > 0 && s.count >= SHARE * t).map((s) => s.id));
};

// Synsets: id → { words, hypernyms }.
const synsets = new Map();
for (const [file, pos] of Object.entries(POS)) {
  for (const line of read(`data.${file}`)) {
    if (!line || line.startsWith(" ")) continue;
    const f = line.split(" | ")[0].trim().split(" ");
    const wCnt = parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < wCnt; i++) words.push(f[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, ""));
    let j = 4 + 2 * wCnt;
    const pCnt = Number(f[j++]);
    const hypernyms = [];
    for (let i = 0; i < pCnt; i++, j += 4) if (f[j] === "@" || f[j] === "@i") hypernyms.push(`${f[j + 2] === "s" ? "a" : f[j + 2]}${f[j + 1]}`);
    synsets.set(`${pos}${f[0]}`, { words, hypernyms });
  }
}

const entries = [];
for (const w of [...senses.keys()].sort()) {
  if (!common(w)) continue;
  const mine = dominant(w);
  const syn = new Set();
  const wider = new Set();
  for (const id of mine) {
    for (const v of synsets.get(id)?.words ?? []) if (v !== w && common(v) && dominant(v, true).has(id)) syn.add(v);
    if (BROADER)
      for (const h of synsets.get(id)?.hypernyms ?? [])
        for (const v of synsets.get(h)?.words ?? []) if (v !== w && !syn.has(v) && common(v) && dominant(v, true).has(h)) wider.add(v);
  }
  const byUse = (a, b) => total(b) - total(a) || (a < b ? -1 : 1);
  const s = [...syn].sort(byUse).slice(0, MAX_ALTS);
  const b = [...wider].sort(byUse).slice(0, Math.max(0, MAX_ALTS - s.length));
  if (s.length || b.length) entries.push(b.length ? `${w} ${s.join(" ")}>${b.join(" ")}` : `${w} ${s.join(" ")}`);
}

// Irregular forms (WordNet's exception lists) of the kept words that the detachment rules miss.
const keys = new Set(entries.map((e) => e.split(" ")[0]));
const irregular = [];
for (const file of ["noun", "verb", "adj"])
  for (const line of read(`${file}.exc`)) {
    const [form, lemma] = line.split(" ");
    if (form && isWord(form) && keys.has(lemma) && form !== lemma && !keys.has(form)) irregular.push(`${form}=${lemma}`);
  }

const settings = `min-count ${MIN_COUNT}, share ${SHARE}, max-alts ${MAX_ALTS}${ONE_SIDED ? ", one-sided" : ""}${BROADER ? ", broader" : ""}`;
const notice = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../app/.server/retrieval/WORDNET-LICENSE.txt"), "utf8")
  .trim()
  .split("\n")
  .map((l) => `// ${l}`.trimEnd())
  .join("\n");
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(
  OUT,
  `// Generated by scripts/build-thesaurus.mjs (${settings}) from Princeton WordNet 3.0; do not edit.
// THESAURUS_WORDS: one line per word, sorted: the word, its synonyms${BROADER ? ', then after ">" its broader words' : ""}.
// THESAURUS_FORMS: irregular forms of those words, sorted, as "form=word". Both are binary-searched.
// ADR 041 says how it is chosen and used. WordNet's licence (also in WORDNET-LICENSE.txt):
//
${notice}

export const THESAURUS_WORDS = \`
${entries.join("\n")}
\`;

export const THESAURUS_FORMS = \`
${[...new Map(irregular.map((l) => [l.split("=")[0], l])).values()].sort().join("\n")}
\`;
`,
);
console.log(`${entries.length} words, ${irregular.length} irregular forms (${settings}) → ${OUT}`);
