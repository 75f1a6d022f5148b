import DOMPurify from "dompurify";
import { LINK_REL, markdownToHtml } from "./markdown";

// The second fence: whatever markdownToHtml produced goes through DOMPurify with an allow-list of
// tags and attributes, so even a bug in the markdown step cannot put a script, an event handler,
// a style or a javascript: link into the chat.
const ALLOWED_TAGS = [
  "p",
  "br",
  "strong",
  "em",
  "del",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "a",
  "hr",
  "sup",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "input",
];
const ALLOWED_ATTR = ["href", "target", "rel", "class", "type", "checked", "disabled", "start"];

let hooked = false;
function purifier() {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.nodeName === "A") {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", LINK_REL);
      }
      // GFM task lists only: any other input is dropped.
      if (node.nodeName === "INPUT" && (node.getAttribute("type") !== "checkbox" || !node.hasAttribute("disabled"))) node.remove();
    });
  }
  return DOMPurify;
}

export function sanitizeHtml(html: string): string {
  return purifier().sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    FORBID_ATTR: ["style"],
  }) as string;
}

/** The HTML of an answer, safe to assign to innerHTML. */
export const renderAnswer = (text: string) => sanitizeHtml(markdownToHtml(text));
