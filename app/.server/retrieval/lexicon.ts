// The support-domain lexicon: how customers' words reach the owner's. A customer asks to "send
// something back", "get my money back", ship "to England" or "at weekends"; the knowledge says
// "return", "refund", "the United Kingdom", "Saturdays". Questions are read through this module by
// retrieval (search.ts: what the FTS query looks for and how a chunk's coverage of the question is
// counted) and by the built-in engine (local-model.ts: which sentence answers).
//
// Everything here is general customer-service vocabulary — shops, bookings, subscriptions,
// clinics, trades — plus a small entity list (places.ts: cities, regions and countries; EU countries, continents),
// a few classes customers name by their members (animals → pets, foods → allergens, colour names →
// colour; ADR 046) and British/American spellings. Nothing names a knowledge base's own terms. ADR 013 says how it is
// kept and where it stops. The question is expanded, never the index: knowledge is stored as
// written, so adding a word here needs no re-indexing.
//
// A word the lexicon does not know falls back on a general English thesaurus (thesaurus.ts, from
// WordNet): its synonyms count as weak alternatives, like a broader term (ADR 041).
import { PLACE_GROUPS } from "./places";
import { DAY_NAMES } from "./ranges";
import { thesaurusEntry } from "./thesaurus";

/** Words customers type for other words (chat spelling, contractions without the apostrophe). */
const CHAT_SPELLING: Record<string, string> = {
  whats: "what is",
  hows: "how is",
  wheres: "where is",
  whens: "when is",
  whos: "who is",
  // More contractions typed without the apostrophe ("shes a little jack russell"); not "id", "shed", "were".
  shes: "she is",
  hes: "he is",
  weve: "we have",
  theyve: "they have",
  whys: "why is",
  ur: "your",
  urs: "yours",
  arvo: "afternoon",
  arvie: "afternoon",
  // Singapore addresses: "Blk 862" is Block 862.
  blk: "block",
  // A unit's plural as customers write it: "how many kms do i get" → "250 km per day". (Linking
  // kilometres to km as well answered the off-topic "how many kilometres in a mile" from a price per km.)
  kms: "km",
  kgs: "kg",
  meds: "medication",
  // "hella windy": very.
  hella: "very",
  u: "you",
  r: "are",
  // "how much is it n how long": and.
  n: "and",
  ya: "you",
  // Second person as Irish, Scottish and Southern US customers write it ("do ye deliver", "do yall groom cats").
  ye: "you",
  yous: "you",
  youse: "you",
  yall: "you all",
  // Scots and Yorkshire ("how far are yous fae the toon", "will it cost owt", "sort it meself").
  fae: "from",
  toon: "town",
  owt: "anything",
  meself: "myself",
  // Glaswegian and other Scots spelling ("dae ah need tae see ma gp", "can ma maw come in wi me",
  // "dae yous come oot tae the hoose"). "fur" (for) hangs on the word before (CHAT_SPELLING_AFTER).
  dae: "do",
  ah: "i",
  ma: "my",
  tae: "to",
  wi: "with",
  oot: "out",
  hoose: "house",
  aboot: "about",
  whit: "what",
  yer: "your",
  yersel: "yourself",
  masel: "myself",
  cannae: "cannot",
  canny: "cannot",
  dinnae: "do not",
  didnae: "did not",
  doesnae: "does not",
  isnae: "is not",
  wasnae: "was not",
  wouldnae: "would not",
  couldnae: "could not",
  shouldnae: "should not",
  havnae: "have not",
  havenae: "have not",
  gonnae: "going to",
  morra: "tomorrow",
  maw: "mum",
  da: "dad",
  fitba: "football",
  wat: "what",
  // Spelling as it sounds, and the misspellings every list of common ones has ("wats the number",
  // "do we hav to", "bloked agen", "accomodation").
  wats: "what is",
  wot: "what",
  wen: "when",
  hav: "have",
  agen: "again",
  evry: "every",
  alot: "a lot",
  thier: "their",
  wich: "which",
  untill: "until",
  becuase: "because",
  beacuse: "because",
  recieve: "receive",
  recieved: "received",
  definately: "definitely",
  tommorow: "tomorrow",
  tomorow: "tomorrow",
  seperate: "separate",
  seperately: "separately",
  accomodation: "accommodation",
  // bench/probes20: "How long is the garanty", "monthly vs anual… a refnd".
  garanty: "guarantee",
  garantee: "guarantee",
  guarentee: "guarantee",
  gaurantee: "guarantee",
  anual: "annual",
  anually: "annually",
  refnd: "refund",
  refun: "refund",
  occured: "occurred",
  neccessary: "necessary",
  freind: "friend",
  freinds: "friends",
  hw: "how",
  pls: "please",
  plz: "please",
  thx: "thanks",
  im: "i am",
  ive: "i have",
  dont: "do not",
  cant: "cannot",
  wont: "will not",
  doesnt: "does not",
  isnt: "is not",
  arent: "are not",
  didnt: "did not",
  havent: "have not",
  hasnt: "has not",
  wasnt: "was not",
  shouldnt: "should not",
  couldnt: "could not",
  wouldnt: "would not",
  theres: "there is",
  thats: "that is",
  whatre: "what are",
  youre: "you are",
  theyre: "they are",
  wanna: "want to",
  // Young people's spelling ("tryna send a jumper to my sis", "im outside rn", "is it deffo free").
  tryna: "trying to",
  // "rn" is right now; "right" would find "right away" in the knowledge.
  rn: "now",
  // "do i need someone w me": with.
  w: "with",
  deffo: "definitely",
  defo: "definitely",
  sis: "sister",
  bruv: "brother",
  gonna: "going to",
  gotta: "have to",
  abt: "about",
  b4: "before",
  tmrw: "tomorrow",
  tmr: "tomorrow",
  tomoz: "tomorrow",
  tonite: "tonight",
  nite: "night",
  appt: "appointment",
  acct: "account",
  pw: "password",
  msg: "message",
  pic: "photo",
  pics: "photos",
  ppl: "people",
  thru: "through",
  cuz: "because",
  coz: "because",
  bc: "because",
  asap: "urgently",
  info: "information",
  hrs: "hours",
  hr: "hour",
  mins: "minutes",
  wk: "week",
  wks: "weeks",
  tues: "tuesday",
  thurs: "thursday",
  fri: "friday",
  xmas: "christmas",
  bday: "birthday",
  esp: "especially",
  approx: "about",
  incl: "including",
  inc: "including",
  cert: "certificate",
  certs: "certificates",
  max: "maximum",
  dr: "doctor",
  pcs: "pieces",
  qty: "quantity",
  ref: "reference",
  acc: "account",
  addr: "address",
  tel: "telephone",
  mob: "mobile",
  // Days as customers shorten them ("sat hours?", "open mon?").
  mon: "monday",
  tue: "tuesday",
  thu: "thursday",
  sat: "saturday",
  pp: "per person",
  yrs: "years",
  bf: "boyfriend",
  uni: "university",
  hols: "holidays",
  shud: "should",
  cud: "could",
  wud: "would",
};

/**
 * Shortenings whose meaning hangs on the word before: the unit after a number or one of the listed
 * words, else the other word ("6 yr old", "next yr" but "whats yr address"; "10 min" but "a min spend").
 */
const WEEKDAYS = new Set(DAY_NAMES);
const ASKER_LIKE = new Set(["people", "ppl", "someone", "somebody", "folk", "folks"]);
const ASKER = new Set(["me", "us", "myself", "ourselves"]);
const STORY_SPANS = new Set(["week", "month", "year"]);
const STORY_WHEN = new Set(["next"]);
const LINKS = new Set("and or to til till until thru through".split(" "));
const CHAT_SPELLING_AFTER: Record<string, { unit: string; otherwise: string; after: Set<string>; afterDay?: boolean }> = {
  yr: { unit: "year", otherwise: "your", after: new Set("a an per every next last this each".split(" ")) },
  // A phone transcript's "like a weak or what", "in two weaks": a week after a count or a determiner;
  // "my dog seems weak" stays weak.
  weak: { unit: "week", otherwise: "weak", after: new Set("a an per every next last this each one two three four five six couple few".split(" ")) },
  weaks: { unit: "weeks", otherwise: "weaks", after: new Set("two three four five six couple few several".split(" ")) },
  min: { unit: "minutes", otherwise: "minimum", after: new Set() },
  // "a 3 bed house" is one with three bedrooms; "2 beds" stays beds (a twin room).
  bed: { unit: "bedroom", otherwise: "bed", after: new Set() },
  // "sat and sun", "fri to sun", "open on sun": Sunday after another day (or "on"); "the sun" stays.
  sun: { unit: "sunday", otherwise: "sun", after: new Set(["on", "every", "this", "next", "saturday", "sunday"]), afterDay: true },
  // Scots "fur" is "for" ("a package deal fur follow ups", "how many sessions fur ma back"); after a
  // determiner, a pet or a word for its coat it is fur ("his fur", "cat fur", "long matted fur").
  fur: {
    unit: "fur",
    otherwise: "for",
    after: new Set("the a no his her its their my your our of cat cats dog dogs pet pets long short thick thin matted knotted loose shedding soft".split(" ")),
  },
  // Scots "the dug" is the dog ("can we bring the dug? hes a wee westie"); otherwise the verb.
  dug: { unit: "dog", otherwise: "dug", after: new Set("the a my our wee his her your yer ma oor".split(" ")) },
  // "my gf" is a girlfriend; "any gf options", "is the cake gf" mean gluten free.
  gf: { unit: "girlfriend", otherwise: "gluten free", after: new Set("my me his your her their a".split(" ")) },
  // "my 3 yo" is three years old; "yo" alone is a greeting.
  yo: { unit: "years old", otherwise: "hi", after: new Set() },
  // "bathroom reno" is a renovation; Reno alone is the city in Nevada (places.ts).
  reno: { unit: "renovation", otherwise: "reno", after: new Set("bathroom kitchen house home full complete big a the".split(" ")) },
};

/**
 * Common English words that rarely say what a customer's question is about ("really bad toothache",
 * "whats your returns policy", "how long does it take to make"): still searched, but they weigh
 * little in how much of the question a passage covers, and a knowledge base without them is not
 * taken to be off-topic.
 */
export const isLightWord = (w: string) => LIGHT_WORDS.has(w) || /^\d+(am|pm)$/.test(w);
export const LIGHT_WORDS = new Set(
  (
    "really very quite pretty bad good great nice best better worse fine new old right wrong sure okay ok actually just still even exactly currently " +
    "normally usually already ever never always often sometimes maybe perhaps probably anyway else back make makes made making take takes took taking " +
    "come comes came coming go goes went going give gives gave giving put puts keep keeps let lets show shows see sees seen say says said ask asks asked " +
    "look looks looking find think try want wants need needs able allowed possible kind sort type types stuff lot lots bit way " +
    "option options policy policies information details detail question questions problem issue guy guys hey someone something anything everything anywhere somewhere " +
    "everyone anyone somebody anybody thing things stuff bring brings work works happen happens happened mean means lose include includes included " +
    "including extra instead mid whole full big small little large much many less more most first last next other another same different able done " +
    // Chat and story words: "is that alright", "roughly how long", "got it yesterday", "kindly confirm".
    "alright roughly approximately kinda sorta yesterday kindly told heard saying thinking wondering getting bringing ones bits " +
    "honestly basically literally seriously definitely absolutely totally hopefully hello hiya sir madam " +
    // "cycling round skye", "how many rooms in total", "suppose im in a hurry", "everybody else's hours".
    "round around total altogether suppose supposing everybody nobody nearby near trying throw " +
    // The people a customer asks for ("sending a jumper to my brother", "my husband is between sizes"):
    // their situation, rarely what the knowledge is about.
    "brother sister husband wife nan nana gran granny grandma grandad grandpa cousin niece nephew auntie uncle " +
    // Sizes and praise a customer puts before a thing ("a wee campfire", "a proper invoice").
    "wee tiny proper decent " +
    // Numbers said as words ("havent been in about ten years", "over three grand"): the customer's
    // situation; the knowledge writes its own numbers in digits.
    "two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand grand " +
    // Deciding aloud: "is business worth the extra", "whats the actual difference".
    "worth actual"
  ).split(" "),
);

/** Function words inside phrases ("spread the cost", "pay in advance"). */
const FUNCTION_WORDS = new Set("a an the of to in on at by for with your my our own out up off over into from and or".split(" "));

/** The last word of a phrase that is neither light nor a function word (its head), if any. */
function headOf(phrase: string[]): string | undefined {
  return [...phrase].reverse().find((w) => !LIGHT_WORDS.has(w) && !FUNCTION_WORDS.has(w));
}

/** Question shapes that say what kind of answer is wanted, not what it is about; they make no slot. */
const QUESTION_SHAPES = [
  // "how long till it gets to germany": "till" belongs to the shape, not to the topic.
  "how long till",
  "how long til",
  "how long until",
  "how long",
  "how quickly",
  "how quick",
  "how fast",
  "how soon",
  "how often",
  "how many",
  "how far",
  "what time",
  "till when",
  "until when",
  "by when",
  "what hours",
  "which days",
  "what days",
  "how early",
  "how late",
  "how old",
  "what age",
].map((p) => p.split(" "));

const MODALS = new Set(["can", "could", "should", "may", "must"]);

/** Words after which a phrase may go on past one or two other words ("send it back", "send the jumper back"). */
const PARTICLES = new Set(["back", "out", "up", "off", "in", "over"]);

/**
 * Groups of interchangeable expressions: a question with one member also looks for the others.
 * Members may be phrases (matched as consecutive words of the question).
 */
const SYNONYMS: string[][] = [
  // "the first appointment" is the initial assessment or consultation.
  ["initial", "first"],
  // Software: "can i hook it up to zapier", "does it sync with xero" ask about an integration.
  [
    "integration",
    "integrations",
    "integrate",
    "integrates",
    "connect",
    "connects",
    "connected",
    "hook up",
    "hook it up",
    "plug in",
    "sync",
    "syncs",
    "syncing",
  ],
  // returns, refunds, exchanges
  ["return", "returns", "send back", "sending back", "bring back", "take back", "give back", "returning", "mail back"],
  ["refund", "refunds", "refunded", "refundable", "money back", "reimburse", "reimbursed", "reimbursement", "repay", "repaid", "give back", "pay back"],
  ["exchange", "exchanges", "swap", "swapped", "replace", "replacement", "switch"],
  [
    "damaged",
    "broken",
    "faulty",
    "defective",
    "torn",
    "ripped",
    "smashed",
    "cracked",
    "dented",
    "damage",
    "broke",
    "hole",
    "holes",
    "snapped",
    "scratched",
    "chipped",
    "shattered",
    "busted",
  ],
  // delivery
  [
    "delivery",
    "deliver",
    "delivered",
    "deliveries",
    "shipping",
    "ship",
    "shipped",
    "ships",
    "postage",
    "post",
    "posted",
    "dispatch",
    "dispatched",
    "courier",
    "send out",
    "sent out",
    "mail out",
  ],
  ["parcel", "parcels", "package", "packages", "shipment"],
  // Everyday words customers use for the owner's terms (bench/probes5: a florist, a removals firm, an
  // escape room, a coworking space).
  ["clue", "clues", "hint", "hints"],
  ["coffin", "coffins", "casket", "caskets"],
  ["bunch", "bunches", "bouquet", "bouquets"],
  ["mate", "mates", "friend", "friends", "pal", "pals", "buddy", "buddies"],
  ["roll over", "rolls over", "rollover", "carry over", "carries over", "carried over"],
  ["box up", "pack up", "pack", "packing", "packed"],
  // "Will we be without electricity?" → "The power is switched off for about an hour".
  ["electricity", "power", "mains power"],
  ["ahead", "in advance", "beforehand", "before hand", "ahead of time"],
  ["booze", "alcohol", "alcoholic drinks"],
  ["track", "tracking", "trace", "where is my order", "where is my parcel"],
  ["customs", "import duty", "duty", "duties", "import tax", "import fee"],
  ["fast", "faster", "quick", "quicker", "quickly", "express", "speedy", "rush", "soon", "sooner", "hurry", "in a hurry"],
  // money
  ["cost", "costs", "price", "prices", "priced", "pricing", "charge", "charges", "charged", "fee", "fees", "rate", "rates", "tariff", "how much"],
  [
    "cheap",
    "cheaper",
    "save",
    "saves",
    "saving",
    "savings",
    "discount",
    "discounts",
    "discounted",
    "reduction",
    "concession",
    "deal",
    "deals",
    "promo",
    "promotion",
    "coupon",
    "less",
    "money off",
  ],
  ["pay", "paying", "payment", "payments", "paid"],
  // Months as customers shorten them ("on the 3rd of jan"); "mar" and "may" are words of their own.
  ["january", "jan"],
  ["february", "feb"],
  ["april", "apr"],
  ["june", "jun"],
  ["july", "jul"],
  ["august", "aug"],
  ["september", "sept"],
  ["october", "oct"],
  ["november", "nov"],
  ["december", "dec"],
  [
    "instalment",
    "instalments",
    "installment",
    "installments",
    "spread the cost",
    "spread it out",
    "spread the payments",
    "pay monthly",
    "payment plan",
    "finance",
    "financing",
    "pay later",
    "klarna",
    "pay in bits",
    "bit by bit",
    "pay in parts",
    "split the payment",
  ],
  ["deposit", "upfront", "up front", "in advance", "advance payment", "prepay", "prepayment"],
  ["card", "cards", "credit card", "debit card", "visa", "mastercard"],
  ["amex", "american express"],
  ["bank transfer", "wire transfer", "transfer", "bacs"],
  // Canada's HST is its sales tax, as GST is New Zealand's and Australia's.
  ["tax", "taxes", "vat", "sales tax", "gst", "hst", "levy", "levies"],
  // A fee for joining, by the names clubs, schools and services give it.
  ["joining fee", "sign up fee", "signup fee", "sign-up fee", "registration fee", "enrolment fee", "enrollment fee"],
  ["bicycle", "bicycles", "bike", "bikes", "pushbike", "pushbikes", "push bike", "push bikes"],
  // Changing one's mind is what a returns policy answers ("can i send back something i changed my mind about").
  ["changed my mind", "change my mind", "change of mind", "changed our mind", "no longer want", "unwanted"],
  ["view", "views", "looking out", "looks out", "overlooking", "overlooks"],
  ["mosquito", "mosquitoes", "mosquitos", "skeeter", "skeeters", "mozzie", "mozzies"],
  // A membership or subscription put on hold for a while.
  ["pause", "paused", "pausing", "freeze", "freezing", "frozen", "suspend", "suspended", "on hold"],
  ["extra", "additional"],
  // Small pieces of a fabric or paper to look at before buying.
  ["swatch", "swatches", "sample", "samples"],
  ["windy", "wind", "winds", "gusty", "gusts"],
  ["real flowers", "fresh flowers", "live flowers"],
  ["fragrance free", "fragrance-free", "unscented", "scent free", "perfume free", "non scented", "non-scented"],
  // Knitwear's little balls of fibre.
  ["bobbles", "bobble", "bobbling", "bobbly", "pilling", "little balls", "fuzz balls", "fuzzballs", "fluffy balls", "fluff balls", "balls of fluff"],
  ["pt", "personal trainer", "personal trainers", "personal training"],
  ["additional driver", "additional drivers", "second driver", "extra driver", "another driver", "2nd driver"],
  ["invoice", "invoices", "receipt", "receipts", "bill", "bills", "billing", "billed", "statement"],
  ["tip", "tips", "gratuity", "service charge"],
  ["annual", "annually", "yearly", "per year", "a year", "every year"],
  ["monthly", "per month", "a month", "every month"],
  ["hourly", "per hour", "an hour", "by the hour"],
  // Passing something to someone else ("hand over ownership to my colleague").
  ["hand over", "handover", "hand it over", "transfer", "pass on"],
  ["voucher", "vouchers", "gift card", "gift cards", "gift certificate", "gift voucher"],
  ["free", "no charge", "free of charge", "complimentary", "no extra charge", "no cost"],
  // time
  ["weekend", "weekends"],
  ["holiday", "holidays", "bank holiday", "public holiday", "vacation"],
  ["open", "opens", "opening", "opening hours", "opening times", "closed", "close", "closes", "closing", "hours", "shut", "shuts", "shutting"],
  ["late", "later", "delayed", "running late"],
  [
    "expire",
    "expires",
    "expired",
    "expiry",
    "run out",
    "runs out",
    "ran out",
    "ends",
    "end",
    "valid",
    "validity",
    "still good",
    "still valid",
    "still work",
    "still works",
    "used within",
    "use within",
  ],
  ["cancel", "cancels", "cancelled", "canceled", "cancelling", "canceling", "cancellation", "call off", "quit", "terminate"],
  ["change", "changes", "modify", "amend", "edit", "update", "alter", "switch", "switching"],
  // booking, contact, place
  ["book", "booking", "bookings", "reserve", "reserved", "reservation", "reservations", "appointment", "appointments", "schedule", "make an appointment"],
  ["phone", "phones", "call", "calls", "ring", "telephone", "phone number", "number"],
  ["email", "emails", "e mail", "mail", "write to", "message"],
  ["contact", "get in touch", "speak to", "talk to"],
  ["reply", "replies", "respond", "response", "answer", "answers", "get back to", "gets back to", "hear back", "acknowledge", "acknowledged"],
  ["require", "required", "requires", "force", "enforce", "mandatory", "compulsory", "obligatory"],
  ["brand", "brands", "manufacturer", "manufacturers", "make of"],
  ["install", "installs", "installed", "installation", "installing", "fit", "fitted", "fitting", "put in"],
  ["gift", "gifts", "present", "presents"],
  ["support", "customer service", "customer support", "helpdesk", "help desk", "assistance"],
  ["address", "location", "located", "based", "find you", "where are you"],
  ["parking", "park", "car park", "parking lot", "parking space", "parked"],
  ["train", "railway", "rail", "station"],
  [
    "visit",
    "visiting",
    "come in",
    "drop in",
    "pop in",
    "showroom",
    "in person",
    "walk in",
    "walk ins",
    "walk-in",
    "turn up",
    "just turn up",
    "without a reservation",
    "without booking",
  ],
  // people and needs
  ["child", "children", "kid", "kids", "baby", "babies", "toddler", "toddlers", "infant", "under 12s", "son", "daughter", "family"],
  ["dog", "dogs", "pet", "pets", "puppy", "puppies"],
  ["wheelchair", "wheelchairs", "accessible", "accessibility", "disabled", "disability", "step free", "step-free", "mobility"],
  ["allergy", "allergies", "allergic", "allergen", "allergens", "intolerance", "intolerant"],
  ["coeliac", "celiac", "gluten", "gluten free"],
  ["vegan", "vegans", "plant based", "dairy free", "vegetarian"],
  ["nervous", "anxious", "scared", "afraid", "fear", "frightened", "phobia", "worried", "terrified", "petrified", "freaked out", "freaks out"],
  ["pain", "toothache", "ache", "aching", "hurts", "hurting", "sore", "painful"],
  ["emergency", "emergencies", "urgent", "urgently", "urgency", "out of hours"],
  ["complaint", "complaints", "complain", "unhappy", "dissatisfied", "not happy"],
  ["guarantee", "guarantees", "guaranteed", "warranty", "warranties"],
  ["quote", "quotes", "quotation", "estimate", "estimates"],
  ["insurance", "insured", "liability"],
  ["cover", "covers", "area", "areas", "serve", "service area", "work in"],
  ["review", "reviews", "rating", "ratings", "rated", "feedback", "testimonials"],
  ["staff", "team", "employees"],
  // account and subscription
  ["trial", "free trial", "try", "trying out", "test drive", "try out", "try it out", "test it out", "test out"],
  ["subscription", "subscriptions", "plan", "plans", "membership", "tier"],
  ["account", "accounts", "profile", "login", "log in", "sign in", "signin", "logon"],
  ["password", "passwords", "passcode"],
  ["forgot", "forgotten", "reset", "recover", "lost", "misplaced", "cannot find", "cant find"],
  ["two factor", "two-factor", "2fa", "mfa", "two step", "two-step", "authenticator", "authentication"],
  ["delete", "deleted", "deleting", "remove", "erase", "erased", "close my account", "deletion", "get rid of", "getting rid of", "got rid of"],
  ["export", "exports", "download", "downloads", "backup", "backups", "extract"],
  ["owner", "ownership", "admin", "admins", "administrator"],
  ["gdpr", "data protection", "privacy", "dpa", "data processing agreement"],
  ["encrypted", "encryption", "secure", "security"],
  ["stored", "store", "storage", "hosted", "hosting", "servers", "data centre", "deploy", "deployment", "self host", "self hosted"],
  ["upgrade", "upgrading", "upgraded"],
  ["downgrade", "downgrading", "downgraded"],
  // products and care
  ["size", "sizes", "sizing", "fit", "fits", "bigger", "smaller", "larger", "too big", "too small", "too tight", "too loose"],
  ["wash", "washing", "washing machine", "washed", "laundry", "launder", "clean", "cleaning"],
  ["dryer", "drier", "tumble dryer", "tumble dry", "tumble"],
  ["custom", "customised", "customized", "personalised", "personalized", "bespoke", "made to order", "made-to-order", "tailor made"],
  ["colour", "colours", "color", "colors"],
  ["wrap", "wrapping", "gift wrap", "gift wrapping", "gift-wrapped"],
  ["fire", "fireplace", "log fire", "open fire", "lit", "burning", "burn", "burnt", "burned"],
  ["leak", "leaks", "leaking", "burst", "flood", "flooding", "drip", "dripping", "driping"],
  ["wifi", "wi fi", "wi-fi", "internet"],
  ["drink", "drinks", "beverage", "beverages"],
  ["alcohol free", "alcohol-free", "non alcoholic", "non-alcoholic", "soft drink", "soft drinks", "mocktail", "mocktails"],
  ["byo", "byob", "bring your own", "corkage", "own wine", "own bottle"],
  ["private room", "private dining", "function room", "room hire", "hire the room", "private party", "private event"],
  ["hire", "rent", "rental", "renting"],
  ["seats", "seat", "capacity", "covers", "seating", "sit", "sitting"],
  ["highchair", "highchairs", "high chair", "high chairs", "booster seat"],
  ["toilet", "toilets", "restroom", "restrooms", "loo", "wc", "washroom", "bathroom"],
  ["lift", "elevator"],
  ["checkup", "check up", "check-up", "checkups", "check ups", "examination", "exam"],
  ["braces", "aligners", "invisalign", "orthodontic", "straighten"],
  ["dentures", "false teeth"],
  ["sedation", "sedated", "sedative", "put to sleep", "knocked out"],
  // verbs and nouns customers use for the owner's words, in any kind of business
  ["repair", "repairs", "repaired", "fix", "fixed", "fixing", "mend", "mended", "sort out"],
  [
    "inspect",
    "inspects",
    "inspected",
    "inspection",
    "check",
    "checks",
    "checked",
    "checking",
    "examine",
    "examined",
    "look over",
    "diagnosis",
    "diagnostic",
    "diagnostics",
    "diagnose",
  ],
  ["start", "starts", "started", "begin", "begins", "began", "commence", "commences"],
  ["buy", "buying", "bought", "purchase", "purchases", "purchased", "purchasing"],
  ["collect", "collection", "pick up", "picked up", "pickup", "pickups", "click and collect"],
  ["engineer", "engineers", "technician", "technicians", "tradesman", "tradesmen", "fitter", "fitters"],
  ["call out", "call outs", "callout", "callouts", "come out", "come round", "home visit", "home visits", "house call", "house calls"],
  ["available", "availability", "in stock", "stock", "sold out", "out of stock"],
  // A clinic's, vet's or adviser's appointment is a consultation.
  ["appointment", "appointments", "consultation", "consultations", "consult"],
  ["reschedule", "rearrange", "rebook", "postpone", "move my appointment", "move my booking", "push back", "pushed back"],
  [
    "no show",
    "no shows",
    "miss",
    "missed",
    "did not turn up",
    "do not turn up",
    "fail to attend",
    "cannot make it",
    "cannot attend",
    "cannot come",
    "unable to attend",
  ],
  // "What do I get with the plan?" asks what it includes.
  ["what do i get", "what do you get", "include", "includes", "covers"],
  ["senior", "seniors", "pensioner", "pensioners", "oap", "oaps", "retired", "elderly", "65 and over", "over 65", "over 65s", "aged 65"],
  // who a service or a price is for: the knowledge's "Gents' cut", "Ladies' cut", "female instructor"
  ["men", "mens", "male", "gents", "gent", "gentlemen", "gentleman"],
  ["women", "womens", "woman", "ladies", "lady", "female"],
  // not paying: what the knowledge calls an unpaid or overdue account
  [
    "unpaid",
    "overdue",
    "stop paying",
    "stopped paying",
    "do not pay",
    "did not pay",
    "miss a payment",
    "missed payment",
    "missed payments",
    "non payment",
    "fail to pay",
  ],
  ["lost", "missing", "never arrived", "not arrived", "did not arrive", "has not arrived"],
  ["sign up", "signup", "register", "registration", "create an account", "enrol", "enroll", "enrolment", "enrollment"],
  ["minimum", "at least", "smallest", "fewest", "no fewer than", "no less than"],
  ["maximum", "at most", "up to", "no more than", "biggest", "largest"],
  ["take effect", "takes effect", "come into effect", "comes into effect", "kick in", "kicks in"],
  ["legal", "legally", "law", "by law", "legal requirement", "required by law"],
  // files, messages and apps: the words people use for what a help page names
  ["folder", "folders", "directory", "directories", "subfolder", "subfolders"],
  ["multiple", "several", "more than one"],
  ["strikethrough", "strike through", "strikeout", "cross out", "crossed out", "cross through"],
  ["oldest", "earliest", "first ever", "very first"],
  ["executable", "executables", "exe", "program", "programs", "software"],
  ["autoplay", "auto play", "autoplays", "play automatically", "plays automatically"],
  ["undo", "restore", "restored", "retrieve", "retrieved", "recover", "recovered", "undelete"],
  ["punctuation", "special characters", "special character", "symbols"],
  ["computer", "computers", "pc", "laptop", "laptops", "desktop"],
  ["specific", "particular", "certain"],
  ["unreplied", "unanswered", "not replied", "no reply", "without reply", "without a reply", "without replies"],
  ["condition", "conditions", "criteria", "criterion", "constraint", "constraints"],
  ["analyse", "analyze", "analysis", "analyses", "analysing", "analyzing"],
  // health: people's and pets'
  ["ill", "sick", "unwell", "poorly", "not well", "under the weather"],
  ["operation", "operations", "op", "surgery", "surgeries", "procedure", "procedures"],
  [
    "vaccination",
    "vaccinations",
    "vaccinate",
    "vaccinated",
    "vaccine",
    "vaccines",
    "shots",
    "jab",
    "jabs",
    "vaccies",
    "vax",
    "injection",
    "injections",
    "immunisation",
    "immunization",
  ],
  ["microchip", "microchips", "microchipped", "microchipping", "chip", "chipped", "chipping"],
  // software: the names customers use for a feature
  ["single sign on", "single sign-on", "sso", "saml"],
  ["medicine", "medicines", "medication", "medications", "tablets", "pills", "drugs"],
  ["blood sugar", "sugar level", "sugar levels", "glucose", "blood glucose"],
  // travel and stays
  ["taxi", "taxis", "cab", "cabs", "uber"],
  ["luggage", "bags", "suitcase", "suitcases"],
  ["midge", "midges", "midgie", "midgies"],
  // Australian and British words for pets' care.
  ["cat", "cats", "moggy", "moggie", "moggies"],
  ["desex", "desexed", "desexing", "snip", "snipped"],
  // meals and stays (hotels, B&Bs, cafés)
  ["dinner", "dinners", "evening meal", "evening meals", "supper"],
  ["breakfast", "breakfasts", "brekkie", "brekky"],
  ["food", "meal", "meals", "dishes"],
  ["arrive", "arrives", "arriving", "arrival", "get there", "get to you", "reach you", "turn up", "show up", "rock up"],
  // UK ↔ US words
  ["jumper", "jumpers", "sweater", "sweaters", "pullover"],
  ["postcode", "zip code", "zipcode", "post code"],
  ["takeaway", "takeout", "take out", "to go"],
  // One word for the knowledge's two ("checkout time?" ↔ "check-out is at 11").
  ["checkout", "check out", "checking out"],
  ["checkin", "check in", "checking in"],
  ["dropoff", "dropoffs", "drop off", "drop offs"],
  ["smoke", "smoking", "smoker", "smokers", "smoked", "cigarette", "cigarettes", "cig", "cigs", "vape", "vapes", "vaping"],
  ["mobile", "cell phone", "cellphone", "smartphone"],
  ["accountant", "accountants", "cpa", "cpas", "bookkeeper", "bookkeepers"],
  ["glasses", "specs", "spectacles", "eyeglasses"],
  ["barbecue", "barbecues", "bbq", "bbqs", "barbeque", "barbeques"],
  ["washing machine", "washing machines", "washer", "washers"],
  ["campfire", "campfires", "open fire", "open fires", "fire pit", "fire pits", "bonfire", "bonfires"],
  ["swatch", "swatches", "sample", "samples"],
  ["assemble", "assembled", "assembling", "assembly", "put together", "putting together"],
  // Lengths of time as customers say them and as price lists write them ("a half hour lesson" ↔ "30 minutes").
  ["half hour", "half an hour", "30 minutes", "30 minute"],
  ["hour long", "an hour", "one hour", "1 hour", "60 minutes", "60 minute"],
  ["hour and a half", "an hour and a half", "90 minutes", "90 minute"],
  ["quarter of an hour", "quarter hour", "15 minutes", "15 minute"],
  // cars: what customers call what a garage names
  ["air conditioning", "aircon", "air con", "a c"],
  ["usa", "us", "united states", "america", "american", "states"],
  ["uk", "united kingdom", "great britain", "britain", "gb"],
  ["new zealand", "nz", "aotearoa"],
  ["australia", "aus"],
  ["eu", "europe", "european union", "european"],
  // What a smell is called in a product's or treatment's description.
  ["smell", "smells", "smelly", "odour", "odours", "odor", "odors", "stink", "stinks", "whiff"],
  ["pregnant", "pregnancy", "expecting a baby", "mum to be", "mom to be"],
  // A desk that is yours alone.
  ["dedicated desk", "fixed desk", "permanent desk", "reserved desk", "own desk"],
  ["tracking number", "tracking numbers", "tracking code", "tracking link", "tracking details", "tracking info", "tracking information", "tracking id"],
  ["insurer", "insurers", "insurance company", "insurance companies", "insurance provider", "insurance providers"],
  ["cutoff", "cutoffs", "cut off", "cut-off"],
  // A part that is the maker's own, not a compatible one.
  ["genuine", "original", "official", "oem"],
  // An employer's tax-free bike scheme, under its brand names.
  ["cycle to work", "cycle2work", "cyclescheme", "bike2work", "bike to work", "ride to work", "tax free bike", "cycle scheme", "bike scheme"],
  // The British name of a pharmacy (the thesaurus knows only the scientist).
  ["pharmacy", "pharmacies", "chemist", "chemists", "drugstore"],
];

/** One-way: a specific word also looks for the general one (a question about England is about the UK). */
const BROADER: [string[], string[]][] = [
  // A named currency is one of the "currencies" a price list or an invoice can be in.
  [
    ["gbp", "sterling", "pounds", "euros", "eur", "usd", "dollars", "cad", "aud", "nzd"],
    ["currency", "currencies"],
  ],
  // Glasses are priced by their frames ("Our frames start from £59").
  [["glasses", "specs", "spectacles", "eyeglasses"], ["frames"]],
  // Contact lenses for astigmatism are toric lenses.
  [["astigmatism"], ["toric"]],
  [["firewood", "fire wood"], ["logs"]],
  // Somewhere to eat is a restaurant, café or pub.
  [
    ["eat", "eating", "dinner", "lunch"],
    ["restaurant", "restaurants", "cafe", "cafes", "pub", "pubs"],
  ],
  // "a normal consult" is the standard one of a price list (weaker: the general thesaurus's
  // "regular" for "normal" stays with it).
  [["normal"], ["standard", "regular", "ordinary", "usual"]],
  // Arriving at a place you stay is checking in ("what time can we get there").
  [
    ["arrive", "arrives", "arriving", "arrival", "get there"],
    ["check in", "check-in", "checkin"],
  ],
  // Somewhere to lock a bike is a bike rack or shed.
  [
    ["lock my bike", "lock up my bike", "lock the bike", "lock the bikes", "lock our bikes", "leave my bike"],
    ["bike rack", "bike racks", "bike shed", "bike parking", "cycle parking", "bike storage"],
  ],
  // A police check is the background check a country names its own way.
  [
    ["police check", "police checked", "police checks", "police clearance"],
    ["background check", "background checks", "dbs", "vulnerable sector check", "criminal record check"],
  ],
  // Updates on how a pupil is doing are progress reports.
  [
    ["updates", "progress updates", "how my kid is doing", "how my child is doing"],
    ["report", "reports", "progress report"],
  ],
  // To dump or stash bags somewhere is to leave them there.
  [
    ["dump", "stash"],
    ["leave", "store", "storage"],
  ],
  // Taking payment is charging the customer's card.
  [
    ["take payment", "take the payment", "take the money", "take my money", "take payments"],
    ["charge", "charged", "charges", "billed", "bill"],
  ],
  // A video call needs a phone booth or a room with a video-call kit.
  [
    ["zoom call", "zoom", "teams call", "video call", "jump on a call", "take a call", "calls"],
    ["phone booth", "phone booths", "video-call", "call"],
  ],
  // Wine, coffee or ink on clothes is a stain.
  [
    ["red wine", "wine", "coffee", "ink", "grease", "blood", "mud", "fake tan", "curry"],
    ["stain", "stains"],
  ],
  // An eye test for a driving licence is checked against the DVLA's driving standard.
  [
    ["driving licence", "driving license", "drivers licence", "drivers license"],
    ["dvla", "driving standard"],
  ],
  // Shampoo and the like are the products a salon sells.
  [
    ["shampoo", "shampoos", "conditioner", "conditioners", "hair products", "styling products", "hair spray", "hairspray"],
    ["products", "product", "retail products"],
  ],
  // A free version of software is its free plan or tier.
  [
    ["version", "versions", "edition", "editions"],
    ["plan", "plans", "tier", "tiers"],
  ],
  // A service that takes a cut of a payment charges a fee on it.
  [
    ["take a cut", "takes a cut", "take a percentage", "takes a percentage"],
    ["fee", "fees", "platform fee", "transaction fee", "commission"],
  ],
  // Someone coming to look at a house, a roof or a laptop is an inspection, survey or diagnosis.
  [
    ["look at", "come look", "come and look", "have a look", "take a look"],
    ["inspection", "inspect", "survey", "diagnosis", "check"],
  ],
  // A third person on a pitch or in a room is an extra one.
  [
    ["third person", "3rd person", "fourth person", "4th person", "another person", "one more person", "extra person"],
    ["extra adult", "extra adults", "additional adult", "extra guest", "additional guest", "additional person"],
  ],
  // A bug, a fever or throwing up is being ill: what a school, a nursery or a class says of sick days.
  [
    ["tummy bug", "stomach bug", "sick bug", "vomiting bug", "fever", "high temperature", "throwing up", "vomiting", "flu", "virus"],
    ["sick", "ill", "unwell", "illness", "temperature", "diarrhoea"],
  ],
  // "Without our parents": an age rule names the adult who must come along.
  [
    ["parent", "parents", "guardian", "guardians"],
    ["adult", "adults", "accompanied", "supervised"],
  ],
  // "My wife is expecting" is pregnant (weaker: one also expects a parcel).
  [["expecting"], ["pregnant", "pregnancy"]],
  // A heads-up before a visit is the text or call that says they are on the way.
  [
    ["heads up", "heads-up", "warn me", "warning"],
    ["on the way", "notice", "text you", "call you", "let you know"],
  ],
  // Paper and card are as thick as their weight in gsm.
  [
    ["thickness", "thick", "thicker", "heavy", "heavier", "flimsy", "sturdy"],
    ["gsm", "weight"],
  ],
  // The speed of the internet is written in its bandwidth.
  [
    ["speed", "speeds"],
    ["mbps", "mbit", "gbps", "gbit", "fibre", "fiber"],
  ],
  // Somewhere nearby is a short walk away.
  [
    ["nearby", "close by", "round the corner", "around the corner"],
    ["walking distance", "short walk", "minutes walk", "minute walk", "minutes' walk", "minute's walk"],
  ],
  // A date held while a couple decides is a provisional booking.
  [
    ["hold a date", "hold the date", "hold our date", "pencil us in", "pencil in"],
    ["held", "provisional", "provisionally"],
  ],
  // A tax "on top" or "added on" is what a price includes or excludes.
  [
    ["on top", "added on", "add on"],
    ["include", "includes", "included", "including", "plus", "exclude", "excludes", "excluding"],
  ],
  // The last morning of a stay ends at check-out.
  [
    ["last morning", "last day", "departure day", "depart", "departing"],
    ["check out", "check-out", "checkout"],
  ],
  // Something spilt is a stain or liquid damage.
  [
    ["spilled", "spilt", "spill", "spills", "spilling"],
    ["stain", "stains", "liquid damage", "liquid"],
  ],
  // A stag or hen do is a group booking ("hen party" is left to "party"); the lads are adults.
  [
    ["stag", "stag do", "hen do"],
    ["group", "groups"],
  ],
  [
    ["lads", "blokes", "fellas"],
    ["adults", "men"],
  ],
  // To mail something (American English) is to post or ship it.
  [
    ["mail", "mailed", "mailing"],
    ["post", "ship", "shipping", "send"],
  ],
  // Building flat-pack furniture is assembling it.
  [
    ["build", "building"],
    ["assemble", "assembly"],
  ],
  // A promo is used with a code.
  [
    ["promo", "promos", "promo code", "promotion", "coupon", "coupons", "discount code", "voucher code"],
    ["code", "codes"],
  ],
  // Driving out to a customer is what a travel or call-out fee pays for.
  [
    ["driving out", "drive out", "driving over", "drive over"],
    ["travel", "call out", "call-out"],
  ],
  // "the tech" who comes out is the technician or engineer.
  [
    ["tech", "techs"],
    ["technician", "technicians", "engineer", "engineers"],
  ],
  // Rain is the weather a wet-weather plan is for; "too old" or "old enough" asks about an age limit.
  [
    ["rain", "raining", "rains", "rainy", "lashing", "pouring", "downpour"],
    ["weather", "wet"],
  ],
  [
    ["too old", "too young", "old enough", "young enough"],
    ["age", "ages", "aged"],
  ],
  // "Does that make it more expensive?" asks what it costs.
  [
    ["expensive", "pricey", "pricier"],
    ["price", "prices", "cost", "costs"],
  ],
  // "the cheapest plan" asks for the lowest price: the price list answers it, not a discount.
  [
    ["cheapest", "least expensive"],
    ["price", "prices", "cost", "costs"],
  ],
  [["cardboard", "bubble wrap", "polystyrene"], ["packaging"]],
  // Kinds of animal: the knowledge names the class ("small pets", "farm animals", "other pets").
  [
    [
      "cat",
      "cats",
      "kitten",
      "kittens",
      "rabbit",
      "rabbits",
      "hamster",
      "hamsters",
      "guinea pig",
      "guinea pigs",
      "ferret",
      "ferrets",
      "parrot",
      "parrots",
      "budgie",
      "budgies",
      "bird",
      "birds",
      "tortoise",
      "tortoises",
    ],
    ["pet", "pets"],
  ],
  [
    [
      "tortoise",
      "tortoises",
      "turtle",
      "turtles",
      "terrapin",
      "terrapins",
      "lizard",
      "lizards",
      "gecko",
      "geckos",
      "snake",
      "snakes",
      "bearded dragon",
      "iguana",
    ],
    ["reptile", "reptiles"],
  ],
  [
    ["pony", "ponies", "donkey", "donkeys", "foal", "foals"],
    ["horse", "horses"],
  ],
  // A breed is a dog ("can I bring my labrador").
  [
    [
      "labrador",
      "labradors",
      "spaniel",
      "spaniels",
      "terrier",
      "terriers",
      "poodle",
      "collie",
      "retriever",
      "beagle",
      "dachshund",
      "greyhound",
      "whippet",
      "husky",
      "pug",
      "bulldog",
      "alsatian",
      "german shepherd",
      "jack russell",
      "cockapoo",
      "labradoodle",
      "chihuahua",
      "rottweiler",
      "staffie",
      "staffy",
      "staffies",
      "schnauzer",
      "kelpie",
      "kelpies",
      "cavoodle",
      "groodle",
      "cavalier",
      "corgi",
      "frenchie",
      "shih tzu",
      "pomeranian",
      "lurcher",
      "pup",
      "pups",
      "doggo",
      "springer",
      "springer spaniel",
      "cocker",
      "cocker spaniel",
      "sprocker",
      "border collie",
      "golden retriever",
      "cavapoo",
      "cavachon",
      "goldendoodle",
      "westie",
      "yorkie",
      "dalmatian",
      "doberman",
      "great dane",
      "sausage dog",
    ],
    ["dog", "dogs"],
  ],
  // A spreadsheet is whichever table format the knowledge names; an electric car by make or initials.
  [
    ["spreadsheet", "spreadsheets"],
    ["excel", "csv", "xlsx"],
  ],
  [
    ["tesla", "ev", "evs", "electric vehicle", "electric vehicles"],
    ["electric car", "electric cars"],
  ],
  // Joining a practice, club or scheme is registering for it ("how do I join").
  [
    ["join", "joining"],
    ["register", "registering", "registration", "sign up"],
  ],
  // Getting into the room (or having it ready) is a stay's check-in.
  [
    ["get into the room", "get in the room", "get into our room", "get in our room", "into the room", "into our room", "room ready"],
    ["check in", "check-in", "checkin"],
  ],
  // Having to be out (of the room) by a time is a stay's check-out.
  [
    ["be out by", "be out of the room", "leave the room", "vacate", "vacate the room"],
    ["check out", "check-out"],
  ],
  [["2nd"], ["second"]],
  [["3rd"], ["third"]],
  [
    ["cow", "cows", "cattle", "sheep", "pig", "pigs", "goat", "goats", "chicken", "chickens", "hens", "alpaca", "alpacas", "livestock"],
    ["farm animals", "livestock", "animals"],
  ],
  // A food a customer reacts to is an allergen ("my son is allergic to nuts" → "tell us about any allergies").
  [
    ["nuts", "nut", "peanut", "peanuts", "dairy", "lactose", "shellfish", "sesame", "soya", "soy", "eggs", "wheat", "mustard", "celery", "lupin"],
    ["allergen", "allergens", "allergy", "allergies"],
  ],
  // A meat by name is the meat a kitchen says is halal or kosher; a brand or kind of medicine is medicine.
  [
    ["chicken", "beef", "pork", "lamb", "mutton", "turkey", "bacon", "ham", "sausage", "sausages", "goat meat"],
    ["meat", "meats"],
  ],
  [
    [
      "panadol",
      "paracetamol",
      "calpol",
      "tylenol",
      "acetaminophen",
      "ibuprofen",
      "nurofen",
      "advil",
      "aspirin",
      "antibiotic",
      "antibiotics",
      "antihistamine",
      "antihistamines",
      "cough syrup",
      "cough mixture",
      "inhaler",
      "inhalers",
    ],
    ["medicine", "medicines", "medication", "medications"],
  ],
  // Pillows and blankets are the bedding a nursery, campsite or host provides (or not).
  [
    ["pillow", "pillows", "blanket", "blankets", "duvet", "duvets", "quilt", "quilts", "sheets"],
    ["bedding", "bedsheets", "bed sheets", "bed linen", "linen"],
  ],
  // "Which language are the lessons in?" is answered by the languages named.
  [
    ["language", "languages"],
    [
      "english",
      "mandarin",
      "chinese",
      "cantonese",
      "malay",
      "tamil",
      "hindi",
      "french",
      "spanish",
      "german",
      "italian",
      "portuguese",
      "dutch",
      "polish",
      "arabic",
      "japanese",
      "korean",
      "irish",
      "welsh",
      "gaelic",
      "afrikaans",
      "zulu",
      "xhosa",
      "maori",
      "bilingual",
    ],
  ],
  // "In the week" is Monday to Friday, as opening hours write it.
  [
    ["in the week", "during the week", "midweek"],
    ["weekday", "weekdays", "monday", "friday"],
  ],
  // A colour asked for ("a jumper in green") is one of the colours the knowledge offers.
  [
    ["red", "blue", "green", "yellow", "black", "white", "grey", "gray", "navy", "pink", "purple", "orange", "brown", "beige", "cream", "burgundy", "teal"],
    ["colour", "colours", "color", "colors"],
  ],
  // Places by name (places.ts): a city counts toward its region and country, a region toward its country.
  ...PLACE_GROUPS,
  [
    ["english", "scottish", "welsh"],
    ["uk", "united kingdom", "britain"],
  ],
  [
    [
      "germany",
      "france",
      "spain",
      "italy",
      "netherlands",
      "holland",
      "belgium",
      "portugal",
      "austria",
      "poland",
      "sweden",
      "denmark",
      "finland",
      "greece",
      "czechia",
      "czech republic",
      "hungary",
      "romania",
      "croatia",
      "slovakia",
      "slovenia",
      "luxembourg",
      "estonia",
      "latvia",
      "lithuania",
      "bulgaria",
      "malta",
      "cyprus",
      "paris",
      "berlin",
      "madrid",
      "rome",
      "amsterdam",
      "german",
      "french",
      "spanish",
      "italian",
      "dutch",
    ],
    ["eu", "europe", "european"],
  ],
  // Countries and their best-known cities ("my brother is staying in Bangalore", "our offices in Cape Town").
  [
    [
      ..."japan china india singapore korea thailand vietnam malaysia indonesia philippines taiwan tokyo osaka kyoto seoul".split(" "),
      ..."beijing shanghai bangkok manila jakarta mumbai delhi bangalore bengaluru chennai kolkata hyderabad".split(" "),
      ...["hong kong", "kuala lumpur", "ho chi minh city", "new delhi"],
    ],
    ["asia"],
  ],
  [
    ["nigeria", "kenya", "egypt", "morocco", "south africa", "ghana", "lagos", "nairobi", "cairo", "johannesburg", "cape town", "durban", "accra", "marrakech"],
    ["africa"],
  ],
  [["brazil", "argentina", "chile", "colombia", "peru", "sao paulo", "rio de janeiro", "buenos aires", "bogota"], ["south america"]],
  [
    ["saturday", "saturdays", "sunday", "sundays"],
    ["weekend", "weekends"],
  ],
  [
    ["weekend", "weekends"],
    ["saturday", "saturdays", "sunday", "sundays"],
  ],
  [
    ["weekday", "weekdays"],
    ["monday", "friday", "working day", "business day"],
  ],
  [
    ["christmas", "christmas day", "boxing day", "new year", "new years"],
    ["december", "january", "christmas"],
  ],
  // A holiday by name is a bank holiday for the opening hours ("are you open on Easter Monday?").
  // New Year and Christmas keep their own group above (→ December, January): a longer phrase here
  // would be matched instead of it.
  [
    [
      "easter",
      "easter monday",
      "easter sunday",
      "good friday",
      "boxing day",
      "may day",
      "st patrick's day",
      "st patricks day",
      "whit monday",
      "august bank holiday",
      "christmas day",
      // Other countries' public holidays by name (Canada, US, Australia, NZ, Ireland).
      "victoria day",
      "canada day",
      "family day",
      "civic holiday",
      "labour day",
      "labor day",
      "thanksgiving",
      "remembrance day",
      "memorial day",
      "independence day",
      "fourth of july",
      "4th of july",
      "presidents day",
      "mlk day",
      "veterans day",
      "australia day",
      "anzac day",
      "kings birthday",
      "king's birthday",
      "waitangi day",
      "matariki",
      "st stephens day",
      "st stephen's day",
    ],
    ["bank holiday", "bank holidays", "public holiday", "public holidays", "holidays"],
  ],
  [
    ["today", "same day"],
    ["same day", "today"],
  ],
  [
    [
      "address",
      "location",
      "located",
      "where are you",
      "where are you based",
      "where is the shop",
      "where is your office",
      "street",
      "what street",
      "satnav",
      "sat nav",
    ],
    ["street", "road", "lane", "avenue", "square"],
  ],
  [
    ["tomorrow", "next day"],
    ["next working day", "next day"],
  ],
  [
    ["evening", "tonight", "night", "nights"],
    ["evening", "dinner", "pm"],
  ],
  [
    ["lunchtime", "midday"],
    ["lunch", "noon"],
  ],
  [
    ["arrive", "arrives", "arrival", "get here", "get to me", "receive", "take to arrive"],
    ["delivery", "takes"],
  ],
  [
    ["worldwide", "internationally", "international", "abroad", "overseas"],
    ["countries", "world"],
  ],
  // Keeping a copy on one's own machine is downloading it ("save a video locally", "for offline viewing").
  [
    ["locally", "offline", "to my disk", "to my computer"],
    ["download", "downloads"],
  ],
  [
    ["time", "times", "time period", "period"],
    ["date", "dates"],
  ],
  // Whoever manages something may change it ("who can change the billing" → "Admins can manage … billing").
  [
    ["change", "changes", "modify", "amend", "edit", "update", "alter"],
    ["manage", "manages"],
  ],
  [["upfront", "up front"], ["deposit"]],
  // "any deals on?": deals are offers ("deal with" is not); "auto" is short for automatic (a car, a renewal).
  [["deals"], ["offer", "offers"]],
  // A drink by name is its kind on a venue's bar list ("can we bring whiskey": "spirits can't be brought in").
  [["whiskey", "whiskeys", "whisky", "whiskies", "vodka", "gin", "rum", "tequila", "brandy", "bourbon"], ["spirits"]],
  // Any drink by name is alcohol on a "no alcohol" rule ("can we bring prosecco": "we do not allow your own alcohol").
  [["prosecco", "champagne", "wine", "wines", "beer", "beers", "cider", "spirits", "cocktails", "whiskey", "whisky", "vodka", "gin", "rum"], ["alcohol"]],
  // Getting married is the wedding; the subway or metro is a station near the business.
  [
    ["married", "marry", "marrying"],
    ["wedding", "weddings"],
  ],
  [["subway", "metro"], ["station"]],
  // Insurance is what a business's cover or protection plan is; a band or a DJ is the music.
  [
    ["insurance", "insured", "insure"],
    ["coverage", "covered", "protection"],
  ],
  [["band", "bands", "dj", "djs", "disco"], ["music"]],
  // Coming to see the place before booking is a viewing.
  [
    ["see the place", "look around", "have a look around", "come and see", "come see"],
    ["viewing", "viewings"],
  ],
  [
    ["auto", "autos"],
    ["automatic", "automatics", "automatically"],
  ],
  // The biggest of a list of sizes is its large one ("Extra large | 200 sq ft").
  [["biggest", "largest"], ["large"]],
  [["smallest"], ["small"]],
  // A broader phrase is searched by its head, which here is the customer's own "car": name the other word.
  [["loan car", "loan cars", "loaner", "replacement car", "replacement cars"], ["courtesy"]],
  // A sandwich for the day is a packed lunch; a hike is a walk; "on my own" is a single room or ticket.
  [
    ["sandwich", "sandwiches", "picnic"],
    ["packed lunch", "lunch"],
  ],
  [
    ["hike", "hikes", "hiking", "hiker", "hikers", "trek", "trekking"],
    ["walk", "walking", "walkers"],
  ],
  [
    ["alone", "on my own", "by myself", "just me"],
    ["single", "solo"],
  ],
  // A one-way ticket or fare is a single.
  [
    ["one way", "one-way"],
    ["single", "singles"],
  ],
  // "my 2 year old": a child.
  [["year old"], ["child", "children"]],
  // Coming is arriving ("if I cancel a week before we come"); a week is counted in days.
  [
    ["come", "coming", "land", "lands", "landing"],
    ["arrival", "arrive"],
  ],
  [["week", "weeks", "fortnight"], ["days"]],
  // Spaying and castrating are kinds of neutering.
  [
    ["spay", "spayed", "spaying", "spays", "castrate", "castrated", "castration"],
    ["neuter", "neutered", "neutering"],
  ],
  [
    ["desex", "desexed", "desexing", "snip", "snipped"],
    ["neuter", "neutered", "neutering", "spay", "castrate"],
  ],
  // A town centre is the city centre of a small city; no stairs means the ground floor or a lift;
  // public transport is the bus or the train.
  [["town"], ["city"]],
  [["cases"], ["luggage", "bags", "suitcases"]],
  [
    ["stairs", "staircase"],
    ["ground floor", "step-free", "lift", "elevator"],
  ],
  [
    ["public transport", "public transportation"],
    ["bus", "train", "buses", "trains"],
  ],
  [["two factor", "2fa"], ["two-factor"]],
  // The front desk is the reception; outside is outdoors; a package or bundle of visits is a pack.
  [["front desk", "front counter"], ["reception"]],
  [["outside"], ["outdoor", "outdoors"]],
  [
    ["package", "packages", "bundle", "bundles"],
    ["pack", "packs"],
  ],
  // Medicine is a treatment or a preventive; snow means winter; a car that broke down needs roadside help.
  [
    ["medication", "medications", "medicine", "medicines"],
    ["treatment", "preventive"],
  ],
  [["snow"], ["winter"]],
  [
    ["broke down", "broken down", "break down", "breaks down", "breakdown"],
    ["roadside", "breakdown"],
  ],
  // Heat is hot weather; warm or cold water is its temperature or heating; a tummy bug is diarrhoea or vomiting.
  [["heat", "heatwave"], ["hot"]],
  [
    ["warm", "cold", "chilly"],
    ["heated", "temperature"],
  ],
  [
    ["tummy bug", "stomach bug", "gastro", "upset stomach", "tummy upset"],
    ["diarrhoea", "diarrhea", "vomiting"],
  ],
  // A laptop or monitor is the screen; a brother or sister is family ("families with two or more children").
  [
    ["laptop", "laptops", "monitor", "monitors", "tablet"],
    ["screen", "screens"],
  ],
  [
    ["sibling", "siblings", "brother", "brothers", "sister", "sisters"],
    ["family", "families", "second child"],
  ],
  // A parent, partner or grandparent is family ("bring a friend or family member into the room").
  [
    [
      "mum",
      "mom",
      "mam",
      "mother",
      "dad",
      "father",
      "parent",
      "parents",
      "wife",
      "husband",
      "partner",
      "gran",
      "granny",
      "grandma",
      "grandad",
      "grandpa",
      "cousin",
      "aunt",
      "uncle",
    ],
    ["family", "relative", "relatives"],
  ],
  // "Come out to the house" is a home visit.
  [["house"], ["home"]],
  // A tradesperson is named for the trade a price list or a service page writes ("whats ur hourly
  // rate for a plumber" ← "plumbing"; "a separate tiler and sparky" ← "tiling and electrics").
  [["plumber", "plumbers"], ["plumbing"]],
  [
    ["electrician", "electricians", "sparky", "sparkie", "sparkies"],
    ["electrics", "electrical", "electric", "wiring"],
  ],
  [
    ["tiler", "tilers"],
    ["tiling", "tiles", "tiled"],
  ],
  [
    ["plasterer", "plasterers"],
    ["plastering", "plaster"],
  ],
  [
    ["roofer", "roofers"],
    ["roofing", "roof"],
  ],
  [
    ["joiner", "joiners", "carpenter", "carpenters", "chippy"],
    ["joinery", "carpentry"],
  ],
  [
    ["decorator", "decorators", "painter", "painters"],
    ["decorating", "painting"],
  ],
  [
    ["gardener", "gardeners"],
    ["gardening", "garden"],
  ],
  // Ales, lagers and stouts are beers; a bottle or glass of red is wine.
  [
    ["ale", "ales", "lager", "lagers", "stout", "ipa", "pilsner", "pint", "pints", "craft beer"],
    ["beer", "beers", "brewery", "breweries"],
  ],
  [
    ["bottle of red", "bottle of white", "glass of red", "glass of white", "bottle of rose", "glass of rose"],
    ["wine", "wines"],
  ],
  // "im between a medium and a large": the size names of a size guide.
  [
    ["medium", "large", "xl", "xxl", "xs", "extra large", "extra small"],
    ["size", "sizes", "sizing"],
  ],
  // Upstairs, stairs and lifts: how a building says it can be reached ("is it upstairs" ← "on the ground floor").
  [
    ["upstairs", "downstairs", "stairs", "first floor", "second floor"],
    ["ground floor", "floor", "lift", "step free", "steps", "level access"],
  ],
  // A first visit or order is a new customer's ("first time coming to yous" ← "New patients should arrive…").
  // Not "first appointment" or "first visit": those are priced as an initial one.
  [
    ["first time", "first order"],
    ["new patients", "new patient", "new customers", "new customer", "new clients", "new client", "new members", "new member"],
  ],
  // "do i have to get rid of it meself" ← "we take the old boiler away and recycle it".
  [
    ["get rid of", "getting rid of", "dispose of", "disposal"],
    ["take away", "takes away", "recycle", "dispose", "disposal", "remove"],
  ],
  // Eating is a meal of some kind ("something for her to eat in the morning" ← breakfast).
  [
    ["eat", "eating"],
    ["breakfast", "meal", "meals", "food", "menu"],
  ],
  // A clinic is what a practice or a centre is called ("parking at the clinic" ← "Hollybank Veterinary Centre").
  [["clinic"], ["practice", "surgery", "centre", "center"]],
  // Cycling is done on a bike (one way: a campsite's "cycling routes" do not hire out bikes).
  [
    ["cycling", "cyclist", "cyclists", "biking"],
    ["bike", "bikes", "bicycle", "bicycles"],
  ],
  // A change of mind is what a returns policy answers; getting out of a plan is cancelling it.
  [
    ["changed my mind", "change my mind", "change of mind", "changed our mind"],
    ["return", "returns", "refund"],
  ],
  [
    ["get out of", "getting out of", "back out of", "pull out of"],
    ["cancel", "cancellation", "leave"],
  ],
  // Cola and lemonade are soft drinks ("anything other than water or coke").
  [
    ["coke", "cola", "pepsi", "lemonade", "fizzy drink", "fizzy drinks"],
    ["soft drink", "soft drinks", "alcohol free", "non alcoholic"],
  ],
  // A skip takes the old one away ("do i need to hire a skip" ← "we take the old boiler away").
  [
    ["skip", "skips"],
    ["take away", "takes away", "dispose", "disposal", "recycle"],
  ],
  // Having a room or a kitchen redone is a refit ("how long will we be without a bathroom if we get it redone").
  [
    ["redone", "redo", "redoing", "done up", "renovate", "renovated", "renovation", "refit", "revamp"],
    ["fit", "fitted", "install", "installed", "complete"],
  ],
  // A trade's professional body is the institute or association it is a member of ("which professional
  // body do you belong to" ← "we are members of the Chartered Institute of …").
  [
    ["professional body", "trade body", "trade association", "professional association", "governing body", "trade organisation"],
    ["member", "members", "institute", "association", "federation", "accredited"],
  ],
  // Being locked into a plan is its minimum term ("can i quit whenever or is there a lock in").
  [
    ["lock in", "locked in", "lock-in", "tie in", "tied in", "tie-in", "locked into", "tied into"],
    ["contract", "minimum", "cancel", "notice"],
  ],
  // Staying in the room on the last morning is check-out ("whats the latest we can stay in the room").
  [
    ["leave the room", "out of the room", "vacate", "vacate the room", "last morning", "final morning", "stay in the room"],
    ["check out", "checkout", "check-out"],
  ],
  // Looking around a place first is a visit ("can we come have a look around first" ← "a happy visit").
  [
    ["look around", "look round", "have a look around", "have a look round", "show us around", "show me around", "show us round"],
    ["visit", "visits", "tour", "tours"],
  ],
  // "would that be too far for you to come?" ← "within about 20 miles of our yard".
  [
    ["too far", "that far", "this far", "far out"],
    ["miles", "area", "distance", "radius"],
  ],
  // Being sent a bill is how and when to pay ("do i have to pay on the day or can you send me a bill").
  [
    ["send me a bill", "send a bill", "send the bill", "bill me", "invoice me", "pay later"],
    ["payment", "pay", "due"],
  ],
  // Somewhere safe for bikes is a locked shed ("is there somewhere safe to put the bikes overnight").
  [
    ["safe", "secure", "securely", "safely"],
    ["locked", "lock", "lockable"],
  ],
  [["overnight"], ["night"]],
  // A trade that is "just a one man band" has a team of some size ("family business … with six engineers").
  [
    ["one man band", "one-man band", "one man operation"],
    ["engineers", "team", "staff", "employees"],
  ],
  // Sending something to someone is delivering it ("sending a jumper to my brother in manchester").
  [
    ["send", "sending"],
    ["delivery", "deliver", "shipping", "ship", "post", "postage"],
  ],
  // An item worn once is no longer unworn ("i wore the jumper once, can i return it").
  [
    ["wore", "wearing"],
    ["worn", "unworn", "wear"],
  ],
  // Hunger before an operation is eating ("can my cat have her breakfast, she gets grumpy when hungry").
  [
    ["hungry", "starving"],
    ["eat", "food"],
  ],
  // A deleted thing "brought back" is restored ("can it be brought back?" ← "can be restored for 30 days").
  [
    ["brought back", "bring back"],
    ["restore", "restored", "recover"],
  ],
  // Water outside a window is the sea, a lake or a river ("rooms looking out at the water" ← "sea-view double").
  [["water"], ["sea", "lake", "river", "harbour"]],
  // A drink before an operation ← "must not eat after 8 pm … water is fine". (Not breakfast → eat:
  // it answered "Do you serve breakfast?" from a restaurant's food lines.)
  [["drink", "drinks"], ["water"]],
  // Losing the money on a cancelled booking is losing the deposit or the refund.
  [
    ["lose the money", "lose our money", "lose my money", "lose the deposit"],
    ["deposit", "refund", "kept"],
  ],
  // "do i pay for it" is answered by "free".
  [["pay", "paying"], ["free"]],
  [["money back", "refund"], ["refunds"]],
  [["work", "working", "open"], ["open"]],
  [["kids menu", "childrens menu", "children menu"], ["children's menu"]],
];

const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    // "can't make it" is not "can make it": the negation stays ("cannot", "do not").
    .replace(/\bcan['’]t\b/g, "cannot")
    .replace(/\bwon['’]t\b/g, "will not")
    .replace(/n['’]t\b/g, " not")
    .replace(/['’](s|t|re|ve|ll|d|m)\b/g, "")
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * `weak`: targets that are weaker evidence than a synonym — a wider thing (England → kingdom) or
 * the head word of a multi-word member ("send back" → "send", "alcohol-free" → "free").
 */
type Entry = { phrase: string[]; targets: string[]; weak: Set<string>; phrases: string[][]; heads: Set<string> };
/** First word → entries starting with it, longest phrase first. */
const INDEX = new Map<string, Entry[]>();
/** Question-shaped members ("how much") are matched in questions but never searched for. */
const QUESTION_ONLY = new Set(["how", "where", "what", "when", "who"]);
function add(phrase: string[], all: string[][], broader = false) {
  if (!phrase.length) return;
  // A multi-word member is searched by its head, the last content word ("send back" → "send",
  // "alcohol-free" → "free", "united kingdom" → "kingdom"): looking for each of its words would
  // find everything about any of them.
  const full = new Set<string>();
  const weak = new Set<string>();
  const heads = new Set<string>();
  for (const t of all) {
    if (QUESTION_ONLY.has(t[0])) continue;
    const w = t.length > 1 ? headOf(t) : t[0];
    if (!w) continue;
    if (broader || t.length > 1) weak.add(w);
    else full.add(w);
    if (!broader && t.length > 1) heads.add(w);
  }
  for (const w of full) {
    weak.delete(w);
    heads.delete(w);
  }
  // Multi-word synonyms as written ("alcohol free" for "non alcoholic"): where the knowledge has the
  // whole phrase, it is as good as the question's word; only its head alone is weak.
  // A member that is one content word with function words ("a month" for "monthly", "in advance")
  // is kept as written: "£16 a month" writes it in full, where "12 months" does not.
  const phrases = broader
    ? []
    : all
        .filter((t) => t.length > 1 && !QUESTION_ONLY.has(t[0]))
        .map((t) => {
          const content = t.filter((w) => !FUNCTION_WORDS.has(w));
          return content.length === 1 ? t : content;
        });
  const list = INDEX.get(phrase[0]) ?? [];
  const same = list.find((e) => e.phrase.join(" ") === phrase.join(" "));
  if (same) {
    for (const p of phrases) if (p.length > 1 && !same.phrases.some((x) => x.join(" ") === p.join(" "))) same.phrases.push(p);
    for (const w of heads) if (!same.targets.includes(w) || same.heads.has(w)) same.heads.add(w);
    for (const w of full) same.heads.delete(w);
    for (const w of weak) if (!heads.has(w)) same.heads.delete(w);
    for (const w of full) {
      if (!same.targets.includes(w)) same.targets.push(w);
      same.weak.delete(w);
    }
    for (const w of weak) {
      if (same.targets.includes(w)) continue;
      same.targets.push(w);
      same.weak.add(w);
    }
  } else list.push({ phrase, targets: [...full, ...weak], weak, phrases: phrases.filter((p) => p.length > 1), heads });
  list.sort((a, b) => b.phrase.length - a.phrase.length);
  INDEX.set(phrase[0], list);
}
for (const group of SYNONYMS) {
  const members = group.map(norm).filter((m) => m.length);
  for (const m of members)
    add(
      m,
      members.filter((x) => x.join(" ") !== m.join(" ")),
    );
}
for (const [from, to] of BROADER) {
  const targets = to.map(norm);
  for (const f of from)
    add(
      norm(f),
      targets.filter((t) => t.join(" ") !== norm(f).join(" ")),
      true,
    );
}

/** British/American spelling variants of a word (organise/organize, colour/color, centre/center, cancelled/canceled). */
export function spellingVariants(w: string): string[] {
  const out: string[] = [];
  const swap = (re: RegExp, to: string) => {
    if (re.test(w)) out.push(w.replace(re, to));
  };
  swap(/is(e|ed|es|ing|ation|ations|er|ers)$/, "iz$1");
  swap(/iz(e|ed|es|ing|ation|ations|er|ers)$/, "is$1");
  swap(/our(s|ed|ing|ite|ites)?$/, "or$1");
  swap(/([^aeiou])tre(s)?$/, "$1ter$2");
  swap(/([^aeiou])ter(s)?$/, "$1tre$2");
  swap(/([aeiou])ll(ed|ing|er|ers)$/, "$1l$2");
  swap(/([aeiou])l(ed|ing|er|ers)$/, "$1ll$2");
  swap(/ogue$/, "og");
  return out.filter((x) => x !== w);
}

/**
 * The words of a question as customers write them, normalised: lowercased, accents folded, chat
 * spelling expanded ("whats ur" → "what is your"), "US"/"U.S." read as the country before
 * lowercasing makes it the pronoun.
 */
/** Chat spellings kept as written before these words: "wi fi" is wifi, not Scots "with"; "n ireland" is Northern Ireland. */
const KEPT_BEFORE: Record<string, string> = { wi: "fi", n: "ireland", sat: "nav" };

export function questionWords(text: string): string[] {
  const marked = text.replace(/\bU\.?S\.?A?\b\.?/g, " usa ").replace(/\bU\.?K\b\.?/g, " uk ");
  const out: string[] = [];
  const raw = norm(marked);
  // "wait so is breakfast included", "wait, how long is it": an interjection, not waiting.
  if (raw[0] === "wait" && (raw[1] === "so" || /^\s*wait\s*[,.!:-]/i.test(text))) raw.shift();
  for (const [i, w] of raw.entries()) {
    // "for people like me" is the asker ("is there anything you can do for people like me").
    if (ASKER_LIKE.has(w) && raw[i + 1] === "like" && ASKER.has(raw[i + 2] ?? "")) continue;
    // "next week", "next month": when the customer's story happens, not what it asks about. ("Last
    // week" stays: a follow-up within 14 days hangs on it.)
    if (STORY_SPANS.has(w) && STORY_WHEN.has(raw[i - 1] ?? "")) continue;
    const after = CHAT_SPELLING_AFTER[w];
    const prev = out.at(-1) ?? "";
    const afterDay = after?.afterDay && LINKS.has(prev) && WEEKDAYS.has(out.at(-2) ?? "");
    const kept = KEPT_BEFORE[w] !== undefined && raw[i + 1] === KEPT_BEFORE[w];
    const spelled = after ? (/^\d/.test(prev) || after.after.has(prev) || afterDay ? after.unit : after.otherwise) : kept ? undefined : CHAT_SPELLING[w];
    if (spelled) out.push(...spelled.split(" "));
    else out.push(w);
  }
  return out;
}

export type LexicalSlot = {
  /** The question's own word (the first content word of a matched phrase). */
  word: string;
  /** Other words that count as this one: synonyms, broader terms, spelling variants. */
  alternatives: string[];
  /** The question's other words that the matched phrase consumed ("money back" → "back"). */
  consumed: string[];
  /** Alternatives that are weaker evidence: something wider (England → kingdom), or a phrase's head word. */
  broader?: string[];
  /** The content words of the phrase this slot was read from ("northern ireland"): the slot's own word alone is weak evidence. */
  phrase?: string[];
  /** Multi-word synonyms in full ("alcohol free" for "non alcoholic"): the whole phrase counts as the word. */
  synonymPhrases?: string[][];
  /** Alternatives that are only the head of such a phrase ("drink" of "soft drink"), nothing else. */
  phraseHeads?: string[];
  /** Alternatives from the general thesaurus (the lexicon does not know the word): weak, listed in `broader` too. */
  thesaurus?: string[];
};

/**
 * Other forms of a word that stemming does not reach: a plural in -ves and its singular in -f/-fe
 * ("scarves" ↔ "scarf", "knives" ↔ "knife": Porter gives "scarv" and "scarf"), and the negated
 * participle in "un-" ("worn" → "unworn": "can I return a jumper I've worn" is answered by "return
 * unworn items"). ADR 046. A word in -us and its plural in -uses ("bus" ↔ "buses"), which stemming
 * also parts.
 */
export function formVariants(w: string): string[] {
  if (!/^\p{L}+$/u.test(w)) return [];
  // Porter stems "bus" to "bu" but "buses" to "buse", "bonus" to "bonu" but "bonuses" to "bonus".
  if (/[^o]us$/.test(w)) return [w + "es"];
  if (w.length >= 6 && /[^o]uses$/.test(w)) return [w.slice(0, -2)];
  if (w.length < 4) return [];
  const out: string[] = [...superlativeBases(w)];
  if (w.endsWith("ves")) out.push(w.slice(0, -3) + "f", w.slice(0, -3) + "fe");
  else if (w.endsWith("fe")) out.push(w.slice(0, -2) + "ves");
  else if (w.endsWith("f") && !w.endsWith("ff")) out.push(w.slice(0, -1) + "ves");
  // Only participles and adjectives ("worn", "washed", "opened"): "limit" is not "unlimited".
  if (!w.startsWith("un") && /(ed|wn|rn)$/.test(w)) out.push("un" + w);
  return out;
}

/** Words in -est that are not superlatives (the length test already spares best, rest, test, west…). */
const NOT_SUPERLATIVE = new Set(
  (
    "guest request interest suggest forest harvest honest modest invest protest contest digest arrest priest manifest inquest conquest " +
    "behest tempest attest detest infest ingest congest molest earnest"
  ).split(" "),
);
/**
 * The adjective a superlative is made from, which Porter stemming keeps apart ("cheapest" and
 * "cheap", "latest" and "late"): a doubled consonant undone ("biggest" → "big"), -iest → -y
 * ("earliest" → "early"), else the stem with and without a final e ("latest" → "lat", "late"). ADR 050.
 */
export function superlativeBases(w: string): string[] {
  if (w.length < 6 || !w.endsWith("est") || NOT_SUPERLATIVE.has(w)) return [];
  const base = w.slice(0, -3);
  if (base.endsWith("i")) return [base.slice(0, -1) + "y"];
  if (/([b-df-hj-np-tv-z])\1$/.test(base)) return [base.slice(0, -1)];
  return [base, base + "e"];
}

/** A slot for a word the lexicon does not know: its spelling variants and other forms, and the thesaurus's words for it as weak alternatives. */
function plainSlot(w: string, isStop: (w: string) => boolean): LexicalSlot {
  const forms = formVariants(w);
  const alternatives = [...spellingVariants(w), ...forms];
  // The negated form is weak evidence: it is about the word, not the same thing.
  const negated = forms.filter((f) => f.startsWith("un") && !w.startsWith("un"));
  const entry = isLightWord(w) ? undefined : thesaurusEntry(w);
  const thesaurus = entry ? [...entry.synonyms, ...entry.broader].filter((a) => a !== w && !isStop(a) && !isLightWord(a) && !alternatives.includes(a)) : [];
  if (!thesaurus.length) return { word: w, alternatives, consumed: [], ...(negated.length ? { broader: negated } : {}) };
  return { word: w, alternatives: [...alternatives, ...thesaurus], consumed: [], broader: [...negated, ...thesaurus], thesaurus };
}

/** "up to 8 people" is a maximum; "hook it up to zapier" is not. */
const AMOUNT_NEXT = /^(\d|how$|what$|a$|an$|one$|two$|three$|four$|five$|six$|seven$|eight$|nine$|ten$|twelve$|twenty$|fifty$|hundred$)/;

/**
 * The question as slots: one per content word, each with the words that may stand for it in the
 * knowledge. `isStop` says which words carry no topic (each caller has its own list). A matched
 * phrase ("send back", "money back") is one slot.
 */
export function lexicalSlots(text: string, isStop: (w: string) => boolean): LexicalSlot[] {
  const ws = questionWords(text);
  const slots: LexicalSlot[] = [];
  for (let i = 0; i < ws.length;) {
    // "how long can a password be" asks for a length, not a duration.
    const shape = QUESTION_SHAPES.find((q) => q.every((p, j) => ws[i + j] === p) && !(q[1] === "long" && MODALS.has(ws[i + 2])));
    if (shape) {
      i += shape.length;
      continue;
    }
    // "the cheapest membership", "the latest I can come in": a superlative the lexicon does not know
    // is read as its adjective when the lexicon knows that (cheap, late). ADR 050.
    if (!INDEX.has(ws[i])) {
      const base = superlativeBases(ws[i]).find((b) => INDEX.has(b));
      if (base) ws[i] = base;
    }
    const entries = INDEX.get(ws[i]) ?? [];
    // "up to" is a maximum only before an amount.
    const upTo = ws[i] === "up" && ws[i + 1] === "to";
    let hit = entries.find((e) => e.phrase.every((p, j) => ws[i + j] === p) && !(upTo && e.phrase.length === 2 && !AMOUNT_NEXT.test(ws[i + 2] ?? "")));
    // A single word's own entry ("send" → delivery) gives way to its phrase with a particle ("send it back").
    if (!hit || hit.phrase.length === 1) {
      // "send it back", "send the jumper back": a two-word phrase ending in a particle, with at most two words between.
      for (const e of entries) {
        if (e.phrase.length !== 2 || !PARTICLES.has(e.phrase[1])) continue;
        const at = [2, 3].find((g) => ws[i + g] === e.phrase[1]);
        if (at !== undefined) {
          // Words in the gap are the object ("the jumper"); "something", "stuff", "it" say nothing.
          const between = ws.slice(i + 1, i + at).filter((w) => !isStop(w) && !isLightWord(w));
          slots.push(...between.map((w) => plainSlot(w, isStop)));
          ws.splice(i + 1, at - 1);
          hit = e;
          break;
        }
      }
    }
    if (hit) {
      const content = hit.phrase.filter((w) => !isStop(w));
      const alternatives = new Set<string>();
      for (const w of hit.targets) if (!isStop(w) && !content.includes(w)) alternatives.add(w);
      const broader = [...alternatives].filter((w) => hit!.weak.has(w));
      if (content.length) {
        for (const c of content) for (const v of spellingVariants(c)) alternatives.add(v);
        const head = headOf(content) ?? content[0];
        slots.push({
          word: head,
          alternatives: [...alternatives],
          consumed: content.filter((w) => w !== head),
          broader,
          ...(content.length > 1 && alternatives.size ? { phrase: content } : {}),
          ...(hit.phrases.length
            ? { synonymPhrases: hit.phrases.filter((p) => p.join(" ") !== content.join(" ")), phraseHeads: [...alternatives].filter((w) => hit!.heads.has(w)) }
            : {}),
        });
      } else if (alternatives.size && hit.phrase.length > 1) {
        // A phrase of function words only ("how much") still says what is asked.
        const [first, ...rest] = [...alternatives];
        slots.push({ word: first, alternatives: rest, consumed: [], broader });
      }
      i += hit.phrase.length;
      continue;
    }
    const w = ws[i];
    if (!isStop(w)) slots.push(plainSlot(w, isStop));
    i++;
  }
  // One slot per word: a repeated word (or a synonym of an earlier slot's word) adds nothing.
  const seen = new Set<string>();
  return slots.filter((s) => {
    if (seen.has(s.word)) return false;
    seen.add(s.word);
    return true;
  });
}
