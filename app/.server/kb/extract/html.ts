import { HTMLElement, NodeType, parse, type Node } from "node-html-parser";
import { decodeText, ExtractError, tidy, titleFromFilename, type ExtractedDocument } from "./types";

// Boilerplate and non-content elements: their text never reaches the knowledge base.
const DROP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "object",
  "embed",
  "nav",
  "footer",
  "header",
  "aside",
  "form",
  "button",
  "select",
  "input",
  "textarea",
  "dialog",
  "head",
]);
const DROP_ROLES = new Set(["navigation", "banner", "contentinfo", "search", "complementary", "dialog"]);
const BLOCK = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "blockquote",
  "figure",
  "figcaption",
  "address",
  "details",
  "summary",
  "dl",
  "dt",
  "dd",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "caption",
  "hr",
  "body",
  "html",
]);

function inlineText(node: Node): string {
  return renderInline(node).replace(/\s+/g, " ").trim();
}

function renderInline(node: Node): string {
  if (node.nodeType === NodeType.TEXT_NODE) return node.text;
  if (!(node instanceof HTMLElement)) return "";
  const tag = node.rawTagName?.toLowerCase() ?? "";
  if (DROP.has(tag) || isHidden(node)) return "";
  if (tag === "br") return "\n";
  if (tag === "img") return node.getAttribute("alt") ? ` ${node.getAttribute("alt")} ` : "";
  return node.childNodes.map(renderInline).join("");
}

function isHidden(el: HTMLElement): boolean {
  const role = el.getAttribute("role");
  if (role && DROP_ROLES.has(role)) return true;
  if (el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true") return true;
  return /display\s*:\s*none/i.test(el.getAttribute("style") ?? "");
}

/** Walks the tree and writes markdown-ish blocks: `#` headings, `- ` list items, table rows as `a | b`. */
function render(node: Node, out: string[], listDepth = 0): void {
  if (node.nodeType === NodeType.TEXT_NODE) {
    const t = node.text.replace(/\s+/g, " ");
    if (t.trim()) out.push(t);
    return;
  }
  if (!(node instanceof HTMLElement)) return;
  const tag = node.rawTagName?.toLowerCase() ?? "";
  if (DROP.has(tag) || isHidden(node)) return;
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) {
    const text = inlineText(node);
    if (text) out.push(`\n\n${"#".repeat(Number(heading[1]))} ${text}\n\n`);
    return;
  }
  switch (tag) {
    case "br":
      out.push("\n");
      return;
    case "ul":
    case "ol": {
      out.push("\n");
      let n = 0;
      for (const child of node.childNodes) {
        if (child instanceof HTMLElement && child.rawTagName?.toLowerCase() === "li") {
          n++;
          const nested: string[] = [];
          const inline: string[] = [];
          for (const c of child.childNodes) {
            const ct = c instanceof HTMLElement ? c.rawTagName?.toLowerCase() : "";
            if (ct === "ul" || ct === "ol") render(c, nested, listDepth + 1);
            else inline.push(renderInline(c));
          }
          const text = inline.join("").replace(/\s+/g, " ").trim();
          const bullet = tag === "ol" ? `${n}.` : "-";
          if (text) out.push(`${"  ".repeat(listDepth)}${bullet} ${text}\n`);
          out.push(...nested);
        }
      }
      out.push("\n");
      return;
    }
    case "tr": {
      const cells = node.childNodes
        .filter((c): c is HTMLElement => c instanceof HTMLElement && ["td", "th"].includes(c.rawTagName?.toLowerCase() ?? ""))
        .map((c) => inlineText(c));
      if (cells.some(Boolean)) out.push(`${cells.join(" | ")}\n`);
      return;
    }
    case "pre":
      out.push(`\n\n${node.text.trim()}\n\n`);
      return;
    case "li": {
      const text = inlineText(node);
      if (text) out.push(`- ${text}\n`);
      return;
    }
  }
  const block = BLOCK.has(tag);
  if (block) out.push("\n\n");
  for (const child of node.childNodes) render(child, out, listDepth);
  if (block) out.push("\n\n");
}

function tidyBlocks(text: string): string {
  return tidy(
    text
      .split("\n")
      .map((l) => l.replace(/[ \t]+/g, " ").trim())
      .join("\n"),
  );
}

/** HTML → markdown-ish text. The title comes from <title> (site suffix kept), else the first h1, else `fallbackTitle`. */
export function extractHtml(html: string, fallbackTitle = "Untitled page"): ExtractedDocument {
  const root = parse(html, { comment: false, blockTextElements: { script: false, style: false, noscript: false, pre: true } });
  const titleText = root.querySelector("title")?.text.replace(/\s+/g, " ").trim();
  const h1 = root.querySelector("h1");
  const h1Text = h1 ? inlineText(h1) : "";
  // Prefer the page's main content when it marks it; otherwise the whole body minus boilerplate.
  const main = root.querySelector("main") ?? root.querySelector("[role=main]") ?? root.querySelector("article");
  const body = main ?? root.querySelector("body") ?? root;
  const out: string[] = [];
  render(body, out);
  const text = tidyBlocks(out.join(""));
  return { title: titleText || h1Text || fallbackTitle, text, format: "markdown" };
}

/** An uploaded .html/.htm file. */
export function extractHtmlFile(bytes: Uint8Array, filename: string): ExtractedDocument {
  const doc = extractHtml(decodeText(bytes), titleFromFilename(filename));
  if (!doc.text) throw new ExtractError("The HTML file has no readable text.");
  return doc;
}
