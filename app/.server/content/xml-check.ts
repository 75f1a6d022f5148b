// A strict well-formedness check for the XML the site generates (RSS, sitemap): one root element,
// balanced tags, quoted attributes, only the five predefined entities or character references.
// workerd has no DOMParser; this is enough to catch an unescaped "&" or "<" or a broken tag.

const NAME = "[A-Za-z_][\\w.:-]*";
const TAG = new RegExp(`<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`, "y");

export function assertWellFormedXml(xml: string): void {
  let i = 0;
  const stack: string[] = [];
  let roots = 0;
  const fail = (why: string) => {
    throw new Error(`XML not well-formed at ${i}: ${why} (…${xml.slice(Math.max(0, i - 30), i + 30)}…)`);
  };
  if (xml.startsWith("<?xml")) i = xml.indexOf("?>") + 2;
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    for (const m of text.matchAll(/&([^;\s]*);?/g)) {
      if (!/^(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+)$/.test(m[1]) || !m[0].endsWith(";")) fail(`bad entity ${m[0]}`);
    }
    if (!stack.length && text.trim()) fail("text outside the root element");
    if (lt < 0) break;
    i = lt;
    if (xml.startsWith("<![CDATA[", i)) {
      const end = xml.indexOf("]]>", i);
      if (end < 0) fail("unclosed CDATA");
      i = end + 3;
      continue;
    }
    if (xml.startsWith("<!--", i)) {
      const end = xml.indexOf("-->", i);
      if (end < 0) fail("unclosed comment");
      i = end + 3;
      continue;
    }
    TAG.lastIndex = i;
    const m = TAG.exec(xml);
    if (!m) fail("malformed tag");
    const [whole, close, name, attrs, selfClose] = m!;
    for (const a of attrs.matchAll(/=\s*(["'])([^"']*)\1/g)) {
      for (const e of a[2].matchAll(/&([^;\s]*);?/g)) if (!/^(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+)$/.test(e[1]) || !e[0].endsWith(";")) fail(`bad entity in attribute ${e[0]}`);
    }
    if (close) {
      if (stack.pop() !== name) fail(`unexpected </${name}>`);
    } else {
      if (!stack.length) {
        roots++;
        if (roots > 1) fail("more than one root element");
      }
      if (!selfClose) stack.push(name);
    }
    i += whole.length;
  }
  if (stack.length) fail(`unclosed <${stack[stack.length - 1]}>`);
  if (roots !== 1) fail("no root element");
}
