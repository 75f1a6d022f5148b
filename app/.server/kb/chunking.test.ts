import { describe, expect, it } from "vitest";
import { Chunker, chunkDocument, type ChunkerState } from "./chunking";
import { referenceChunkDocument } from "./fixtures/chunking-reference";
import { MD_DOC, TXT_DOC } from "./fixtures/files";

const para = (n: number, word = "alpha") => Array.from({ length: n }, (_, i) => `Sentence ${i} talks about ${word} and its many careful details.`).join(" ");

describe("chunkDocument", () => {
  it("records the nearest heading path for markdown sections", () => {
    const md = ["# Guide", para(6, "intro"), "## Pricing", para(8, "pricing"), "### Annual plans", para(8, "annual"), "## Support", para(8, "support")].join(
      "\n\n",
    );
    const chunks = chunkDocument({ title: "Guide", text: md, url: "https://x.test/guide", format: "markdown" });
    const headingOf = (w: string) => chunks.find((c) => c.text.includes(`about ${w}`))?.heading;
    expect(headingOf("intro")).toBeNull(); // the H1 equal to the title adds nothing
    expect(headingOf("pricing")).toBe("Pricing");
    expect(headingOf("annual")).toBe("Pricing › Annual plans");
    expect(headingOf("support")).toBe("Support");
    expect(chunks.every((c) => c.title === "Guide" && c.url === "https://x.test/guide")).toBe(true);
    expect(chunks.map((c) => c.position)).toEqual(chunks.map((_, i) => i));
  });

  it("keeps heading paths short and ignores # inside code fences", () => {
    const md = ["# A", "## B", "### C", para(10, "deep"), "```", "# not a heading", "```"].join("\n\n");
    const chunks = chunkDocument({ title: "Doc", text: md, format: "markdown" });
    expect(chunks).toHaveLength(1);
    expect(chunks[0].heading).toBe("B › C");
    expect(chunks[0].text).toContain("# not a heading");
  });

  it("splits long sections near the target size on boundaries, with overlap, never inside a word", () => {
    const text = Array.from({ length: 12 }, (_, i) => para(5, `topic${i}`)).join("\n\n");
    const chunks = chunkDocument({ title: "Long", text, format: "text" }, { targetChars: 600, overlapChars: 120 });
    expect(chunks.length).toBeGreaterThan(4);
    const vocabulary = new Set(text.split(/\s+/));
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(600);
      expect(c.text.length).toBeGreaterThan(150);
      for (const w of c.text.split(/\s+/)) expect(vocabulary.has(w)).toBe(true); // every token is a whole word
    }
    // consecutive pieces share text (the overlap)
    for (let i = 1; i < chunks.length; i++) {
      const head = chunks[i].text.slice(0, 40);
      expect(chunks[i - 1].text.includes(head)).toBe(true);
    }
    // nothing lost: every sentence of the input appears in some chunk
    for (const s of text.split(/(?<=\.)\s+/)) expect(chunks.some((c) => c.text.includes(s.trim()))).toBe(true);
  });

  it("splits one giant paragraph on sentences and a giant sentence on words", () => {
    const sentence = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const chunks = chunkDocument({ title: "T", text: `${para(30)} ${sentence}.`, format: "text" }, { targetChars: 500, overlapChars: 80 });
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(500);
      for (const w of c.text.split(/\s+/)) expect(/^(word\d+\.?|Sentence|\d+|talks|about|alpha|and|its|many|careful|details\.)$/.test(w)).toBe(true);
    }
  });

  it("merges tiny sections into the next one under the same parent", () => {
    const md = ["## Pricing", "Short intro.", "### Monthly", "Pay monthly.", "### Annual", para(8, "annual"), "## Other", para(8, "other")].join("\n\n");
    const chunks = chunkDocument({ title: "Doc", text: md, format: "markdown" }, { targetChars: 1200 });
    const pricing = chunks.filter((c) => c.heading?.startsWith("Pricing"));
    expect(pricing).toHaveLength(1);
    expect(pricing[0].text).toContain("Short intro.");
    expect(pricing[0].text).toContain("Pay monthly.");
    expect(pricing[0].text).toContain("about annual");
    expect(chunks.find((c) => c.text.includes("about other"))?.heading).toBe("Other");
  });

  it("drops YAML front matter and labels merged sibling sections by their parent, keeping their headings in the text", () => {
    const md = [
      "---",
      "title: Accounts",
      "---",
      "# Accounts",
      "## Sign up",
      para(8, "signup"),
      "## Access",
      "### Reset",
      "Use the reset link.",
      "### Delete",
      "Ask support to delete.",
      "## Billing",
      para(8, "billing"),
    ].join("\n");
    const chunks = chunkDocument({ title: "Accounts", text: md, format: "markdown" });
    expect(chunks.some((c) => c.text.includes("title: Accounts"))).toBe(false);
    expect(chunks.find((c) => c.text.includes("about signup"))?.heading).toBe("Sign up");
    const merged = chunks.find((c) => c.text.includes("reset link"))!;
    expect(merged.heading).toBe("Access");
    expect(merged.text).toContain("Reset\nUse the reset link.");
    expect(merged.text).toContain("Delete\nAsk support to delete.");
  });

  it("is deterministic and handles empty or plain text", () => {
    const doc = { title: "T", text: para(40), format: "text" as const };
    expect(chunkDocument(doc)).toEqual(chunkDocument(doc));
    expect(chunkDocument({ title: "T", text: "   ", format: "text" })).toEqual([]);
    const one = chunkDocument({ title: "T", text: "Just one line.", format: "markdown" });
    expect(one).toEqual([{ title: "T", heading: null, url: null, text: "Just one line.", position: 0 }]);
  });
});

// ——— the streaming chunker: exactly the chunks of the whole-text chunker it replaced ———

/** A seeded generator (mulberry32), so a failing document can be reproduced from its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "refund",
  "policy",
  "ship",
  "days",
  "the",
  "a",
  "über",
  "naïve",
  "café",
  "😀",
  "数据",
  "x",
  "https://example.test/a/very/long/path?with=query&and=more",
];
const ENDS = [".", "!", "?", "…", ":", ";", ",", "", ""];

/** A random markdown-ish document built to hit the chunker's corners. */
function randomDocument(seed: number): string {
  const r = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const sentence = () => {
    if (r() < 0.03) return "Z".repeat(int(150, 700)); // a "word" longer than the target
    const n = r() < 0.05 ? int(60, 200) : int(1, 14); // sometimes a sentence longer than the target
    return Array.from({ length: n }, () => pick(WORDS)).join(r() < 0.1 ? "  " : " ") + pick(ENDS);
  };
  const paragraph = () => {
    const n = r() < 0.1 ? int(20, 60) : int(1, 6);
    const lines: string[] = [];
    let line = "";
    for (let i = 0; i < n; i++) {
      line += (line ? pick([" ", " ", "  ", "\t"]) : "") + sentence();
      if (r() < 0.3) {
        lines.push(line + pick(["", "", " ", "\t ", "\u00a0"]));
        line = pick(["", "", "  "]);
      }
    }
    if (line) lines.push(line);
    return lines.join(pick(["\n", "\n", "\r\n", "\r"]));
  };
  const heading = () => {
    const level = int(1, 6);
    const text = pick(["Doc", "doc", "Pricing", "Annual plans", "[Linked](https://x.test) *bold* `code`", "Support ##", sentence(), "A".repeat(int(1, 90))]);
    return `${pick(["", "", "", " "])}${"#".repeat(level)}${pick([" ", "  ", "\t"])}${text}${pick(["", "", "  "])}`;
  };
  const blocks: string[] = [];
  if (r() < 0.2) blocks.push(pick(["---\ntitle: Doc\ntags: [a]\n---", "---\n---\nx\n---", "---\nnever closed", "---", "  ---\nkey: v\n---"]));
  const n = int(0, 40);
  for (let i = 0; i < n; i++) {
    const k = r();
    if (k < 0.3) blocks.push(heading());
    else if (k < 0.36) blocks.push(`${pick(["```", "~~~", "  ```js"])}\n# not a heading\n${paragraph()}${r() < 0.8 ? `\n${pick(["```", "~~~"])}` : ""}`);
    else if (k < 0.4) blocks.push(pick(["---", "\u00a0", "   ", "\t", "#", "# ", "#\u00a0"]));
    else blocks.push(paragraph());
  }
  const gap = () => pick(["\n", "\n\n", "\n\n", "\n\n\n\n", "\n \n", "\n\u00a0\n", "\r\n\r\n", "\n\t\n\n"]);
  return pick(["", "", "  \n", "\n\n\t", "\u00a0\ufeff "]) + blocks.map((b, i) => (i ? gap() : "") + b).join("") + pick(["", "", "  ", "\n\n", "\u3000\n"]);
}

const SIZES = [{}, { targetChars: 200, overlapChars: 60 }, { targetChars: 300 }, { targetChars: 500, overlapChars: 0 }];

describe("Chunker (streaming)", () => {
  it("chunkDocument gives exactly the chunks of the whole-text chunker it replaced, on 1,500 random documents", () => {
    for (let seed = 1; seed <= 1500; seed++) {
      const text = randomDocument(seed);
      const opts = SIZES[seed % SIZES.length];
      for (const format of ["markdown", "text"] as const) {
        const doc = { title: seed % 3 ? "Doc" : "Pricing", text, url: seed % 2 ? null : "https://x.test/p", format };
        const got = chunkDocument(doc, opts);
        const want = referenceChunkDocument(doc, opts);
        if (JSON.stringify(got) !== JSON.stringify(want)) expect({ seed, format, got }).toEqual({ seed, format, got: want });
      }
    }
  });

  it("and on the fixtures of the other tests and a real markdown document", () => {
    const docs = [MD_DOC, TXT_DOC, para(200), ["# Guide", para(6, "intro"), "## Pricing", para(8, "pricing")].join("\n\n")];
    for (const text of docs)
      for (const format of ["markdown", "text"] as const)
        for (const opts of SIZES)
          expect(chunkDocument({ title: "Guide", text, format }, opts)).toEqual(referenceChunkDocument({ title: "Guide", text, format }, opts));
  });

  it("stopped anywhere between lines and resumed from its stored state, gives the same chunks as one pass", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = rng(seed * 7919);
      const text = randomDocument(seed).trim();
      const opts = SIZES[seed % SIZES.length];
      const doc = { title: "Doc", format: "markdown" as const };
      const whole = chunkDocument({ ...doc, text }, opts);
      const run = (frontMatter: boolean) => {
        const out = [];
        let state: ChunkerState | undefined;
        // Pieces that end after a line break (as ingestion reads them) or anywhere (write keeps the rest).
        for (let i = 0; i < text.length;) {
          let next = Math.min(text.length, i + 1 + Math.floor(r() * 400));
          if (r() < 0.7) {
            const nl = text.indexOf("\n", next);
            next = nl < 0 ? text.length : nl + 1;
          }
          // A new chunker each time, from the JSON of the last one's state: a step after another.
          const chunker = new Chunker({ ...doc, frontMatter }, opts, state && JSON.parse(JSON.stringify(state)));
          out.push(...chunker.write(text.slice(i, next)));
          state = chunker.state;
          i = next;
        }
        const last = new Chunker({ ...doc, frontMatter }, opts, state);
        out.push(...last.end());
        return { out, unclosed: last.unclosedFrontMatter };
      };
      const first = run(true);
      const got = first.unclosed ? run(false).out : first.out;
      if (JSON.stringify(got) !== JSON.stringify(whole)) expect({ seed, got }).toEqual({ seed, got: whole });
    }
  });

  it("holds a bounded state however long the document: a few sections, not the text", () => {
    const text = Array.from({ length: 600 }, (_, i) => (i % 40 === 0 ? `## Part ${i}` : para(6, `topic${i}`))).join("\n\n");
    const chunker = new Chunker({ title: "Big", format: "markdown" });
    let maxState = 0;
    let n = 0;
    for (const line of text.split(/(?<=\n)/)) {
      n += chunker.write(line).length;
      maxState = Math.max(maxState, JSON.stringify(chunker.state).length);
    }
    n += chunker.end().length;
    expect(text.length).toBeGreaterThan(150_000);
    expect(n).toBe(chunkDocument({ title: "Big", text, format: "markdown" }).length);
    expect(maxState).toBeLessThan(6_000);
  });
});
