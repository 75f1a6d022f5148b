import type { Docs } from "./docs";

// Runnable code samples in the docs (docs/decisions/010-content-engine.md, "Runnable samples").
// A fence whose info string carries the word `run` is executed by the tests against the real code:
//   ```js run    → run with Node.js as an ES module (tests/e2e/docs-samples.e2e.ts);
//   ```sh run    → (or bash) every `curl` command is sent to the real Worker with a real API key
//                  (tests/integration/docs-samples.test.ts).
// Placeholders the tests fill in: https://YOUR-PARLEY-HOST, $PARLEY_API_KEY, $PARLEY_IDENTITY_SECRET,
// and in JS a `user` object ({ id, name, email }) like the signed-in user of the reader's site.

export const SAMPLE_HOST = "https://YOUR-PARLEY-HOST";

export type RunnableSample = { file: string; url: string; section: string | null; lang: string; code: string };

export function runnableSamples(docs: Docs): RunnableSample[] {
  const out: RunnableSample[] = [];
  for (const page of docs.ordered) {
    for (const s of page.samples) if (s.flags.includes("run")) out.push({ file: page.file, url: page.url, section: s.section, lang: s.lang, code: s.code });
  }
  return out;
}

/** Shell words of one command line: quotes, backslash-newline continuations and $VAR / ${VAR}. */
export function shellWords(command: string, vars: Record<string, string>): string[] {
  const src = command.replace(/\\\r?\n/g, " ");
  const words: string[] = [];
  let word: string | null = null;
  const expand = (name: string) => {
    if (!(name in vars)) throw new Error(`unknown variable $${name} in a runnable sample`);
    return vars[name];
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) throw new Error("unterminated ' in a runnable sample");
      word = (word ?? "") + src.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let s = "";
      i++;
      for (; i < src.length && src[i] !== '"'; i++) {
        if (src[i] === "\\" && /["\\$`]/.test(src[i + 1] ?? "")) s += src[++i];
        else if (src[i] === "$") {
          const m = /^\$(?:\{(\w+)\}|(\w+))/.exec(src.slice(i));
          if (!m) s += "$";
          else {
            s += expand(m[1] ?? m[2]);
            i += m[0].length - 1;
          }
        } else s += src[i];
      }
      if (src[i] !== '"') throw new Error('unterminated " in a runnable sample');
      word = (word ?? "") + s;
    } else if (c === "$") {
      const m = /^\$(?:\{(\w+)\}|(\w+))/.exec(src.slice(i));
      if (!m) word = (word ?? "") + "$";
      else {
        word = (word ?? "") + expand(m[1] ?? m[2]);
        i += m[0].length - 1;
      }
    } else if (c === "\\") {
      word = (word ?? "") + (src[++i] ?? "");
    } else if (c === "#" && word === null) {
      break; // comment
    } else if (/[|;&<>`]/.test(c)) {
      throw new Error(`"${c}" (pipes, redirects, several commands) is not supported in a runnable sample`);
    } else word = (word ?? "") + c;
  }
  if (word !== null) words.push(word);
  return words;
}

export type CurlRequest = { method: string; url: string; headers: Record<string, string>; body: string | undefined };

/** A `curl …` command as a request (the options the docs use; anything else is refused). */
export function parseCurl(command: string, vars: Record<string, string>): CurlRequest {
  const words = shellWords(command, vars);
  if (words[0] !== "curl") throw new Error(`only curl commands can run (got "${words[0]}")`);
  let method: string | undefined;
  let url: string | undefined;
  const headers: Record<string, string> = {};
  let body: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    const next = () => {
      const v = words[++i];
      if (v === undefined) throw new Error(`${w} needs a value`);
      return v;
    };
    if (w === "-X" || w === "--request") method = next().toUpperCase();
    else if (w === "-H" || w === "--header") {
      const h = next();
      const colon = h.indexOf(":");
      if (colon < 1) throw new Error(`malformed header "${h}"`);
      headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
    } else if (w === "-d" || w === "--data" || w === "--data-raw") body = next();
    else if (w === "--json") {
      body = next();
      headers["Content-Type"] ??= "application/json";
      headers["Accept"] ??= "application/json";
    } else if (/^-[sSfiL]+$/.test(w) || ["--silent", "--show-error", "--fail", "--include", "--location"].includes(w)) continue;
    else if (w.startsWith("-")) throw new Error(`curl option ${w} is not supported in a runnable sample`);
    else if (url === undefined) url = w;
    else throw new Error(`unexpected argument "${w}"`);
  }
  if (!url) throw new Error("curl command without a URL");
  return { method: method ?? (body !== undefined ? "POST" : "GET"), url, headers, body };
}

/** The commands of a shell sample (one per line, after joining backslash continuations). */
export function shellCommands(code: string): string[] {
  return code
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}
