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

/**
 * Pasted text rarely has markdown headings; a short line without final punctuation that stands on
 * its own above a paragraph ("Shipping times") is treated as one.
 */
export function headingsFromPlainText(text: string): string {
  const lines = tidy(text).split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const prevBlank = i === 0 || !lines[i - 1].trim();
    // The paragraph it introduces: the next line, or the one after a single blank line.
    const next = (lines[i + 1]?.trim() || lines[i + 2]?.trim()) ?? "";
    const looksLikeHeading =
      !/^#{1,6}\s/.test(line) &&
      !/^([-*•·]|\d{1,2}[.)])\s/.test(line) &&
      line.length >= 3 &&
      line.length <= 80 &&
      line.split(/\s+/).length <= 10 &&
      /^[\p{Lu}\p{N}]/u.test(line) &&
      (!/[.!,;]$/.test(line) || /:$/.test(line)) &&
      prevBlank &&
      next.length > line.length &&
      /[.!?:)]$/.test(next);
    out.push(looksLikeHeading ? `## ${line.replace(/:$/, "")}` : lines[i]);
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

/** Our/us/we → your/you/you: the visitor asks about the organisation. */
function visitorView(s: string): string {
  return s
    .replace(/\bour\b/gi, (w) => (w[0] === "O" ? "Your" : "your"))
    .replace(/\bus\b/g, "you")
    .replace(/\bwe\b/gi, (w) => (w[0] === "W" ? "You" : "you"));
}

/** Lower-case the first word unless it looks like a name or an acronym ("EU", "iPhone", "Parley"). */
function lowerFirst(s: string, keepIfCapitalised = false): string {
  const first = s.split(/\s+/)[0] ?? "";
  if (/[A-Z].*[A-Z]/.test(first) || /\d/.test(first) || (keepIfCapitalised && /^[A-Z]/.test(first))) return s;
  return s[0].toLowerCase() + s.slice(1);
}

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

function plural(phrase: string): boolean {
  const last = phrase.trim().split(/\s+/).pop()?.toLowerCase() ?? "";
  if (/(ss|us|is|ics)$/.test(last)) return false;
  return /s$/.test(last) || /\b(and)\b/i.test(phrase);
}

const WORKS_TOPICS =
  /^(returns?|refunds?|exchanges?|payments?|shipping|delivery|pricing|billing|invoicing|cancellations?|subscriptions?|warranty|guarantee|installation|bookings?|reservations?|checkout|ordering|sign-up|registration|trial|free trial)$/i;

const MASS_TOPICS = /^(shipping|delivery|pricing|billing|invoicing|installation|checkout|ordering|sign-up|registration)$/;

const SKIP_HEADINGS =
  /^(faq|faqs|frequently asked questions|questions|contents|table of contents|overview|introduction|summary|home|menu|navigation|related|see also|more|share|comments?)$/i;

/** A visitor's question for a heading, or null when the heading is not something one would ask about. */
export function questionFromHeading(raw: string): string | null {
  const h = raw
    .replace(/\s+/g, " ")
    .replace(/[:.]+$/, "")
    .trim();
  if (h.length < 3 || h.length > 120 || SKIP_HEADINGS.test(h)) return null;
  if (/\?$/.test(h)) return h;
  const view = visitorView(h);
  if (/^about us$/i.test(h)) return "Who are you?";
  if (/^contact( us)?$/i.test(h)) return "How can I contact you?";
  let m = /^how to (.+)$/i.exec(view);
  if (m) return `How do I ${m[1]}?`;
  m = /^(how|why|when|where|what|which|who|can|do|does|is|are|should|will) (.+)$/i.exec(view);
  if (m) return `${capital(view)}?`;
  if (HOW_VERBS.test(view)) return `How do I ${lowerFirst(view)}?`;
  m = /^about (.+)$/i.exec(view);
  if (m) return `What should I know about ${lowerFirst(m[1], true)}?`;
  if (/^\p{L}+ing (the|a|an|your|my|our|this|that|these|those)\b/iu.test(view)) return `What should I know about ${lowerFirst(view)}?`;
  // One-word support topics read best as "how does it work" ("Returns" → "How do returns work?").
  const topic = WORKS_TOPICS.exec(view);
  if (topic) {
    const t = view.toLowerCase();
    if (plural(t)) return `How do ${t} work?`;
    return `How does ${MASS_TOPICS.test(t) ? "" : "the "}${t} work?`;
  }
  const words = view.split(" ");
  if (words.length <= 6) {
    const body = lowerFirst(view);
    const article = /^(your|the|a|an|this|these|those|my)\b/i.test(body) || /^[A-Z]/.test(body) ? "" : "the ";
    return `What ${plural(view) ? "are" : "is"} ${article}${body}?`;
  }
  return `What should I know about ${lowerFirst(view)}?`;
}

/** "Our returns window is 30 days." → "What is your returns window?" — a few safe statement shapes. */
export function questionFromStatement(sentence: string): string | null {
  const s = sentence.replace(/\s+/g, " ").trim();
  let m = /^((?:our|the|your) [\p{L}\d' -]{2,50}?) (is|are) (.{3,})$/iu.exec(s);
  if (m && m[1].split(" ").length <= 6) return `What ${m[2].toLowerCase()} ${lowerFirst(visitorView(m[1]))}?`;
  m = /^((?:our|the|your) [\p{L}\d' -]{2,50}?) (costs?) (.{2,})$/iu.exec(s);
  if (m && m[1].split(" ").length <= 6) return `How much ${m[2].toLowerCase() === "costs" ? "does" : "do"} ${lowerFirst(visitorView(m[1]))} cost?`;
  m = /^((?:our|the|your)? ?[\p{L}\d' -]{2,40}?) (takes?) (.{2,})$/iu.exec(s);
  if (m && m[1].trim().split(" ").length <= 5 && /\b(minute|hour|day|week|month|year)s?\b/i.test(m[3]))
    return `How long ${m[2].toLowerCase() === "takes" ? "does" : "do"} ${lowerFirst(visitorView(m[1].trim()))} take?`;
  m = /^we (ship|deliver) to (.+)$/i.exec(s);
  if (m) return `Where do you ${m[1].toLowerCase()}?`;
  m = /^we (accept|offer|support|sell|provide) (.+)$/i.exec(s);
  if (m) {
    const what = m[2]
      .replace(/[.!]$/, "")
      .split(/[,;:(]| and | or /)[0]
      .trim()
      .split(" ")
      .slice(-2)
      .join(" ");
    return what ? `Which ${what} do you ${m[1].toLowerCase()}?` : null;
  }
  m = /^we are open (.+)$/i.exec(s);
  if (m) return "When are you open?";
  return null;
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

export function pairsFromMarkdown(markdown: string, pageTitle: string | null = null): QaPair[] {
  const pairs: QaPair[] = [];
  const seen = new Set<string>();
  const add = (question: string | null, answer: string) => {
    if (!question || !answer || answer.length < 10) return;
    const key = question
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    if (seen.has(key) || pairs.length >= FAQ_MAX_PAIRS) return;
    seen.add(key);
    pairs.push({ question: question.slice(0, 300), answer: answer.slice(0, ANSWER_MAX + 200) });
  };
  for (const s of sections(markdown)) {
    const body = s.body.trim();
    // A page's own title above its intro is not a question; questions inside the text are kept.
    const isTitle = s.heading && pageTitle && pageTitle.toLowerCase().startsWith(s.heading.toLowerCase());
    if (s.heading && body && !isTitle) {
      add(questionFromHeading(s.heading), answerFrom(body));
      continue;
    }
    if (!body) continue;
    // "Q: …? A: …", or a question on its own line followed by its answer.
    const lines = body.split("\n").map((l) => l.trim());
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
    // Paragraphs of plain statements.
    const paragraphs: string[] = [];
    let para: string[] = [];
    lines.forEach((line, k) => {
      if (!line || used.has(k)) {
        if (para.length) paragraphs.push(para.join("\n"));
        para = [];
      } else para.push(line);
    });
    if (para.length) paragraphs.push(para.join("\n"));
    for (const p of paragraphs) {
      const sentences = splitSentences(p);
      for (let k = 0; k < sentences.length; k++) {
        const q = questionFromStatement(sentences[k].text);
        if (q)
          add(
            q,
            sentences
              .slice(k, k + 2)
              .map((x) => x.text)
              .join(" "),
          );
      }
    }
  }
  return pairs;
}
