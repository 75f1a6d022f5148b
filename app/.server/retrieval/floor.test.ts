import { describe, expect, it } from "vitest";
import { chunkDocument } from "../kb/chunking";
import { indexChunks } from "./indexing";
import {
  askedNames,
  askingClauseWords,
  asksForecast,
  asksForTerms,
  availabilityObject,
  DEFAULT_TUNING,
  isPersonal,
  longQuestionShare,
  namedWords,
  oneEdit,
  openingSubject,
  headcountNumbers,
  paymentMeans,
  priceFor,
  queryTerms,
  isArithmetic,
  relevanceFloor,
  retrieve,
  writesPhrase,
} from "./search";
import { makeBot } from "../../../tests/factories";
import { hyphenatedWords } from "./text";
import { isLightWord } from "./lexicon";

// Matching rules and the relevance floor on a small shop's knowledge (issue #12): each question
// here was refused ("I don't know") or answered from the wrong section before these rules.
const SHOP = `# Harbour Knits: shipping and returns
## Shipping within Ireland
Delivery within Ireland costs €6. Orders over €80 ship free within Ireland.
## Shipping to the United Kingdom
Standard delivery to the United Kingdom costs €12 and takes 3 to 5 working days.
## Other countries
Delivery to Australia and New Zealand costs €30. We do not ship to Asia.
## Processing
We do not dispatch parcels on Saturdays, Sundays or bank holidays.
## Returns
You may return unworn items within 30 days of delivery. Refunds go back to the original payment method within 5 business days.
## Care
Hand wash in cool water at a temperature of 30 °C at most and dry flat. Never tumble dry.
## Gifts
We offer gift wrapping in recycled paper for €4.`;

async function shop() {
  const bot = await makeBot({ sources: ["policy"] });
  await indexChunks(bot.ctx, { ...bot.ref, sourceId: bot.sourceIds[0] }, chunkDocument({ title: "Harbour Knits", text: SHOP, format: "markdown", url: null }));
  return bot;
}
const textOf = (r: Awaited<ReturnType<typeof retrieve>>) => r.passages.map((p) => p.text).join("\n");

describe("customers' words reach the owner's", () => {
  it("England finds the United Kingdom, weekends find Saturdays, money back finds refunds", async () => {
    const bot = await shop();
    const england = await retrieve(bot.ctx, bot.ref, "How much is delivery to England?", { k: 1 });
    expect(england.answerable).toBe(true);
    expect(england.passages[0].text).toContain("United Kingdom");
    const weekend = await retrieve(bot.ctx, bot.ref, "Do you ship at weekends?", { k: 2 });
    expect(weekend.answerable).toBe(true);
    expect(textOf(weekend)).toContain("Saturdays");
    const refund = await retrieve(bot.ctx, bot.ref, "When will I get my money back?", { k: 2 });
    expect(refund.answerable).toBe(true);
    expect(textOf(refund)).toContain("Refunds go back");
  });

  it("a misspelt word counts as the knowledge's word one edit away", async () => {
    const bot = await shop();
    const r = await retrieve(bot.ctx, bot.ref, "what temprature should I wash my jumper at", { k: 1 });
    expect(r.answerable).toBe(true);
    expect(r.passages[0].text).toContain("30 °C");
    expect(oneEdit("tempratur", "temperatur")).toBe(true);
    expect(oneEdit("recieve", "receive")).toBe(true);
    expect(oneEdit("refund", "refund")).toBe(false);
    expect(oneEdit("return", "retain")).toBe(false);
  });

  it("a word written closed finds the knowledge's hyphenated spelling: ubahn is U-Bahn", async () => {
    const bot = await botWith([
      ["Grooming", "A full groom costs $45 to $70. A de-shedding treatment costs $20 to $35, depending on size."],
      ["Getting here", "We are at Oranienstraße 112. The nearest U-Bahn station is Moritzplatz, 3 minutes on foot."],
      ["Hours", "Open Monday to Saturday from 8 am to 6 pm. Closed on Sundays and public holidays."],
      ["Parking", "There are four free parking spaces behind the building, and a bike rack by the door."],
    ]);
    // Before: both refused, the closed spelling being a word the knowledge never uses.
    const shed = await retrieve(bot.ctx, bot.ref, "how much for deshedding my husky", { k: 1 });
    expect(shed.answerable).toBe(true);
    expect(shed.passages[0].text).toContain("de-shedding");
    const ubahn = await retrieve(bot.ctx, bot.ref, "which ubahn is nearest?", { k: 1 });
    expect(ubahn.answerable).toBe(true);
    expect(ubahn.passages[0].text).toContain("Moritzplatz");
    expect(hyphenatedWords(["The U-Bahn and a drop-off point"])).toEqual(
      new Map([
        ["ubahn", "bahn"],
        ["dropoff", "drop"],
      ]),
    );
  });
});

// A gym's help pages, one section a source (a single short text would be one chunk). ADR 050.
const GYM: [string, string][] = [
  [
    "Prices",
    "A monthly membership costs £34 a month, paid by Direct Debit. Students and people over 65 pay £25 a month; bring your student card to reception.",
  ],
  ["Classes", "Classes are included in every membership. Book classes in the app up to 7 days ahead."],
  ["Opening hours", "The gym is open Monday to Friday from 6 am to 10 pm, and at weekends from 8 am to 6 pm."],
  ["Parking", "There are 30 free parking spaces behind the building, and a bike rack by the entrance."],
  ["Contact", "Call us on 0114 496 0321 between 8 am and 8 pm, or send us an email."],
  ["Lockers", "Lockers are free; bring your own padlock or buy one at reception."],
];
/** A chatbot whose knowledge is these sections, one source each: [title, text]. */
async function botWith(sections: [string, string][]) {
  const bot = await makeBot({ sources: sections.map(([t]) => t.toLowerCase().replace(/ /g, "-")) });
  for (const [i, [title, text]] of sections.entries())
    await indexChunks(bot.ctx, { ...bot.ref, sourceId: bot.sourceIds[i] }, chunkDocument({ title, text, format: "markdown", url: null }));
  return bot;
}
const gym = () => botWith(GYM);

describe("the relevance floor", () => {
  it("refuses a general-knowledge question that only shares a place name with the knowledge", async () => {
    const bot = await shop();
    expect((await retrieve(bot.ctx, bot.ref, "What is the capital of Australia?")).answerable).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "Do you deliver to Australia?")).answerable).toBe(true);
  });

  it("refuses an on-topic question about something the knowledge never mentions", async () => {
    const bot = await shop();
    expect((await retrieve(bot.ctx, bot.ref, "Do you offer a student discount?")).answerable).toBe(false);
  });

  it("refuses “do you offer X?” when the knowledge never names X, however much else it covers", async () => {
    const bot = await shop();
    // Before: answered from the gift-wrapping section ("We offer…").
    expect((await retrieve(bot.ctx, bot.ref, "Do you offer knitting classes?")).answerable).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "Do you offer gift wrapping?")).answerable).toBe(true);
    expect(availabilityObject("Can I bring my dog to my appointment?")).toEqual(["dog"]);
    expect(availabilityObject("Do you offer dental implants?")).toEqual(["dental", "implants"]);
    expect(availabilityObject("Is there a student discount?")).toEqual(["student", "discount"]);
    // An amount gives way to what it is an amount of (bench/probes5).
    expect(availabilityObject("can we bring a few bottles of prosecco for the hen party")).toEqual(["prosecco"]);
    // Chat's interjections are no part of what is asked ("can my cat ride in the truck lol").
    expect(queryTerms("can my cat ride in the truck lol").map((t) => t.word)).toEqual(["cat", "ride", "truck"]);
    // Sums are off-topic everywhere, whatever prices share their numbers.
    expect(isArithmetic("whats 7 times 13")).toBe(true);
    expect(isArithmetic("what is 15% of 240")).toBe(true);
    expect(isArithmetic("how much is 2 nights for 3 people")).toBe(false);
    expect(isArithmetic("10 x 10 unit price?")).toBe(false);
    expect(availabilityObject("How much is delivery?")).toEqual([]);
    // The object ends at a preposition or a clause about it (bench/probes3: each was refused before).
    expect(availabilityObject("do you have a van i can borrow for moving in")).toEqual(["van"]);
    expect(availabilityObject("is there parking near the salon")).toEqual(["parking"]);
    expect(availabilityObject("will you do extra work without asking me")).toEqual(["extra", "work"]);
    // "How do I get a parking permit…" asks for a thing as much as "do you have…" (before: answered with the office address).
    expect(availabilityObject("how do i get a parking permit in leeds city centre")).toEqual(["parking", "permit"]);
    expect(availabilityObject("how do i get my money back")).toEqual([]);
    // Only the first clause asks; what follows is the customer's story (bench/probes8, probes10: refused before).
    expect(availabilityObject("can i bring my dog? shes a little jack russell about 7kg")).toEqual(["dog"]);
    expect(availabilityObject("can u do an original apple screen not a snide one, iphone 13")).toEqual(["original", "apple", "screen"]);
    // Room or space for a thing asks about the thing; a particle belongs to the verb; a participle
    // after the thing names the service (bench/probes13, probes3, probes5: refused before).
    expect(availabilityObject("is there room for the buggy on the boat")).toEqual(["buggy"]);
    expect(availabilityObject("can i bring back shampoo i bought")).toEqual(["shampoo"]);
    expect(availabilityObject("can i get fresh flowers dropped at my cafe every week")).toEqual(["fresh", "flowers"]);
    expect(availabilityObject("can i get my nails done")).toEqual(["nails"]);
    // "thru" and an adjective put after the thing end it (bench/probes4: refused before).
    expect(availabilityObject("can i get a bike thru the tax free bike scheme at work?")).toEqual(["bike"]);
    expect(availabilityObject("is there a bedroom suitable for a wheelchair user")).toEqual(["bedroom"]);
    // …but a participle before the thing is part of it.
    expect(availabilityObject("do you sell refurbished laptops")).toEqual(["refurbished", "laptops"]);
  });

  it("does not take the last word of a multi-word synonym for the thing: a handwritten card is not a gift card (ADR 038)", async () => {
    // Before: "Do you sell gift vouchers?" was answered from "gift wrapping … with a handwritten card"
    // and "debit cards": "card" (of "gift card", a synonym of vouchers) counted as the knowledge naming it.
    const text = "# Knits\n## Gifts\nGift wrapping with a handwritten card costs €4.\n## Payment\nWe accept debit cards and credit cards.";
    const bot = await makeBot({ sources: ["policy"] });
    await indexChunks(bot.ctx, { ...bot.ref, sourceId: bot.sourceIds[0] }, chunkDocument({ title: "Knits", text, format: "markdown", url: null }));
    expect((await retrieve(bot.ctx, bot.ref, "Do you sell gift vouchers?")).answerable).toBe(false);
    // Where the whole phrase is written, the knowledge names it.
    const withCards = await makeBot({ sources: ["policy"] });
    const text2 = text + "\n## Gift cards\nGift cards from €20 can be bought in the shop.";
    await indexChunks(
      withCards.ctx,
      { ...withCards.ref, sourceId: withCards.sourceIds[0] },
      chunkDocument({ title: "Knits", text: text2, format: "markdown", url: null }),
    );
    expect((await retrieve(withCards.ctx, withCards.ref, "Do you sell gift vouchers?")).answerable).toBe(true);
    expect(writesPhrase("Gift-cards from €20", ["gift", "card"])).toBe(true);
    expect(writesPhrase("Gift wrapping with a handwritten card", ["gift", "card"])).toBe(false);
    expect(writesPhrase("There is no call-out charge.", ["call", "outs"])).toBe(true);
  });

  it("does not take a phrase's words apart for the phrase: home trays and hygienist visits are not home visits (ADR 038)", async () => {
    // Before: "do you do home visits" (clinic dev, on-topic unanswerable) was answered from "home trays"
    // and "two hygienist visits a year".
    const text = "# Dental\n## Fees\nTeeth whitening with home trays costs £350.\n## Plan\nThe plan covers two hygienist visits a year.";
    const bot = await makeBot({ sources: ["policy"] });
    await indexChunks(bot.ctx, { ...bot.ref, sourceId: bot.sourceIds[0] }, chunkDocument({ title: "Dental", text, format: "markdown", url: null }));
    expect((await retrieve(bot.ctx, bot.ref, "do you do home visits")).answerable).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "do you do whitening")).answerable).toBe(true);
    const visits = await makeBot({ sources: ["policy"] });
    await indexChunks(
      visits.ctx,
      { ...visits.ref, sourceId: visits.sourceIds[0] },
      chunkDocument({ title: "Dental", text: text + "\n## Home visits\nWe make home visits for housebound patients.", format: "markdown", url: null }),
    );
    expect((await retrieve(visits.ctx, visits.ref, "do you do home visits")).answerable).toBe(true);
  });

  it("refuses a question about a name the knowledge never uses (ADR 018)", async () => {
    const bot = await shop();
    // Before: answered from the shipping sections ("dispatch parcels", "delivery") although DHL is
    // what the customer asks about.
    expect((await retrieve(bot.ctx, bot.ref, "Do you dispatch parcels with DHL?")).answerable).toBe(false);
    // A name the knowledge uses, or one the lexicon maps to a word it uses, is fine.
    expect((await retrieve(bot.ctx, bot.ref, "Do you dispatch parcels to Australia?")).answerable).toBe(true);
    expect((await retrieve(bot.ctx, bot.ref, "How much is delivery to England?")).answerable).toBe(true);
    // In a long question names are mostly the customer's story: see the next test ("my aunt in Sydney").
    expect(namedWords("Are you DBS checked? Can invoices be sent in Spanish? I'm in Cork")).toEqual(["dbs", "spanish", "cork"]);
  });

  it("does not refuse over a name in a clause where the customer says who or where they are (ADR 070)", async () => {
    const bot = await shop();
    // Before: refused, "D08" (a postcode the knowledge never writes) taken for what is asked about.
    // bench/probes8 "im in bradford BD3, do you come out this way" failed the same way.
    expect((await retrieve(bot.ctx, bot.ref, "im in D08, how much is delivery within ireland?")).answerable).toBe(true);
    expect((await retrieve(bot.ctx, bot.ref, "We are TCD students, do you ship to Australia?")).answerable).toBe(true);
    // A name in the asking clause is still what is asked about, wherever the customer is.
    expect((await retrieve(bot.ctx, bot.ref, "I'm in Cork, do you dispatch parcels with DHL?")).answerable).toBe(false);
    expect(askedNames("im a student at the TU, any discount?")).toEqual([]);
    expect(askedNames("I'm a PayPal user, can I pay with PayPal?")).toEqual(["paypal", "paypal"]);
  });

  it("refuses a long question whose asking clause names what the knowledge never does; a place or month there frames it (bench/probes20)", async () => {
    const bot = await shop();
    // Before: answered from the returns section although Zalando is what is asked about.
    expect(
      (await retrieve(bot.ctx, bot.ref, "I returned a jumper to another shop last month and the refund never came, how do I get my money back from Zalando?"))
        .answerable,
    ).toBe(false);
    // A place or a month in the asking clause is where or when, not what.
    expect(
      (await retrieve(bot.ctx, bot.ref, "We are thinking of ordering a few jumpers as presents for the family, do you deliver to Australia in early December?"))
        .answerable,
    ).toBe(true);
    // A name only in the story still says nothing of what is asked.
    expect(
      (await retrieve(bot.ctx, bot.ref, "My aunt in Sydney loved the jumper I sent her from Penneys last year, how much is delivery to Australia?")).answerable,
    ).toBe(true);
  });

  it("reads a capital inside a word as a name wherever it stands: iPhone, PayPal (ADR 038)", async () => {
    // Before: "how do I reset my iPhone" (an off-topic probe) was answered from the password-reset
    // sentence of a SaaS's help text: "iPhone" starts lower-case, so it was not taken for a name.
    const bot = await makeBot({ sources: ["help"] });
    const text = [
      "# Help",
      "## Password",
      "To reset a forgotten password, click Forgot password on the sign-in page and follow the link we email you. The link is valid for 60 minutes. If the email does not arrive, check your spam folder, then ask support. Two-factor authentication can be turned on under Settings, Security, with any authenticator app.",
      "## Billing",
      "We accept Visa, Mastercard and American Express cards. Invoices are emailed to the billing contact on the first day of each month and can be downloaded as PDF from the billing page. Annual plans can also be paid by bank transfer; ask us for the account details before you order.",
      "## Export",
      "You can export your time entries, clients and invoices as CSV or Excel files at any time, on every plan. Exports include archived projects. Large exports are prepared in the background and we email you a download link when the file is ready, usually within a few minutes.",
    ].join("\n");
    await indexChunks(bot.ctx, { ...bot.ref, sourceId: bot.sourceIds[0] }, chunkDocument({ title: "Help", text, format: "markdown", url: null }));
    expect((await retrieve(bot.ctx, bot.ref, "how do I reset my iPhone")).answerable).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "how do I reset my password")).answerable).toBe(true);
    expect(namedWords("PayPal accepted? how do I reset my iPhone")).toEqual(["paypal", "iphone"]);
  });

  it("does not let a light word decide: “whats ur returns policy” is about returns", async () => {
    const bot = await shop();
    const r = await retrieve(bot.ctx, bot.ref, "whats ur returns policy");
    expect(r.answerable).toBe(true);
    expect(r.passages[0].text).toContain("30 days");
  });

  it("asks less of a long question that tells the customer's story (ADR 018)", async () => {
    const bot = await shop();
    // Both were refused before: most of their words are the customer's situation, not the point (the
    // second signal of ADR 019 is turned off to show this rule alone).
    for (const [question, answer] of [
      // ("next week" became "on Thursday": since ADR 038 a week also looks for days, which the knowledge has.)
      ["My sister's birthday is on Thursday and I'm in a panic: do you still dispatch parcels on Saturdays?", "Saturdays"],
      ["My aunt in Sydney would love a scarf for Christmas, what does delivery to Australia cost?", "€30"],
    ]) {
      expect((await retrieve(bot.ctx, bot.ref, question, { tuning: { floorLongWords: 0, floorSimilarity: 0 } })).answerable).toBe(false);
      const r = await retrieve(bot.ctx, bot.ref, question);
      expect(r.answerable).toBe(true);
      expect(r.passages[0].text).toContain(answer);
    }
    // Short questions keep the whole floor: off-topic ones are short.
    expect(longQuestionShare(queryTerms("What is the capital of Australia?"), DEFAULT_TUNING.floorLongWords)).toBe(1);
    expect((await retrieve(bot.ctx, bot.ref, "What is the capital of Australia?")).answerable).toBe(false);
    expect(longQuestionShare(queryTerms("ship parcel gift birthday week panic saturday sydney"), 4)).toBeCloseTo(Math.sqrt(4 / 8));
    expect(longQuestionShare(queryTerms("ship parcel gift birthday week panic saturday sydney"), 0)).toBe(1);
  });

  it("measures a story question's asking clause on its own (ADR 064)", async () => {
    const bot = await shop();
    // Each was refused before: the story (a present, the colour, a son, an itch) outweighed the ask.
    for (const [question, answer] of [
      ["got a scarf for my birthday but it's the wrong colour, how many days do i have to return it?", "30 days"],
      ["bought a cardigan as a present, it arrived yesterday but the colour is wrong. can i return it", "30 days"],
      ["bought a jumper for my son last week and it itches, how long do refunds take?", "5 business days"],
    ]) {
      expect((await retrieve(bot.ctx, bot.ref, question, { tuning: { floorLongWords: 0, floorSimilarity: 0 } })).answerable).toBe(false);
      const r = await retrieve(bot.ctx, bot.ref, question);
      expect(r.answerable).toBe(true);
      expect(textOf(r)).toContain(answer);
    }
    // A story does not carry a question the knowledge does not answer, nor one off its topic.
    for (const question of [
      "i love your scarves. what is the capital of peru?",
      "my daughter is getting married in june, do you make wedding dresses?",
      "my son has a wool allergy, do you sell cotton jumpers?",
    ])
      expect((await retrieve(bot.ctx, bot.ref, question)).answerable).toBe(false);
    expect(askingClauseWords("cake was a bit dry, can i get a refund? we ate most of it tbh")).toEqual(new Set(["can", "i", "get", "a", "refund"]));
    expect(askingClauseWords("totally forgot my appointment. dae ah get charged")).toEqual(new Set(["do", "i", "get", "charged"]));
    // One clause, or every clause asking: nothing to set apart.
    expect(askingClauseWords("can i return a scarf i bought for my sister")).toBeNull();
    expect(askingClauseWords("do u take parcels for members? any size limit")).toBeNull();
    // More than one clause: the share falls with the words, not their square root.
    const terms = queryTerms("ship parcel gift birthday week panic saturday sydney");
    expect(longQuestionShare(terms, 4, 2)).toBeCloseTo(4 / 8);
    expect(longQuestionShare(terms, 4, 1)).toBeCloseTo(Math.sqrt(4 / 8));
  });

  it("is higher in a small knowledge base, and higher still for a question that addresses nobody", () => {
    const small = relevanceFloor(DEFAULT_TUNING, 8, true);
    const smallImpersonal = relevanceFloor(DEFAULT_TUNING, 8, false);
    const large = relevanceFloor(DEFAULT_TUNING, 1000, false);
    expect(small).toBeCloseTo(DEFAULT_TUNING.floorSmall);
    expect(smallImpersonal).toBeCloseTo(DEFAULT_TUNING.floorSmallImpersonal);
    expect(large).toBeCloseTo(DEFAULT_TUNING.floor);
    const mid = relevanceFloor(DEFAULT_TUNING, 100, true);
    expect(mid).toBeLessThan(small);
    expect(mid).toBeGreaterThan(large);
    expect(isPersonal("do you ship to japan")).toBe(true);
    expect(isPersonal("whats ur returns policy")).toBe(true);
    // bench/probes6: Irish and Texan second person ("do ye offer…", "do yall do daycare…").
    expect(isPersonal("do ye offer a student discount")).toBe(true);
    expect(isPersonal("do yall do daycare on saturdays")).toBe(true);
    expect(isPersonal("Who invented the telephone?")).toBe(false);
    // ADR 046: asking for a price, a duration, an hour or an age is asking about the business's terms.
    expect(asksForTerms("how much is a normal consultation")).toBe(true);
    expect(asksForTerms("at what age do kittens get their first injections")).toBe(true);
    expect(asksForTerms("What is the capital of Australia?")).toBe(false);
    expect(asksForTerms("how long should a good invoice email be")).toBe(false);
    // …and so is asking how late or early, how many, or a fragment that ends on its price.
    expect(asksForTerms("how late can the band play")).toBe(true);
    expect(asksForTerms("how many ppl in a group class")).toBe(true);
    expect(asksForTerms("price for a unit big enough for a 1 bed flat?")).toBe(true);
    expect(asksForTerms("just want a blowdry for a night out, cost?")).toBe(true);
    expect(asksForTerms("is the price right")).toBe(false);
  });

  it("a question after a price without I or you gets the personal floor (ADR 046)", async () => {
    const bot = await shop();
    // Refused before: 0.42 of the question against the impersonal floor of 0.55.
    const r = await retrieve(bot.ctx, bot.ref, "how much is the standard uk postage", { k: 1 });
    expect(r.floor).toBeCloseTo(DEFAULT_TUNING.floorSmall, 2);
    expect(r.answerable).toBe(true);
    expect(r.passages[0].text).toContain("€12");
    const off = await retrieve(bot.ctx, bot.ref, "What is the capital of Australia?", { k: 1 });
    expect(off.answerable).toBe(false);
    // Nothing it asks the price of is named: the impersonal floor stays.
    const kitchen = await retrieve(bot.ctx, bot.ref, "how much does a new kitchen cost", { k: 1 });
    expect(kitchen.floor).toBeCloseTo(DEFAULT_TUNING.floorSmallImpersonal, 2);
  });

  it("a discount asked for a group the knowledge prices is about that group (ADR 050)", async () => {
    const bot = await gym();
    expect(availabilityObject("do you do a discount for students")).toEqual(["discount"]);
    expect(priceFor("do you do a discount for students")).toEqual(["students"]);
    expect(priceFor("do you offer dental implants")).toEqual([]);
    // Refused before (a gym probe): the knowledge never says "discount", the availability rule refused.
    const r = await retrieve(bot.ctx, bot.ref, "do you do a discount for students", { k: 1 });
    expect(r.answerable).toBe(true);
    expect(r.passages[0].text).toContain("£25");
    // A group the knowledge does not price is still refused, and so is a discount asked for nobody.
    expect((await retrieve(bot.ctx, bot.ref, "do you do a discount for nurses", { k: 1 })).answerable).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "do you offer any discounts", { k: 1 })).answerable).toBe(false);
  });

  it("a deal or promo asked for is answered by a reduction however it is worded (bench/probes12)", async () => {
    const bot = await botWith([
      ["Subscriptions", "A bag of coffee costs C$21 and shipping is C$7.50 per order. Subscribers choose one, two or three bags a month."],
      ["Offers", "New members get 20% off their first shipment with the code WELCOME."],
      ["Pausing", "Pause your subscription for up to 3 months in your account; it starts again by itself."],
      ["Contact", "Email us at hello@example.com and we answer within one working day."],
    ]);
    // Refused before: "deals" was not a discount word, so "20% off" did not cover it.
    const r = await retrieve(bot.ctx, bot.ref, "do u have any deals for new people", { k: 2 });
    expect(r.answerable).toBe(true);
    expect(textOf(r)).toContain("20% off");
  });

  it("refuses tomorrow's weather, not a question about the weather policy (ADR 066)", async () => {
    expect(asksForecast("is it gonna rain in glasgow tomorrow")).toBe(true);
    expect(asksForecast("whats the weather in welly tmrw, is it gonna be blowing a gale")).toBe(true);
    // bench/probes19: a misspelt weather is still the weather.
    expect(asksForecast("wats the wether like in galway this weekend")).toBe(true);
    expect(asksForecast("what happens if it rains on the day?")).toBe(false);
    expect(asksForecast("we arrive tomorrow, is it gonna rain? what time is check in")).toBe(false);
    expect(asksForecast("what's the weather like in lisbon in march")).toBe(false);
    const bot = await botWith([
      ["Weather", "If it rains, tours run as planned; in thunder or wind over 40 km/h we move your tour to the next free day or refund you in full."],
      ["Tours", "Kayak tours leave the Glasgow harbour at 9 am and 2 pm every day from April to October."],
    ]);
    // Answered before, from the wet-weather line: rain is weather.
    for (const q of ["is it going to rain tomorrow", "will it rain on the tour tomorrow", "whats the weather doing tomorrow"])
      expect((await retrieve(bot.ctx, bot.ref, q, { k: 1 })).answerable, q).toBe(false);
    const policy = await retrieve(bot.ctx, bot.ref, "what happens if it rains on the day of our tour?", { k: 1 });
    expect(policy.answerable).toBe(true);
    expect(policy.passages[0].text).toContain("If it rains");
  });

  it("refuses another place's opening hours, not the business's own or its parts' (ADR 073)", async () => {
    expect(openingSubject("what time does cardiff castle open")).toEqual(["cardiff", "castle"]);
    expect(openingSubject("is barton springs pool open today")).toEqual(["barton", "springs", "pool"]);
    expect(openingSubject("what time does the office open on saturday")).toEqual([]);
    expect(openingSubject("what time do you close")).toEqual([]);
    const bot = await botWith([
      ["Opening hours", "The practice is open Monday to Friday, 8 am to 6 pm, and Saturday 9 am to 1 pm. We are a short walk from Cardiff Central station."],
      ["Pool", "The hydrotherapy pool is open to patients from 9 am to 4 pm on weekdays."],
      ["Address", "Riverside Physio, 7 Bridge Street, Cardiff CF10 1AA."],
    ]);
    // Answered before from the opening hours: Cardiff and "open" are in them.
    expect((await retrieve(bot.ctx, bot.ref, "what time does cardiff castle open", { k: 1 })).answerable).toBe(false);
    for (const q of ["what time does the practice open on saturday", "when does the pool close", "is reception open on saturdays"])
      expect((await retrieve(bot.ctx, bot.ref, q, { k: 1 })).answerable, q).toBe(true);
  });

  it("refuses a recommendation of a kind of thing the knowledge never names (ADR 073)", async () => {
    expect(availabilityObject("can u recommend a good kids dentist")).toEqual(["good", "kids", "dentist"]);
    expect(availabilityObject("recommend me a good plumber in grangetown")).toEqual(["good", "plumber"]);
    const bot = await botWith([
      ["Eye tests", "An eye test costs £25 and takes 30 minutes. Children's eye tests are free."],
      ["Where", "Harrow & Lowe is an independent optician on Harrogate Road in Chapel Allerton, Leeds."],
      ["Frames", "We stock frames from Ray-Ban, Lindberg and our own range from £49."],
    ]);
    // Answered before from the optician's own address.
    expect((await retrieve(bot.ctx, bot.ref, "can you recommend a good dentist in chapel allerton", { k: 1 })).answerable).toBe(false);
    const frames = await retrieve(bot.ctx, bot.ref, "could you recommend Lindberg frames", { k: 1 });
    expect(frames, JSON.stringify({ r: frames.refusedBy, rel: frames.relevance, f: frames.floor })).toMatchObject({ answerable: true });
  });

  it("refuses a translation, writing to order and a live fact before retrieval (ADR 073)", async () => {
    const bot = await botWith([
      ["Invoices", "Invoices are available in English or German. Damage claims must be made in writing within 30 days."],
      ["Team", "Our team speaks English, Portuguese and Spanish. Our exchange desk converts euros at the day's rate."],
    ]);
    // Each was answered before from the sentence sharing "German", "writing", "Portuguese" or "euros".
    for (const q of [
      "how do you say thank you in german",
      "can u help me write a cover letter",
      "how do u say thank you in portuguese",
      "whats the exchange rate for euros today",
    ])
      expect((await retrieve(bot.ctx, bot.ref, q, { k: 1 })).answerable, q).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "are invoices available in german", { k: 1 })).answerable).toBe(true);
  });

  it("refuses paying with a means the knowledge never names, not one it names in part (ADR 050)", async () => {
    const bot = await gym();
    expect(paymentMeans("can i pay with cash at reception")).toEqual(["cash"]);
    expect(paymentMeans("can I pay in monthly instalments?")).toEqual(["monthly", "instalments"]);
    expect(paymentMeans("how do i pay")).toEqual([]);
    // Answered before (a gym probe) from the student price, which mentions the reception.
    expect((await retrieve(bot.ctx, bot.ref, "can i pay with cash at reception", { k: 1 })).answerable).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "can i pay by direct debit", { k: 1 })).answerable).toBe(true);
    expect((await retrieve(bot.ctx, bot.ref, "can i pay in monthly instalments", { k: 1 })).answerable).toBe(true);
  });

  it("a comparison, paying in bits and Scots “fur” do not make a question about something unnamed (bench/probes9)", async () => {
    const sections: [string, string][] = [
      [
        "Prices",
        "An initial assessment takes 60 minutes and costs £70. A follow-up takes 40 minutes and costs £52. A short follow-up takes 20 minutes and costs £40.",
      ],
      ["Packages", "A package of five follow-ups costs £235, so you save £25, and lasts 6 months."],
      ["Paying", "We take cards and cash. You can also pay in 3 interest-free instalments with Klarna on packages."],
      ["Opening hours", "We are open Monday to Thursday from 7:30 am to 8 pm and on Fridays from 7:30 am to 5 pm."],
    ];
    const bot = await botWith(sections);
    expect(availabilityObject("is there a shorter follow up")).toEqual(["follow"]);
    // Each was refused before: "shorter", "bits" and "fur" counted as the thing asked about.
    const shorter = await retrieve(bot.ctx, bot.ref, "is there a shorter follow up, whats it cost", { k: 3 });
    expect(shorter.answerable).toBe(true);
    expect(textOf(shorter)).toContain("£40");
    const bits = await retrieve(bot.ctx, bot.ref, "can i pay in bits with klarna", { k: 3 });
    expect(bits.answerable).toBe(true);
    expect(textOf(bits)).toContain("instalments");
    const fur = await retrieve(bot.ctx, bot.ref, "is there a package deal fur follow ups", { k: 3 });
    expect(fur.answerable).toBe(true);
    expect(textOf(fur)).toContain("£235");
    // A thing the knowledge never names is still refused.
    expect((await retrieve(bot.ctx, bot.ref, "is there a hydrotherapy pool", { k: 1 })).answerable).toBe(false);
    expect((await retrieve(bot.ctx, bot.ref, "can i pay with bitcoin", { k: 1 })).answerable).toBe(false);
  });

  it("a number counting people or giving an age weighs light: “we are 2 adults and 2 kids” (ADR 050)", async () => {
    const sections: [string, string][] = [
      ["Rooms", "We have four rooms: two doubles, a twin and a family room for up to four people. Every room has its own shower."],
      [
        "Children and pets",
        "Children of all ages are welcome. A travel cot is free on request, and children under 3 stay free. Dogs are welcome in two rooms for £15 a night.",
      ],
      ["Breakfast", "Breakfast is served from 8 am to 9.30 am in the dining room."],
      ["Arriving", "Check-in is from 3 pm to 9 pm. If you will arrive after 9 pm, we leave your key in the lockbox."],
      ["Parking", "There is free parking for three cars in front of the house."],
      ["Payment", "We take payment by card when you arrive. A deposit of one night is taken when you book."],
    ];
    const bot = await botWith(sections);
    expect(headcountNumbers("we are 2 adults and 2 kids, do you have a room for us")).toEqual(["2", "2"]);
    expect(headcountNumbers("do i pay for my 2 year old")).toEqual(["2"]);
    expect(headcountNumbers("my 2 year old dog")).toEqual(["2"]);
    expect(headcountNumbers("what is 17 times 23")).toEqual([]);
    expect(headcountNumbers("is it free for 2 years")).toEqual([]);
    // Both refused before (guest house answer set and probes): the number weighed as a word the knowledge never uses.
    const r = await retrieve(bot.ctx, bot.ref, "do i pay for my 2 year old", { k: 3 });
    expect(r.answerable).toBe(true);
    expect(textOf(r)).toContain("under 3 stay free");
    expect((await retrieve(bot.ctx, bot.ref, "we are 2 adults and 2 kids, do you have a room for us", { k: 1 })).answerable).toBe(true);
    expect((await retrieve(bot.ctx, bot.ref, "what is 17 times 23", { k: 1 })).answerable).toBe(false);
  });

  it("“10% off” is a discount: “do plan members get a discount on treatment” (ADR 050)", async () => {
    const sections: [string, string][] = [
      ["Care plan", "Our care plan costs £16.50 a month. It covers two check-ups and two hygienist visits a year, and gives 10% off other private treatment."],
      ["Opening hours", "The practice is open Monday to Thursday from 8.30 am to 6 pm and on Fridays from 8.30 am to 4 pm."],
      ["New patients", "New patients are welcome. Register online or at reception; your first examination costs £45."],
      ["Emergencies", "If you are in pain, phone us at 8.30 am and we will see you the same day."],
      ["Finding us", "The practice is at 7 Bridge Street, Cardiff. The number 9 bus stops right outside."],
      ["Fees", "A check-up costs £45 and a scale and polish £60. White fillings start at £95."],
    ];
    const bot = await botWith(sections);
    // Refused before (clinic answer set, dev half): the knowledge never writes "discount".
    const r = await retrieve(bot.ctx, bot.ref, "do plan members get a discount on treatment", { k: 2 });
    expect(r.answerable).toBe(true);
    // It clears the floor by its words (0.43 of the question before, against a floor of 0.55).
    expect(r.relevance!).toBeGreaterThanOrEqual(r.floor!);
    expect(textOf(r)).toContain("10% off");
    // A reduction the knowledge does not give is still refused.
    expect((await retrieve(bot.ctx, bot.ref, "is there a discount for students", { k: 1 })).answerable).toBe(false);
  });

  // bench/probes6 swimschool: "discount" was the thing asked about that the knowledge "never names".
  it("a discount asked about is named by “10% off”, so the availability rule does not refuse it", async () => {
    const sections: [string, string][] = [
      [
        "Fees",
        "Lessons cost A$24 each, paid by the term. Families with two or more children enrolled get 10% off the second child and every child after that.",
      ],
      ["Levels", "Tadpoles are babies with a parent in the water. Minnows are ages 3 to 5. Sharks are confident swimmers."],
      ["Make-ups", "If your child is sick, tell us before the lesson starts and you'll get a make-up lesson."],
    ];
    const bot = await botWith(sections);
    expect(availabilityObject("is there a sibling discount, got 3 kids")).toContain("discount");
    const r = await retrieve(bot.ctx, bot.ref, "is there a sibling discount, got 3 kids", { k: 3 });
    expect(r.answerable).toBe(true);
    expect(textOf(r)).toContain("10% off");
    // A group the knowledge never names is still refused.
    expect((await retrieve(bot.ctx, bot.ref, "is there a discount for pensioners", { k: 1 })).answerable).toBe(false);
  });

  it("counts a multi-word synonym written out in full as the word: wifi is Wi-Fi (ADR 046)", async () => {
    const bot = await makeBot({ sources: ["rooms"] });
    const text = `# Rooms\n## In your room\nEvery room has free Wi-Fi, a television and a kettle.\n## Breakfast\nBreakfast is served from 7.30 am.`;
    await indexChunks(bot.ctx, { ...bot.ref, sourceId: bot.sourceIds[0] }, chunkDocument({ title: "Rooms", text, format: "markdown", url: null }));
    // Before: only the phrase's head ("fi") counted, half of the question against the impersonal floor.
    const r = await retrieve(bot.ctx, bot.ref, "is there wifi", { k: 1 });
    expect(r.relevance).toBe(1);
    expect(r.answerable).toBe(true);
    expect(r.passages[0].text).toContain("Wi-Fi");
  });
});

// ADR 019: the floor's second signal. A short knowledge base about publishing a site.
const PAGES = `# Pages: hosting your site
## Commercial sites
You may host a commercial website on Pages: selling products or services from a site hosted here is allowed, provided it follows the terms of service.
## Custom domains
Point a custom domain at your site by adding a CNAME record with your DNS provider, then enter the domain in the site's settings.
## Build limits
Each site may be built at most ten times an hour, and a published site may not exceed 1 GB.
## Deleting a site
To take a site down, delete its repository or turn off publishing in the repository settings.
## Private repositories
Publishing from a private repository needs a paid plan; the published site itself is always public.
## Traffic
There is a soft bandwidth limit of 100 GB a month. Sites that exceed it get an email asking them to move.`;

describe("the floor's second signal: wording close to a chunk", () => {
  it("answers a question just short of the floor in words whose wording is close to a chunk's", async () => {
    const bot = await makeBot({ sources: ["pages"] });
    await indexChunks(bot.ctx, { ...bot.ref, sourceId: bot.sourceIds[0] }, chunkDocument({ title: "Pages", text: PAGES, format: "markdown", url: null }));
    const q = "Is it ok to run a commercial business website from pages?";
    // Refused by the lexical floor alone (business, run, ok are not the knowledge's words).
    const before = await retrieve(bot.ctx, bot.ref, q, { k: 1, tuning: { floorSimilarity: 0 } });
    expect(before.answerable).toBe(false);
    const r = await retrieve(bot.ctx, bot.ref, q, { k: 1 });
    expect(r.relevance!).toBeLessThan(r.floor!);
    expect(r.similarity!).toBeGreaterThanOrEqual(DEFAULT_TUNING.floorSimilarity);
    expect(r.answerable).toBe(true);
    expect(r.passages[0].text).toContain("commercial website");
    // Off-topic questions do not come close in wording, whatever they share.
    for (const off of ["What is the capital of France?", "How do I host a dinner party at home?", "Which website sells the cheapest flights?"]) {
      const o = await retrieve(bot.ctx, bot.ref, off, { k: 1 });
      expect(o.answerable, off).toBe(false);
    }
  });
});

// A venue's knowledge gives ranges; customers ask with their own date, count or hour (ADR 058).
const VENUE = `# Glenhaven House: weddings
## Guest numbers
There is a minimum of 80 adult guests from April to October and 50 adult guests from November to March.
The marquee seats up to 220 for dinner.
## Winter weddings
The Classic menu costs €95 per person for weddings from November to March, Sunday to Thursday.
## Bar
The residents' bar is open from 5 pm to 1 am.
## Parking
Free parking for 60 cars beside the house.`;

describe("a value the customer asks with, answered by a range", () => {
  it("a month, a weekday, a count or an hour inside the knowledge's range clears the floor", async () => {
    const bot = await makeBot({ sources: ["venue"] });
    await indexChunks(
      bot.ctx,
      { ...bot.ref, sourceId: bot.sourceIds[0] },
      chunkDocument({ title: "Glenhaven House", text: VENUE, format: "markdown", url: null }),
    );
    const august = await retrieve(bot.ctx, bot.ref, "is there a minimum number of guests for a saturday in august", { k: 1 });
    expect(august.answerable).toBe(true);
    expect(august.passages[0].text).toContain("minimum of 80");
    const winter = await retrieve(bot.ctx, bot.ref, "we are thinking of a tuesday in january, any cheaper deals for winter", { k: 1 });
    expect(winter.answerable).toBe(true);
    expect(winter.passages[0].text).toContain("€95");
    const seats = await retrieve(bot.ctx, bot.ref, "how many can u seat? we have about 200", { k: 1 });
    expect(seats.answerable).toBe(true);
    expect(seats.passages[0].text).toContain("220");
    // A sum's numbers are not a count: arithmetic stays off-topic.
    expect((await retrieve(bot.ctx, bot.ref, "what is 18% of 3000", { k: 1 })).answerable).toBe(false);
  });

  it("chat and story words weigh light or not at all: “roughly”, “yesterday”, “told”, “bro”", async () => {
    const bot = await botWith([
      ["Contact", "We reply to emails within 2 working days. For anything urgent, call 0117 930 4416 between 9 am and 5 pm."],
      ["Waitlist", "Our waitlist for new clients is currently about 6 weeks. We will email you when a slot opens."],
      ["Prices", "A small tattoo starts at $150. Large pieces are $180 an hour. A deposit of $100 secures your booking."],
      ["Aftercare", "Keep the tattoo clean and dry for two weeks. Avoid swimming and direct sun while it heals."],
    ]);
    // Before: refused (relevance 0.26 against 0.37), "bro" weighing like the waitlist asked about.
    const waitlist = await retrieve(bot.ctx, bot.ref, "how long is the waitlist for tess bro", { k: 1 });
    expect(waitlist.answerable).toBe(true);
    expect(waitlist.passages[0].text).toContain("about 6 weeks");
    expect(isLightWord("roughly") && isLightWord("yesterday") && isLightWord("told")).toBe(true);
    // "today" still counts: "can i get seen today" asks for a same-day slot.
    expect(isLightWord("today")).toBe(false);
  });

  // bench/probes15 restaurant: refused before (relevance .50 against .55), "available" weighing
  // like the thing asked about.
  it("“available” asks whether, not what: it weighs light in the floor", async () => {
    const bot = await botWith([
      ["Children and dogs", "Children are welcome at lunch and until 8 pm at dinner. We have high chairs and a baby-changing room."],
      ["Drinks", "Our wine list has 40 wines. If you bring your own bottle of wine, corkage is £15 per bottle."],
      ["Opening hours", "We are open Tuesday to Saturday for lunch from 12 noon to 2.30 pm and for dinner from 5.30 pm to 10 pm."],
      ["Parking", "There is no car park; the nearest is the Marygate car park, 5 minutes' walk away."],
    ]);
    const chair = await retrieve(bot.ctx, bot.ref, "highchair available?", { k: 1 });
    expect(chair.answerable).toBe(true);
    expect(chair.passages[0].text).toContain("high chairs");
    expect((await retrieve(bot.ctx, bot.ref, "tickets for the match available?", { k: 1 })).answerable).toBe(false);
  });

  it("an hour held by a range counts in a chunk that shares no word with the question (bench/probes3)", async () => {
    const bot = await botWith([
      ["Access", "Access to your unit: 6 am to 10 pm every day, including bank holidays, with your PIN at the gate."],
      ["Prices", "A 25 sq ft unit costs £18 a week. A 50 sq ft unit costs £29 a week. Prices include VAT."],
      ["Insurance", "Goods in store must be insured. Our cover costs £1.50 a week for every £1,000 of value."],
      ["Contact", "Call 0117 930 4416 or email store@boxsafe.example."],
    ]);
    // Before: refused, no word of it ("stuff", "11pm") being in the knowledge.
    const late = await retrieve(bot.ctx, bot.ref, "can i get to my stuff at 11pm", { k: 3 });
    expect(late.answerable).toBe(true);
    expect(textOf(late)).toContain("6 am to 10 pm");
    // The hour alone does not carry a question about something the knowledge never names.
    expect((await retrieve(bot.ctx, bot.ref, "which cinema near you shows films at 11pm", { k: 1 })).answerable).toBe(false);
  });

  it("a synonym used in its other sense does not count: “we deal with one team” is no discount (bench/probes18)", async () => {
    const sections: [string, string][] = [
      ["About us", "Brightwell Plumbing is a family business in Leeds with six engineers. We fix leaks and install boilers."],
      ["Bathrooms", "We design and fit complete bathrooms and wet rooms. We handle the plumbing, tiling and electrics, so you deal with one team."],
      ["Booking", "Book by phone or with the form on our website. Payment is due when the job is finished, by card or cash."],
      ["Boilers", "A yearly boiler service costs £89 and takes about an hour."],
      ["Finance", "Spread the cost of a new boiler over 12 months at 0% interest."],
    ];
    // Before: answered with the bathroom sentence, "deal with" standing for a deal.
    const bot = await botWith(sections);
    expect((await retrieve(bot.ctx, bot.ref, "do u give student discount", { k: 1 })).answerable).toBe(false);
    // A deal the knowledge offers still answers.
    const offers = await botWith([...sections, ["Offers", "This month's student deal: a boiler service for £69."]]);
    const offer = await retrieve(offers.ctx, offers.ref, "do u give student discount", { k: 1 });
    expect(offer.answerable).toBe(true);
    expect(offer.passages[0].text).toContain("£69");
  });

  it("“normal” names the standard thing: light in the floor only (bench/probes17)", async () => {
    const bot = await botWith([
      ["Plans", "Solo costs $9 a month. Team costs $12 per user per month. Business costs $15 per user per month."],
      ["Security", "Two-factor authentication can be turned on under Profile, Security. Business owners can require it for every member."],
      [
        "Roles and members",
        "A workspace has one owner. Admins can manage members, clients and billing. Members can track time and see their own reports only.",
      ],
      ["Data", "You can export all time entries and invoices as CSV at any time."],
    ]);
    // Before: refused, "normal" weighing like the thing asked about.
    const member = await retrieve(bot.ctx, bot.ref, "can a normal member see everybody else's hours?", { k: 1 });
    expect(member.answerable).toBe(true);
    expect(member.passages[0].text).toContain("their own reports only");
  });
});
