import { describe, expect, it } from "vitest";
import { queryTerms } from "./search";
import { formVariants, isLightWord, lexicalSlots, questionWords, spellingVariants, superlativeBases } from "./lexicon";
import { STOP_WORDS } from "./text";

// Each rule with a customer's question that the engine answered "I don't know" (or wrongly) before
// the lexicon existed (bench/answers, issue #12).
const stop = (w: string) => STOP_WORDS.has(w);
const slotOf = (question: string, word: string) => lexicalSlots(question, stop).find((s) => s.word === word || s.consumed.includes(word));
/** The words that count as the question's word (one test below adds the broader ones too). */
const alts = (question: string, word: string) => slotOf(question, word)?.alternatives ?? [];

describe("support lexicon", () => {
  it("reads a phrase with a word inside it: “send something back” is a return", () => {
    const slot = slotOf("how long do i have to send something back?", "send");
    expect(slot?.alternatives).toContain("return");
    // the phrase's own word alone is weak evidence: "send us a photo" is not about returns
    expect(slot?.phrase).toEqual(["send", "back"]);
  });

  it("money back is a refund, a weekend is Saturday and Sunday", () => {
    expect(slotOf("When will I get my money back?", "money")?.alternatives).toContain("refund");
    expect(slotOf("Do you ship at weekends?", "weekends")?.alternatives).toEqual(expect.arrayContaining(["saturday", "sunday"]));
    expect(slotOf("Do you ship at weekends?", "ship")?.alternatives).toEqual(expect.arrayContaining(["delivery", "dispatch"]));
  });

  it("England is in the United Kingdom (a broader, weaker match), Germany in the EU", () => {
    const england = slotOf("How much is delivery to England?", "england");
    expect(england?.alternatives).toEqual(expect.arrayContaining(["uk", "kingdom", "britain"]));
    expect(england?.broader).toEqual(expect.arrayContaining(["uk", "kingdom"]));
    expect(slotOf("whats the postage to germany", "germany")?.alternatives).toContain("eu");
  });

  it("chat spelling and the US", () => {
    expect(questionWords("whats ur returns policy")).toEqual(["what", "is", "your", "returns", "policy"]);
    expect(questionWords("How long does it take to arrive in the US?")).toContain("usa");
    expect(isLightWord("policy")).toBe(true);
    expect(isLightWord("3pm")).toBe(true);
    expect(isLightWord("refund")).toBe(false);
  });

  it("a question shape makes no slot: “how long” asks for a duration, it is not a topic", () => {
    expect(lexicalSlots("how long is the trial", stop).map((s) => s.word)).toEqual(["trial"]);
    expect(lexicalSlots("how quickly do you respond to complaints", stop).map((s) => s.word)).toEqual(["respond", "complaints"]);
  });

  it("British and American spellings meet", () => {
    expect(spellingVariants("personalized")).toContain("personalised");
    expect(spellingVariants("colour")).toContain("color");
    expect(spellingVariants("centre")).toContain("center");
    expect(spellingVariants("cancelled")).toContain("canceled");
  });

  it("general verbs and nouns of support: check is inspect, fix is repair, pick up is collect, a technician an engineer", () => {
    // Before: "how long after you get my return do you check it" met no word of "We inspect returned
    // items within 2 working days", and the reply quoted "check your spam folder".
    expect(slotOf("how long after you get my return do you check it", "check")?.alternatives).toContain("inspect");
    expect(slotOf("can you fix a dripping tap", "fix")?.alternatives).toContain("repair");
    expect(slotOf("can i pick up my order", "pick")?.alternatives ?? slotOf("can i pick up my order", "up")?.alternatives).toContain("collect");
    expect(slotOf("when will the technician arrive", "technician")?.alternatives).toContain("engineer");
  });

  it("a multi-word synonym is kept in full, and its head alone is marked as only a head", () => {
    const drinks = slotOf("do you have non alcoholic drinks", "alcoholic");
    expect(drinks?.synonymPhrases).toEqual(expect.arrayContaining([["alcohol", "free"]]));
    expect(drinks?.phraseHeads).toContain("drink");
    expect(slotOf("How much is delivery to England?", "england")?.phraseHeads ?? []).toEqual([]);
  });

  it("a multi-word member is searched by its head word only", () => {
    // "non alcoholic" → the knowledge's "alcohol-free": searched as "free", weakly; never "gift" + "card" for vouchers
    const drinks = slotOf("do you have non alcoholic drinks", "alcoholic");
    expect(drinks?.broader).toContain("free");
    expect(slotOf("Do you sell gift vouchers?", "vouchers")?.alternatives).not.toContain("gift");
  });

  it("words for files, messages and apps: a directory is a folder, more than one is multiple, crossed out is strikethrough", () => {
    // StackFAQ dev questions ranked the right thread below 1st or out of the top 3 before (bench:retrieval):
    // "Can I forward more than one mail in gmail?" (2nd) for "How to forward multiple emails",
    // "How can I search within a directory on gd?" (3rd) for "search files in a folder",
    // "How to make text crossed out in gmail?" (missed) for "strikethrough text in Gmail".
    const forms = (q: string) => lexicalSlots(q, stop).flatMap((s) => [s.word, ...s.alternatives]);
    expect(forms("Can I forward more than one mail in gmail?")).toContain("multiple");
    expect(forms("How can I search within a directory on gd?")).toContain("folder");
    expect(forms("How to make text crossed out in gmail?")).toContain("strikethrough");
    expect(forms("Finding the first ever mail that given person has sent to you on gmail.")).toContain("oldest");
    expect(forms("Can I somehow mask an exe file so that gmail doesn't remove it")).toContain("executable");
    // …and ranked 2nd before: "get rid of it" for "delete entries", "can undo this?" for "retrieve a
    // message I accidentally archived", "punctuation chars" for "a keyword with special characters".
    expect(forms("what are my options to get rid of it?")).toContain("delete");
    expect(forms("I archived a gmail mail by mistake, can undo this?")).toContain("retrieve");
    expect(forms("Why doesn't google work when I enter punctuation chars and such?")).toContain("characters");
    expect(forms("Getting rid of all mails in gmail quickly.")).toContain("delete");
    expect(forms("Can I have both my and my sisters dropbox account simultaneously on our family computer.")).toContain("pc");
    // "How could I save a youtube video locally?" ranked "download a YouTube video" 2nd: keeping a copy
    // on one's own machine is downloading it (a broader, weaker match).
    expect(slotOf("How could I save a youtube video locally?", "locally")?.broader).toContain("download");
    // Out of the top 3 before: "I know the exact time when I received a message, can I include this into
    // gmail search" for "search for messages on a particular date"; "in case of urgency" for "send urgent mail".
    expect(slotOf("I know the exact time when I received a message, can I include this into gmail search.", "time")?.broader).toContain("date");
    expect(forms("Why doesn't gmail allow me to assign a special tag to mails in case of urgency.")).toContain("urgent");
    // "Can I link to a specific location within a google document?" missed "create a link to a particular …".
    expect(forms("Can I link to a specific location within a google document?")).toContain("particular");
    // Porter leaves "analysis" and "analyze" apart; a deployment is hosting. Both out of the top 3 before:
    // "Does dropbox provide some kind of storage space analysis utility?" ("analyze size of files"),
    // "can I have a trello deployment locally" ("host my own instance").
    expect(forms("Does dropbox provide some kind of storage space analysis utility?")).toContain("analyze");
    expect(forms("I don't like my data being in the trello cloud, can I have a trello deployment locally.")).toContain("host");
    // Out of the top 3 before: "Sending programs over gmail." ("send a Windows executable") and "Can I use
    // conjunctions and disjunctions on search constraints" ("specify OR conditions").
    expect(forms("Sending programs over gmail.")).toContain("executable");
    expect(forms("Can I use conjunctions and disjunctions on search constraints when searching gmail?")).toContain("conditions");
    // "Finding unreplied mails in gmail." missed "search the mails without a reply".
    expect(forms("Finding unreplied mails in gmail.")).toContain("reply");
    // "who can change the billing" → "Admins can manage … billing" (local-model.test.ts has the reply).
    expect(slotOf("who can change the billing", "change")?.broader).toContain("manage");
  });

  it("words of meals and stays: dinner is an evening meal, food is meals, getting there is arriving", () => {
    // Refused before on the guest house's dev half (bench/answers/guesthouse): "do you do dinner" met no
    // word of "We do not serve evening meals"; "what time can we get there" had no slot at all;
    // "can i get gluten free food" lost the floor on "food" ("Vegetarian, vegan and gluten-free options").
    const forms = (q: string) => lexicalSlots(q, stop).flatMap((s) => [s.word, ...s.alternatives]);
    expect(forms("do you do dinner")).toContain("meals");
    expect(slotOf("do you do dinner", "dinner")?.synonymPhrases).toEqual(expect.arrayContaining([["evening", "meals"]]));
    expect(forms("what time can we get there")).toContain("arrive");
    expect(forms("can i get gluten free food")).toContain("meals");
    // Refused before (vet dev half): "can i buy my dogs tablets cheaper online" met no word of
    // "If you prefer to buy medicines elsewhere, a written prescription costs £18".
    expect(forms("can i buy my dogs tablets cheaper online")).toContain("medicines");
    // "how old" asks for an age, like "how long" for a duration: it makes no slot.
    expect(lexicalSlots("how old does my cat have to be to get spayed", stop).map((s) => s.word)).toEqual(["cat", "spayed"]);
  });

  it("one-way, weaker: sandwiches are a packed lunch, a hike a walk, on my own single, a 2 year old a child, coming is arriving", () => {
    // Refused or answered wrongly before (guest house dev half): "can you make us sandwiches for a day of
    // hiking" (packed lunch), "how much if im travelling on my own" (single occupancy), "do i pay for my 2
    // year old" (children under 3), "what happens if I cancel a week before we come" (within 14 days
    // before arrival).
    expect(slotOf("can you make us sandwiches for a day of hiking", "sandwiches")?.broader).toContain("lunch");
    expect(slotOf("can you make us sandwiches for a day of hiking", "hiking")?.broader).toContain("walk");
    expect(lexicalSlots("how much if im travelling on my own", stop).map((s) => s.word)).toContain("single");
    expect(slotOf("do i pay for my 2 year old", "year")?.broader).toContain("child");
    expect(slotOf("what happens if I cancel a week before we come", "come")?.broader).toContain("arrival");
    expect(slotOf("what happens if I cancel a week before we come", "week")?.broader).toContain("days");
    // The other way round is not implied: a walk is not a hike, a single room is not "on my own".
    expect(slotOf("is it walking distance", "walking")?.alternatives ?? []).not.toContain("hiking");
  });

  // ADR 046: probe questions (bench/probes) refused or answered wrongly before these rules.
  it("other forms stemming misses: scarf/scarves, worn/unworn (weak), not limit/unlimited", () => {
    expect(formVariants("scarf")).toContain("scarves");
    expect(formVariants("knives")).toEqual(expect.arrayContaining(["knife"]));
    const scarf = slotOf("my scarf has a hole in it what now", "scarf");
    expect(scarf?.alternatives).toContain("scarves");
    expect(slotOf("my scarf has a hole in it what now", "hole")?.alternatives).toContain("damaged");
    const worn = slotOf("can i give back a jumper i've worn", "worn");
    expect(worn?.alternatives).toContain("unworn");
    expect(worn?.broader).toContain("unworn");
    expect(formVariants("limit")).not.toContain("unlimit");
  });

  // bench/probes5: short forms a customer writes, read the way the words around them mean.
  it("short forms: days, per person, and yr/min read by the word before (a unit after a number)", () => {
    expect(questionWords("sat hours?")).toEqual(["saturday", "hours"]);
    expect(questionWords("hen do for 10 girls, how much pp")).toEqual(expect.arrayContaining(["per", "person"]));
    expect(questionWords("can my 6 yr old play")).toContain("year");
    expect(questionWords("getting married next yr")).toContain("year");
    expect(questionWords("whats yr address")).toContain("your");
    expect(questionWords("is there a min spend for weddings")).toContain("minimum");
    expect(questionWords("its a 10 min walk")).toContain("minutes");
    expect(questionWords("we've got a 3 bed house")).toContain("bedroom");
    expect(questionWords("is there a double bed")).toContain("bed");
  });

  it("everyday words for the owner's terms: clues are hints, a coffin a casket, insurance the cover, a band the music", () => {
    expect(slotOf("do we get clues if we get stuck", "clues")?.alternatives).toContain("hints");
    expect(slotOf("flowers for on top of the coffin", "coffin")?.alternatives).toContain("casket");
    expect(slotOf("how much is ur cheapest bunch", "bunch")?.alternatives).toContain("bouquet");
    expect(slotOf("is there insurance included", "insurance")?.broader).toContain("coverage");
    expect(slotOf("how late can the band play", "band")?.broader).toContain("music");
    expect(slotOf("what if shes not home when u turn up", "turn")?.alternatives).toContain("arrive");
    expect(slotOf("can ur crew box everything up for us", "box")?.alternatives).toContain("packing");
    expect(slotOf("how far ahead can i book", "ahead")?.alternatives).toContain("advance");
    expect(slotOf("can we bring a few bottles of prosecco", "prosecco")?.broader).toContain("alcohol");
  });

  it("“how long till” is a question shape; an animal is a pet or a farm animal; a colour is a colour", () => {
    expect(lexicalSlots("how long till it gets to germany", stop).map((s) => s.word)).toEqual(["germany"]);
    expect(slotOf("can i bring my cat", "cat")?.broader).toContain("pets");
    expect(slotOf("do you treat guinea pigs", "pigs")?.alternatives).toContain("pets");
    expect(slotOf("do you see cows", "cows")?.alternatives).toContain("animals");
    expect(slotOf("can you make a jumper in green", "green")?.broader).toContain("colours");
    expect(slotOf("if i switch to a cheaper plan when does it start", "switch")?.alternatives).toContain("change");
  });

  it("a food is an allergen, sitting is seating, landing is arriving (ADR 046)", () => {
    expect(slotOf("my son is allergic to nuts", "nuts")?.broader).toContain("allergies");
    expect(slotOf("can we sit outside in the garden", "sit")?.alternatives).toContain("seats");
    expect(slotOf("we land late, around 11pm, is that ok", "land")?.alternatives).toContain("arrive");
  });

  it("keeps a negation: “can't make it” is missing an appointment, not making one (ADR 046)", () => {
    expect(questionWords("what if i can't make it to my appointment")).toContain("cannot");
    expect(questionWords("I don't know")).toEqual(["i", "do", "not", "know"]);
    expect(slotOf("what if i can't make it to my appointment", "make")?.alternatives).toEqual(expect.arrayContaining(["miss", "attend"]));
  });

  it("“what do I get” asks what is included; terrified is nervous; “how quick” is a question shape (ADR 046)", () => {
    const get = lexicalSlots("what do i get with the monthly plan", stop)[0];
    expect([get.word, ...get.alternatives]).toEqual(expect.arrayContaining(["include", "covers"]));
    expect(slotOf("i'm terrified of the dentist", "terrified")?.alternatives).toContain("nervous");
    // Money given back is a refund, goods given back a return.
    expect(slotOf("do you give back the shipping fee when i return", "give")?.alternatives).toEqual(expect.arrayContaining(["return", "refund"]));
    expect(lexicalSlots("how quick can someone get to me in an emergency", stop).map((s) => s.word)).not.toContain("quick");
  });
  // ADR 050. Each question was answered wrongly or refused by the engine on the gym probes
  // (bench/probes/gym), written before the engine was run on them.
  it("reads a superlative as its adjective: the latest is late, the cheapest cheap (ADR 050)", () => {
    expect(superlativeBases("cheapest")).toContain("cheap");
    expect(superlativeBases("latest")).toContain("late");
    expect(superlativeBases("biggest")).toEqual(["big"]);
    expect(superlativeBases("earliest")).toEqual(["early"]);
    // -est words that are not superlatives keep their own meaning.
    for (const w of ["guest", "guests", "request", "interest", "harvest", "best", "test"]) expect(superlativeBases(w), w).toEqual([]);
    // Before: "latest" was a word of its own; now it is "late" with the lexicon's words for late.
    const latest = lexicalSlots("whats the latest i can come in on a weekday", stop).find((s) => s.word === "late");
    expect(latest?.alternatives).toEqual(expect.arrayContaining(["later"]));
    expect(formVariants("cheapest")).toContain("cheap");
  });

  it("snapped, chipped and scratched things are damaged (bench/probes4, probes11)", () => {
    // Before: "the sofa leg was snapped when it arrived yesterday" was refused, and "ur cleaner chipped
    // a vase" answered from the rebooking policy, not "if anything is broken during a clean".
    expect(alts("the sofa leg was snapped when it arrived yesterday, what do i do now", "snapped")).toContain("damaged");
    expect(alts("ur cleaner chipped a vase last week, what do i do", "chipped")).toContain("broken");
    expect(alts("the table came scratched", "scratched")).toContain("damaged");
  });

  it("a holiday by name is a bank holiday: Easter Monday (ADR 050)", () => {
    // Before: "is the gym open on easter monday" quoted the weekday hours, not the bank holiday ones.
    const easter = lexicalSlots("is the gym open on easter monday", stop).find((s) => s.phrase?.includes("easter"));
    expect(easter?.alternatives).toContain("holiday");
    expect(easter?.broader).toContain("holiday");
    // Other countries' holidays by name (bench/probes7 laundry: "my pickup is booked for victoria day monday").
    for (const q of ["my pickup is booked for victoria day monday", "are you open on anzac day", "open on thanksgiving?"]) {
      const holiday = lexicalSlots(q, stop).find((s) => s.alternatives.includes("holiday"));
      expect(holiday?.broader, q).toContain("holiday");
    }
    // Irish and Texan second person is "you": a stop word, not something asked about.
    expect(questionWords("do ye deliver, do yall groom cats")).toEqual(["do", "you", "deliver", "do", "you", "all", "groom", "cats"]);
    // New Year keeps its own words (the closing dates in December and January).
    expect(slotOf("are you open on new years day", "years")?.alternatives ?? slotOf("are you open on new years day", "new")?.alternatives).toEqual(
      expect.arrayContaining(["december", "january"]),
    );
  });

  it("Scots, Australian and British customers' words: fae, toon, cab, moggies, vaccies, snipped, kelpie, stairs, midgies", () => {
    // bench/probes8: words the lexicon lacked (fae, toon, cab, moggies, vaccies, snipped, kelpie made questions refused).
    expect(questionWords("how far are yous fae inverness toon centre")).toEqual(["how", "far", "are", "you", "from", "inverness", "town", "centre"]);
    expect(slotOf("roughly how much is a cab from the airport", "cab")?.alternatives).toContain("taxi");
    expect(slotOf("wanna get my 2 moggies their yearly vaccies", "moggies")?.alternatives).toContain("cat");
    expect(slotOf("wanna get my 2 moggies their yearly vaccies", "vaccies")?.alternatives).toContain("vaccination");
    expect(slotOf("how much to get my boy cat snipped", "snipped")?.broader).toContain("neuter");
    expect(slotOf("my kelpie needs desexing", "kelpie")?.broader).toContain("dog");
    expect(slotOf("my mum cant manage stairs at all", "stairs")?.broader).toContain("lift");
    expect(slotOf("heard the midgies are murder in summer", "midgies")?.alternatives).toContain("midge");
  });
  it("Glaswegian spelling reads as English: dae ah need tae see ma gp, oot tae the hoose; wi fi stays wifi", () => {
    // bench/probes9: a Glasgow clinic's questions were refused for these words.
    expect(questionWords("dae ah need tae see ma gp first")).toEqual(["do", "i", "need", "to", "see", "my", "gp", "first"]);
    expect(questionWords("cannae drive, dae yous come oot tae the hoose")).toEqual(["cannot", "drive", "do", "you", "come", "out", "to", "the", "house"]);
    expect(questionWords("can ma maw come in wi me, whit's yer number")).toEqual(["can", "my", "mum", "come", "in", "with", "me", "what", "your", "number"]);
    expect(questionWords("do you have wi-fi")).toEqual(["do", "you", "have", "wi", "fi"]);
    // "fur" is "for" unless a determiner, a pet or a word for a coat comes before it.
    expect(questionWords("how many sessions fur ma back")).toEqual(["how", "many", "sessions", "for", "my", "back"]);
    expect(questionWords("his fur is matted, cat fur everywhere")).toEqual(["his", "fur", "is", "matted", "cat", "fur", "everywhere"]);
    // Shortened months and "still good" (a voucher's expiry).
    expect(slotOf("need to come in on the 3rd of jan", "jan")?.alternatives).toContain("january");
    expect(slotOf("found a gift card from 2 years ago, still good??", "still")?.alternatives).toContain("expire");
    // "n" is "and", except in "n ireland"; the first appointment is the initial one; a mum is family; the house is home.
    expect(questionWords("how much is it n how long")).toEqual(["how", "much", "is", "it", "and", "how", "long"]);
    expect(questionWords("do you post to n ireland")).toEqual(["do", "you", "post", "to", "n", "ireland"]);
    expect(slotOf("how much is the first appointment", "first")?.alternatives).toContain("initial");
    expect(slotOf("can my mum come in the room with me", "mum")?.broader).toContain("family");
    expect(slotOf("do you come out to the house", "house")?.broader).toContain("home");
    expect(slotOf("do you have wi fi", "wi")?.alternatives ?? slotOf("do you have wi fi", "fi")?.alternatives).toContain("wifi");
  });
  it("“up to” is a maximum only before an amount; hooking up and syncing are integrations (bench/probes8)", () => {
    expect(slotOf("can i hook it up to zapier on solo", "maximum")).toBeUndefined();
    expect(slotOf("can i hook it up to zapier on solo", "hook")?.alternatives).toContain("integration");
    expect(slotOf("can the room take up to 5 people", "maximum")).toBeDefined();
    expect(slotOf("up to how many guests", "maximum")).toBeDefined();
    expect(slotOf("does it sync with xero", "sync")?.alternatives).toContain("integrations");
  });
  // Second probe batch (bench/probes2, ADR 050's status): words customers use that the knowledge never does.
  it("shut is closing time, brekkie is breakfast, an op is an operation, a jab a vaccination, a chip a microchip", () => {
    expect(slotOf("wot time do u shut on a saturday", "shut")?.alternatives).toContain("close");
    expect(slotOf("what time is brekkie", "brekkie")?.alternatives).toContain("breakfast");
    expect(slotOf("can my cat have a drink before her op", "op")?.alternatives).toContain("operation");
    expect(slotOf("when does my puppy need the 2nd jab", "jab")?.alternatives).toContain("vaccinations");
    expect(slotOf("when does my puppy need the 2nd jab", "2nd")?.broader).toContain("second");
    expect(slotOf("does my dog legally need a chip", "chip")?.alternatives).toContain("microchipped");
    expect(slotOf("does my dog legally need a chip", "legally")?.alternatives).toContain("law");
    expect(slotOf("what if my cat gets poorly in the night", "poorly")?.alternatives).toContain("ill");
  });

  it("a breed is a dog, a tortoise a reptile, a pony a horse (broader, weaker)", () => {
    expect(slotOf("can i bring my labrador", "labrador")?.broader).toContain("dog");
    expect(slotOf("can you look at my tortoise", "tortoise")?.broader).toEqual(expect.arrayContaining(["reptiles", "pets"]));
    expect(slotOf("do you treat ponies", "ponies")?.broader).toContain("horses");
  });

  it("software and plan words: SSO, a spreadsheet, joining, the smallest team, a change that kicks in", () => {
    expect(slotOf("which plan has SSO", "sso")?.alternatives).toContain("sign");
    expect(slotOf("can i download my timesheets as a spreadsheet", "spreadsheet")?.broader).toEqual(expect.arrayContaining(["excel", "csv"]));
    expect(slotOf("how do i join the practice", "join")?.broader).toContain("registration");
    expect(slotOf("whats the smallest team size", "smallest")?.alternatives).toContain("minimum");
    expect(slotOf("when does a downgrade kick in", "kick")?.alternatives).toContain("effect");
    expect(slotOf("can i charge my tesla", "tesla")?.broader).toContain("cars");
    expect(slotOf("do members get money off food", "money")?.alternatives).toContain("discount");
    expect(slotOf("how much is it for just me", "single")?.broader).toContain("solo");
    // "£16 a month" writes "monthly" in full; a member's function words are kept when it has one content word
    expect(slotOf("is there a monthly plan for pets", "monthly")?.synonymPhrases).toContainEqual(["a", "month"]);
    expect(slotOf("how long is an appointment with the vet", "appointment")?.alternatives).toContain("consultation");
    // every other word of "what time do we have to be out by" is a stop word: without the phrase there is nothing to look for
    expect(lexicalSlots("what time do we have to be out by", stop).map((s) => s.broader ?? [])).toEqual([["check"]]);
  });
  // Third probe batch (bench/probes3: salon, driving school, self storage, garage), written before the
  // engine ran on them; each question was refused or answered wrongly before.
  it("who a service is for: mens is gents, a lady is female, pensioners are 65 and over", () => {
    expect(slotOf("how much for a mens haircut", "mens")?.alternatives).toContain("gents");
    expect(slotOf("can i have a lady instructor", "lady")?.alternatives).toContain("female");
    expect(slotOf("is there a pensioners discount and which days", "pensioners")?.synonymPhrases).toContainEqual(["65", "and", "over"]);
  });

  it("car words: aircon, an auto, a loan car; deals are offers but dealing with is not", () => {
    expect(slotOf("aircon not cold, how much to regas", "aircon")?.alternatives).toContain("conditioning");
    expect(slotOf("is the auto car a hybrid", "auto")?.broader).toContain("automatics");
    expect(slotOf("do you do loan cars", "cars")?.broader).toContain("courtesy");
    expect(slotOf("any deals on at the moment", "deals")?.broader).toContain("offer");
    expect(slotOf("can you deal with my insurance company", "deal")?.alternatives ?? []).not.toContain("offer");
  });

  it("the biggest is large, the smallest small; hw is how; a thing done is not the thing", () => {
    expect(slotOf("whats the biggest unit you have", "biggest")?.broader).toContain("large");
    expect(slotOf("how much is the smallest unit", "smallest")?.broader).toContain("small");
    expect(questionWords("hw much is a skin fade")).toEqual(["how", "much", "is", "a", "skin", "fade"]);
    expect(isLightWord("done")).toBe(true);
    // Before: "what happens to my things if i stop paying" quoted the payment methods, not "If rent is unpaid…".
    expect(slotOf("what happens to my things if i stop paying", "paying")?.alternatives).toContain("unpaid");
  });

  it("drinks by name, getting married, the subway and coming to see the place (probes4)", () => {
    const altsOrBroader = (q: string, w: string) => [...alts(q, w), ...(slotOf(q, w)?.broader ?? [])];
    expect(altsOrBroader("can we bring a few bottles of whiskey", "whiskey")).toContain("spirits");
    expect(altsOrBroader("hoping to get married outside", "married")).toContain("wedding");
    expect(altsOrBroader("near the subway?", "subway")).toContain("station");
    expect(altsOrBroader("can we come see the place on a saturday", "come")).toContain("viewing");
    expect(altsOrBroader("we have a staffy", "staffy")).toContain("dog");
  });

  it("the sixth blind batch's words (bench/probes6): each question was refused or answered wrongly before", () => {
    expect(questionWords("any lessons sat arvo?")).toContain("afternoon");
    // "sun" is Sunday after another day or "on", the sun otherwise.
    expect(questionWords("whats ur hours on the weekend, sat and sun")).toContain("sunday");
    expect(questionWords("are u open fri to sun")).toContain("sunday");
    expect(questionWords("is the pool in the sun")).not.toContain("sunday");
    expect(alts("does she need flea meds", "medication")).toContain("preventive");
    expect(alts("what shots does my dog need for daycare", "shots")).toContain("vaccination");
    expect(alts("do u take cash at the front desk", "front")).toContain("reception");
    expect(alts("posters for outside, will they survive the rain?", "outside")).toContain("outdoor");
    expect(alts("do u have packages for daycare? how long do they last", "packages")).toContain("pack");
    expect(alts("going to banff in january do the cars have snow tires", "snow")).toContain("winter");
    expect(alts("broke down near canmore at night who do i call", "broke")).toContain("roadside");
    expect(alts("i have a frenchie, will he be outside in the heat", "heat")).toContain("hot");
    expect(alts("how warm is the water?", "warm")).toEqual(expect.arrayContaining(["heated", "temperature"]));
    expect(alts("my son had a tummy bug yesterday, ok to come today?", "tummy")).toContain("diarrhoea");
    expect(alts("the colours came out darker than on my laptop, will u reprint", "laptop")).toContain("screen");
    expect(alts("can my sister use my leftover daycare days", "sister")).toContain("family");
  });

  it("the tenth blind batch's words (bench/probes10): each question was refused or answered wrongly before", () => {
    // Porter stems bus to "bu" and buses to "buse": the other form is an alternative.
    expect(alts("which bus do i get to yours from town", "bus")).toContain("buses");
    expect(formVariants("bonuses")).toEqual(["bonus"]);
    expect(formVariants("famous")).toEqual([]);
    // One word for the knowledge's two ("check-out", "pick up").
    expect(alts("checkout time??", "checkout")).toContain("check");
    expect(alts("what time can i pick up on a saturday", "pick")).toContain("pickup");
    expect(alts("is it ok to have a cigarette on the balcony?", "cigarette")).toContain("smoke");
    // "gf" is gluten free, unless it is someone's.
    expect(questionWords("coeliac here - any gf options at breakfast?")).toEqual(expect.arrayContaining(["gluten", "free"]));
    expect(questionWords("me and my gf")).toEqual(["me", "and", "my", "girlfriend"]);
    // "anywhere to park" asks about parking; "anywhere" weighs like "somewhere" and "anything".
    expect(isLightWord("anywhere")).toBe(true);
    // A named currency is one of the "currencies"; a CPA is an accountant; astigmatism needs toric lenses.
    expect(alts("got a client in london, can i invoice in gbp", "gbp")).toContain("currencies");
    expect(alts("my cpa wants to look at my books", "cpa")).toContain("accountant");
    expect(alts("do u do contacts for astigmatism", "astigmatism")).toContain("toric");
    // Mailing something back is returning it; pushing a date back is postponing it.
    expect(alts("do i have to mail back the cracked lid?", "mail")).toContain("return");
    expect(alts("can i push back the delivery", "push")).toContain("postpone");
  });
  it("the eleventh blind batch's words (bench/probes11, with two of probes10's and one of probes4's): each question was refused or answered wrongly before", () => {
    expect(alts("disposable bbq ok on the grass?", "bbq")).toContain("barbecue");
    expect(alts("how much to use the washer", "washer")).toContain("machine");
    expect(alts("can we have a wee campfire next to the tent?", "campfire")).toContain("fire");
    expect(alts("do u sell firewood", "firewood")).toContain("logs");
    expect(alts("what do i do with all the cardboard after?", "cardboard")).toContain("packaging");
    expect(alts("can i get some swatches", "swatches")).toContain("samples");
    expect(alts("do i need to pay to have the sofa put together?", "put")).toContain("assembly");
    // "the cheapest plan" asks for the price list; specs are glasses.
    expect(alts("how much is ur cheapest plan", "cheapest")).toContain("price");
    expect(alts("can i pay in instalments? specs are coming to about £220", "specs")).toContain("glasses");
    // Rain is weather ("wet-weather backup"); "too old" asks about an age limit.
    expect(alts("what if it lashes rain on the day of the outdoor ceremony", "rain")).toContain("weather");
    expect(alts("is 60 too old to start cello lol", "old")).toContain("age");
    // Lengths of time as customers say them and as price lists write them.
    expect(alts("how much for a half hour piano lesson", "half")).toContain("minutes");
    expect(alts("hour long singing lesson, price?", "hour")).toContain("minutes");
    expect(slotOf("how much for a half hour piano lesson", "half")?.synonymPhrases).toContainEqual(["30", "minutes"]);
    expect(slotOf("hour long singing lesson, price?", "hour")?.synonymPhrases).toContainEqual(["60", "minutes"]);
  });
  it("the twelfth blind batch's words (bench/probes12): each question was refused or answered wrongly before", () => {
    // A meat by name is meat ("all meat is halal"); a kind or brand of medicine is medicine.
    expect(alts("we are muslim, the chicken and beef is halal or not", "beef")).toContain("meat");
    expect(alts("can teacher give my son his cough syrup?", "cough")).toContain("medicine");
    expect(alts("she had fever last night, now ok after panadol", "panadol")).toContain("medicine");
    // Blood sugar is glucose; pillows and blankets are bedding; a language is named by its name.
    expect(alts("how much to check my sugar levels", "sugar")).toContain("glucose");
    expect(alts("need to bring pillow and blanket for nap time or not", "pillow")).toContain("bedsheets");
    expect(alts("which language the teachers use in class", "language")).toContain("mandarin");
    // "In the week" is Monday to Friday; Singapore's "blk" is a block; "arvie" is the afternoon.
    expect(alts("wat time do u close in the week?", "week")).toContain("weekdays");
    expect(questionWords("where is the centre exactly, which blk?")).toContain("block");
    expect(questionWords("can u drop off my meds on sunday arvie?")).toContain("afternoon");
    // "More expensive" asks what it costs; the delivery "guy" is not what a question is about.
    expect(alts("there is a big oak shading half our roof, does that make it more expensive?", "expensive")).toContain("price");
    expect(isLightWord("guy")).toBe(true);
  });

  // bench/probes, probes4, probes13: each was refused before (gym-a11, tutoring-a22, ferry-a15,
  // pestcontrol-a04, -a24) or answered wrongly (pestcontrol-a03).
  it("a sign up fee is a joining fee, HST a tax, a pushbike a bike, a skeeter a mosquito, the tech a technician", () => {
    const fee = slotOf("is there a sign up fee", "fee");
    expect(fee?.synonymPhrases?.map((p) => p.join(" "))).toContain("joining fee");
    expect(alts("do prices include tax", "tax")).toContain("hst");
    expect(alts("bringing the pushbike over, how much extra", "pushbike")).toContain("bike");
    expect(alts("skeeters are eatin us alive out back", "skeeters")).toContain("mosquito");
    // One way and weaker: "tech support" is not an engineer, but the tech who comes out is.
    expect(slotOf("what do i need to do before the tech gets here", "tech")?.broader).toContain("technician");
    expect(alts("when will the technician arrive", "technician")).not.toContain("tech");
  });

  // bench/probes4 cleaning-a14 (refused before) and probes8 vetclinic-a06 (answered wrongly before).
  it("sheets are bedding, a normal consult the standard one, somewhere to eat a restaurant (broader, weaker)", () => {
    expect(slotOf("will the cleaner change the sheets", "sheets")?.broader).toContain("bedding");
    expect(slotOf("how much for a normal consult", "normal")?.broader).toEqual(expect.arrayContaining(["standard", "regular"]));
    expect(alts("is the standard plan enough", "standard")).not.toContain("normal");
    expect(slotOf("is there somewhere to eat dinner nearby", "eat")?.broader).toContain("restaurants");
  });

  // Each was refused (cleaning, removals, coffee) or answered wrongly (tutoring, coworking, bnb) before.
  it("getting into the room is checking in, on hold is a pause, testing it out a trial, driving out a travel fee", () => {
    expect(slotOf("wat time can we get into the room", "room")?.broader).toContain("checkin");
    expect(alts("can i put it on hold for a couple months", "hold")).toContain("pause");
    expect(alts("can i hold a date for us", "hold")).not.toContain("pause");
    expect(alts("can i test it out before i sign up for a month?", "test")).toContain("trial");
    expect(alts("is there an eye test", "test")).not.toContain("trial");
    expect(slotOf("do you charge for driving out to my place?", "driving")?.broader).toContain("travel");
    expect(slotOf("how much to add my buddy as second driver", "driver")?.synonymPhrases?.map((p) => p.join(" "))).toContain("additional driver");
    expect(alts("any extra charges", "extra")).toContain("additional");
    expect(slotOf("just a one way please, how much is that", "way")?.broader).toContain("single");
  });

  // Each was refused before (gym, shop, tutoring ×2) or answered wrongly (guesthouse).
  it("arriving is checking in, a PT a personal trainer, little balls bobbles, a police check a background check, updates reports", () => {
    expect(slotOf("what time can we get there", "arrive")?.broader).toContain("checkin");
    expect(slotOf("how much does a PT cost", "pt")?.synonymPhrases?.map((p) => p.join(" "))).toContain("personal trainer");
    expect(alts("my cardigan is getting little balls on it", "balls")).toContain("pilling");
    expect(slotOf("are the tutors police checked", "checked")?.broader).toContain("dbs");
    // "background checked" is already what the knowledge would say: no wider words for it.
    expect(slotOf("are your movers background checked?", "checked")?.broader ?? []).not.toContain("dbs");
    expect(slotOf("do parents get updates on how my kid is doing", "updates")?.broader).toContain("report");
    expect(slotOf("can i cycle there and lock my bike", "bike")?.broader).toContain("rack");
  });

  // Each was refused (cakes, laundry, pcrepair) or answered wrongly (phonerepair) before.
  it("real flowers are fresh, fragrance free is unscented, something spilt a stain or liquid damage, windy is wind", () => {
    expect(slotOf("real flowers on top, how much??", "flowers")?.synonymPhrases?.map((p) => p.join(" "))).toContain("fresh flowers");
    expect(slotOf("can u use a fragrance free soap", "fragrance")?.alternatives).toContain("unscented");
    expect(slotOf("chai spilled on keyboard", "spilled")?.broader).toEqual(expect.arrayContaining(["stain", "liquid"]));
    expect(alts("what happens if it gets hella windy out there", "windy")).toContain("wind");
  });

  // Each was refused before (laundry, campsite, furniture).
  it("a promo goes with a code, a stag do is a group and the lads adults, building a bed is assembling it (broader, weaker)", () => {
    expect(slotOf("first time ordering, any promo for new ppl?", "promo")?.broader).toContain("code");
    expect(slotOf("its a stag, 6 lads and 2 tents, that alright?", "stag")?.broader).toContain("group");
    expect(slotOf("its a stag, 6 lads and 2 tents, that alright?", "lads")?.broader).toContain("adults");
    // "party" stays the knowledge's own word ("bring prosecco for the hen party" ← the party room).
    expect(slotOf("can we bring a few bottles of prosecco for the hen party", "party")?.broader ?? []).not.toContain("group");
    expect(slotOf("in derry, can ye build the bed when ye drop it off", "build")?.broader).toContain("assemble");
    expect(slotOf("can u mail it to my son", "mail")?.broader).toContain("post");
    expect(alts("can i get fabric swatches", "swatches")).toContain("samples");
  });

  // Each was refused before (probes guesthouse, probes5 coworking, probes13 pest control, tattoo, probes4 venue, probes8 b&b).
  it("a dedicated desk is a fixed one, a smell an odour, a wife expecting pregnant; a reply is someone getting back to you", () => {
    expect(slotOf("whats the price for a dedicated desk thats just mine", "desk")?.synonymPhrases).toContainEqual(["fixed", "desk"]);
    expect(alts("my wife is expecting and the smell makes her sick", "smell")).toContain("odor");
    expect(slotOf("my wife is expecting and the smell makes her sick", "expecting")?.broader).toContain("pregnant");
    expect(alts("sent the form thru on monday, how long til someone gets back to me", "back")).toContain("reply");
  });

  it("nearby is a short walk, a heads-up is a text on the way, speed is bandwidth, thickness is gsm (broader, weaker)", () => {
    expect(slotOf("is there somewhere to eat dinner nearby", "nearby")?.broader).toContain("walk");
    expect(slotOf("will the tech give me a heads up before he shows up", "heads")?.broader).toContain("notice");
    expect(slotOf("wifi speed?", "speed")?.broader).toContain("gbit");
    expect(slotOf("wifi speed?", "wifi")).toBeDefined();
    expect(slotOf("whats the card thickness", "thickness")?.broader).toContain("gsm");
    expect(slotOf("can u hold a date for us while we think about it", "date")?.broader).toContain("held");
    expect(slotOf("is gst on top or included", "top")?.broader).toContain("include");
    expect(slotOf("latest we can stay on the last morning?", "morning")?.broader).toContain("checkout");
    // "nearest" is not read as a phrase "near by" (bench/probes5: "nearest ubahn?").
    expect(slotOf("nearest ubahn?", "ubahn")).toBeDefined();
  });

  // Each was answered without its fact before (probes13 pest control and PC repair, probes11 campsite).
  it("coming to look at a house is an inspection, checking a laptop a diagnosis, a third person an extra adult; a greeting weighs light", () => {
    expect(slotOf("do yall charge to come look at the house first", "come")?.broader).toContain("inspection");
    expect(alts("hello sir what is the charges for checking my laptop", "checking")).toContain("diagnosis");
    expect(slotOf("whats the charge for the third person", "person")?.broader).toContain("adult");
    expect(isLightWord("sir")).toBe(true);
    expect(isLightWord("hello")).toBe(true);
    // Refused before (probes3, probes4, probes7, probes8): a breed is a dog, an original part a genuine
    // one, a tax-free bike scheme the cycle to work scheme; shampoo is a product, a free version a
    // free plan, taking a cut a fee.
    expect(alts("can we bring our springer spaniel?", "springer")).toContain("dog");
    expect(alts("can u do an original apple screen", "original")).toContain("genuine");
    expect(alts("can i use my cycle2work certificate to pay for a service", "cycle2work")).toContain("cyclescheme");
    expect(slotOf("can i bring back shampoo i bought", "shampoo")?.broader).toContain("products");
    expect(slotOf("is there a free version? whats the catch", "version")?.broader).toContain("plan");
    expect(slotOf("do u guys take a cut when clients pay online?", "cut")?.broader).toContain("fee");
    expect(slotOf("how much for a cut and blow dry", "cut")?.broader ?? []).not.toContain("fee");
    // Answered without the fact before (probes4, probes5, probes7, probes10): taking payment is charging,
    // a zoom call needs a phone booth, red wine is a stain, a driving licence test the DVLA standard.
    expect(slotOf("when do u take payment", "payment")?.broader).toContain("charge");
    expect(slotOf("is there somewhere private i can jump on a zoom call", "call")?.broader).toContain("booth");
    expect(slotOf("red wine on my dress, will it come out", "wine")?.broader).toContain("stain");
    expect(slotOf("do i need a separate test for me driving licence", "licence")?.broader).toContain("dvla");
    expect(questionWords("what happens if it gets hella windy")).toContain("very");
    expect(slotOf("can we dump our cases after checkout", "dump")?.broader).toContain("leave");
    // Refused before (probes6 swim school): a tummy bug is being sick; make-ups "must be used within" a term.
    expect(slotOf("my son had a tummy bug yesterday, ok to come today?", "bug")?.broader).toContain("sick");
    expect(slotOf("do make ups expire?", "expire")?.synonymPhrases).toContainEqual(["used", "within"]);
  });

  it("electricity is power, and a unit's plural as customers write it is the unit", () => {
    // bench/probes12: the chunk with "the power is switched off" rose from .67 to .95 relevance.
    expect(alts("will we be without electricity on the installation day?", "electricity")).toContain("power");
    // bench/probes6: "how many kms do i get per day" → "250 km per day" (answered wrongly before).
    expect(questionWords("how many kms do i get per day with a car")).toContain("km");
    expect(questionWords("can i check in a 25 kgs bag")).toContain("kg");
  });
  // bench/probes14 (fresh questions on the answer sets' knowledge): each was refused before.
  it("a plumber is plumbing, a sparky electrics, urs yours, the dug a dog, a first time a new patient, hourly an hour", () => {
    expect(slotOf("whats ur hourly rate for a plumber", "plumber")?.broader).toContain("plumbing");
    expect(slotOf("whats ur hourly rate for a plumber", "hourly")?.alternatives).toContain("hour");
    expect(slotOf("a separate tiler and sparky as well", "sparky")?.broader).toContain("electrics");
    expect(slotOf("a separate tiler and sparky as well", "tiler")?.broader).toContain("tiling");
    expect(questionWords("is there anywhere to park at urs")).toContain("yours");
    expect(questionWords("can we bring the dug? hes a wee westie")).toContain("dog");
    expect(questionWords("we dug a hole")).toContain("dug");
    expect(slotOf("first time coming to yous next week", "first")?.broader).toContain("patients");
    expect(alts("how do i hand over ownership to my colleague", "hand")).toContain("transfer");
    expect(slotOf("do i have to get rid of it meself", "rid")?.broader).toContain("recycle");
    expect(slotOf("is there parking and do i pay for it", "pay")?.broader).toContain("free");
    expect(slotOf("im between a medium and a large", "medium")?.broader).toContain("size");
    expect(slotOf("is it upstairs", "upstairs")?.broader).toContain("floor");
    expect(slotOf("do you do local ale", "ale")?.broader).toContain("beer");
    expect(alts("new cardigan has little fluffy balls on it", "fluffy")).toContain("pilling");
  });
  // bench/probes15: each was refused before.
  it("a street or a sat nav asks for the address, New Zealand is NZ, eating a meal, a clinic a practice", () => {
    expect(slotOf("where exactly are you? what street", "street")?.broader).toContain("lane");
    expect(questionWords("whats the address for my sat nav pls")).toContain("sat");
    expect(questionWords("open sat?")).toContain("saturday");
    expect(slotOf("whats the address for my sat nav pls", "nav")?.broader).toContain("road");
    expect(alts("my cousin is in auckland nz, how long will it take", "nz")).toContain("zealand");
    expect(slotOf("something for her to eat in the morning", "eat")?.broader).toContain("breakfast");
    expect(slotOf("is there parking at the clinic", "clinic")?.broader).toContain("practice");
  });
  // bench/probes16 (dictated and one-handed questions): each was refused before.
  it("spoken fillers and numbers said as words weigh nothing or light; a skip takes the old one away, a change of mind is a return", () => {
    expect(queryTerms("um whats the actual difference between team and business").map((q) => q.word)).not.toContain("um");
    expect(isLightWord("ten") && isLightWord("grand") && isLightWord("worth") && isLightWord("actual")).toBe(true);
    expect(slotOf("whats happens to our old boiler, do i need to hire a skip", "skip")?.broader).toContain("dispose");
    expect(alts("how long have i got to return something i changed my mind about", "changed")).toContain("unwanted");
    expect(slotOf("how long will we be without a bathroom if we get it redone", "redone")?.broader).toContain("fit");
    expect(alts("whats the price for one of the rooms looking out at the water", "looking")).toContain("view");
    expect(slotOf("rooms looking out at the water", "water")?.broader).toContain("sea");
    expect(slotOf("cycling round the island", "cycling")?.broader).toContain("bikes");
    expect(slotOf("do we just lose the money", "money")?.broader).toContain("deposit");
    expect(slotOf("can she have her breakfast in the morning and can she drink?", "drink")?.broader).toContain("water");
    expect(slotOf("how long have i got to return something i changed my mind about", "mind")?.broader).toContain("return");
    expect(lexicalSlots("im moving to bristol how do i get out of it", stop).flatMap((x) => [x.word, ...x.alternatives])).toContain("cancel");
    expect(alts("its over three grand, can i spread it out", "spread")).toContain("instalments");
    expect(alts("anything i need to do before hand?", "hand")).toContain("beforehand");
    expect(slotOf("anything nice other than water or coke", "coke")?.broader).toContain("drinks");
    expect(slotOf("do you serve breakfast?", "breakfast")?.broader ?? []).not.toContain("eat");
  });
  // bench/probes17 and probes18 (young people texting, people asking for someone else): refused before,
  // with "lowkey", "ngl", "fr" and "absolutely" weighing like topic words.
  it("young people's chat words carry no topic and their spellings read as words", () => {
    const words = (q: string) => queryTerms(q).map((t) => t.word);
    expect(words("lowkey terrified of the dentist ngl, do u do anything for ppl like me")).toEqual(expect.not.arrayContaining(["lowkey", "ngl"]));
    expect(words("wait so how long is an appointment fr, like is it rushed")).not.toContain("fr");
    expect(questionWords("tryna send a jumper to my sis in sydney")).toEqual(expect.arrayContaining(["trying", "sister"]));
    expect(questionWords("is it deffo no fee to cancel")).toContain("definitely");
    expect(words("lowkey smell gas in my flat rn what do i do")).not.toContain("rn");
    expect(isLightWord("absolutely") && isLightWord("definitely")).toBe(true);
    expect(questionWords("wait so is breakfast included")).not.toContain("wait");
    expect(questionWords("how long is the wait for an appointment")).toContain("wait");
  });
  // bench/probes20 (phone transcripts): "yeah" and a self-correcting "no sorry" weighed like topic words.
  it("a transcript's “yeah” and “sorry” carry no topic; “a weak” is a week; common slips of guarantee, annual, refund", () => {
    const words = (q: string) => queryTerms(q).map((t) => t.word);
    expect(words("yeah hi so do you do gift wrapping")).toEqual(["wrapping"]);
    expect(words("theres gonna be ten of us no sorry eleven can i book online")).not.toContain("sorry");
    // "a weak" after a count or a determiner is a week; a weak dog stays weak.
    expect(questionWords("how long does it take to get to limerick like a weak or what")).toContain("week");
    expect(questionWords("my dog seems weak and off his food")).toContain("weak");
    expect(questionWords("How long is the garanty for your work?")).toContain("guarantee");
    expect(questionWords("monthly vs anual, which one can i get a refnd on")).toEqual(expect.arrayContaining(["annual", "refund"]));
  });
  // bench/probes17 and probes18: each was refused before.
  it("people asked for weigh light; a levy is a tax, a professional body an institute, a lock-in a contract", () => {
    expect(["brother", "sister", "husband", "nan", "nearby", "total"].every(isLightWord)).toBe(true);
    expect(alts("is there any tourist levy we need to budget for", "levy")).toContain("tax");
    expect(slotOf("which professional body you belong to", "professional")?.broader).toContain("institute");
    expect(slotOf("she gets very grumpy when hungry", "hungry")?.broader).toContain("eat");
    expect(slotOf("I deleted our workspace by accident, can it be brought back?", "brought")?.broader).toContain("restore");
    expect(slotOf("can i quit whenever or is there a lock in", "lock")?.broader).toContain("contract");
    expect(slotOf("whats the latest we can stay in the room on the last morning", "stay")?.broader).toContain("checkout");
    expect(slotOf("would that be too far for you to come?", "far")?.broader).toContain("miles");
    expect(slotOf("do i have to pay on the day or can you send me a bill", "send")?.broader).toContain("payment");
    expect(slotOf("can we come have a look around first", "look")?.broader).toContain("visit");
    expect(alts("suppose im in a hurry", "hurry")).toContain("quick");
    expect(slotOf("do you ship to our offices in singapore and cape town", "cape")?.broader).toContain("africa");
    expect(slotOf("my brother is staying in bangalore", "bangalore")?.broader).toContain("asia");
  });
  // bench/probes18 (young people texting): each was refused before.
  it("the asker's own story words drop out: people like me, next week; a bathroom reno, wore it, sending to someone", () => {
    expect(questionWords("do u do anything for ppl like me")).not.toContain("ppl");
    expect(questionWords("how many people can sit in the room")).toContain("people");
    expect(questionWords("getting sedated next week, do i need someone w me")).toEqual(expect.not.arrayContaining(["week", "w"]));
    expect(questionWords("do i need someone w me")).toContain("with");
    // A follow-up within 14 days hangs on "last week": it stays.
    expect(questionWords("took the dog in last week for his ear")).toContain("week");
    expect(questionWords("bathroom reno how long does it take")).toContain("renovation");
    expect(questionWords("do you deliver to reno")).toContain("reno");
    expect(slotOf("i wore the jumper once, can i return it", "wore")?.broader).toContain("unworn");
    expect(slotOf("sending a jumper to my brother in manchester", "sending")?.broader).toContain("delivery");
    // The phrase with a particle still wins over the single word.
    expect(alts("can i send the jumper back", "send")).toContain("return");
  });
  // bench/probes14–18: refused in two to four batches each.
  it("somewhere safe overnight is a locked shed at night; a one man band asks about the team", () => {
    expect(slotOf("is there somewhere safe to put 2 bikes overnight", "safe")?.broader).toContain("locked");
    expect(slotOf("is there somewhere safe to put 2 bikes overnight", "overnight")?.broader).toContain("night");
    expect(slotOf("are you a proper trade body member or just a one man band", "band")?.broader).toContain("engineers");
    expect(slotOf("whats the difference between a sole trader and a limited company", "trader")?.broader ?? []).not.toContain("engineers");
    expect(isLightWord("near") && isLightWord("throw")).toBe(true);
  });
  // bench/probes19 (misspellings): each was refused before.
  it("reads words spelt as they sound and the commonest misspellings", () => {
    expect(questionWords("wat time do we hav to be out of the room")).toEqual(expect.arrayContaining(["what", "have"]));
    expect(questionWords("wats the number to book")).toEqual(expect.arrayContaining(["what", "is"]));
    expect(questionWords("my toilet is bloked agen")).toContain("again");
    expect(questionWords("do you change the towels evry day")).toContain("every");
    expect(questionWords("is accomodation included")).toContain("accommodation");
  });
});
