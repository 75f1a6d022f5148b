import { describe, expect, it } from "vitest";
import { testSite } from "../kb/fixtures/test-site";
import { generateFaq, headingsFromPlainText, pairsFromMarkdown, questionFromHeading, questionFromStatement } from "./faq";
import { SHOP_POLICY } from "./fixtures/shop-policy";

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
      {
        question: "How long does delivery in the UK take?",
        answer: "Delivery in the UK takes 2 to 3 days. Abroad it takes up to a week. Tracking is emailed.",
      },
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

describe("a shop policy with paragraph headings (issue #14: it gave one pair, brand lower-cased)", async () => {
  const r = await generateFaq({ kind: "text", text: SHOP_POLICY }, { production: true });
  if (!r.ok) throw new Error(r.message);
  const { pairs } = r;
  const answerTo = (question: string) => pairs.find((p) => p.question === question)?.answer;

  it("reads the three heading forms: a short line, a markdown heading and “Refunds:” before its paragraph", () => {
    const md = headingsFromPlainText(SHOP_POLICY);
    for (const h of [
      "## Shipping within Ireland",
      "## Shipping to the UK",
      "## Tracking your order",
      "## Returns",
      "## Refunds",
      "## Exchanges",
      "## Damaged or faulty items",
      "## Contact us",
    ])
      expect(md).toContain(h);
    expect(md).toContain("# Shipping to the EU");
    // A hard-wrapped line of a paragraph is not a heading.
    expect(md).not.toContain("## to do if something is not right");
  });

  it("gives one pair per answerable statement: well over ten, each answer a statement of the policy", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(10);
    expect(pairs.length).toBeLessThanOrEqual(40);
    for (const p of pairs) {
      expect(p.question).toMatch(/^\p{Lu}.*\?$/u);
      expect(p.answer.length).toBeLessThan(400);
      // Every answer is text of the policy (whitespace of the hard-wrapped lines aside).
      for (const sentence of p.answer.split(/(?<=[.!?])\s+/)) expect(SHOP_POLICY.replace(/\s+/g, " ")).toContain(sentence);
    }
    expect(new Set(pairs.map((p) => p.question.toLowerCase())).size).toBe(pairs.length);
    // Thanks and text about the page are not questions.
    expect(pairs.some((p) => /thank you|this page/i.test(p.answer))).toBe(false);
  });

  it("phrases sensible questions from the statements and their headings", () => {
    expect(answerTo("How long does standard delivery within Ireland take?")).toBe("Standard delivery within Ireland takes 1 to 2 working days with An Post.");
    expect(answerTo("Is delivery free within Ireland?")).toBe("Delivery is free on orders over €50; below that it costs €4.95.");
    expect(answerTo("Do you ship to the UK?")).toBe("We ship to England, Scotland, Wales and Northern Ireland with DPD.");
    expect(answerTo("How long does EU delivery take?")).toBe("EU delivery takes 3 to 6 working days and costs €12.95.");
    expect(answerTo("Are there customs charges within the EU?")).toBe("There are no customs charges within the EU.");
    expect(answerTo("Can I return any unused item within 30 days of delivery?")).toBe("You can return any unused item within 30 days of delivery.");
    expect(answerTo("How do I start a return?")).toContain("returns@kilbrack.ie");
    expect(answerTo("When is my refund issued?")).toContain("within 5 working days");
    expect(answerTo("What if an item arrives damaged?")).toBe("If an item arrives damaged, email us a photo within 48 hours of delivery.");
    expect(answerTo("What if the size I want is out of stock?")).toBe("If the size you want is out of stock, we refund you instead.");
    expect(answerTo("Can socks and base layers be returned?")).toBe("Socks and base layers can only be returned if they are still sealed.");
    expect(answerTo("How can I contact you?")).toContain("+353 91 555 0123");
  });

  it("keeps a sentence that leans on the one before in the same answer", () => {
    expect(answerTo("Can parcels to Great Britain be charged import VAT on arrival?")).toBe(
      "Since Brexit, parcels to Great Britain may be charged import VAT on arrival. This charge is collected by the courier and is not refunded by Kilbrack.",
    );
    expect(answerTo("How can I contact you?")).toMatch(/5pm\. You can also call us/);
  });

  it("keeps capitalisation: names stay capitalised, sentence-initial words do not shout", () => {
    const text = JSON.stringify(pairs);
    for (const name of ["Kilbrack", "An Post", "DPD", "EU", "UK", "Galway", "Great Britain", "Northern Ireland"]) expect(text).toContain(name);
    expect(text).not.toMatch(/kilbrack(?!\.ie)|an post|\bdpd\b|galway/);
    expect(pairs.map((p) => p.question)).toContain("When are orders placed before 2pm on a working day dispatched?");
    expect(pairs.every((p) => !/ (Orders|Standard|Items|Gift|Socks) /.test(p.question))).toBe(true);
  });
});

describe("other kinds of text", () => {
  it("plain prose without headings: a pair per statement a question fits", async () => {
    const prose = `Northwind Bikes repairs city and electric bikes in Leeds. Our workshop is open Monday to Saturday from 8am to 6pm. A standard service costs £65 and takes about two hours. We offer a free safety check with every new bike. You can book a repair online or by phone. Thanks for riding with Northwind.`;
    const r = await generateFaq({ kind: "text", text: prose }, { production: true });
    if (!r.ok) throw new Error(r.message);
    expect(r.pairs).toEqual([
      { question: "When is your workshop open?", answer: "Our workshop is open Monday to Saturday from 8am to 6pm." },
      { question: "How much does a standard service cost?", answer: "A standard service costs £65 and takes about two hours." },
      { question: "Do you offer a free safety check with every new bike?", answer: "We offer a free safety check with every new bike." },
      { question: "How can I book a repair?", answer: "You can book a repair online or by phone." },
    ]);
  });

  it("a page already written as questions and answers keeps them as they are", async () => {
    const page = `# Frequently asked questions

## Do you ship outside Ireland?

Yes. We ship to the UK and to every EU country with DPD.

## How do I track my order?

A tracking link is emailed to you when your parcel leaves Galway.

Q: Can I pay with PayPal?
A: Yes, and with Visa, Mastercard and Apple Pay.

Can I change my order after paying?
Email us within one hour and we will change it before it is packed.`;
    const pairs = pairsFromMarkdown(page);
    expect(pairs).toEqual([
      { question: "Do you ship outside Ireland?", answer: "Yes. We ship to the UK and to every EU country with DPD." },
      { question: "How do I track my order?", answer: "A tracking link is emailed to you when your parcel leaves Galway." },
      { question: "Can I pay with PayPal?", answer: "Yes, and with Visa, Mastercard and Apple Pay." },
      { question: "Can I change my order after paying?", answer: "Email us within one hour and we will change it before it is packed." },
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
