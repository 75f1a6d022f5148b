import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { AnswerLength } from "~/lib/schemas/chatbot-settings";
import { LENGTH_GUIDE } from "./prompts";
import { isLightWord, lexicalSlots, questionWords } from "../retrieval/lexicon";
import { askedValues, rangeCover } from "../retrieval/ranges";
import { irregularForms } from "../retrieval/irregular-verbs";
import { CHAT_INTERJECTIONS, hyphenatedWords } from "../retrieval/text";
import { detectSmallTalk, normalizeWords, smallTalkReply } from "./small-talk";

// The built-in engine: a real AI SDK LanguageModelV3 that needs no key and no network. It reads the
// system prompt built by prompts.ts (instructions, settings, fallback, numbered passages) and the
// conversation, and composes a grounded answer from the passages' best sentences, citing them as [n].
// It never invents: with no passages it answers with the configured fallback message. Greetings,
// thanks and small talk get short replies (small-talk.ts: en, fr, de, es, pl). Deterministic: the same
// prompt always gives the same answer, streamed in small text deltas (no artificial delays).
// The owner's free-form instructions cannot be "followed" by an extractive engine; they matter to
// real models only.

export const LOCAL_MODEL_ID = "local";

type ParsedPassage = { id: number; title: string; url: string | null; text: string };
export type ParsedPrompt = {
  botName: string;
  language: string;
  length: AnswerLength;
  fallback: string;
  passages: ParsedPassage[];
  question: string;
  previousQuestions: string[];
};

const DEFAULT_FALLBACK = "Sorry, I don't know the answer to that.";

function unescapeBody(s: string) {
  return s.replace(/‹(\/?(passage|passages|instructions|fallback))/gi, "<$1");
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((p): p is { type: "text"; text: string } => !!p && typeof p === "object" && (p as { type?: string }).type === "text")
    .map((p) => p.text)
    .join("\n");
}

/** Reads what the engine needs out of the standard prompt (system message + conversation). */
export function parsePrompt(prompt: LanguageModelV3Prompt): ParsedPrompt {
  const system = prompt
    .filter((m) => m.role === "system")
    .map((m) => m.content as string)
    .join("\n");
  const botName = /<bot name="([^"]*)"\/>/.exec(system)?.[1] ?? "the assistant";
  const settings = /<settings language="([^"]*)" length="(short|medium|long)"/.exec(system);
  const fallback = /<fallback>([\s\S]*?)<\/fallback>/.exec(system)?.[1];
  const passages: ParsedPassage[] = [];
  for (const m of system.matchAll(/<passage id="(\d+)" title="([^"]*)"(?: url="([^"]*)")?>\n?([\s\S]*?)\n?<\/passage>/g)) {
    passages.push({ id: Number(m[1]), title: m[2], url: m[3] ?? null, text: unescapeBody(m[4]) });
  }
  const users = prompt.filter((m) => m.role === "user").map((m) => textOf(m.content).trim());
  return {
    botName,
    language: settings?.[1] ?? "auto",
    length: (settings?.[2] as AnswerLength) ?? "medium",
    fallback: fallback ? unescapeBody(fallback).trim() : DEFAULT_FALLBACK,
    passages,
    question: users.at(-1) ?? "",
    previousQuestions: users.slice(0, -1),
  };
}

// ——— Sentence scoring ———

const STOPWORDS = new Set(
  // en
  (
    "a an the and or but if then else of to in on at by for with about as from into over under is are was were be been being am do does did " +
    "have has had i you he she it we they me my your yours our their this that these those what which who whom whose when where why how " +
    "can could would should will shall may might must not no yes so than too very just also there here any some all each such only own same " +
    "please tell know want need like get got let us its it's im i'm youre dont don't doesnt isnt arent hi hello thanks thank " +
    // fr
    "le la les un une des du de et ou mais est sont etre avoir ai as a ont je tu il elle nous vous ils elles ce cet cette ces que qui quoi " +
    "quel quelle quels quelles comment pourquoi ou quand dans sur pour par avec sans pas ne plus mon ma mes ton ta tes son sa ses leur leurs au aux " +
    // de
    "der die das ein eine einen einem einer und oder aber ist sind war waren sein haben hat habe ich du er sie es wir ihr mich mir dich dir " +
    "was wer wie warum wo wann welche welcher welches in im auf fur mit ohne nicht kein keine zu zum zur von vom den dem des bei " +
    // es
    "el la los las un una unos unas y o pero es son era ser estar tener tengo yo tu el ella nosotros vosotros ellos que quien como por " +
    "porque donde cuando cual cuales en sobre para con sin no mi mis su sus del al lo se me te " +
    // pl
    "i w na z do o od po za przez dla jest sa byc mam masz ma ja ty on ona ono my wy oni co kto jak dlaczego gdzie kiedy ktory ktora ktore " +
    "czy nie tak to ten ta te tego tej mi mnie sie jestem"
  )
    .split(/\s+/)
    .concat(CHAT_INTERJECTIONS),
);

/** Crude language-independent stemming: enough to match "shipping" with "ship", "returns" with "return". */
function stem(w: string) {
  if (w.length > 7 && w.endsWith("ation")) return w.slice(0, -5);
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3);
  if (w.length > 4 && (w.endsWith("ied") || w.endsWith("ies"))) return w.slice(0, -3) + "i";
  // "-eed" is no past tense: "bleed", "speed" and "breed" keep their stem ("bleeding" → "bleed").
  if (w.length > 4 && w.endsWith("ed") && !w.endsWith("eed")) return w.slice(0, -2);
  if (w.length > 4 && /(s|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  // Plural first, then y → i, so "Saturdays" and "Saturday" meet.
  let x = w;
  if (x.length > 3 && x.endsWith("s") && !x.endsWith("ss")) x = x.slice(0, -1);
  if (x.length > 4 && x.endsWith("y")) x = x.slice(0, -1) + "i";
  return x;
}

/** "1,000" and "1000" are one number to the reader ("1000 of the laminated cards" → "| 1,000 | €69 |"). */
const ungroupDigits = (text: string) => text.replace(/(\d),(?=\d{3}(?!\d))/g, "$1");

function contentStems(text: string): string[] {
  const stems = normalizeWords(ungroupDigits(text))
    .filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\d/.test(w)))
    .map(stem);
  // A hyphenated word also counts written closed ("de-shedding" for "deshedding"), after the
  // sentence's own words so its subject (first two stems) is unchanged.
  for (const joined of hyphenatedWords([text]).keys()) stems.push(...normalizeWords(joined).map(stem));
  return stems;
}

function stemsMatch(a: string, b: string) {
  if (a === b) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  return s.length >= 4 && l.startsWith(s);
}

const LANG_HINTS: Record<string, Set<string>> = {
  // "i" and "do" are Polish hints too: without them in English, "how long do i have to…" read as Polish.
  en: new Set("the and is are of to with you your we our for this that i do how what can my it".split(" ")),
  fr: new Set("le la les et est sont des du vous nous pour avec une dans".split(" ")),
  de: new Set("der die das und ist sind mit sie wir fur ein eine nicht den".split(" ")),
  es: new Set("el la los las y es son con para una usted nosotros del por".split(" ")),
  pl: new Set("i w na jest sa z do sie nie dla oraz przez jak".split(" ")),
};

function detectLanguage(text: string): string | null {
  const words = normalizeWords(text);
  let best: string | null = null;
  let bestHits = 1;
  for (const [lang, hints] of Object.entries(LANG_HINTS)) {
    const hits = words.filter((w) => hints.has(w)).length;
    if (hits > bestHits) [best, bestHits] = [lang, hits];
  }
  return best;
}

const PROCEDURAL =
  /^(how (do|can|should|to|would)|what (are the )?steps|explain|comment (puis|faire|on)|wie (kann|mache|funktioniert)|c[oó]mo (puedo|se|hago)|jak (mog[eę]|zrobi[cć]|to))\b/i;

type Sentence = {
  passage: number;
  rank: number;
  position: number;
  /** The passage's line (paragraph, list item or table row) the sentence comes from. */
  paragraph: number;
  text: string;
  bullet: boolean;
  /** An FAQ's prompt: a question, or a whole line in bold ("**I knocked out a tooth.**"). Never quoted. */
  prompt: boolean;
  /** The first sentence of an FAQ's answer: it follows a prompt, or opens a section whose heading asks. */
  answers: boolean;
  stems: string[];
  headingStems: string[];
  score: number;
  whole: number;
};

/** A list item's marker: "- ", "* ", "• ", "1. ", "2) ". */
const LIST_ITEM = /^([-*•·]|\d{1,2}[.)])\s+/;
const STRUCTURAL_LINE = /^(#{1,6}\s|[-=*_]{3,}$|\|.*\|$|([-*•·]|\d{1,2}[.)])\s+)/;
/** A `field: value` record line (CSV rows are extracted as such lines). */
const RECORD_LINE = /^[^\s:]{1,40}:\s/;

/** Markdown emphasis closing a line ("**Who pays the excess?**") hides its final punctuation. */
const unemphasised = (line: string) => line.replace(/(\*\*|__|\*|_)$/, "");
/** A question, as an FAQ writes it: the sentence after it is its answer. */
const asksQuestion = (text: string) => unemphasised(text).endsWith("?");
/**
 * A line wholly in bold: an FAQ's prompt or a label, not an answer — unless it states something in
 * the business's own voice ("**We are closed on Sundays.**" is emphasis; "**I knocked out a tooth
 * playing rugby.**" is the customer's question).
 */
const EMPHASISED_LINE = /^(\*\*|__)(?!\s)([^*_]+)\1$/;
const emphasisedPrompt = (line: string) => {
  const inner = EMPHASISED_LINE.exec(line)?.[2].trim();
  return inner !== undefined && (!/[.!…]$/.test(inner) || /^(i|i'm|i've|i'd|my)\b/i.test(inner));
};

/**
 * Joins hard-wrapped prose back into lines: docs, text files and emails are often wrapped at ~80–100
 * columns, and quoting "file you can upload." from the middle of a sentence reads as nonsense. A line
 * continues the previous one when that one is long and stops without punctuation, unless it starts a
 * heading, list item, table row or `field: value` record (CSV rows are extracted as such lines).
 */
function unwrapLines(text: string): string[] {
  const out: string[] = [];
  let prev = "";
  let inItem = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    // An indented line under a list item is that item's text wrapped, whatever the line above
    // ends with ("- **With Stripe configured** (…):" then "  moving from Free to a paid plan…").
    const itemText = inItem && /^[ \t]+\S/.test(raw) && !STRUCTURAL_LINE.test(line);
    const wrapped =
      itemText ||
      (prev.length >= 50 &&
        !/[.!?:;…]$/.test(unemphasised(prev)) &&
        !/^#{1,6}\s|^\|/.test(prev) &&
        line &&
        !STRUCTURAL_LINE.test(line) &&
        !RECORD_LINE.test(line));
    if (wrapped) out[out.length - 1] += ` ${line}`;
    else {
      out.push(line);
      inItem = LIST_ITEM.test(line);
    }
    prev = wrapped ? out[out.length - 1] : line;
  }
  return out;
}

/**
 * A line that reads as a heading although it is not marked as one: short, capitalised, without
 * final punctuation, and followed by prose (a section title kept as a plain line by text
 * extraction or by merged sections). It labels the sentences under it; it is never quoted.
 */
function headingLike(line: string, next: string | undefined): boolean {
  if (!next || line.length > 60 || /[.!?:;…,)]$/.test(line) || STRUCTURAL_LINE.test(line) || RECORD_LINE.test(line)) return false;
  if (!/^[\p{Lu}\p{N}]/u.test(line) || line.split(/\s+/).length > 8) return false;
  // A merged chunk writes its sections' headings as plain lines: one before a list or a table is a
  // heading too ("Opening Hours" above "- Monday to Friday: 8 am to 5:30 pm").
  return (/[.!?…]$/.test(next) && next.length > line.length) || /^([-*•·]|\d{1,2}[.)])\s+|^\|/.test(next);
}

/** A table cell that is a sentence of its own ("Yes, on every plan we offer today."), not a value ("CA$2.50 per lb (10 lb minimum)"). */
const readsAsSentence = (cell: string) => cell.split(/\s+/).length > 5 && (/^\p{Lu}\p{Ll}/u.test(cell) || /[.!?]$/.test(cell));

/** A fenced code block, or one a chunk cuts off before its closing fence. */
const CODE_BLOCK = /^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm;

/**
 * Where prose splits into sentences: after . ! ? or … before a capital, a digit or an opening quote,
 * but not after a title or a place's abbreviation ("Dr. Patel", "St. Ives", "Co. Mayo"), which
 * quoted alone cut a sentence off mid-way. "No." is left out: it is also a whole answer.
 */
const SENTENCE_END = /(?<=[.!?…])(?<!\b(?:Mr|Mrs|Ms|Dr|Prof|St|Mt|Ft|Co|Jr|Sr)\.)\s+(?=[\p{Lu}\p{N}"“«(¿¡])/u;

/** A line whose last sentence is complete ("…blocks it).", "…on the day?**"). */
const ENDS_SENTENCE = /[.!?…]["'”»)\]*_]*$/;

/** A passage's sentence or list item; `paragraph` is the line it comes from (after unwrapping). */
type SplitSentence = { text: string; bullet: boolean; heading?: string; prompt?: boolean; paragraph: number };

/** Splits a passage into sentences (and list items); headings are left out but label what follows. */
export function splitSentences(text: string): SplitSentence[] {
  const out: SplitSentence[] = [];
  let first = true;
  let heading: string | undefined;
  let tableHeader: string[] | undefined;
  // A fenced code block is shown by the source, not quoted as sentences ("```html" read as one).
  // "…where the chat should appear:" introduced the code: without it, the sentence ends there.
  const lines = unwrapLines(text.replace(/:[ \t]*\n(?=\s*(```|~~~))/g, ".\n").replace(CODE_BLOCK, "")).map((l) => l.trim());
  const nextOf = (i: number) => lines.slice(i + 1).find((l) => l.length > 0);
  // The chunk began mid-sentence and that sentence has not ended yet: its next lines are the rest
  // of it ("on in Look & feel and the built-in" then "tool **Hand to a human** is on…").
  let midSentence = false;
  // Drops the fragment up to the line's first sentence end and keeps the rest; true when the
  // fragment runs on past this line.
  const skipFragment = (line: string, i: number): boolean => {
    const rest = line.split(SENTENCE_END).slice(1).join(" ");
    if (rest) out.push(...splitSentences(rest).map((s) => ({ ...s, heading: s.heading ?? heading, paragraph: i })));
    return !rest && !ENDS_SENTENCE.test(line);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (midSentence) {
      midSentence = false;
      if (line && !STRUCTURAL_LINE.test(line) && !RECORD_LINE.test(line)) {
        midSentence = skipFragment(line, i);
        continue;
      }
    }
    if (!line || /^[-=*_]{3,}$/.test(line)) continue;
    if (/^#{1,6}\s/.test(line)) {
      heading = line.replace(/^#{1,6}\s+/, "").replace(/\s+#+\s*$/, "");
      continue;
    }
    if (headingLike(line, nextOf(i))) {
      heading = line;
      continue;
    }
    // The first line of text, after any heading the chunk repeats for context.
    const wasFirst = first;
    first = false;
    // Chunk overlap can start mid-sentence: a leading fragment is not something to quote.
    if (wasFirst && /^[\p{Ll},;:)\]"”»?!]/u.test(line) && !RECORD_LINE.test(line)) {
      midSentence = skipFragment(line, i);
      continue;
    }
    // Markdown table rows read as "First cell: other cells."; separator rows are dropped. A header row
    // (the one above the separator) is not a sentence: with three columns or more it names each short
    // value ("REST API: Free —; Starter yes; …"), which a bare row of values does not; a value that
    // is a sentence of its own reads without its column's name (a long value keeps it: "Price CA$2.50 per lb (10 lb minimum)").
    if (/^\|.*\|$/.test(line)) {
      if (/^\|[\s:|-]+\|$/.test(line)) continue;
      const cells = line
        .slice(1, -1)
        .split("|")
        .map((c) => c.trim());
      if (/^\|[\s:|-]+\|$/.test(nextOf(i) ?? "")) {
        tableHeader = cells;
        continue;
      }
      const named = tableHeader && tableHeader.length === cells.length && cells.length >= 3 ? tableHeader : undefined;
      const values = cells
        .slice(1)
        .map((c, j) => (c && named?.[j + 1] && !readsAsSentence(c) ? `${named[j + 1]} ${c}` : c))
        .filter(Boolean);
      if (cells[0] && values.length)
        out.push({
          text: `${cells[0]}: ${values.join("; ").replace(/[.;:]?$/, ".")}`,
          bullet: true,
          paragraph: i,
          ...(heading ? { heading } : {}),
        });
      continue;
    }
    tableHeader = undefined;
    const bullet = LIST_ITEM.test(line);
    const body = line.replace(LIST_ITEM, "").replace(/^(q|a|question|answer|réponse|antwort|frage|pregunta|respuesta|pytanie|odpowiedz|odpowiedź)\s*:\s*/i, "");
    const parts = bullet ? [body] : body.split(SENTENCE_END);
    const emphasised = emphasisedPrompt(body);
    for (const p of parts) {
      const s = p.replace(/^(q|a|question|answer)\s*:\s*/i, "").trim();
      if (s.length >= 3)
        out.push({ text: s, bullet, paragraph: i, ...(heading ? { heading } : {}), ...(emphasised || asksQuestion(s) ? { prompt: true } : {}) });
    }
  }
  return out;
}

// ——— What kind of answer a question wants ———
// "How long…" wants a duration, "how much…" an amount, "where…" a place: a sentence that has one
// answers better than one that only shares the question's words.
/** A clock time: "7 pm", "8:30", "noon". */
const CLOCK_TIME = /\b\d{1,2}([.:]\d{2})?\s?(am|pm)\b|\b\d{1,2}:\d{2}\b|\bnoon\b|\bmidnight\b|\b24-hour\b/i;
const ANSWER_TYPES: { ask: RegExp; has: RegExp }[] = [
  {
    ask: /\bhow (long(?! (can|could|should|may|must)\b)|quick|quickly|fast|soon)\b|\bwhen will\b|\bby when\b|\bhow many (days|weeks|hours|months|minutes)\b|\bhow much (notice|time|warning)\b/,
    has: /\b\d+(\.\d+)?(\s*(to|-|–|or)\s*\d+)?\s*(minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|working days?|business days?)\b|\bsame day\b|\bnext (working |business )?day\b|\b(one|two|three|four|five|six|seven|ten|a few) (minutes?|hours?|days?|weeks?|months?|working days?|business days?)\b|\b\d+-(day|hour|week|month)\b|\bhalf an? (hour|day)\b|(?<!\d\s)\ban hour\b/i,
  },
  // "How far do you deliver?" wants a distance: "within 8 km", "10 miles", "5 minutes' walk".
  {
    ask: /\bhow far\b/,
    has: /\b\d+(\.\d+)?\s?(km|kilomet(er|re)s?|miles?|metres?|meters?)\b|\b\d+\s?(minutes?|mins?)'? (walk|drive|away|by car|on foot)\b/i,
  },
  {
    ask: /\bhow much (is|are|does|do|did|will|would|to|for|extra|money|it|for)\b|\bhow much\W*$|\b(cost|costs|price|prices|pricing|fee|fees|charge|charges|expensive|cheap)\b/,
    has: /[£€$¥]\s?\d|\d\s?(€|eur|euros?|usd|dollars?|gbp|pounds?)\b|\bfree\b|\d+(\.\d+)?\s?%/i,
  },
  // "What time do you close on weekdays?" wants a clock time; "are you open on Sundays?" may be
  // answered by "closed".
  {
    ask: /\bwhat times?\b|\b(till|until) when\b|\bwhen (do|does|are|is) (you|it|the \w+) (open|close|shut)/,
    has: CLOCK_TIME,
  },
  {
    // "48 hours away", "10 hrs" is a duration, not the opening hours.
    ask: /(?<!\d\s?)\b(opening )?hours\b|\bare you open\b|\bopen (on|at|in)\b/,
    has: /\b\d{1,2}([.:]\d{2})?\s?(am|pm)\b|\b\d{1,2}:\d{2}\b|\bnoon\b|\bmidnight\b|\bclosed\b|\b24-hour\b/i,
  },
  {
    ask: /\bwhere\b/,
    has: /\b\d+[a-z]?\s+(\p{Lu}[\p{L}'-]+\s+){1,3}(street|st|road|rd|lane|ln|avenue|ave|square|sq|place|way|drive|quay|row|hill)\b|\b(based|located) in\b/iu,
  },
  // "Is there a sibling discount?" is answered by "10% off the second child", however it is worded.
  {
    ask: /\b(discounts?|deals?|cheaper|concessions?|reductions?|promo|money off)\b/,
    has: /\d\s?%\s*off\b|\bhalf[- ]price\b|[£€$]\s?\d+(\.\d+)?\s+off\b/i,
  },
  // "How often should I see the hygienist?" wants a frequency: "every 6 months", "twice a year".
  {
    ask: /\bhow (often|frequently|regularly)\b/,
    has: /\bevery (\d+ |other |few |two |three |four |six |twelve )?(days?|weeks?|fortnights?|months?|years?|seasons?)\b|\b(once|twice|\d+ times) (a|an|per|each|every) (day|week|fortnight|month|year)\b|\b(daily|weekly|fortnightly|monthly|yearly|annually)\b/i,
  },
  { ask: /\b(phone|call|ring|telephone|number)\b/, has: /(\+?\d[\d ]{7,}\d)/ },
  // "What port does it serve on?" wants the port: "http://localhost:8787", "port 5432".
  { ask: /\b(what|which) port\b|\bport (number|no)\b/, has: /\blocalhost:\d{2,5}\b|\b[a-z][\w-]*(\.[\w-]+)+:\d{2,5}\b|\bports? \d{2,5}\b/i },
  { ask: /\b(e-?mail|write to|contact)\b/, has: /[\w.+-]+@[\w-]+\.[\w.]+/ },
  { ask: /\bwhen (was|were|did)\b/, has: /\b(1[89]|20)\d\d\b/ },
  // "When do I pay?" wants the moment payment is taken: "on completion", "the day after each clean",
  // "when you book", "in advance".
  {
    ask: /\bwhen (do|does|will|should|must|would|can) (i|we|you|u|ya|they) (pay|take (the )?payment|take (the |my )?money|charge|bill|get charged|be charged|get billed)\b|\bwhen (is|are) (the )?(payment|balance|deposit|bill|fee)s? (due|taken|paid)\b/,
    has: /\b(on completion|(on|the) day (before|after|of)|the (day|week|month) after|when you (book|order|collect|arrive|place|check|confirm)|at the (end|time|start) of|in advance|up ?front|before (the|your|each|we|work)|after (the|your|each) (clean|job|visit|lesson|session|repair|appointment|stay|treatment)|on the day|at booking|at checkout|at check-?out|due (on|by|within|\d+))\b/i,
  },
  // "How long have you been in business?" is answered by when it began: "since 2009", "founded in 1998".
  {
    ask: /\bhow long\b.*\bbeen\b/,
    has: /\bsince (1[89]|20)\d\d\b|\b(established|founded|opened|started|set up) in (1[89]|20)\d\d\b|\bfor (over |more than |nearly |almost )?\d+ years\b/i,
  },
  // "How old does my cat have to be…" wants an age: "from 6 months of age", "under 18", "aged 5".
  {
    ask: /\bhow old\b|\bwhat age\b|\b(minimum|maximum) age\b/,
    // …or a limit put after the number: "16 or older", "18 and over", "12+" (ADR 050).
    has: /\b\d+\s*(months?|weeks?|years?)\s+(of age|old)\b|\b(aged?|under|over|from the age of)\s+\d+|\b\d+(st|nd|rd|th) birthday\b|\bfirst birthday\b|\b\d+\s+(or|and)\s+(older|over|above|under|younger)\b|\b\d+\+/i,
  },
  // "Who can change the billing?" wants the people: a sentence whose subject is a role or a name
  // with "can"/"may"/"must" ("Admins can manage members, clients and billing"), not "you can…" nor
  // a thing ("Two-factor authentication can be turned on").
  {
    ask: /\bwho (can|could|may|is allowed|are allowed|should|must|has to|gets to)\b/,
    has: /^(?:(?:the|only|all|every|each|any)\s+)?(?!(?:you|we|it|this|that|there|they|i|he|she|your|our|their)\b)[\p{L}-]+(?:\s+[\p{L}-]+){0,5}?\s+(?:can|may|must|are allowed to|is allowed to)\s+(?!be\b)/iu,
  },
];
/** A sentence that opens by pointing back ("They are valid…", "Outside this area…") needs the one before it. */
const ANAPHOR_START =
  /^(they|it|this|that|these|those|otherwise|however|but|also|then|both|either|neither|(outside|beyond|within|after|before|above|below|under|over|on top of|apart from|besides|in addition to|instead of|unlike) (this|that|these|those|it|them)|in (that|this|which|either) case|if (not|so)|the (rest|others?|remainder|same|latter|former))\b/i;
/** Words that ask when a place opens or closes, and a range of clock times that answers them. */
const OPEN_CLOSE = new Set(["open", "opens", "opening", "close", "closes", "closing", "shut", "shuts"]);
const CLOCK_RANGE = /\b\d{1,2}([.:]\d{2})?\s?(am|pm)?\s?(to|-|–|until|till)\s?\d{1,2}([.:]\d{2})?\s?(am|pm)\b/i;
/** A price: "$12", "NZ$95", "£59", "€6,200", "95 euros". */
const PRICE = /(?:\b[A-Z]{1,3})?[£€$]\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*(?:\.\d+)?)\s?(?:€|eur\b|euros?\b)/i;
/** A price something starts at: "from £59", "starting at $25", "as little as €5". */
const STARTING_PRICE = new RegExp(`\\b(?:start(?:s|ing)?\\s+(?:from|at)|from|as (?:little|low) as)\\s+(?:just\\s+|only\\s+)?(?:${PRICE.source})`, "i");
const PRICE_WORD = /\b(price|prices|priced|cost|costs|fee|fees|rate|rates|plan|plans)\b/i;
const priceOf = (text: string) => {
  const m = PRICE.exec(text);
  return m ? Number((m[1] ?? m[2]).replace(/,/g, "")) : null;
};
/** A measured size: "25 sq ft", "10 m²", "40 litres", "2 TB". */
const SIZE =
  /(\d[\d,]*(?:\.\d+)?)\s?(?:sq\.?\s?(?:ft|feet|m)|square (?:feet|foot|met(?:er|re)s?)|m²|m2|ft²|cu\.?\s?ft|cubic (?:feet|met(?:er|re)s?)|lit(?:er|re)s?|gb|tb)\b/i;
const sizeOf = (text: string) => {
  const m = SIZE.exec(text);
  return m ? Number(m[1].replace(/,/g, "")) : null;
};
/** A level of difficulty written as a word: "Easy" < "Medium" < "Hard" < "Expert". */
const LEVELS: [RegExp, number][] = [
  [/\b(very hard|extreme|expert|hardest)\b/i, 4],
  [/\b(hard|difficult|challenging|advanced)\b/i, 3],
  [/\b(medium|moderate|intermediate)\b/i, 2],
  [/\b(easy|beginners?|gentle)\b/i, 1],
];
const levelOf = (text: string) => LEVELS.find(([re]) => re.test(text))?.[1] ?? null;
/**
 * The rows of a list or table that hold its lowest or highest value (of two or more rows with one
 * in a run of items), by `valueOf`.
 */
function extremeRows(sentences: Sentence[], valueOf: (text: string) => number | null, highest: boolean): Set<Sentence> {
  const out = new Set<Sentence>();
  let run: Sentence[] = [];
  const close = () => {
    const valued = run.map((s) => [s, valueOf(s.text)] as const).filter((x): x is readonly [Sentence, number] => x[1] !== null);
    if (valued.length >= 2) {
      const end = highest ? Math.max(...valued.map(([, v]) => v)) : Math.min(...valued.map(([, v]) => v));
      for (const [s, v] of valued) if (v === end) out.add(s);
    }
    run = [];
  };
  sentences.forEach((s, i) => {
    const prev = sentences[i - 1];
    if (!s.bullet || !prev || prev.passage !== s.passage || prev.position !== s.position - 1 || !prev.bullet) close();
    if (s.bullet) run.push(s);
  });
  close();
  return out;
}
/**
 * The sentences that give a lowest price: each list's or table's lowest-priced row (of two or more
 * priced rows in a run of items) and any sentence with a price something starts at.
 */
function lowestPriced(sentences: Sentence[]): Set<Sentence> {
  const out = extremeRows(sentences, priceOf, false);
  for (const s of sentences) if (STARTING_PRICE.test(s.text)) out.add(s);
  return out;
}
/**
 * Superlatives a list answers with its extreme row ("the smallest unit" → the 15 sq ft locker, "your
 * priciest bouquet" → the $220 one), besides "cheapest" (lowestPriced): by size, or by price.
 */
type ExtremeKind = { words: Set<string>; valueOf: (text: string) => number | null; highest: boolean };
/** Also "most expensive", read from the question as written (its slot is "expensive"). */
const PRICIEST: ExtremeKind = { words: new Set(["priciest", "dearest", "fanciest", "poshest"]), valueOf: priceOf, highest: true };
const SUPERLATIVE_ROWS: ExtremeKind[] = [
  { words: new Set(["smallest", "tiniest"]), valueOf: sizeOf, highest: false },
  { words: new Set(["biggest", "largest"]), valueOf: sizeOf, highest: true },
  PRICIEST,
  { words: new Set(["hardest", "toughest", "trickiest"]), valueOf: levelOf, highest: true },
  { words: new Set(["easiest", "simplest"]), valueOf: levelOf, highest: false },
];
function wantedTypes(question: string): RegExp[] {
  const q = question.toLowerCase();
  // Read as written and as the lexicon spells it: "wat time", "hw much", "r u open" ask what
  // "what time", "how much", "are you open" ask.
  const spelled = questionWords(question).join(" ");
  const out = ANSWER_TYPES.filter((t) => t.ask.test(q) || t.ask.test(spelled)).map((t) => t.has);
  // "How many lessons in a term?" wants a count of them: "10 lessons", "16 bedrooms" (a unit of
  // time is the duration above).
  const many = /\bhow many ([a-z]{3,})\b/.exec(spelled)?.[1];
  if (many && !/^(days?|weeks?|hours?|months?|minutes?|years?|times?)$/.test(many)) {
    const one = many.replace(/(?<=[^aeiou]s|sh|ch|x)es$|s$/, "");
    out.push(new RegExp(`\\b\\d[\\d,]*\\s+(?:[a-z-]+\\s+)?[a-z-]*${one}(?:s|es)?\\b`, "i"));
  }
  return out;
}

/** How many sentences at the start of a passage (before any heading in it) sit under its title. */
const OPENING_SENTENCES = 2;
/** An answer this short is a fragment ("Only the Clinic plan.") when an FAQ's answer opens with it. */
const FRAGMENT_WORDS = 5;
/** A sentence scoring this share of the best one may follow it even if it adds no new part of the question. */
const CLOSE_MATCH = 0.45;
/** …or when it holds a part of the question the sentences before it do not (this share of its weight). */
const MIN_ADDS = 0.05;

type Slot = { forms: Map<string, number>; weight: number; own: string; word: string; phrase?: string[]; phrases?: string[][] };
const isLocalStop = (w: string) => STOPWORDS.has(w) || (w.length < 2 && !/\d/.test(w));

/** The question as slots (lexicon.ts): its content words, each with the words that count as it. */
function questionSlots(question: string, weight: number): Slot[] {
  return lexicalSlots(ungroupDigits(question), isLocalStop).map((s) => {
    const forms = new Map<string, number>([[stem(s.word), 1]]);
    // The head of a multi-word synonym alone ("drink" of "soft drink" for "non alcoholic") is not the
    // synonym: the phrase counts only written out in full (slotIn).
    for (const a of s.alternatives) if (!forms.has(stem(a)) && !s.phraseHeads?.includes(a)) forms.set(stem(a), s.broader?.includes(a) ? 0.5 : 1);
    // An irregular verb's other forms ("bring" → "brought") only choose sentences here: as retrieval
    // alternatives they lifted an unanswerable question over the floor ("Can invoices be sent in Spanish?").
    for (const f of irregularForms(s.word)) if (!forms.has(stem(f))) forms.set(stem(f), 1);
    return {
      forms,
      weight: weight * (isLightWord(s.word) ? 0.3 : 1),
      own: stem(s.word),
      word: s.word,
      ...(s.phrase ? { phrase: s.phrase.map(stem) } : {}),
      ...(s.synonymPhrases?.length ? { phrases: s.synonymPhrases.map((p) => p.map(stem)) } : {}),
    };
  });
}
/**
 * How far a sentence answers each slot, for what the reply has covered: in full when the slot is
 * what the sentence is about (one of its first two content words, its subject: "Members can track
 * time"), half when the sentence only mentions it ("Admins can manage members"). A question about
 * two things ("the difference between an admin and a member") then gets a sentence about each.
 */
function aboutShares(s: Sentence, slots: Slot[], held: number[]): number[] {
  const subject = s.stems.slice(0, 2);
  return slots.map((slot, i) => Math.min(1, held[i]) * (slotIn(slot, subject) > 0 ? 1 : 0.5));
}
/** The weighted share of the question's slots a sentence holds (0–1). */
function wholeShare(held: number[], slots: Slot[], idf: number[]): number {
  let have = 0;
  let all = 0;
  slots.forEach((slot, i) => {
    all += slot.weight * idf[i];
    have += slot.weight * idf[i] * Math.min(1, held[i]);
  });
  return all > 0 ? have / all : 0;
}
/**
 * What orders the candidates for the lead: the score, times a coordination factor (Lucene's
 * "coord"): a sentence that holds the whole question leads over one that holds a part of it more
 * strongly than their summed weights say, such as a later passage's full answer over the first
 * passage's passing mention. Whether a sentence may follow the lead still reads the plain score.
 */
const leadScore = (s: Sentence) => s.score * (0.5 + 0.5 * s.whole);
/** Whether `stems` hold `phrase` as consecutive words. */
function hasPhrase(stems: string[], phrase: string[]): boolean {
  for (let i = 0; i + phrase.length <= stems.length; i++) if (phrase.every((p, j) => stemsMatch(stems[i + j], p))) return true;
  return false;
}
/** How well `stems` hold the slot: the strength of its best form there, 0 when none. */
function slotIn(slot: Slot, stems: string[]): number {
  // A multi-word synonym written out in full ("alcohol-free" for "non alcoholic") is the word itself.
  if (slot.phrases?.some((p) => hasPhrase(stems, p))) return 1;
  let best = 0;
  for (const [f, k] of slot.forms) {
    if (k <= best || !stems.some((x) => stemsMatch(x, f))) continue;
    // A phrase's own word ("send" of "send back") counts half unless the whole phrase is there.
    const share = f === slot.own && slot.phrase && !slot.phrase.every((p) => stems.some((x) => stemsMatch(x, p))) ? 0.5 : 1;
    best = Math.max(best, k * share);
  }
  return best;
}

/** The answer composed from the passages' best sentences, with [n] citations. */
export function composeAnswer(parsed: ParsedPrompt): {
  text: string;
  cited: number[];
  citedSentences: Map<number, string[]>;
  bestSentence: Map<number, string>;
} {
  const maxSentences = LENGTH_GUIDE[parsed.length].sentences;
  const sentences: Sentence[] = [];
  parsed.passages.forEach((p, rank) => {
    // The section's own name: the last part of "Page — Section › Subsection" (the page title names
    // every section of the page, the last heading only this one).
    const titleStemsOf = contentStems(p.title.split(/ — | › /).at(-1) ?? p.title);
    let opening = 0;
    const split = splitSentences(p.text);
    split.forEach((s, position) =>
      sentences.push({
        passage: p.id,
        rank,
        position,
        paragraph: s.paragraph,
        text: s.text,
        bullet: s.bullet,
        prompt: s.prompt === true,
        answers:
          !s.prompt &&
          (split[position - 1]?.prompt === true || (!!s.heading && asksQuestion(s.heading) && (position === 0 || split[position - 1].heading !== s.heading))),
        stems: contentStems(s.text),
        // The opening sentences of a section answer what its heading names ("Add the chat widget to
        // your website" → "Paste the snippet before </body>…"): without a heading of their own in the
        // passage, they sit under the passage's section heading. ADR 018.
        headingStems: s.heading ? contentStems(s.heading) : opening++ < OPENING_SENTENCES ? titleStemsOf : [],
        score: 0,
        whole: 0,
      }),
    );
  });
  if (!sentences.length) return { text: parsed.fallback, cited: [], citedSentences: new Map(), bestSentence: new Map() };

  // Question slots; a short follow-up ("and for Germany?") borrows the previous question's at half weight.
  const slots = questionSlots(parsed.question, 1);
  if (slots.length < 2 && parsed.previousQuestions.length) {
    for (const s of questionSlots(parsed.previousQuestions.at(-1)!, 0.5))
      if (![...s.forms.keys()].some((f) => slots.some((x) => x.forms.has(f)))) slots.push(s);
  }
  if (!slots.length) for (const w of normalizeWords(parsed.question)) slots.push({ forms: new Map([[stem(w), 1]]), weight: 1, own: stem(w), word: w });

  // Rarer slots weigh more (idf over the candidate sentences): the idf of the question's own word
  // when the passages use it, else of its alternatives.
  const idf = slots.map((slot) => {
    const own = sentences.filter((s) => s.stems.some((x) => stemsMatch(x, slot.own))).length;
    const df = own || sentences.filter((s) => slotIn(slot, s.stems) > 0).length;
    return Math.log(1 + sentences.length / (1 + df));
  });
  const wanted = parsed.language !== "auto" ? parsed.language : detectLanguage(parsed.question);
  const types = wantedTypes(parsed.question);
  /** The sentence has the kind of value the question wants ("how long" → a duration). */
  const typed = (s: Sentence) => types.some((t) => t.test(s.text));
  const titleStems = new Map(parsed.passages.map((p) => [p.id, contentStems(p.title)]));
  /** Which slots a sentence holds (by itself, or half through the heading it sits under). */
  // A month, weekday, clock time or count asked with is held by a sentence whose range answers it
  // ("my son is 14" → "Teens' cut (12 to 16)"). ADR 058.
  const ungrouped = ungroupDigits(parsed.question);
  const asked = askedValues(questionWords(ungrouped), ungrouped, { amounts: true }).filter((a) => slots.some((x) => x.word === a.word));
  // A record's label ("Grooming: Tuesday to Saturday", "Same-day wash and fold: CA$3.50 per lb"): its content words, read once.
  const labels = new Map<Sentence, string[] | null>();
  const labelStemsOf = (s: Sentence) => {
    let stems = labels.get(s);
    if (stems === undefined) {
      const label = /^([^:]{1,60}):\s/.exec(s.text)?.[1];
      labels.set(s, (stems = label ? contentStems(label) : null));
    }
    return stems;
  };
  // "How do I add the widget to my website?" is what a section called "Add the chat widget to your
  // website" is about: for a how-to whose every part its heading holds, the sentences under it hold
  // those parts fully, not by half (a table row elsewhere naming the same words does not outrank them).
  const ownSlots = slots.filter((slot) => slot.weight === 1);
  const howTo = ownSlots.length > 1 && PROCEDURAL.test(parsed.question.trim());
  const headingShares = new Map<string[], number>();
  const headingShare = (h: string[]) => {
    if (!howTo || !h.length) return 0.5;
    let v = headingShares.get(h);
    if (v === undefined) headingShares.set(h, (v = ownSlots.every((slot) => slotIn(slot, h) > 0) ? 1 : 0.5));
    return v;
  };
  const wordsHeld = (s: Sentence) => {
    const share = headingShare(s.headingStems);
    return slots.map((slot) => Math.max(slotIn(slot, s.stems), share * slotIn(slot, s.headingStems)));
  };
  // When some sentence's range holds the value, a range that leaves it out ("boat trips run from
  // April to September" for "can we book in December") is not what the question is about — unless
  // it is the schedule of what is asked: "Grooming: Tuesday to Saturday" answers "groomed on a
  // monday" (no), as hours answer "at 11pm" either way; "Daycare: Monday to Friday" does not.
  const rangesOf = new Map(asked.length ? sentences.map((s) => [s, rangeCover(s.text, asked)]) : []);
  const inRange = new Set([...rangesOf.values()].flatMap((m) => [...m].filter(([, v]) => v === 1).map(([w]) => w)));
  const scheduleOf = (s: Sentence, word: string) => {
    const label = labelStemsOf(s);
    return !!label && slots.some((slot) => slot.word !== word && slotIn(slot, label) > 0);
  };
  // …unless another schedule of what is asked holds it ("Teens' cut (12 to 16)" over "Children's cut (under 12)" at 14).
  const heldBySchedule = new Set([...rangesOf].flatMap(([s, m]) => [...m].filter(([w, v]) => v === 1 && scheduleOf(s, w)).map(([w]) => w)));
  const rangeHeld = (s: Sentence, word: string) => {
    const v = rangesOf.get(s)?.get(word) ?? 0;
    if (v === 1 || !v) return v;
    if (!heldBySchedule.has(word) && scheduleOf(s, word)) return 1;
    return inRange.has(word) ? 0 : v;
  };
  // Opening hours written as times ("Monday to Friday: 8 am to 7 pm") say when a place opens and
  // closes without the words: asked what time, such a sentence holds "open", "close" and "shut" as
  // a mention does, by half (in full, every day's row joined "what time do you close on a friday").
  const asksClock = types.includes(CLOCK_TIME);
  const hoursSlots = slots.map((slot) => asksClock && slot.weight === 1 && OPEN_CLOSE.has(slot.word));
  const asksHours = hoursSlots.includes(true);
  // "What's your cheapest plan?" is answered by the lowest price of a price list ("Solo: $12") or by
  // a price something starts from ("Our frames start from £59"), whichever words they share.
  const cheapestSlots = slots.map((slot) => slot.weight === 1 && (slot.word === "cheapest" || (slot.word === "lowest" && PRICE_WORD.test(parsed.question))));
  const cheapest = cheapestSlots.includes(true) ? lowestPriced(sentences) : new Set<Sentence>();
  // "the smallest unit", "the most expensive plan": the extreme row of a list, held in full.
  const mostExpensive = /\bmost (expensive|pricey)\b/i.test(parsed.question);
  const extremes = slots.map((slot) => {
    if (slot.weight !== 1) return null;
    const kind = slot.word === "expensive" && mostExpensive ? PRICIEST : SUPERLATIVE_ROWS.find((k) => k.words.has(slot.word));
    return kind ? extremeRows(sentences, kind.valueOf, kind.highest) : null;
  });
  const anyExtreme = extremes.some((e) => e?.size);
  const holds = (s: Sentence) => {
    let held = wordsHeld(s);
    if (asksHours && CLOCK_RANGE.test(s.text)) held = held.map((h, i) => (hoursSlots[i] ? Math.max(h, 0.5) : h));
    if (cheapest.has(s)) held = held.map((h, i) => (cheapestSlots[i] ? 1 : h));
    // Another row of such a list is not the smallest, whatever its name ("Small: 25 sq ft").
    if (anyExtreme) held = held.map((h, i) => (extremes[i]?.has(s) ? 1 : extremes[i]?.size && s.bullet ? 0 : h));
    return asked.length ? slots.map((slot, i) => Math.max(held[i], rangeHeld(s, slot.word))) : held;
  };

  for (const s of sentences) {
    const held = holds(s);
    let match = 0;
    slots.forEach((slot, i) => (match += slot.weight * idf[i] * held[i]));
    if (match === 0) continue;
    const title = titleStems.get(s.passage) ?? [];
    slots.forEach((slot, i) => (match += 0.15 * slot.weight * idf[i] * slotIn(slot, title)));
    // A record's label says what it is about ("Same-day wash and fold: CA$3.50 per lb"): a slot it
    // names weighs a little more there, so of two rows that hold the same words, "same day wash
    // price?" quotes that one, not its neighbour. A tie-breaker only: 0.2 displaced better answers.
    const labelStems = labelStemsOf(s);
    if (labelStems) slots.forEach((slot, i) => (match += 0.05 * slot.weight * idf[i] * slotIn(slot, labelStems)));
    s.whole = wholeShare(held, slots, idf);
    const lengthPenalty = 1 / (1 + 0.02 * Math.max(0, s.stems.length - 25));
    const rankWeight = 1 / (1 + 0.25 * s.rank);
    s.score = match * lengthPenalty * rankWeight;
    if (typed(s)) s.score *= 1.5;
    if (wanted) {
      const lang = detectLanguage(s.text);
      if (lang && lang !== wanted) s.score *= 0.5;
    }
    // A sentence quoting example questions ("such as “How do I…?”") mentions the topic, not the answer.
    if (/\?["”»]/.test(s.text)) s.score *= 0.2;
  }
  // A matching question (FAQ style) hands most of its score to the answer that follows it.
  for (let i = 0; i < sentences.length - 1; i++) {
    const s = sentences[i];
    const next = sentences[i + 1];
    if (s.score > 0 && s.prompt && next.passage === s.passage) {
      next.score = Math.max(next.score, s.score * 0.95);
      s.score *= 0.2;
    }
  }

  // "How do I…" questions want the steps: the sentence after a strong match continues it.
  const procedural = parsed.length !== "short" && PROCEDURAL.test(parsed.question.trim());
  const continues = new Set<Sentence>();
  if (procedural) {
    const top = Math.max(...sentences.map((s) => s.score));
    for (let i = sentences.length - 2; i >= 0; i--) {
      const s = sentences[i];
      const next = sentences[i + 1];
      if (s.score >= top * 0.6 && next.passage === s.passage && !s.prompt) {
        next.score = Math.max(next.score, s.score * 0.6);
        continues.add(next);
      }
    }
  }

  // The reply leads with the best sentence. Another one follows only when it adds to it: it holds
  // a part of the question the ones before do not (a two-part question), it is the next step of a
  // how-to, or it has the kind of answer asked for ("how long" → a duration) that they lack. A long
  // answer also takes the other close matches.
  const ranked = sentences.filter((s) => s.score > 0 && !s.prompt).sort((a, b) => leadScore(b) - leadScore(a) || a.rank - b.rank || a.position - b.position);
  const picked: Sentence[] = [];
  const best = Math.max(0, ...ranked.map((s) => s.score));
  const covered = slots.map(() => 0);
  const totalWeight = slots.reduce((n, s, i) => n + s.weight * idf[i], 0) || 1;
  const isDup = (s: Sentence) =>
    picked.some((p) => {
      const a = new Set(p.stems);
      const inter = s.stems.filter((x) => a.has(x)).length;
      if (inter / Math.max(1, Math.min(a.size, s.stems.length)) <= 0.85) return false;
      // A longer sentence that holds the pick's words and says more in words of its own is no
      // duplicate: "Free cancellation up to 48 hours before pick-up." does not say what
      // "Cancelling less than 48 hours before pick-up costs one day's rental." adds. A sibling
      // table row differs only in its numbers.
      return new Set(s.stems.filter((x) => !a.has(x) && !/\d/.test(x))).size < 3;
    });
  // Two passes: first the sentences that add to the lead (a part of the question not yet answered,
  // the kind of answer asked for, the next step), then, while there is room, the other close matches.
  for (const pass of ["adds", "close"] as const) {
    for (const s of ranked) {
      if (picked.length >= maxSentences) break;
      if (picked.includes(s) || s.score < best * 0.45 || isDup(s)) continue;
      const held = holds(s);
      const about = aboutShares(s, slots, held);
      const adds = slots.reduce((n, slot, i) => n + slot.weight * idf[i] * Math.max(0, about[i] - covered[i]), 0) / totalWeight;
      const addsType = types.some((t) => t.test(s.text) && !picked.some((p) => t.test(p.text)));
      const step = continues.has(s) && picked.some((p) => p.passage === s.passage && p.position === s.position - 1);
      const close = parsed.length !== "short" && s.score >= best * CLOSE_MATCH;
      const ok = pass === "adds" ? !picked.length || adds >= MIN_ADDS || addsType || step : close || parsed.length === "long";
      if (!ok) continue;
      picked.push(s);
      about.forEach((h, i) => (covered[i] = Math.max(covered[i], h)));
    }
  }
  /** The sentence after this one in its passage, unless it is a prompt. */
  const nextOf = (s: Sentence) => sentences.find((x) => x.passage === s.passage && x.position === s.position + 1 && !x.prompt);
  /** The prose sentence after a prose pick, in its paragraph (or any, for the lead's kind of answer), not yet in the reply. */
  const followOn = (s: Sentence, anyParagraph = false) => {
    const next = s.bullet ? undefined : nextOf(s);
    return next && !next.bullet && (anyParagraph || next.paragraph === s.paragraph) && !picked.includes(next) && !isDup(next) ? next : undefined;
  };
  const lead = picked[0];
  // A pick that leaves part of the question open is read with the rest of its paragraph: the rule's
  // exception or consequence often follows it in other words ("Our bus … S$150 a month for a two-way
  // trip." + "One-way trips are not offered." for "only need the bus in the morning, cheaper?").
  // In the order of the picks, while there is room; a sentence that holds the whole question stands
  // alone, as does an FAQ answer whose question does ("Can I bring my dog?" → "Well-behaved dogs are
  // welcome on every pitch."). ADR 067.
  const promptOf = (s: Sentence) => (s.answers ? sentences.find((x) => x.passage === s.passage && x.position === s.position - 1 && x.prompt) : undefined);
  for (const s of picked.slice()) {
    if (picked.length >= maxSentences) break;
    // A how-to's step is followed by the steps the how-to rule chose, not by whatever comes next.
    if (continues.has(s) || Math.max(s.whole, promptOf(s)?.whole ?? 0) >= 1) continue;
    const next = followOn(s);
    if (next) picked.splice(picked.indexOf(s) + 1, 0, next);
  }
  // A pick that opens by pointing back ("They are valid for 12 months…", "Outside this area…",
  // "It costs £495 per room") is read after the sentence it points to, when that sentence is prose
  // in the same paragraph: quoted alone, "they" and "this area" name nothing. A sentence already
  // quoted later moves before it; otherwise it is added while the reply has room. ADR 068.
  for (const s of picked.slice()) {
    if (s.bullet || continues.has(s) || !ANAPHOR_START.test(s.text)) continue;
    const prev = sentences.find((x) => x.passage === s.passage && x.position === s.position - 1);
    if (!prev || prev.prompt || prev.bullet || prev.paragraph !== s.paragraph) continue;
    const at = picked.indexOf(prev);
    if (at > picked.indexOf(s)) picked.splice(at, 1);
    else if (at >= 0 || picked.length >= maxSentences || isDup(prev)) continue;
    picked.splice(picked.indexOf(s), 0, prev);
  }
  // The value asked for can sit in the sentence after the lead, sharing no word with the question:
  // "how often…" → "Our hygienists do scale and polish." + "Most people need a visit every 6 months."
  // Prose only: the next item of a list or row of a table is another record ("Tyres: £15").
  // Each kind asked for counts: "how far is it and how long does it take" → "about 4 miles each
  // way." + "Allow 3 hours for the round trip."
  const unmet = types.filter((t) => !picked.some((s) => t.test(s.text)));
  // The kind asked for outranks a close match: in a full reply it takes the last other pick's place.
  // So does the kind in the sentence after a later pick, in the same paragraph: "how long till it
  // gets to me" → "We ship with Canada Post to every province." + "… up to 8 business days".
  // The lead's own kind counts apart: a later pick's "valid for 7 days" does not answer "how long
  // is the boat over" when the lead's next sentence is "The crossing takes 25 minutes."
  // Only for a lead with none of the kinds asked for that leaves part of the question open.
  const leadUnmet = lead && lead.whole < 1 && !types.some((t) => t.test(lead.text)) ? types : [];
  for (const s of unmet.length || leadUnmet.length ? picked.slice() : []) {
    const need = s === lead ? [...new Set([...unmet, ...leadUnmet])] : unmet;
    const next = need.length ? followOn(s, s === lead) : undefined;
    if (!next || !need.some((t) => t.test(next.text))) continue;
    if (picked.length >= maxSentences) {
      if (picked.at(-1) === s) continue;
      picked.pop();
    }
    picked.splice(picked.indexOf(s) + 1, 0, next);
    break;
  }
  // An FAQ answer that opens with a bare fragment ("Only the Clinic plan.", "Yes, on Pro.") says the
  // rest in its next sentence: quoted alone, it answers nothing. The completion takes the place of
  // the last other pick when the reply is full.
  for (let i = 0; i < picked.length; i++) {
    const s = picked[i];
    if (!s.answers || s.bullet || s.text.split(/\s+/).length > FRAGMENT_WORDS) continue;
    const next = nextOf(s);
    if (!next) continue;
    // Already quoted: the fragment reads before it ("Yes, on pitches. Dogs must be on a lead.").
    const at = picked.indexOf(next);
    if (at >= 0) {
      if (at < i) picked.splice(at, 0, ...picked.splice(i, 1));
      continue;
    }
    if (isDup(next)) continue;
    if (picked.length >= maxSentences) {
      if (picked.length - 1 === i) continue;
      picked.pop();
    }
    picked.splice(i + 1, 0, next);
  }
  // A sentence that introduces a list ("To join daycare, dogs must:") says nothing without it: it is
  // followed by the best item of its list that holds a part of the question or the kind asked for
  // (in a full reply, in the last other pick's place), or, when none does, left out.
  for (const s of picked.slice()) {
    if (s.bullet || !/:$/.test(s.text)) continue;
    const items: Sentence[] = [];
    for (let next = nextOf(s); next?.bullet; next = sentences.find((x) => x.passage === s.passage && x.position === next!.position + 1)) items.push(next);
    if (!items.length || items.some((x) => picked.includes(x))) continue;
    const item = items
      .filter((x) => (x.score > 0 || typed(x)) && !isDup(x))
      .sort((a, b) => b.score - a.score || Number(typed(b)) - Number(typed(a)) || a.position - b.position)[0];
    if (!item) {
      if (picked.length > 1) picked.splice(picked.indexOf(s), 1);
      continue;
    }
    if (picked.length >= maxSentences) {
      if (picked.at(-1) === s) continue;
      picked.pop();
    }
    picked.splice(picked.indexOf(s) + 1, 0, item);
  }
  if (!picked.length) {
    // Retrieval judged the passages relevant but no sentence shares a word with the question:
    // give the opening of the best passage rather than nothing.
    const first = sentences.filter((s) => s.rank === 0 && !s.prompt).slice(0, Math.min(2, maxSentences));
    picked.push(...(first.length ? first : sentences.slice(0, 1)));
  }
  // Steps of a how-to read in their own order after the sentence they continue.
  const ordered: Sentence[] = [];
  for (const s of picked) {
    if (ordered.includes(s)) continue;
    ordered.push(s);
    for (
      let next = picked.find((p) => p.passage === s.passage && p.position === s.position + 1 && continues.has(p));
      next && !ordered.includes(next);
      next = picked.find((p) => p.passage === next!.passage && p.position === next!.position + 1 && continues.has(p))
    )
      ordered.push(next);
  }

  // Consecutive sentences of one passage share its citation, after the last of them.
  const pieces: string[] = [];
  const citedSentences = new Map<number, string[]>();
  ordered.forEach((s, i) => {
    const last = i === ordered.length - 1 || ordered[i + 1].passage !== s.passage;
    let t = s.text;
    if (!/[.!?…:;]$/.test(t)) t += ".";
    if (last) t = t.replace(/([.!?…:;]+)$/, ` [${s.passage}]$1`);
    pieces.push(s.bullet ? `\n- ${t}` : t);
    citedSentences.set(s.passage, [...(citedSentences.get(s.passage) ?? []), s.text]);
  });
  const text = pieces.join(" ").replace(/ \n- /g, "\n- ").replace(/^\n/, "").trim();
  // Each passage's own best sentence for the question (its first one when none matches).
  const bestSentence = new Map<number, string>();
  const bestScore = new Map<number, number>();
  for (const s of sentences) {
    if (bestSentence.has(s.passage) && s.score <= (bestScore.get(s.passage) ?? 0)) continue;
    bestSentence.set(s.passage, s.text);
    bestScore.set(s.passage, s.score);
  }
  return { text, cited: [...citedSentences.keys()], citedSentences, bestSentence };
}

/**
 * The sentences to show under each source of an answer (the source snippet): those the engine cites
 * from it, or for a passage it does not cite, the passage's own best sentence for the question.
 * With the built-in engine this is exactly what the reply quoted; with a real model it is the
 * sentence of the passage that matches the question best.
 */
export function citedSnippets(
  input: { question: string; previousQuestions?: string[]; language?: string; length?: AnswerLength },
  passages: { id: number; title: string; text: string }[],
): Map<number, string> {
  const base = { botName: "", fallback: "", question: input.question, previousQuestions: input.previousQuestions ?? [], language: input.language ?? "auto" };
  const asParsed = (ps: typeof passages, length: AnswerLength): ParsedPrompt => ({ ...base, length, passages: ps.map((p) => ({ ...p, url: null })) });
  const composed = composeAnswer(asParsed(passages, input.length ?? "medium"));
  const out = new Map<number, string>();
  for (const p of passages) {
    const cited = composed.citedSentences.get(p.id)?.join(" ") ?? composed.bestSentence.get(p.id);
    if (cited) out.set(p.id, cited);
  }
  return out;
}

/** What the engine says to this prompt. */
export function localReply(prompt: LanguageModelV3Prompt): string {
  const parsed = parsePrompt(prompt);
  const talk = detectSmallTalk(parsed.question, parsed.botName);
  if (talk) return smallTalkReply(talk.kind, { botName: parsed.botName, language: parsed.language, detected: talk.lang });
  if (!parsed.passages.length) return parsed.fallback;
  return composeAnswer(parsed).text;
}

/** Small deltas, one or two words each, like a real model's tokens. */
export function textPieces(text: string): string[] {
  const words = text.match(/\s*\S+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 2) out.push(words.slice(i, i + 2).join(""));
  const trailing = /\s+$/.exec(text)?.[0];
  if (trailing && out.length) out[out.length - 1] += trailing;
  return out;
}

function usageOf(prompt: LanguageModelV3Prompt, text: string): LanguageModelV3Usage {
  const inputChars = prompt.reduce((n, m) => n + (typeof m.content === "string" ? m.content.length : textOf(m.content).length), 0);
  const input = Math.ceil(inputChars / 4);
  const output = Math.ceil(text.length / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

export class LocalLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = "v3" as const;
  readonly provider = "parley.local";
  readonly modelId = LOCAL_MODEL_ID;
  readonly supportedUrls: Record<string, RegExp[]> = {};

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const text = localReply(options.prompt);
    return {
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: usageOf(options.prompt, text),
      warnings: [],
      response: { id: "local", modelId: LOCAL_MODEL_ID, timestamp: new Date(0) },
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const text = localReply(options.prompt);
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "response-metadata", id: "local", modelId: LOCAL_MODEL_ID, timestamp: new Date(0) },
      { type: "text-start", id: "t0" },
      ...textPieces(text).map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t0", delta })),
      { type: "text-end", id: "t0" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: usageOf(options.prompt, text) },
    ];
    let i = 0;
    const signal = options.abortSignal;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      // One part per pull: the consumer drives the pace, exactly like a network stream.
      pull(controller) {
        if (signal?.aborted) return controller.error(signal.reason ?? new Error("aborted"));
        if (i < parts.length) controller.enqueue(parts[i++]);
        else controller.close();
      },
    });
    return { stream };
  }
}

export function createLocalModel(): LanguageModelV3 {
  return new LocalLanguageModel();
}
