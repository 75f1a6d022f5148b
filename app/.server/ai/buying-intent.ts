import { normalizeWords, SMALL_TALK_LANGUAGES, type SmallTalkLanguage } from "./small-talk";

// Buying intent in the visitor's own words — asking for a price, a quote, a demo or trial, to buy, or
// to be contacted — recognised without a model, in the five languages small-talk.ts knows. The answer
// engine uses it to offer the lead form (the "collect lead" step, ai/tools/collect-lead.ts) next to
// its answer, and to reply with that offer instead of "I don't know" when the knowledge has nothing.
//
// A question that merely mentions a price is not intent: "How much is delivery to England?" or "How
// much is a boiler service?" ask about one thing, and are answered from the knowledge with no offer
// (when the knowledge has no answer, the fallback offers the form as before). Only a question about
// the price in general ("What are your prices?", "How much does it cost?") is; a request for a quote,
// a demo, to buy or to be called counts whatever it is about.

export type BuyingIntentKind = "contact" | "quote" | "demo" | "buy" | "price";
export type BuyingIntent = { kind: BuyingIntentKind; lang: SmallTalkLanguage | null };

/** `also`: words that must be there too (a quote is intent when asked for, not "how long is a quote valid"). */
type Rule = { kind: BuyingIntentKind; lang: SmallTalkLanguage | null; re: RegExp; also?: RegExp };

/** Patterns over the normalised text (lowercase, no accents, words joined by one space). */
const w = (source: string) => new RegExp(`(?:^| )(?:${source})(?: |$)`);

const RULES: Rule[] = [
  // ——— English ———
  {
    kind: "contact",
    lang: "en",
    re: w(
      "(?:contact|call|phone|ring|email|e mail|text|reach|message) me(?: back)?|call me back|get back to me|get in touch with me|reach out to me|" +
        "(?:talk|speak|chat) (?:to|with) (?:sales|your sales(?: team)?|the sales(?: team)?|a sales(?:person| rep| representative)?|someone|somebody|a (?:sales )?rep|a representative|an advisor|an adviser|a consultant)|" +
        "(?:have|can|could) (?:someone|somebody|you|your team) (?:call|contact|phone|ring|email) me|(?:request|book|arrange|schedule) a (?:call|callback|call back)|callback",
    ),
  },
  {
    kind: "quote",
    lang: "en",
    re: w("quote|quotes|quotation|quotations|estimate"),
    also: w("get|give|send|request|want|need|like|provide|prepare|free|please|have|ask for|(?:quote|quotation|estimate) for"),
  },
  {
    kind: "demo",
    lang: "en",
    re: w(
      "demo|demos|demonstration|(?:book|schedule|arrange|get|request|want|see|start|try|like|need) (?:a |the |your |an )?(?:free |product |live )?(?:demo|trial|walkthrough)",
    ),
  },
  {
    kind: "buy",
    lang: "en",
    re: w(
      "(?:i|we) (?:want|would like|d like|wish|need|am ready|re ready|are ready|m ready) to (?:buy|order|purchase|subscribe|sign up|hire|book you)|interested in (?:buying|purchasing|ordering|your (?:product|products|service|services|offer|plans?))|ready to (?:buy|order|purchase)",
    ),
  },
  {
    kind: "price",
    lang: "en",
    re: w(
      "pricing|price|prices|price list|cost|costs|rates|fee|fees|how much (?:does|do|is|are|would|will|for|it|to|you)|what do you charge|do you charge|your charges|how expensive",
    ),
  },
  // ——— French ———
  {
    kind: "contact",
    lang: "fr",
    re: w(
      "contactez moi|contacte moi|rappelez moi|rappelle moi|appelez moi|appelle moi|me contacter|me rappeler|m appeler|me recontacter|etre (?:contacte|contactee|rappele|rappelee)|" +
        "parler (?:a|avec) (?:un|une) (?:commercial|commerciale|conseiller|conseillere|vendeur|vendeuse)|parler au service commercial|service commercial",
    ),
  },
  {
    kind: "quote",
    lang: "fr",
    re: w("devis"),
    also: w("demander|demande|obtenir|recevoir|avoir|faire|envoyer|envoyez|voudrais|veux|aimerais|souhaite|souhaitons|gratuit|pour|svp|besoin"),
  },
  { kind: "demo", lang: "fr", re: w("demo|demonstration|essai gratuit|version d essai|periode d essai") },
  {
    kind: "buy",
    lang: "fr",
    re: w(
      "(?:je veux|je voudrais|j aimerais|je souhaite|nous souhaitons|nous voudrions) (?:acheter|commander|souscrire|m abonner)|interesse par|interessee par",
    ),
  },
  {
    kind: "price",
    lang: "fr",
    re: w("prix|tarif|tarifs|tarification|cout|couts|combien (?:coute|coutent|ca coute|cela coute|c est|pour|ca fait|faut il payer)"),
  },
  // ——— German ———
  {
    kind: "contact",
    lang: "de",
    re: w(
      "kontaktieren sie mich|kontaktiert mich|kontaktier mich|rufen sie mich(?: bitte)? (?:an|zuruck)|ruf mich(?: bitte)? (?:an|zuruck)|ruckruf|melden sie sich(?: bitte)? bei mir|" +
        "mit (?:dem vertrieb|einem berater|einer beraterin|jemandem|einem verkaufer|ihrem vertrieb) (?:sprechen|reden)",
    ),
  },
  {
    kind: "quote",
    lang: "de",
    re: w("kostenvoranschlag|angebot"),
    also: w("mochte|mochten|hatte|brauche|benotige|bekommen|erhalten|anfordern|schicken|senden|erstellen|bitte|kostenloses|unverbindliches|fur"),
  },
  { kind: "demo", lang: "de", re: w("demo|vorfuhrung|testversion|probeversion|testphase|kostenlos testen") },
  {
    kind: "buy",
    lang: "de",
    re: w("(?:ich|wir) (?:mochte|mochten|will|wollen|wurde gerne|wurden gerne)(?: \\S+){0,4} (?:kaufen|bestellen|buchen|abonnieren)"),
  },
  { kind: "price", lang: "de", re: w("preis|preise|preisliste|kosten|kostet|was kostet|wie viel kostet|wieviel kostet|wie teuer|gebuhr|gebuhren") },
  // ——— Spanish ———
  {
    kind: "contact",
    lang: "es",
    re: w(
      "contactenme|contactame|contactarme|llamenme|llamame|llamarme|me (?:llamen|llamais|contacten|contactais|pueden llamar|puede llamar)|" +
        "hablar con (?:ventas|el equipo de ventas|un comercial|una comercial|un asesor|una asesora|un vendedor|alguien)",
    ),
  },
  {
    kind: "quote",
    lang: "es",
    re: w("presupuesto|presupuestos|cotizacion|cotizaciones"),
    also: w(
      "pedir|solicitar|quiero|quisiera|gustaria|necesito|obtener|recibir|enviar|enviarme|mandar|mandarme|dar|darme|gratis|gratuito|sin compromiso|para|por favor",
    ),
  },
  { kind: "demo", lang: "es", re: w("demo|demostracion|prueba gratuita|prueba gratis|version de prueba|periodo de prueba") },
  { kind: "buy", lang: "es", re: w("(?:quiero|quisiera|me gustaria|queremos) (?:comprar|contratar|pedir|encargar|suscribirme)|interesado en|interesada en") },
  { kind: "price", lang: "es", re: w("precio|precios|tarifa|tarifas|coste|costo|costos|cuanto (?:cuesta|cuestan|vale|valen|cobran|cobrais|es|sale)") },
  // ——— Polish ———
  {
    kind: "contact",
    lang: "pl",
    re: w(
      "skontaktujcie sie ze mna|skontaktuj sie ze mna|prosze o kontakt|prosze o telefon|zadzwoncie do mnie|zadzwon do mnie|oddzwoncie|oddzwon|" +
        "(?:porozmawiac|rozmawiac|rozmowa) z (?:handlowcem|konsultantem|doradca|dzialem sprzedazy|kims)",
    ),
  },
  {
    kind: "quote",
    lang: "pl",
    re: w("wycena|wyceny|wycene|oferte"),
    also: w("prosze|chce|chcialbym|chcialabym|potrzebuje|mozna|moge|przygotowac|przeslac|otrzymac|dostac|bezplatna|darmowa"),
  },
  { kind: "demo", lang: "pl", re: w("demo|demonstracja|demonstracje|prezentacja|prezentacje|wersja probna|wersje probna|okres probny") },
  { kind: "buy", lang: "pl", re: w("(?:chce|chcialbym|chcialabym|chcemy) (?:kupic|zamowic|wykupic|zamowic|zatrudnic)|zainteresowany|zainteresowana") },
  {
    kind: "price",
    lang: "pl",
    re: w("cena|ceny|cene|cennik|cennika|koszt|koszty|kosztuje|kosztuja|ile kosztuje|ile kosztuja|ile to kosztuje|ile placi|oplata|oplaty"),
  },
];

/**
 * Side costs of buying: a price question about one of these ("How much is delivery to England?",
 * "Is there a fee for returns?") is a question for the knowledge, not a wish to buy.
 */
const SIDE_COSTS = new Set(
  // en
  (
    "delivery deliveries deliver delivered shipping ship shipped postage post posting courier return returns returning refund refunds exchange exchanges " +
    "parking park tax taxes vat customs duty duties cancellation cancel cancelling canceling late lateness deposit wrapping wrap surcharge card cards " +
    "payment paying overdraft interest penalty penalties replacement repair repairs " +
    // fr
    "livraison livraisons livrer port expedition envoi retour retours remboursement echange stationnement taxe taxes tva douane douanes annulation acompte " +
    // de
    "lieferung versand porto ruckversand rucksendung ruckgabe erstattung umtausch parken parkplatz steuer steuern mwst zoll stornierung anzahlung " +
    // es
    "envio envios entrega entregas devolucion devoluciones reembolso cambio cambios aparcamiento estacionamiento impuesto impuestos iva aduana cancelacion deposito " +
    // pl
    "dostawa dostawy dostawe wysylka wysylki wysylke przesylka przesylki zwrot zwrotu zwroty wymiana parkingu podatek clo anulowanie kaucja"
  ).split(/\s+/),
);

/** Common words of each language, to tell which language a shared word ("demo") was written in. */
const HINTS: Record<SmallTalkLanguage, Set<string>> = {
  en: new Set("i we you a an the to of and is can could would like want me my your please for get".split(" ")),
  fr: new Set("je nous vous un une le la les de des du et est pour pouvez voudrais moi votre svp".split(" ")),
  de: new Set("ich wir sie ein eine einen der die das und ist fur mochte bitte mir mich ihr".split(" ")),
  es: new Set("yo quiero una un el la los las de del y es para por favor me mi su".split(" ")),
  pl: new Set("ja chce chcialbym chcialabym prosze o na i w z do dla mnie czy".split(" ")),
};

/**
 * Words a general price question is made of ("What are your prices?", "How much does it cost?",
 * "Combien ça coûte ?"): question and function words, price words, and generic names of what is
 * sold. A price question with any other word asks about one thing ("How much is a boiler
 * service?"): an ordinary question for the knowledge, answered without an offer.
 */
const GENERAL_PRICE_WORDS = new Set(
  // en
  (
    "what whats s is are was were does do did would will could can how much much many it its this that these those your you yours our we us they them " +
    "the a an and or of for to me my i im m just roughly approximately approx typically usually generally overall exactly current currently please tell " +
    "know want like get give send see have has about on ll d pricing price prices list cost costs rates fee fees charge charges expensive " +
    "product products service services plan plans package packages offer offers subscription subscriptions option options tier tiers solution membership " +
    "per month monthly year yearly annual annually week weekly hour hourly " +
    // fr
    "le la les un une des du de et est quel quelle quels quelles sont vos votre vous nous ce cela ca c combien cout couts coute coutent prix tarif tarifs tarification " +
    "produit produits offre offres abonnement formule formules pour s il plait svp je me m par mois an heure " +
    // de
    "was wie viel wieviel kostet kosten der die das ein eine ihre ihr sie preis preise preisliste ist sind es produkt produkte dienst dienstleistung " +
    "dienstleistungen angebot abo paket pakete fur bitte mir ich pro monat jahr stunde teuer gebuhr gebuhren " +
    // es
    "cuanto cuesta cuestan vale valen cobran cobrais sale precio precios tarifa tarifas coste costo costos el los las una del y son sus su que cual cuales " +
    "producto productos servicio servicios planes oferta suscripcion para por favor mi al mes ano hora " +
    // pl
    "ile kosztuje kosztuja cena ceny cene cennik cennika koszt koszty jaka jakie jaki jest sa to za wasz wasze wasza wasi usluga uslugi plany " +
    "abonament pakiet prosze o mnie czy miesiac rok godzine godzina oplata oplaty placi"
  ).split(/\s+/),
);

/** Messages longer than this are not read for intent: a pasted document is not a request to buy. */
const MAX_WORDS = 60;

/**
 * The buying intent in a visitor message, or null. Requests (contact, quote, demo, buy) win over
 * price questions; a price question about a side cost (delivery, returns…) is not intent.
 */
export function detectBuyingIntent(text: string): BuyingIntent | null {
  const words = normalizeWords(text);
  if (!words.length || words.length > MAX_WORDS) return null;
  const flat = words.join(" ");
  const matched = RULES.filter((r) => r.re.test(flat) && (!r.also || r.also.test(flat)));
  const request = matched.find((r) => r.kind !== "price");
  // A price question counts only when it asks about the price in general, not about one thing or a side cost.
  const general = !words.some((x) => SIDE_COSTS.has(x)) && words.every((x) => GENERAL_PRICE_WORDS.has(x));
  const kind: BuyingIntentKind | null = request ? request.kind : matched.length && general ? "price" : null;
  if (!kind) return null;
  // The language: the only one whose rules matched, else the one with most common words among those.
  const langs = [...new Set(matched.filter((r) => r.kind === kind).map((r) => r.lang))];
  const hits = (l: SmallTalkLanguage | null) => (l ? words.filter((x) => HINTS[l].has(x)).length : 0);
  const lang = langs.reduce((best, l) => (hits(l) > hits(best) ? l : best), langs[0]);
  return { kind, lang };
}

type Replies = { contact: string; price: string; demo: string; known: string };

/** What the bot says when the knowledge has no answer but the visitor wants to buy or be contacted. */
const REPLIES: Record<SmallTalkLanguage, Replies> = {
  en: {
    contact: "I'll pass this on to the team. Leave your contact details below and they will get back to you.",
    price: "The team can tell you the price for that. Leave your contact details below and they will get back to you with a quote.",
    demo: "The team will be glad to show you. Leave your contact details below and they will get back to you to arrange it.",
    known: "The team already has your contact details and will get back to you.",
  },
  fr: {
    contact: "Je transmets votre demande à l'équipe. Laissez vos coordonnées ci-dessous et elle vous recontactera.",
    price: "L'équipe peut vous indiquer le prix. Laissez vos coordonnées ci-dessous et elle vous enverra un devis.",
    demo: "L'équipe vous fera une démonstration avec plaisir. Laissez vos coordonnées ci-dessous et elle vous recontactera pour l'organiser.",
    known: "L'équipe a déjà vos coordonnées et vous recontactera.",
  },
  de: {
    contact: "Ich gebe das an das Team weiter. Hinterlassen Sie unten Ihre Kontaktdaten, dann meldet es sich bei Ihnen.",
    price: "Das Team nennt Ihnen gern den Preis. Hinterlassen Sie unten Ihre Kontaktdaten, dann erhalten Sie ein Angebot.",
    demo: "Das Team zeigt es Ihnen gern. Hinterlassen Sie unten Ihre Kontaktdaten, dann meldet es sich für einen Termin.",
    known: "Das Team hat Ihre Kontaktdaten bereits und meldet sich bei Ihnen.",
  },
  es: {
    contact: "Pasaré tu solicitud al equipo. Deja tus datos de contacto abajo y te responderán.",
    price: "El equipo puede darte el precio. Deja tus datos de contacto abajo y te enviarán un presupuesto.",
    demo: "El equipo te lo mostrará con gusto. Deja tus datos de contacto abajo y te contactarán para organizarlo.",
    known: "El equipo ya tiene tus datos de contacto y te responderá.",
  },
  pl: {
    contact: "Przekażę to zespołowi. Zostaw poniżej swoje dane kontaktowe, a zespół się z Tobą skontaktuje.",
    price: "Zespół poda Ci cenę. Zostaw poniżej swoje dane kontaktowe, a otrzymasz wycenę.",
    demo: "Zespół chętnie Ci to pokaże. Zostaw poniżej swoje dane kontaktowe, a zespół umówi się z Tobą.",
    known: "Zespół ma już Twoje dane kontaktowe i się z Tobą skontaktuje.",
  },
};

/**
 * The reply to buying intent the knowledge does not answer: the offer of the lead form (or, when the
 * visitor already left their details, that the team has them). In the chatbot's language when it is
 * one of the five, else the visitor's ("auto"), else English — like small talk.
 */
export function buyingIntentReply(intent: BuyingIntent, opts: { language: string; alreadyLeft: boolean }): string {
  const configured = SMALL_TALK_LANGUAGES.includes(opts.language as SmallTalkLanguage) ? (opts.language as SmallTalkLanguage) : null;
  const lang: SmallTalkLanguage = configured ?? (opts.language === "auto" ? (intent.lang ?? "en") : "en");
  const r = REPLIES[lang];
  if (opts.alreadyLeft) return r.known;
  return intent.kind === "price" || intent.kind === "quote" ? r.price : intent.kind === "demo" ? r.demo : r.contact;
}
