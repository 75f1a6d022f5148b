import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import http from "highlight.js/lib/languages/http";
import ini from "highlight.js/lib/languages/ini";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import php from "highlight.js/lib/languages/php";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";

// Server-side code highlighting for docs and posts: only the languages the content uses are
// registered (highlight.js's core is small; the full build is not), so pages need no client JS.
// An unknown or missing language is shown escaped, without colours (no auto-detection).

hljs.registerLanguage("bash", bash);
hljs.registerLanguage("javascript", javascript);
hljs.registerLanguage("typescript", typescript);
hljs.registerLanguage("json", json);
hljs.registerLanguage("xml", xml);
hljs.registerLanguage("http", http);
hljs.registerLanguage("ini", ini);
hljs.registerLanguage("php", php);
hljs.registerAliases(["sh", "shell", "console", "zsh"], { languageName: "bash" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });

export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

/** The canonical name of a registered language (e.g. "sh" → "bash"), or null. */
function knownLanguage(lang: string | undefined): string | null {
  if (!lang) return null;
  return hljs.getLanguage(lang.toLowerCase())?.name ? lang.toLowerCase() : null;
}

/** Highlighted HTML (hljs-* spans, text escaped by highlight.js) or the escaped code. */
export function highlight(code: string, lang: string | undefined): { html: string; language: string | null } {
  const language = knownLanguage(lang);
  if (!language) return { html: escapeHtml(code), language: null };
  return { html: hljs.highlight(code, { language, ignoreIllegals: true }).value, language };
}
