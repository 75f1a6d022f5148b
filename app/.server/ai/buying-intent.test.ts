import { describe, expect, it } from "vitest";
import { buyingIntentReply, detectBuyingIntent } from "./buying-intent";
import { detectSmallTalk } from "./small-talk";

const kindOf = (text: string) => detectBuyingIntent(text)?.kind ?? null;

describe("detectBuyingIntent", () => {
  it.each([
    // English
    ["Can I get a quote for 40 custom jumpers?", "quote", "en"],
    ["I need a quotation", "quote", "en"],
    ["Could you send me a free estimate?", "quote", "en"],
    ["I'd like to book a demo", "demo", "en"],
    ["Can I see a demo?", "demo", "en"],
    ["we want to start a free trial", "demo", "en"],
    ["Please contact me", "contact", "en"],
    ["call me back on 0123 456 789", "contact", "en"],
    ["Can someone call me tomorrow?", "contact", "en"],
    ["I'd like to talk to sales", "contact", "en"],
    ["can I speak with a sales rep", "contact", "en"],
    ["get in touch with me please", "contact", "en"],
    ["We are ready to buy", "buy", "en"],
    ["I want to order 200 units", "buy", "en"],
    ["I'm interested in your services", "buy", "en"],
    ["What's your pricing?", "price", "en"],
    ["How much does it cost?", "price", "en"],
    ["what are your prices", "price", "en"],
    ["How much do you charge?", "price", "en"],
    ["PRICE LIST PLEASE", "price", "en"],
    // French
    ["Pouvez-vous me faire un devis ?", "quote", "fr"],
    ["Je voudrais une démo", "demo", "fr"],
    ["Rappelez-moi s'il vous plaît", "contact", "fr"],
    ["Je souhaite parler à un commercial", "contact", "fr"],
    ["Quels sont vos tarifs ?", "price", "fr"],
    ["Combien ça coûte ?", "price", "fr"],
    // German
    ["Ich hätte gern ein unverbindliches Angebot", "quote", "de"],
    ["Rufen Sie mich bitte an", "contact", "de"],
    ["Ich möchte eine Demo", "demo", "de"],
    ["Was kostet das?", "price", "de"],
    ["Ich möchte das Paket kaufen", "buy", "de"],
    // Spanish
    ["Quiero pedir un presupuesto", "quote", "es"],
    ["¿Me pueden llamar?", "contact", "es"],
    ["Quisiera una demostración", "demo", "es"],
    ["¿Cuánto cuesta?", "price", "es"],
    // Polish
    ["Proszę o kontakt", "contact", "pl"],
    ["Chciałbym dostać wycenę", "quote", "pl"],
    ["Ile to kosztuje?", "price", "pl"],
    ["Chcę kupić abonament", "buy", "pl"],
  ])("%s → %s (%s)", (text, kind, lang) => {
    expect(detectBuyingIntent(text)).toEqual({ kind, lang });
  });

  it.each([
    // Knowledge questions that mention a price, a quote or a trial: answered, not offered the form.
    "How much is delivery to England?",
    "How much does shipping to Germany cost?",
    "Is there a fee for returns?",
    "what's the price of return postage",
    "Do you charge for delivery?",
    "How much is a boiler service?",
    "how much is the set menu for big groups",
    "How much does the Starter plan cost per month?",
    "if I upgrade mid-month do I pay the full price?",
    "it's a present, can you leave the price out?",
    "how long is a quote valid",
    "How long is the free trial?",
    "Is there a free trial?",
    "How much time does delivery take?",
    "How do I contact support?",
    "What is your phone number?",
    "How do I place an order?",
    "Combien coûte la livraison en Belgique ?",
    "Wie hoch sind die Versandkosten?",
    "Was kostet der Versand nach Österreich?",
    "¿Cuánto cuesta el envío a Francia?",
    "Ile kosztuje wysyłka do Niemiec?",
    "Do you ship abroad?",
    "hello",
    "",
  ])("not intent: %s", (text) => {
    expect(kindOf(text)).toBeNull();
  });

  it("does not read a pasted document for intent", () => {
    expect(kindOf(`${"This is a long pasted paragraph about our return policy. ".repeat(8)} Call me.`)).toBeNull();
  });

  it("is never small talk", () => {
    for (const t of ["Please contact me", "Can I get a quote?", "Je voudrais une démo"]) expect(detectSmallTalk(t)).toBeNull();
  });
});

describe("buyingIntentReply", () => {
  it("answers in the chatbot's language, else the visitor's, else English", () => {
    const fr = detectBuyingIntent("Pouvez-vous me faire un devis ?")!;
    expect(buyingIntentReply(fr, { language: "auto", alreadyLeft: false })).toMatch(/devis/);
    expect(buyingIntentReply(fr, { language: "en", alreadyLeft: false })).toMatch(/^The team can tell you the price/);
    expect(buyingIntentReply(fr, { language: "ja", alreadyLeft: false })).toMatch(/^The team/);
    expect(buyingIntentReply(detectBuyingIntent("Ich möchte eine Demo")!, { language: "auto", alreadyLeft: false })).toMatch(/zeigt es Ihnen gern/);
  });

  it("says the team has the details when the visitor already left them", () => {
    expect(buyingIntentReply(detectBuyingIntent("call me")!, { language: "en", alreadyLeft: true })).toBe(
      "The team already has your contact details and will get back to you.",
    );
  });
});
