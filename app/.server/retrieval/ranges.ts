// Ranges a text writes — months ("May to September"), weekdays ("Sunday to Thursday", "Mon–Fri"),
// clock hours ("6 am to 10 pm") and counts or ages ("12 to 16", "under 16", "up to 300") — and which
// of a question's words they answer. Customers ask with their own value ("a Tuesday in January",
// "at 11pm", "my son is 14", "we're 250"), the knowledge gives the range, so the word never matches.
// Used by the relevance floor and the ranking (search.ts) and by the built-in engine's sentence
// choice (local-model.ts). ADR 058; parts of the day, weekends, ages and units: ADR 062; sums of
// money against a limit ("€1,200" ← "orders over €1,000"), for the built-in engine only: ADR 069.

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
export const MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
/** Weekday names, Monday first (lexicon.ts reads "sat and sun" with them too). */
export const DAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** A month the customer names in full, or by its usual short form ("sept", "dec"): its index. "may" and "march" are verbs too, so only after "in", "of", "early", "mid" or "late". */
function monthOf(word: string, before: string | undefined): number {
  if (word === "may" || word === "march") return ["in", "of", "early", "mid", "late"].includes(before ?? "") ? MONTH_NAMES.indexOf(word) : -1;
  const full = MONTH_NAMES.indexOf(word);
  if (full >= 0) return full;
  return ["jan", "feb", "apr", "jun", "jul", "aug", "sept", "oct", "nov", "dec"].includes(word) ? MONTHS.indexOf(word.slice(0, 3)) : -1;
}
/**
 * A season the customer names ("in winter", "over the summer"): its three months north of the
 * equator, or -1. "fall" and "spring" are verbs or things too, so only after "in", "the", "this",
 * "next", "last", "over" or "during".
 */
const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };
function seasonOf(word: string, before: string | undefined): number {
  const w = word.replace(/(time|s)$/, "");
  if (!(w in SEASONS)) return -1;
  if ((w === "fall" || w === "spring") && !["in", "the", "this", "next", "last", "over", "during"].includes(before ?? "")) return -1;
  return SEASONS[w];
}
/** A weekday named in full, plural or not ("tuesday", "saturdays"): its index. */
function dayOf(word: string): number {
  return DAY_NAMES.indexOf(word.replace(/s$/, ""));
}

const MONTH_RE =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const DAY_RE = "(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)s?\\.?";
const TO = "\\s*(?:to|until|till|through|thru|–|—|-)\\s*";
// A date on either side is allowed: "5 January to 15 February", "May 15 to October 15".
const DATE_DAY = "(?:\\d{1,2}(?:st|nd|rd|th)?\\s+)?";
const DAY_AFTER = "(?:\\s+\\d{1,2}(?:st|nd|rd|th)?\\b)?";
const MONTH_RANGE = new RegExp(`\\b(?:from\\s+|between\\s+)?${DATE_DAY}${MONTH_RE}${DAY_AFTER}(?:${TO}|\\s+and\\s+)${DATE_DAY}${MONTH_RE}\\b`, "gi");
const DAY_RANGE = new RegExp(`\\b${DAY_RE}${TO}${DAY_RE}(?![\\p{L}])`, "giu");
const CLOCK = "\\d{1,2}(?:[:.]\\d{2})?\\s*(?:am|pm|a\\.m\\.|p\\.m\\.)|\\d{1,2}:\\d{2}|midnight|noon|midday";
/** Months that hold every season and month ("open all year", "year-round"). */
const ALL_YEAR = /\b(?:all|the whole|throughout the) year\b|\ball year round\b|\byear[- ]round\b|\b12 months (?:a|of the) year\b/i;
/** Whether a text gives hours at all (a range or a limit): built once, not per text. */
const GIVES_HOURS = new RegExp(`(?:${CLOCK})${TO}(?:${CLOCK})|\\b(?:until|till|from|after|before|by|at)\\s+(?:${CLOCK})`, "i");
/** Hours that hold every time and day ("24/7 access", "open round the clock"). */
const ALWAYS = /\b24\s?\/\s?7\b|\b24 hours a day\b|\b(?:a)?round the clock\b|\bopen 24 hours\b/i;
/** Every weekday at once ("open 7 days a week", "daily"). */
const EVERY_DAY = /\b(?:7|seven) days a week\b|\bevery day\b|\bdaily\b/i;
/** Days a text names as a set: "at weekends" is Saturday and Sunday, "weekdays" Monday to Friday. */
const WEEKEND = /\bweekends?\b/i;
const WEEKDAY = /\bweekdays?\b/i;
// A number written with a currency sign or as a share is a price or a rate, not a count or an age.
const NUM = "(?<![£$€¥\\d.,])(\\d{1,4})(?![\\d%.,:]|\\s*(?:%|am\\b|pm\\b|a\\.m|p\\.m))";
const NUMBER_RANGE = new RegExp(`${NUM}\\s*(?:to|–|—|-)\\s*${NUM}|\\bbetween\\s+${NUM}\\s+and\\s+${NUM}`, "gi");
// "Under-18s" is a limit too.
const NUMBER_BELOW = new RegExp(
  `\\b(?:under|below|up to|maximum(?: of)?|max\\.?|no more than|at most|younger than|less than|fewer than)(?:\\s+|-)${NUM}`,
  "gi",
);
// "aged 6 to 12" is a range, not "6 and over".
const NUMBER_ABOVE = new RegExp(
  `\\b(?:over|above|at least|minimum(?: of)?|min\\.?|no fewer than|older than|more than|from(?: the age of)?|aged)(?:\\s+|-)${NUM}(?!\\s*(?:to|–|—|-)\\s*\\d)|${NUM}\\s*(?:\\+|or (?:more|older|over|above)|and (?:over|above|older))`,
  "gi",
);

const indexIn = (list: string[], s: string) => list.indexOf(s.toLowerCase().replace(/\.$/, "").slice(0, 3));
/** Whether index `i` lies in the cyclic range from `a` to `b` ("November to March" holds January). */
const within = (i: number, a: number, b: number) => (a <= b ? i >= a && i <= b : i >= a || i <= b);

// A part of the day asked as a time ("drop off in the morning", "sat arvo", "after school"): hours
// answer it as they answer "at 11pm". Alone ("good morning", "the evening menu") it is a word.
const PERIODS = new Set(["morning", "mornings", "afternoon", "afternoons", "evening", "evenings", "night", "nights", "lunchtime"]);
const PERIOD_BEFORE = new Set(["this", "tomorrow", "today", "weekday", "weekend", "every", "at", ...DAY_NAMES, ...DAY_NAMES.map((d) => `${d}s`)]);
function isPeriod(words: string[], i: number): boolean {
  const [w, before] = [words[i], words[i - 1]];
  // "in the morning", not "the evening menu".
  if (PERIODS.has(w)) return PERIOD_BEFORE.has(before) || (before === "the" && ["in", "at", "during"].includes(words[i - 2]));
  return (w === "school" || w === "work") && before === "after";
}

/**
 * A number asked with a unit ("260 lbs", "300 km") is a measure: only a range in the same unit holds
 * it. One asked as an age ("im 17", "my son is 14", "6 yo") is held by a range of ages, not by a
 * count of things ("8 or more boats"). Any other number is a plain count.
 */
type Asked = { word: string; kind: "month" | "season" | "day" | "clock" | "number" | "amount"; value: number; unit?: string; age?: boolean; counts?: string };
/** Ages and durations: "3 kids" is not held by "Age 3 to 5 years", "2 hours" not by "up to 3 days". */
const TIME_UNIT = /^(years?|yrs?|months?|weeks?|days?|hours?|hrs?|minutes?|mins?)$/;
const timeUnit = (w: string) =>
  w
    .replace(/^yrs?$/, "year")
    .replace(/^hrs?$/, "hour")
    .replace(/^mins?$/, "minute")
    .replace(/s$/, "");
const UNITS: Record<string, string> = Object.fromEntries(
  [
    ["lb", "lb lbs"],
    ["kg", "kg kgs kilo kilos kilogram kilograms"],
    ["km", "km kms kilometre kilometres kilometer kilometers"],
    ["mile", "mile miles mi"],
    ["mph", "mph"],
    ["cm", "cm centimetre centimetres centimeter centimeters"],
    ["mm", "mm"],
    ["inch", "inch inches in"],
    ["ft", "ft feet foot"],
    ["gb", "gb tb mb"],
    ["litre", "litre litres liter liters l"],
  ].flatMap(([unit, forms]) => forms.split(" ").map((f) => [f, unit])),
);
/** A plural noun after a number in a text is what it counts ("8 or more boats", "up to 300 guests"): no age. */
const countsThings = (after: string | undefined) =>
  !!after &&
  ((/^[a-z]{3,}s$/.test(after) && !/^(years|yrs|is|was|has|does|pays|gets|needs|goes)$/.test(after)) || /^(people|children|persons|men|women)$/.test(after));
/** Words before "time(s)" that make it a count, a moment or a span, not a clock time asked for. */
const NOT_CLOCK_TIME = new Set(
  "a an the any some every each many how what which first last next this that one other same long spare free full part half on in at by from for of to all".split(
    " ",
  ),
);
/** Words after "1" that are not a noun it counts ("1 and a half", "1 more", "1 year old"). */
const NOT_COUNTED = new Set("and or but the for more less with from year old off per each only between".split(" "));
/** Numbers written as words in a limit or a range ("a minimum of two nights", "up to four guests"). */
const NUMBER_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const NUMBER_WORD = new RegExp(`\\b(${NUMBER_WORDS.join("|")})\\b`, "gi");
const singular = (w: string) => w.replace(/(?<=[a-z]{2})s$/, "");
/** The word right after a range in a text: its unit, or what it counts. */
const wordAfter = (text: string, end: number) => /^\s*-?\s*([a-z]+)/i.exec(text.slice(end))?.[1].toLowerCase();

// A sum of money: a currency sign before it ("€1,200", "NZ$95") or a currency's name after it ("60 quid").
const MONEY = "(?:\\b[A-Z]{1,3})?[£$€¥₹]\\s?(\\d[\\d,]*(?:\\.\\d+)?)";
const ASKED_AMOUNT = new RegExp(`${MONEY}|\\b(\\d[\\d,]*)\\s?(?:pounds?|quid|euros?|dollars?|bucks|rupees?|rand)\\b`, "gi");
/** A limit on an amount: "orders over €1,000", "spend more than £50", "€40 or more"; "under $20", "up to £500". */
const AMOUNT_ABOVE = new RegExp(
  `\\b(?:over|above|more than|at least|exceeding|from)\\s+${MONEY}|${MONEY}\\s*(?:\\+|or (?:more|over|above)|and (?:over|above))`,
  "gi",
);
const AMOUNT_BELOW = new RegExp(`\\b(?:under|below|less than|up to|no more than)\\s+${MONEY}`, "gi");
const amountOf = (m: RegExpMatchArray) => Number((m[1] ?? m[2]).replace(/,/g, ""));

// Numbers that are a price, a share or a sum's operands ("£250", "15% of 240", "17 times 23").
const NOT_COUNTS =
  /[£$€¥]\s*(\d[\d,.]*)|(\d[\d,.]*)\s*(?:%|percent\b|pc\b|k\b)(?:\s*of\s+(\d[\d,.]*))?|(\d+)\s*(?:[x*+/-]|times|plus|minus|divided by|multiplied by)\s*(\d+)/gi;

/**
 * The values a question asks with: months, weekdays, clock times and plain counts or ages (not a
 * price, a share, a sum or a year). `words` are the question's words as questionWords() gives
 * them; `question` as written, for the signs that words drop.
 */
export function askedValues(words: string[], question: string, opts: { amounts?: boolean } = {}): Asked[] {
  const notCounts = new Set<string>();
  for (const m of question.matchAll(NOT_COUNTS)) for (const n of m.slice(1)) if (n) notCounts.add(n.replace(/[,.]/g, ""));
  // Sums of money asked with ("my order comes to €1,200", "if i spend 60 quid"), for a caller that
  // reads a question with its digit groups joined (the built-in engine): held by a limit a text puts
  // on an amount ("free delivery on orders over €1,000").
  const amounts = new Set<string>();
  if (opts.amounts) for (const m of question.matchAll(ASKED_AMOUNT)) amounts.add((m[1] ?? m[2]).replace(/,/g, ""));
  const out: Asked[] = [];
  words.forEach((w, i) => {
    if (amounts.has(w)) return out.push({ word: w, kind: "amount", value: Number(w) });
    const m = monthOf(w, words[i - 1]);
    if (m >= 0) return out.push({ word: w, kind: "month", value: m });
    const season = seasonOf(w, words[i - 1]);
    if (season >= 0) return out.push({ word: w, kind: "season", value: season });
    const d = dayOf(w);
    if (d >= 0) return out.push({ word: w, kind: "day", value: d });
    if (/^\d{1,2}(am|pm)$/.test(w) || (/^\d{1,2}$/.test(w) && /^(am|pm|oclock)$/.test(words[i + 1] ?? "")))
      return out.push({ word: w, kind: "clock", value: 0 });
    if (isPeriod(words, i)) return out.push({ word: w, kind: "clock", value: 0 });
    // "check in and check out times?", "opening times", "whats the delivery time": a clock time asked
    // for, not counted ("how many times", "2 times a week") nor a moment ("first time", "on time").
    if ((w === "times" || w === "time") && i > 0 && !/^\d/.test(words[i - 1]) && !NOT_CLOCK_TIME.has(words[i - 1]))
      return out.push({ word: w, kind: "clock", value: 0 });
    if (
      /^\d{1,4}$/.test(w) &&
      !notCounts.has(w) &&
      !/^(19|20)\d\d$/.test(w) &&
      !/^(pounds?|euros?|dollars?|quid|bucks|percent|pc|am|pm|oclock)$/.test(words[i + 1] ?? "")
    ) {
      const next = words[i + 1] ?? "";
      const unit = UNITS[next] && next !== "in" ? UNITS[next] : undefined;
      // "is 2 hours enough" counts hours: a noun after the number is what it counts. After 1 the noun
      // is singular ("only the 1 night", "1 dog").
      const counts = (/^[a-z]+s$/.test(next) && !/^(years|yrs)$/.test(next)) || (w === "1" && /^[a-z]{3,}$/.test(next) && !NOT_COUNTED.has(next));
      const age =
        !unit &&
        !counts &&
        ((words[i - 1] === "am" && words[i - 2] === "i") || ["is", "turning", "aged", "age"].includes(words[i - 1] ?? "") || /^(yo|years?|yrs?)$/.test(next));
      out.push({ word: w, kind: "number", value: Number(w), ...(unit ? { unit } : {}), ...(age ? { age } : {}), ...(counts ? { counts: next } : {}) });
    }
  });
  return out;
}

/**
 * Which of the asked values `text` answers with a range, and how strongly: 1 when the value lies in
 * a range the text writes (or, for a clock time, when the text gives hours at all: "6 am to 10 pm"
 * answers "can I come at 11pm" either way), 0.5 when the text writes a range of months or weekdays
 * that leaves the value out ("May to September only" still answers "in December?"), or a limit of
 * ages or in the asked unit that does ("18 or over" for "im 17"). "24/7" holds every time and day,
 * "7 days a week" or "daily" every day, "weekends" Saturday and Sunday, "weekdays" Monday to Friday.
 * ADR 058, 062.
 */
export function rangeCover(text: string, asked: Asked[]): Map<string, number> {
  const out = new Map<string, number>();
  if (!asked.length) return out;
  const put = (w: string, v: number) => out.set(w, Math.max(out.get(w) ?? 0, v));
  const months = asked.filter((a) => a.kind === "month");
  if (months.length)
    for (const m of text.matchAll(MONTH_RANGE)) {
      const [a, b] = [indexIn(MONTHS, m[1]), indexIn(MONTHS, m[2])];
      if (a >= 0 && b >= 0) for (const q of months) put(q.word, within(q.value, a, b) ? 1 : 0.5);
    }
  // A season is three months, and which three depends on the hemisphere, which a text rarely says:
  // a range that spans the season either side of the equator holds it, any other answers it by half
  // ("From October to March the fire is lit" for "is the fire on in winter"). ADR 080.
  const seasons = asked.filter((a) => a.kind === "season");
  if (seasons.length)
    for (const m of text.matchAll(MONTH_RANGE)) {
      const [a, b] = [indexIn(MONTHS, m[1]), indexIn(MONTHS, m[2])];
      if (a < 0 || b < 0) continue;
      const spans = (first: number) => [0, 1, 2].every((k) => within((first + k) % 12, a, b));
      for (const q of seasons) put(q.word, spans(q.value) || spans((q.value + 6) % 12) ? 1 : 0.5);
    }
  if ((months.length || seasons.length) && ALL_YEAR.test(text)) for (const q of [...months, ...seasons]) put(q.word, 1);
  const days = asked.filter((a) => a.kind === "day");
  if (days.length)
    for (const m of text.matchAll(DAY_RANGE)) {
      const [a, b] = [indexIn(DAYS, m[1]), indexIn(DAYS, m[2])];
      if (a >= 0 && b >= 0 && a !== b) for (const q of days) put(q.word, within(q.value, a, b) ? 1 : 0.5);
    }
  if (days.length) {
    const [weekend, weekday] = [WEEKEND.test(text), WEEKDAY.test(text)];
    for (const q of days) {
      if (weekend) put(q.word, q.value >= 5 ? 1 : 0.5);
      if (weekday) put(q.word, q.value < 5 ? 1 : 0.5);
    }
  }
  const clocks = asked.filter((a) => a.kind === "clock");
  const always = (days.length > 0 || clocks.length > 0) && ALWAYS.test(text);
  if (days.length && (always || EVERY_DAY.test(text))) for (const q of days) put(q.word, 1);
  if (clocks.length && (always || GIVES_HOURS.test(text))) for (const q of clocks) put(q.word, 1);
  const sums = asked.filter((a) => a.kind === "amount");
  if (sums.length) {
    // A limit that leaves the sum out answers it too ("orders over €1,000" for "€800, free delivery?").
    for (const m of text.matchAll(AMOUNT_ABOVE)) for (const q of sums) put(q.word, q.value >= amountOf(m) ? 1 : 0.5);
    for (const m of text.matchAll(AMOUNT_BELOW)) for (const q of sums) put(q.word, q.value <= amountOf(m) ? 1 : 0.5);
  }
  const numbers = asked.filter((a) => a.kind === "number");
  if (numbers.length) {
    text = text.replace(NUMBER_WORD, (w) => String(NUMBER_WORDS.indexOf(w.toLowerCase()) + 1));
    const inRange = (lo: number, hi: number, m: RegExpMatchArray) => {
      const end = m.index! + m[0].length;
      const after = wordAfter(text, end);
      // A measure ("over 15 mph", "under 68°F") holds only a number asked in its unit, not an age or a count.
      const measure = !!UNITS[after ?? ""] || /^\s*°/.test(text.slice(end));
      for (const q of numbers) {
        if (q.unit ? UNITS[after ?? ""] !== q.unit : measure || (q.age && countsThings(after))) continue;
        const time = !!q.counts && !!after && TIME_UNIT.test(after);
        if (time && timeUnit(after!) !== timeUnit(q.counts!)) continue;
        if (q.value >= lo && q.value <= hi) put(q.word, 1);
        // A limit in the asked unit (of time too) or of ages that leaves the value out answers it, as
        // a season does a month ("im 17" ← "must be 18 or over", "3 months old" ← "at least 4 months old").
        // So does a limit on the thing counted ("a minimum of 2 nights" for "only the 1 night").
        else if (q.unit || q.age || time || (!!q.counts && !!after && singular(after) === singular(q.counts))) put(q.word, 0.5);
      }
    };
    for (const m of text.matchAll(NUMBER_RANGE)) {
      const [lo, hi] = [Number(m[1] ?? m[3]), Number(m[2] ?? m[4])];
      if (lo < hi) inRange(lo, hi, m);
    }
    for (const m of text.matchAll(NUMBER_BELOW)) inRange(0, Number(m[1]), m);
    for (const m of text.matchAll(NUMBER_ABOVE)) inRange(Number(m[1] ?? m[2]), Infinity, m);
  }
  return out;
}
