import { Marked, type Tokens } from "marked";

// Answers are markdown written by a model from customers' knowledge — untrusted. This step turns
// them into a small HTML subset: raw HTML is shown as text, links keep only http(s)/mailto targets
// and open in a new tab, images become links, headings become bold paragraphs. The browser then
// passes the result through DOMPurify (sanitize.ts) as a second, independent fence.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** The absolute http(s)/mailto URL a link may point to, or null (javascript:, data:, relative…). */
export function safeHref(raw: string | null | undefined): string | null {
  if (!raw) return null;
  // URL() strips tabs/newlines/leading control characters exactly as browsers do, so the protocol
  // it reports is the one a browser would use ("java\tscript:" is javascript:).
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
}

export const LINK_REL = "noopener noreferrer nofollow";

function link(href: string | null, inner: string): string {
  const safe = safeHref(href);
  if (!safe) return inner;
  return `<a href="${escapeHtml(safe)}" target="_blank" rel="${LINK_REL}">${inner}</a>`;
}

const md = new Marked({ gfm: true, breaks: true, async: false });
md.use({
  extensions: [
    {
      // [3] → a citation mark (not a reference link: those need a definition anyway).
      name: "cite",
      level: "inline",
      start: (src: string) => src.match(/\[\d{1,2}\]/)?.index,
      tokenizer(src: string) {
        const m = /^\[(\d{1,2})\](?![(:])/.exec(src);
        return m ? { type: "cite", raw: m[0], n: Number(m[1]) } : undefined;
      },
      renderer: (token) => `<sup class="pc-cite">[${Number((token as unknown as { n: number }).n)}]</sup>`,
    },
  ],
  renderer: {
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    link(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Link) {
      return link(token.href, this.parser.parseInline(token.tokens));
    },
    image: (token: Tokens.Image) => link(token.href, escapeHtml(token.text || token.href)),
    heading(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Heading) {
      return `<p><strong>${this.parser.parseInline(token.tokens)}</strong></p>\n`;
    },
  },
});

/** Markdown → HTML limited to safe tags with safe links (still run through sanitizeHtml in the browser). */
export function markdownToHtml(text: string): string {
  return md.parse(text) as string;
}
