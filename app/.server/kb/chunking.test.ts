import { describe, expect, it } from "vitest";
import { chunkDocument } from "./chunking";

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
