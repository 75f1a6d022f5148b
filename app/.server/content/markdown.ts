import { Marked, type Token, type Tokens } from "marked";
import xss, { type FilterXSS as FilterXSSClass, type IWhiteList } from "xss";
import { escapeHtml, highlight } from "./highlight";

// Markdown → safe HTML for the blog and the docs. `marked` renders (headings get ids and a
// self-link, code is highlighted on the server, relative links to other .md files become site
// paths, external links get rel="noopener"), then `xss` keeps only an allowlist of tags,
// attributes and classes — so even raw HTML written into a content file cannot inject script.
// Along the way we collect what the pages need: headings for the on-page table of contents,
// plain-text sections for search, the code samples (for the tests that run them), a word count.

export type Heading = { depth: number; text: string; id: string };
export type Section = { heading: string | null; id: string | null; text: string };
export type CodeSample = { lang: string; flags: string[]; code: string; section: string | null };
export type Rendered = {
  html: string;
  headings: Heading[];
  sections: Section[];
  samples: CodeSample[];
  words: number;
  /** The text of a leading `# Title` that was dropped (the page renders its own title), if any. */
  leadingTitle: string | null;
};

export type RenderOptions = {
  /** Path of the page being rendered (e.g. "/docs/widget/security"): base for relative links. */
  path?: string;
  /** Drop a leading level-1 heading (the page shows the front-matter title as its h1). */
  dropLeadingH1?: boolean;
};

/** Ids that the page frame uses: a heading never takes them. */
const RESERVED_IDS = ["main", "content", "toc", "toc-title", "docs-nav", "docs-search", "search"];

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };
function htmlToText(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
      if (ENTITIES[e.toLowerCase()]) return ENTITIES[e.toLowerCase()];
      if (e[0] === "#") {
        const n = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(n) ? String.fromCodePoint(n) : m;
      }
      return m;
    })
    .replace(/\s+/g, " ")
    .trim();
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^\p{L}\p{N}\s-]/gu, "")
      .trim()
      .replace(/[\s-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "section"
  );
}

function uniqueSlugger() {
  const seen = new Map<string, number>(RESERVED_IDS.map((id) => [id, 0]));
  return (text: string) => {
    const base = slugify(text);
    const n = seen.get(base);
    if (n === undefined) {
      seen.set(base, 0);
      return base;
    }
    let i = n + 1;
    while (seen.has(`${base}-${i}`)) i++;
    seen.set(base, i);
    seen.set(`${base}-${i}`, 0);
    return `${base}-${i}`;
  };
}

const EXTERNAL = /^(https?:)?\/\//i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** A relative link to another markdown file becomes the site path of that page. */
export function resolveHref(href: string, base: string | undefined): string {
  const h = href.trim();
  if (!h || h.startsWith("#") || EXTERNAL.test(h) || SCHEME.test(h)) return h;
  const [pathPart, hash = ""] = h.split(/(?=#)/);
  let target = pathPart;
  if (!target.startsWith("/")) {
    if (!base) return h;
    const dir = base.replace(/\/[^/]*$/, "");
    const parts = `${dir}/${target}`.split("/");
    const out: string[] = [];
    for (const p of parts) {
      if (p === "..") out.pop();
      else if (p !== "." && p !== "") out.push(p);
    }
    target = "/" + out.join("/");
  }
  target = target.replace(/\.md$/, "").replace(/\/index$/, "");
  return (target || "/") + hash;
}

const CLASS_ALLOWED = /^(hljs(-[\w-]+)?|language-[\w+-]+|heading-anchor|code-run|task-list-item)$/;

const whiteList: IWhiteList = {
  ...Object.fromEntries(["p", "br", "hr", "strong", "b", "em", "i", "del", "s", "blockquote", "ul", "li", "sup", "sub", "kbd", "mark", "thead", "tbody", "tr", "summary"].map((t) => [t, []])),
  h1: ["id"],
  h2: ["id"],
  h3: ["id"],
  h4: ["id"],
  h5: ["id"],
  h6: ["id"],
  a: ["href", "title", "class", "rel", "aria-hidden", "tabindex"],
  img: ["src", "alt", "title", "width", "height", "loading", "decoding"],
  ol: ["start"],
  pre: ["class", "tabindex"],
  code: ["class"],
  span: ["class"],
  table: ["tabindex"],
  th: ["align", "scope"],
  td: ["align"],
  details: ["open"],
  input: ["type", "checked", "disabled"],
};
// xss is CommonJS: its named exports hang off the default export in every bundler.
const FilterXSS = (xss as unknown as { FilterXSS: typeof FilterXSSClass }).FilterXSS;
const sanitiser = new FilterXSS({
  whiteList,
  stripIgnoreTag: true,
  stripIgnoreTagBody: ["script", "style", "iframe", "object", "embed", "template", "noscript"],
  allowCommentTag: false,
  onTagAttr(tag, name, value) {
    if (name === "class") {
      const kept = value.split(/\s+/).filter((c) => CLASS_ALLOWED.test(c));
      return kept.length ? `class="${kept.join(" ")}"` : "";
    }
    if (tag === "input" && name === "type") return value === "checkbox" ? 'type="checkbox"' : "";
    return undefined;
  },
});

/** The allowlist sanitiser every rendered page goes through (exported for tests). */
export function sanitizeHtml(html: string): string {
  return sanitiser.process(html);
}

function fenceInfo(lang: string | undefined): { lang: string; flags: string[] } {
  const [l = "", ...flags] = (lang ?? "").trim().split(/\s+/);
  return { lang: l.toLowerCase(), flags };
}

export function renderMarkdown(markdown: string, options: RenderOptions = {}): Rendered {
  const slug = uniqueSlugger();
  const headingIds = new Map<Token, string>();
  const marked = new Marked({ gfm: true, async: false });

  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(t: Token[]): string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        const id = headingIds.get(token) ?? slug(htmlToText(inner));
        const tag = `h${token.depth}`;
        // A heading that already contains a link cannot be wrapped in another one.
        if (/<a\s/i.test(inner)) return `<${tag} id="${id}">${inner}</${tag}>\n`;
        return `<${tag} id="${id}"><a class="heading-anchor" href="#${id}">${inner}</a></${tag}>\n`;
      },
      code(token: Tokens.Code) {
        const { lang } = fenceInfo(token.lang);
        const { html, language } = highlight(token.text.replace(/\n$/, ""), lang);
        const cls = language ? `hljs language-${language}` : "hljs";
        // tabindex: a code block that scrolls sideways must be reachable by keyboard.
        return `<pre tabindex="0"><code class="${cls}">${html}</code></pre>\n`;
      },
      link(this: { parser: { parseInline(t: Token[]): string } }, token: Tokens.Link) {
        const inner = this.parser.parseInline(token.tokens);
        const href = resolveHref(token.href, options.path);
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
        const rel = EXTERNAL.test(href) ? ' rel="noopener"' : "";
        return `<a href="${escapeHtml(href)}"${title}${rel}>${inner}</a>`;
      },
      image(token: Tokens.Image) {
        const src = resolveHref(token.href, options.path);
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
        return `<img src="${escapeHtml(src)}" alt="${escapeHtml(token.text)}"${title} loading="lazy" decoding="async">`;
      },
    },
  });

  const tokens = marked.lexer(markdown);
  let leadingTitle: string | null = null;
  if (options.dropLeadingH1) {
    const first = tokens.findIndex((t) => t.type !== "space");
    if (first >= 0 && tokens[first].type === "heading" && (tokens[first] as Tokens.Heading).depth === 1) {
      leadingTitle = htmlToText(marked.parseInline((tokens[first] as Tokens.Heading).text) as string);
      tokens.splice(0, first + 1);
    }
  }

  // Ids first, in document order, so the TOC and the rendered HTML agree.
  const headings: Heading[] = [];
  const samples: CodeSample[] = [];
  let currentSection: string | null = null;
  marked.walkTokens(tokens, (t) => {
    if (t.type === "heading") {
      const h = t as Tokens.Heading;
      const text = htmlToText(marked.parseInline(h.text) as string);
      const id = slug(text);
      headingIds.set(t, id);
      headings.push({ depth: h.depth, text, id });
      currentSection = text;
    } else if (t.type === "code") {
      const c = t as Tokens.Code;
      const info = fenceInfo(c.lang);
      samples.push({ lang: info.lang, flags: info.flags, code: c.text, section: currentSection });
    }
  });

  // Plain-text sections (split at h2/h3) for search, from the same tokens.
  const sections: Section[] = [{ heading: null, id: null, text: "" }];
  let words = 0;
  for (const t of tokens) {
    if (t.type === "heading" && (t as Tokens.Heading).depth <= 3) {
      const h = headings.find((x) => x.id === headingIds.get(t));
      sections.push({ heading: h?.text ?? null, id: h?.id ?? null, text: "" });
      words += (h?.text.split(/\s+/).length ?? 0);
      continue;
    }
    if (t.type === "space") continue;
    const text = htmlToText(marked.parser([t]) as string);
    words += text ? text.split(/\s+/).length : 0;
    const s = sections[sections.length - 1];
    s.text = s.text ? `${s.text} ${text}` : text;
  }

  // A table scrolls sideways on a phone (.prose-parley table): like a code block, it must then be
  // reachable by keyboard.
  const html = sanitizeHtml((marked.parser(tokens) as string).replace(/<table>/g, '<table tabindex="0">'));
  return {
    html,
    headings,
    sections: sections.filter((s, i) => i > 0 || s.text),
    samples,
    words,
    leadingTitle,
  };
}

/** Minutes to read at 220 words a minute, at least 1. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / 220));
}
