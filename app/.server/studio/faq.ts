import { splitSentences } from "../ai/local-model";
import { checkPublicUrl, type QaPair } from "../kb/sources";
import { fetchUrl, normaliseUrl, type Fetcher } from "../kb/crawl";
import { extractHtml } from "../kb/extract";
import { tidy } from "../kb/extract/types";
import { FAQ_MAX_PAIRS, FAQ_TEXT_MAX } from "~/lib/studio/schemas";

// The FAQ generator: text or one web page → question-and-answer pairs, deterministically. A page
// is read with the knowledge base's own fetch (timeouts, size cap, same-site redirects only) and
// HTML extraction; the text is cut into heading sections, each heading becomes a question and the
// first sentences under it its answer. Text without headings falls back to explicit questions in
// the text and to simple statements ("Our returns window is 30 days." → "What is your returns window?").

export type FaqSource = { kind: "text"; text: string } | { kind: "url"; url: string };
export type FaqResult = { ok: true; pairs: QaPair[]; title: string | null; url: string | null } | { ok: false; field: "text" | "url"; message: string };

const PAGE_BYTES = 1024 * 1024;
const PAGE_TIMEOUT_MS = 10_000;
const ANSWER_MAX = 600;
const ANSWER_SENTENCES = 3;

/** Loopback and private addresses are refused in production; local development may read its own site. */
function checkUrl(raw: string, production: boolean): { ok: true; url: string } | { ok: false; message: string } {
  const checked = checkPublicUrl(raw);
  if (checked.ok) return checked;
  if (!production) {
    const url = normaliseUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim()) ? raw.trim() : `http://${raw.trim()}`);
    if (url && /^(localhost|127\.0\.0\.1|\[::1\])$/i.test(new URL(url).hostname)) return { ok: true, url };
  }
  // The Studio has no file upload: only suggest pasting the text.
  if (checked.reason === "private_address")
    return { ok: false, message: "Local and private addresses cannot be read: the generator only reads public websites. Paste the page’s text instead." };
  return { ok: false, message: checked.message };
}

export async function generateFaq(source: FaqSource, opts: { production: boolean; fetcher?: Fetcher }): Promise<FaqResult> {
  let markdown: string;
  let title: string | null = null;
  let url: string | null = null;
  if (source.kind === "url") {
    const checked = checkUrl(source.url, opts.production);
    if (!checked.ok) return { ok: false, field: "url", message: checked.message };
    const res = await fetchUrl(checked.url, { fetcher: opts.fetcher, host: new URL(checked.url).host, timeoutMs: PAGE_TIMEOUT_MS, maxBytes: PAGE_BYTES });
    if (!res.ok) return { ok: false, field: "url", message: `That page could not be read: ${res.reason}.` };
    const doc = extractHtml(res.body, new URL(res.url).host);
    if (!doc.text) return { ok: false, field: "url", message: "That page has no readable text (it may be built entirely by JavaScript)." };
    markdown = doc.text.slice(0, FAQ_TEXT_MAX * 2);
    title = doc.title;
    url = res.url;
  } else {
    markdown = headingsFromPlainText(source.text);
  }
  const pairs = pairsFromMarkdown(markdown, title);
  if (!pairs.length)
    return {
      ok: false,
      field: source.kind,
      message:
        source.kind === "url"
          ? "No questions could be derived from that page: it needs headings with text under them, or questions with their answers."
          : "No questions could be derived from that text. Add short headings above its paragraphs (e.g. “Shipping times”), or write questions with their answers.",
    };
  return { ok: true, pairs, title, url };
}

// ——— text → sections ———

/** Labels in front of a colon that are not headings ("Q: …", "Note: …", "Email: …"). */
const NOT_A_HEADING_LABEL = /^(q|a|question|answer|note|tip|please note|nb|ps|tel|phone|email|e-mail|fax|web|website|address|example|e\.g)$/i;

/** The paragraph under line i: the next lines up to a blank line (a single blank line first is skipped). */
function paragraphAfter(lines: string[], i: number): string {
  let j = i + 1;
  if (j < lines.length && !lines[j].trim()) j++;
  const para: string[] = [];
  for (; j < lines.length && lines[j].trim(); j++) para.push(lines[j].trim());
  return para.join(" ");
}

/** A short line that can name the paragraph under it: capitalised, few words, no final punctuation but ":" or "?". */
function headingShaped(line: string): boolean {
  return (
    !/^#{1,6}\s/.test(line) &&
    !/^([-*•·]|\d{1,2}[.)])\s/.test(line) &&
    !/^(q|a|question|answer)\s*[:.)-]/i.test(line) &&
    line.length >= 3 &&
    line.length <= 80 &&
    line.split(/\s+/).length <= 10 &&
    /^[\p{Lu}\p{N}]/u.test(line) &&
    !/[.!,;]$/.test(line)
  );
}

/**
 * Pasted text rarely has markdown headings. Three forms people write are read as headings: a short
 * line without final punctuation above a paragraph ("Shipping times", also numbered: "2. Returns"),
 * the same ending with a colon ("Returns:"), and a short label in front of its paragraph
 * ("Refunds: Your refund is issued…"). A paragraph may follow with or without a blank line.
 */
export function headingsFromPlainText(text: string): string {
  const lines = tidy(text).split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const prev = i === 0 ? "" : lines[i - 1].trim();
    // A heading starts a block: first line, after a blank line, or after a line that ends a sentence.
    const startsBlock = !prev || /[.!?:)]$/.test(prev) || /^#{1,6}\s/.test(prev);
    if (!line || !startsBlock) {
      out.push(lines[i]);
      continue;
    }
    const inline = /^([\p{Lu}\p{N}][^:.!?]{1,50}):\s+(\S.*)$/u.exec(line);
    if (inline && inline[1].trim().split(/\s+/).length <= 5 && !NOT_A_HEADING_LABEL.test(inline[1].trim()) && /^[\p{Lu}\p{N}"“]/u.test(inline[2])) {
      out.push(`## ${inline[1].trim()}`, inline[2]);
      continue;
    }
    const numbered = /^\d{1,2}[.)]\s+(.+)$/.exec(line);
    const candidate = numbered ? numbered[1] : line;
    const para = paragraphAfter(lines, i);
    const isHeading =
      headingShaped(candidate) &&
      para.length > candidate.length &&
      /[.!?:)]$/.test(para) &&
      // "1. Pack the item" followed by "2. …" is a list, not a heading.
      !(numbered && /^\d{1,2}[.)]\s/.test(para));
    out.push(isHeading ? `## ${candidate.replace(/:$/, "")}` : lines[i]);
  }
  return out.join("\n");
}

type Section = { heading: string | null; body: string };

function sections(markdown: string): Section[] {
  const out: Section[] = [];
  let cur: Section = { heading: null, body: "" };
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const m = !inFence && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) {
      if (cur.heading || cur.body.trim()) out.push(cur);
      cur = {
        heading: m[1]
          .replace(/[*_`]/g, "")
          .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
          .trim(),
        body: "",
      };
    } else cur.body += `${line}\n`;
  }
  if (cur.heading || cur.body.trim()) out.push(cur);
  return out;
}

// ——— questions ———

const HOW_VERBS =
  /^(add|apply|book|buy|cancel|change|choose|connect|contact|create|delete|download|find|get|install|join|log in|order|pay|register|remove|renew|reset|return|set up|sign in|sign up|start|subscribe|track|update|upgrade|use|configure|exchange|claim|request|reach|print|send|open|close|transfer)\b/i;

/**
 * Words the document writes with a capital in the middle of a sentence: names ("Kilbrack",
 * "Ireland", "An Post"), which keep their capital when they open a question. Headings are left out
 * (they are often in Title Case).
 */
export type Casing = { names: Set<string> };

export function casingOf(text: string): Casing {
  const names = new Set<string>();
  const lower = new Set<string>();
  for (const line of text.split("\n")) {
    if (/^\s*#{1,6}\s/.test(line)) continue;
    for (const sentence of line.split(/(?<=[.!?:;])\s+/)) {
      sentence
        .replace(/^\s*([-*•·]|\d{1,2}[.)])\s+/, "")
        .split(/\s+/)
        .forEach((w, k) => {
          const word = w.replace(/^[("“'«]+|[)"”'»,.;:!?]+$/g, "");
          if (k > 0 && /^\p{Lu}/u.test(word) && word !== "I") names.add(word.toLowerCase());
          else if (/^\p{Ll}/u.test(word)) lower.add(word);
        });
    }
  }
  // A word the text also writes in lower case is a common word ("Orders page" vs "orders over €50").
  for (const w of lower) names.delete(w);
  return { names };
}

/**
 * Lower-cases the first word of a phrase that now sits inside a question, unless it is a name: an
 * acronym or mixed case ("EU", "iPhone"), a number, or (with the document's casing) a word the
 * document itself capitalises mid-sentence ("Kilbrack"). Without casing, `keepIfCapitalised` keeps
 * any capitalised word (for headings, whose words are often all capitalised).
 */
function lowerFirst(s: string, casing?: Casing, keepIfCapitalised = false): string {
  const first = (s.split(/\s+/)[0] ?? "").replace(/[^\p{L}\p{N}'’-]/gu, "");
  if (!first || /\p{Lu}.*\p{Lu}/u.test(first) || /\d/.test(first) || first === "I") return s;
  if (casing ? casing.names.has(first.toLowerCase()) : keepIfCapitalised && /^\p{Lu}/u.test(first)) return s;
  return s[0].toLowerCase() + s.slice(1);
}

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

/** Our/us/we → your/you/you (the visitor asks about the organisation), for headings. */
function visitorView(s: string): string {
  return s
    .replace(/\bour\b/gi, (w) => (w[0] === "O" ? "Your" : "your"))
    .replace(/\bus\b/g, "you")
    .replace(/\bwe\b/gi, (w) => (w[0] === "W" ? "You" : "you"));
}

/**
 * The organisation's words as the visitor asks them: our → your, we/us → you, your → my, you → I or
 * me ("If your parcel has not arrived" → "my parcel"; "the size you want" → "the size I want").
 */
function askedByVisitor(s: string): string {
  return s.replace(/\b(ours|our|us|we|yours|your|you)\b(\s+\S+)?/gi, (whole, word: string, next: string | undefined) => {
    const lower = word.toLowerCase();
    const cap = (v: string) => (word[0] === word[0].toUpperCase() ? capital(v) : v);
    const rest = next ?? "";
    if (lower === "our") return cap("your") + rest;
    if (lower === "ours") return cap("yours") + rest;
    if (lower === "we" || lower === "us") return cap("you") + rest;
    if (lower === "your") return cap("my") + rest;
    if (lower === "yours") return cap("mine") + rest;
    // "you" as a subject (before a verb) is "I", otherwise "me".
    const subject = /^\s+(can|want|need|have|are|will|do|did|must|should|may|order|buy|pay|choose|start|receive|return|live|get|see)\b/i.test(rest);
    return (subject ? "I" : "me") + rest;
  });
}

function plural(phrase: string): boolean {
  const last = phrase.trim().split(/\s+/).pop()?.toLowerCase() ?? "";
  if (/(ss|us|is|ics)$/.test(last)) return false;
  return /s$/.test(last) || /\b(and)\b/i.test(phrase) || /,/.test(phrase);
}

const WORKS_TOPICS =
  /^(returns?|refunds?|exchanges?|payments?|shipping|delivery|pricing|billing|invoicing|cancellations?|subscriptions?|warranty|guarantee|installation|bookings?|reservations?|checkout|ordering|sign-up|registration|trial|free trial)$/i;

const MASS_TOPICS = /^(shipping|delivery|pricing|billing|invoicing|installation|checkout|ordering|sign-up|registration)$/;

const SKIP_HEADINGS =
  /^(faq|faqs|frequently asked questions|questions|contents|table of contents|overview|introduction|summary|home|menu|navigation|related|see also|more|share|comments?)$/i;

/** A visitor's question for a heading, or null when the heading is not something one would ask about. */
export function questionFromHeading(raw: string, casing?: Casing): string | null {
  const h = raw
    .replace(/\s+/g, " ")
    .replace(/[:.]+$/, "")
    .trim();
  if (h.length < 3 || h.length > 120 || SKIP_HEADINGS.test(h)) return null;
  if (/\?$/.test(h)) return h;
  const view = visitorView(h);
  const lower = (s: string, keep = false) => lowerFirst(s, casing, keep);
  if (/^about us$/i.test(h)) return "Who are you?";
  if (/^contact( us)?$/i.test(h)) return "How can I contact you?";
  let m = /^how to (.+)$/i.exec(h);
  if (m) return `How do I ${askedByVisitor(m[1])}?`;
  m = /^(how|why|when|where|what|which|who|can|do|does|is|are|should|will) (.+)$/i.exec(view);
  if (m) return `${capital(view)}?`;
  if (HOW_VERBS.test(h)) return `How do I ${lower(askedByVisitor(h))}?`;
  m = /^about (.+)$/i.exec(view);
  if (m) return `What should I know about ${lower(m[1], true)}?`;
  // "Shipping within Ireland", "Shipping to the EU": how does it work there?
  if (/^\p{L}+ing (to|within|in|inside|outside|from|for|across|with|of|on)\b/iu.test(view)) return `How does ${lower(view)} work?`;
  if (/^\p{L}+ing (the|a|an|your|my|our|this|that|these|those)\b/iu.test(view)) return `What should I know about ${lower(view)}?`;
  // One-word support topics read best as "how does it work" ("Returns" → "How do returns work?").
  const topic = WORKS_TOPICS.exec(view);
  if (topic) {
    const t = view.toLowerCase();
    if (plural(t)) return `How do ${t} work?`;
    return `How does ${MASS_TOPICS.test(t) ? "" : "the "}${t} work?`;
  }
  const words = view.split(" ");
  if (words.length <= 6) {
    const body = lower(view);
    const article = /^(your|the|a|an|this|these|those|my)\b/i.test(body) || /^\p{Lu}/u.test(body) ? "" : "the ";
    return `What ${plural(view) ? "are" : "is"} ${article}${body}?`;
  }
  return `What should I know about ${lower(view)}?`;
}

// ——— statements → questions ———

/** A subject a question can be built around: a few words, not a pronoun or a connective. */
const SUBJECT = String.raw`((?!(?:it|they|this|that|these|those|he|she|there|here|which|what|who|when|where|how|why|if|and|but|or|so|then|also|you|we|i)\b)[\p{L}\d€£$'’-][\p{L}\d€£$'’, -]{1,80}?)`;
const TIME_WORDS =
  /\b(within|as soon as|same (working )?day|next (working )?day|before \d|after \d|working days?|hours?|minutes?|weeks?|months?|\d+ ?(am|pm))\b/i;
/** Where a question stops: before the conditions and asides that the answer carries. */
const CLAUSE_BREAK = /,|;| (?:only )?if | unless | as long as | provided | because | so that | and (?:you|we|they|it|the|your|our)\b| but /i;

const core = (s: string) => s.split(CLAUSE_BREAK)[0].trim();
const words = (s: string) => s.trim().split(/\s+/).length;

export type StatementContext = { casing?: Casing; heading?: string | null };

/** "Shipping to the UK" → "to the UK": where a heading places its section. */
function headingPlace(heading: string | null | undefined): string | null {
  if (!heading || heading.split(/\s+/).length > 6) return null;
  const m = /\b((?:to|within|in|inside|outside|from|across) .+)$/i.exec(heading.replace(/[:?]$/, ""));
  return m ? m[1] : null;
}

/**
 * A visitor's question answered by one statement of the organisation's text, or null when the
 * statement has no shape a question can safely be built from. The question keeps the document's
 * capitalisation and, when it is short and generic, takes the place from its heading
 * ("Delivery is free on orders over €50" under "Shipping within Ireland" → "Is delivery free within Ireland?").
 */
export function questionFromStatement(sentence: string, ctx: StatementContext = {}): string | null {
  const q = rawQuestion(sentence, ctx);
  if (!q) return null;
  const place = headingPlace(ctx.heading);
  if (place && words(q) <= 6) {
    const placeWords = place
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => !/^(to|within|in|inside|outside|from|across|the|a|an|of|and)$/.test(w));
    const asked = q.toLowerCase().split(/[^\p{L}\p{N}]+/u);
    if (placeWords.length && !placeWords.some((w) => asked.includes(w))) return `${q.replace(/\?$/, "")} ${place}?`;
  }
  return q;
}

function rawQuestion(sentence: string, ctx: StatementContext): string | null {
  const { casing } = ctx;
  // A leading aside ("Since Brexit, …", "In most cases, …") is not part of the question.
  const s = sentence
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!]+$/, "")
    .replace(/^(since|in|on|for|during|usually|normally|generally|currently|today|as of|at the moment|please note)\b[^,]{0,40},\s+(?=\S)/i, "");
  if (s.length < 12 || /\?$/.test(s)) return null;
  const subj = (x: string) => lowerFirst(askedByVisitor(x.trim()), casing);
  const does = (x: string) => (plural(x) ? "do" : "does");
  let m: RegExpExecArray | null;

  // Conditions: "If an item arrives damaged, email us…" → "What if an item arrives damaged?"
  m = /^if (.{3,120}?), (.+)$/i.exec(s);
  if (m) return `What if ${lowerFirst(askedByVisitor(m[1]), casing)}?`;

  // "You can return any unused item within 30 days" → "Can I return any unused item within 30 days?"
  m = /^you can (?:also )?(.+)$/i.exec(s);
  if (m) {
    const c = core(m[1]);
    const how = /^(.+?) (?:online|by (?:phone|email|e-mail|post|mail)|via|through|from (?:the|your|our|any)|at (?:the|your|our|any))\b.*$/i.exec(c);
    if (how && words(how[1]) >= 2) return `How can I ${askedByVisitor(how[1])}?`;
    return `Can I ${askedByVisitor(c)}?`;
  }
  m = /^you (?:must|need to|have to|should) (.+)$/i.exec(s);
  if (m) return `Do I need to ${askedByVisitor(core(m[1]))}?`;

  // "We ship to …" → "Where do you ship?" (or "Do you ship to the UK?" under that heading).
  m = /^we (ship|deliver|send|post) (?:orders |parcels )?(?:to|within) (.+)$/i.exec(s);
  if (m) {
    const place = headingPlace(ctx.heading);
    return place ? `Do you ${m[1].toLowerCase()} ${place}?` : `Where do you ${m[1].toLowerCase()}?`;
  }
  m = /^we are open (.+)$/i.exec(s);
  if (m) return "When are you open?";
  m = /^we (?:are|'re) (.+)$/i.exec(s);
  if (m) return `Are you ${askedByVisitor(core(m[1]))}?`;
  m = /^we will (.+)$/i.exec(s);
  if (m) return `Will you ${askedByVisitor(core(m[1]))}?`;
  m = /^we (?:do not|don't|never) (.+)$/i.exec(s);
  if (m) return `Do you ${askedByVisitor(core(m[1]))}?`;
  m = /^we ([a-z]+) (.+)$/i.exec(s);
  if (m && !/^(also|hope|think|believe|love|look|want|try|aim|strive|are|were|have|had)$/i.test(m[1])) {
    const rest = m[2].split(/ (?:only )?if | unless | as long as | provided | because | so that | and (?:you|we|they|it)\b| but |[,;]/i)[0];
    // Keep "when …" when it is what the statement is about ("We email you when the refund has been processed").
    const c = words(rest.split(/ when | as soon as /i)[0]) >= 3 ? rest.split(/ when | as soon as /i)[0] : rest;
    return `Do you ${m[1].toLowerCase()} ${askedByVisitor(c.trim())}?`;
  }

  // "There are no customs charges within the EU" → "Are there customs charges within the EU?"
  m = /^there (is|are) (?:no |not any )?(.+)$/i.exec(s);
  if (m) return `${capital(m[1].toLowerCase())} there ${askedByVisitor(core(m[2]))}?`;

  // Modal passives: "Socks … can only be returned if …" → "Can socks … be returned?"
  m = new RegExp(String.raw`^${SUBJECT} (can|cannot|can't|may|will|must|should|need to)(?: not| only| also)* be (.+)$`, "iu").exec(s);
  if (m && words(m[1]) <= 10) {
    const verb = m[2].toLowerCase();
    const rest = core(m[3]);
    if (/^(must|should|need to)$/.test(verb)) return `${capital(does(m[1]))} ${subj(m[1])} need to be ${askedByVisitor(rest)}?`;
    return `${verb === "will" ? "Will" : "Can"} ${subj(m[1])} be ${askedByVisitor(rest)}?`;
  }

  // "X is open …" → "When is X open?"
  m = new RegExp(String.raw`^${SUBJECT} (is|are) open\b`, "iu").exec(s);
  if (m && words(m[1]) <= 6) return `When ${m[2].toLowerCase()} ${subj(m[1])} open?`;
  // "Return postage within Ireland is free …" → "Is return postage within Ireland free?"
  m = new RegExp(String.raw`^${SUBJECT} (is|are) free\b`, "iu").exec(s);
  if (m && words(m[1]) <= 8) return `${capital(m[2].toLowerCase())} ${subj(m[1])} free?`;

  // Passives: "Your refund is issued … within 5 working days" → "When is my refund issued?"
  m = new RegExp(
    String.raw`^${SUBJECT} (is|are)(?: not)? ([\p{L}]+ed|sent|paid|made|shown|given|kept|held|taken|done|sold|built|chosen|seen|known) ?(.*)$`,
    "iu",
  ).exec(s);
  if (m && words(m[1]) <= 10 && !/^(based|located|called|named|interested|closed|opened|needed|required)$/i.test(m[3])) {
    const aux = m[2].toLowerCase();
    if (TIME_WORDS.test(m[4]) && !/^(only )?if\b/i.test(m[4])) return `When ${aux} ${subj(m[1])} ${m[3]}?`;
    return `${capital(aux)} ${subj(m[1])} ${m[3]}?`;
  }

  // "The annual plan costs 190 euros" → "How much does the annual plan cost?"
  m = new RegExp(String.raw`^${SUBJECT} (costs?) (.+)$`, "iu").exec(s);
  if (m && words(m[1]) <= 6) return `How much ${m[2].toLowerCase() === "costs" ? "does" : "do"} ${subj(m[1])} cost?`;
  // "Standard delivery takes 1 to 2 working days" → "How long does standard delivery take?"
  m = new RegExp(String.raw`^${SUBJECT} (takes?) (.+)$`, "iu").exec(s);
  if (m && words(m[1]) <= 6 && /\b(minute|hour|day|week|month|year)s?\b/i.test(m[3]))
    return `How long ${m[2].toLowerCase() === "takes" ? "does" : "do"} ${subj(m[1])} take?`;
  // "Customers in the UK pay for their own return postage" → "Who pays for return postage?"
  m = new RegExp(String.raw`^${SUBJECT} (?:pays?) for (?:(?:their|his|her|its|your|the) )?(?:own )?(.+)$`, "iu").exec(s);
  if (m && words(m[1]) <= 8) return `Who pays for ${askedByVisitor(core(m[2]))}?`;

  // "Our returns window is 30 days" → "What is your returns window?"
  m = /^((?:our|the|your|a|an) [\p{L}\d' -]{2,50}?) (is|are) (.{3,})$/iu.exec(s);
  if (m && words(m[1]) <= 6) {
    if (/^([€£$]|\d[\d.,]*\s*(euros?|pounds?|dollars?|eur|gbp|usd)\b|free\b)/i.test(m[3])) return `How much ${m[2].toLowerCase()} ${subj(m[1])}?`;
    return `What ${m[2].toLowerCase()} ${subj(m[1])}?`;
  }

  // Instructions: "Start a return from the Orders page …" → "How do I start a return?"
  m =
    /^(start|email|contact|call|send|use|request|open|log in|sign in|track|book|order|pay|print|register|cancel|reset|update|download|install|visit|fill in|complete|write to) (.+)$/i.exec(
      s,
    );
  if (m) {
    const obj = m[2].split(/ (?:from|on|at|with|by|via|using|through|within|before|after|and|or) |[,;]/i)[0].trim();
    return `How do I ${m[1].toLowerCase()} ${askedByVisitor(obj)}?`.replace(/ \?$/, "?");
  }
  return null;
}

// ——— statements → answers ———

/** Sentences that lean on the one before ("This charge is…", "Abroad it takes…", "You can also…"). */
const DEPENDS =
  /^(this|that|these|those|it|its|they|their|them|such|also|otherwise|however|alternatively|then|in (that|this|which) case|if not|if so|as well|both|either|neither)\b|^\S+(\s\S+)? (it|they)\b|^(you|we) (can |will |may )?also\b/i;
/** A sentence that starts in lower case continues the one before. */
const CONTINUES = /^\p{Ll}/u;
/** Sentences nobody would ask about: thanks, greetings, and text about the text. */
const FLUFF =
  /^(thank|thanks|we hope|welcome|happy|enjoy|please read|read on|this (page|policy|document|section|guide|faq)|the following|below|above|for more (information|details)|see (also|below|above))\b/i;

type Statement = { lead: string; text: string };

/** The statements of a section: a sentence with the ones that lean on it and the list it introduces. */
function statementsOf(body: string): Statement[] {
  // One line per paragraph (hard-wrapped lines joined), list items on their own lines.
  const paragraphs = body.split(/\n\s*\n/).map((p) =>
    p
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .reduce<string[]>((acc, line) => {
        const bullet = /^([-*•·]|\d{1,2}[.)])\s/.test(line);
        const prev = acc[acc.length - 1];
        if (prev !== undefined && !bullet && !/^([-*•·]|\d{1,2}[.)])\s/.test(prev) && !/:$/.test(prev)) acc[acc.length - 1] = `${prev} ${line}`;
        else acc.push(line);
        return acc;
      }, [])
      .join("\n"),
  );
  const out: Statement[] = [];
  let last: Statement | null = null;
  for (const p of paragraphs) {
    // A new paragraph starts a new statement, unless the last one introduced it ("You need:").
    if (last && !/:$/.test(last.text)) last = null;
    for (const part of splitSentences(p)) {
      const text = part.text.trim();
      if (!text) continue;
      if (part.bullet) {
        if (last) last.text += `\n- ${text}`;
        else out.push((last = { lead: text, text: `- ${text}` }));
        continue;
      }
      if (FLUFF.test(text)) continue;
      if (last && (DEPENDS.test(text) || CONTINUES.test(text) || /:$/.test(last.text)) && last.text.length + text.length < ANSWER_MAX) {
        last.text += last.text.endsWith(":") ? `\n${text}` : ` ${text}`;
        continue;
      }
      // Too short to ask about on its own ("Tracking is emailed."): it completes the answer before.
      if (words(text) < 4 && !/:$/.test(text)) {
        if (last && last.text.length + text.length < ANSWER_MAX) last.text += ` ${text}`;
        continue;
      }
      out.push((last = { lead: text, text }));
    }
  }
  return out;
}

/** The first sentences of a section (list items kept as a list), up to ANSWER_MAX characters. */
function answerFrom(body: string): string {
  const parts = splitSentences(body);
  const out: string[] = [];
  let len = 0;
  let sentences = 0;
  for (const p of parts) {
    if (len && len + p.text.length > ANSWER_MAX) break;
    out.push(p.bullet ? `- ${p.text}` : p.text);
    len += p.text.length + 1;
    if (!p.bullet && ++sentences >= ANSWER_SENTENCES && out.length >= 1) break;
    if (p.bullet && out.length >= 8) break;
  }
  // Sentences run on one line, a list keeps its lines (introduced by the sentence before it).
  return out
    .reduce<string[]>((acc, line) => {
      const prev = acc[acc.length - 1];
      if (prev !== undefined && !line.startsWith("- ") && !prev.startsWith("- ")) acc[acc.length - 1] = `${prev} ${line}`;
      else acc.push(line);
      return acc;
    }, [])
    .join("\n")
    .trim();
}

/**
 * Question-and-answer pairs from a document: questions written in it keep their answers ("Q:/A:",
 * a question line or heading with its answer under it); every other answerable statement becomes
 * one pair, its question built from the statement and its heading, its answer the statement with
 * the sentences that depend on it. A statement no question can be built from answers its
 * heading's question, or joins the answer before it.
 */
export function pairsFromMarkdown(markdown: string, pageTitle: string | null = null): QaPair[] {
  const casing = casingOf(markdown);
  const pairs: QaPair[] = [];
  const seen = new Set<string>();
  const add = (question: string | null, answer: string): QaPair | null => {
    if (!question || !answer || answer.length < 10) return null;
    const key = question
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    if (seen.has(key) || pairs.length >= FAQ_MAX_PAIRS) return null;
    seen.add(key);
    const pair = { question: question.slice(0, 300), answer: answer.slice(0, ANSWER_MAX + 200) };
    pairs.push(pair);
    return pair;
  };
  const all = sections(markdown);
  all.forEach((s, index) => {
    const body = s.body.trim();
    if (!body) return;
    // A page's own title (or a text's first line) above its intro is not a question.
    const isTitle =
      !!s.heading &&
      ((pageTitle && pageTitle.toLowerCase().startsWith(s.heading.toLowerCase())) ||
        (index === 0 && /\b(policy|policies|terms|conditions|faqs?|guide|handbook|information)$/i.test(s.heading)));
    let heading = s.heading && !isTitle ? s.heading : null;
    let lines = body.split("\n").map((l) => l.trim());
    // A question heading: what is under it, up to the next question, is its answer.
    if (heading && /\?$/.test(heading)) {
      const next = lines.findIndex((l, k) => k > 0 && /\?$/.test(l));
      const cut = next === -1 ? lines.length : next;
      add(heading, answerFrom(lines.slice(0, cut).join("\n")));
      lines = lines.slice(cut);
      heading = null;
      if (!lines.length) return;
    }
    // "Q: …? A: …", or a question on its own line followed by its answer.
    const used = new Set<number>();
    for (let i = 0; i < lines.length; i++) {
      const q = /^(?:q(?:uestion)?\s*[:.)-]\s*)?(.{5,200}\?)$/i.exec(lines[i]);
      if (!q) continue;
      const answerLines: string[] = [];
      for (let j = i + 1; j < lines.length && answerLines.join(" ").length < ANSWER_MAX; j++) {
        if (!lines[j]) {
          if (answerLines.length) break;
          continue;
        }
        if (/\?$/.test(lines[j]) && !/^a(nswer)?\s*[:.)-]/i.test(lines[j])) break;
        answerLines.push(lines[j].replace(/^a(?:nswer)?\s*[:.)-]\s*/i, ""));
        used.add(j);
      }
      used.add(i);
      add(q[1], answerFrom(answerLines.join("\n")));
    }
    const rest = lines.map((l, k) => (used.has(k) ? "" : l)).join("\n");
    let headingQuestion = heading ? questionFromHeading(heading, casing) : null;
    let previous: QaPair | null = null;
    for (const st of statementsOf(rest)) {
      const q = questionFromStatement(st.lead, { casing, heading });
      const added = q ? add(capital(q), st.text) : null;
      if (added) {
        previous = added;
        continue;
      }
      if (q) continue; // the same question was already answered
      if (headingQuestion) {
        previous = add(headingQuestion, st.text) ?? previous;
        headingQuestion = null;
      } else if (previous && previous.answer.length + st.text.length < ANSWER_MAX) {
        previous.answer += `${st.text.startsWith("- ") ? "\n" : " "}${st.text}`;
      }
    }
  });
  return pairs;
}
