import { describe, expect, it } from "vitest";
import { testSite } from "../kb/fixtures/test-site";
import { generateFaq, headingsFromPlainText, pairsFromMarkdown, questionFromHeading, questionFromStatement } from "./faq";

describe("questions from headings", () => {
  it.each([
    ["Shipping times", "What are the shipping times?"],
    ["Returns policy", "What is the returns policy?"],
    ["How to reset your password", "How do I reset my password?"],
    ["Contact us", "How can I contact you?"],
    ["Do you ship abroad?", "Do you ship abroad?"],
    ["Track your order", "How do I track my order?"],
    ["Shipping within Ireland", "How does shipping within Ireland work?"],
    ["Our opening hours", "What are your opening hours?"],
    ["About Northwind", "What should I know about Northwind?"],
    ["Installing the app", "What should I know about installing the app?"],
    ["EU customers", "What are EU customers?"],
    ["Returns", "How do returns work?"],
    ["Free trial", "How does the free trial work?"],
    ["Pricing", "How does pricing work?"],
  ])("%s → %s", (heading, question) => {
    expect(questionFromHeading(heading)).toBe(question);
  });

  it("skips headings nobody asks about", () => {
    expect(questionFromHeading("Frequently asked questions")).toBeNull();
    expect(questionFromHeading("FAQ")).toBeNull();
  });
});

describe("questions from statements", () => {
  it.each([
    ["Our returns window is 30 days.", "What is your returns window?"],
    ["Standard delivery takes 3 to 5 working days.", "How long does standard delivery take?"],
    ["We ship to all countries of the EU.", "Where do you ship?"],
    ["The annual plan costs 190 euros.", "How much does the annual plan cost?"],
  ])("%s → %s", (sentence, question) => {
    expect(questionFromStatement(sentence)).toBe(question);
  });
  it("leaves other sentences alone", () => {
    expect(questionFromStatement("Thanks for reading.")).toBeNull();
  });
});

describe("pairs from text", () => {
  it("turns plain-text headings and their statements into pairs, one per statement", () => {
    const text = `Shipping times

Orders leave our warehouse within one working day. Delivery in the UK takes 2 to 3 days. Abroad it takes up to a week. Tracking is emailed.

Returns
You can return anything within 30 days. Items must be unused.

Do you offer gift wrapping?
Yes, for 3 pounds per parcel.`;
    const md = headingsFromPlainText(text);
    expect(md).toContain("## Shipping times");
    const pairs = pairsFromMarkdown(md);
    expect(pairs).toEqual([
      // No question fits the first statement: it answers its heading's question.
      { question: "What are the shipping times?", answer: "Orders leave our warehouse within one working day." },
      // "Abroad it takes…" leans on the sentence before: it stays in that answer, as does an unaskable one.
      { question: "How long does delivery in the UK take?", answer: "Delivery in the UK takes 2 to 3 days. Abroad it takes up to a week. Tracking is emailed." },
      { question: "Can I return anything within 30 days?", answer: "You can return anything within 30 days." },
      { question: "Do items need to be unused?", answer: "Items must be unused." },
      { question: "Do you offer gift wrapping?", answer: "Yes, for 3 pounds per parcel." },
    ]);
  });

  it("keeps lists as lists", () => {
    const pairs = pairsFromMarkdown("## Requirements\n\nYou need:\n\n- 64-bit processor\n- 4 GB of memory\n");
    expect(pairs).toEqual([{ question: "What are the requirements?", answer: "You need:\n- 64-bit processor\n- 4 GB of memory" }]);
  });

  it("reads Q:/A: blocks", () => {
    const pairs = pairsFromMarkdown("Q: Can I pay by invoice?\nA: Yes, for orders over 500 euros.\n\nQ: Do you have a shop?\nA: One, in Leeds.");
    expect(pairs).toEqual([
      { question: "Can I pay by invoice?", answer: "Yes, for orders over 500 euros." },
      { question: "Do you have a shop?", answer: "One, in Leeds." },
    ]);
  });
});

describe("pairs from a web page", () => {
  it("fetches with the crawler's fetch and derives pairs from headings", async () => {
    const site = testSite();
    const r = await generateFaq({ kind: "url", url: "https://docs.example.test/guide/install" }, { production: true, fetcher: site.fetcher });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.pairs).toContainEqual({ question: "What are the requirements?", answer: "- 64-bit processor\n- 4 GB of memory" });
    expect(JSON.stringify(r.pairs)).not.toContain("NAV_TEXT");
  });

  it("refuses private addresses in production, and reports unreadable pages", async () => {
    const site = testSite();
    const local = await generateFaq({ kind: "url", url: "http://127.0.0.1/admin" }, { production: true, fetcher: site.fetcher });
    expect(local).toMatchObject({ ok: false, field: "url" });
    const missing = await generateFaq({ kind: "url", url: "https://docs.example.test/missing" }, { production: true, fetcher: site.fetcher });
    expect(missing).toMatchObject({ ok: false, field: "url", message: "That page could not be read: not found (404)." });
    const pdf = await generateFaq({ kind: "url", url: "https://docs.example.test/manual.pdf" }, { production: true, fetcher: site.fetcher });
    expect(pdf.ok).toBe(false);
  });
});
