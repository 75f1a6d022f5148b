// Greetings, thanks, goodbyes, "who are you"… recognised without a model, so the orchestrator can
// tell small talk from a real question before deciding the bot "does not know", and the built-in
// engine can answer it. Phrases and replies exist in English, French, German, Spanish and Polish
// only: other chatbot languages get English small-talk replies (their answers from knowledge stay in
// the knowledge's own language).

export type SmallTalkKind = "identity" | "howareyou" | "thanks" | "bye" | "greeting" | "ack";
export type SmallTalkLanguage = "en" | "fr" | "de" | "es" | "pl";
export const SMALL_TALK_LANGUAGES: readonly SmallTalkLanguage[] = ["en", "fr", "de", "es", "pl"];

type Phrase = { kind: SmallTalkKind; lang: SmallTalkLanguage | null; words: string[] };

const PHRASES: Record<SmallTalkKind, Partial<Record<SmallTalkLanguage | "any", string[]>>> = {
  greeting: {
    en: ["hi", "hello", "hey", "hiya", "howdy", "good morning", "good afternoon", "good evening", "greetings", "yo"],
    fr: ["bonjour", "salut", "bonsoir", "coucou"],
    de: ["hallo", "guten tag", "guten morgen", "guten abend", "servus", "moin"],
    es: ["hola", "buenos dias", "buenas tardes", "buenas noches", "buenas"],
    pl: ["czesc", "dzien dobry", "witam", "witaj", "hej", "siema", "dobry wieczor"],
  },
  thanks: {
    en: [
      "thanks",
      "thank you",
      "thx",
      "ty",
      "cheers",
      "many thanks",
      "thanks a lot",
      "thank you so much",
      "thank you very much",
      "thanks so much",
      "much appreciated",
    ],
    fr: ["merci", "merci beaucoup", "merci bien"],
    de: ["danke", "danke schon", "danke sehr", "vielen dank"],
    es: ["gracias", "muchas gracias"],
    pl: ["dziekuje", "dzieki", "dziekuje bardzo", "dziekuje slicznie"],
  },
  bye: {
    en: ["bye", "goodbye", "bye bye", "see you", "see ya", "have a nice day", "have a good day", "good night"],
    fr: ["au revoir", "bonne journee", "a bientot", "bonne soiree"],
    de: ["tschuss", "auf wiedersehen", "bis bald", "schonen tag"],
    es: ["adios", "hasta luego", "chao", "hasta pronto"],
    pl: ["do widzenia", "pa", "na razie", "do zobaczenia", "milego dnia"],
  },
  identity: {
    en: [
      "who are you",
      "what are you",
      "what is your name",
      "whats your name",
      "what s your name",
      "are you a bot",
      "are you a robot",
      "are you human",
      "are you a human",
      "are you real",
      "are you an ai",
      "are you a person",
      "who am i talking to",
      "who am i speaking to",
      "what can you do",
      "how can you help",
      "how can you help me",
      "what do you do",
      "tell me about yourself",
    ],
    fr: ["qui es tu", "qui etes vous", "tu es qui", "es tu un robot", "etes vous un robot", "que peux tu faire", "comment tu t appelles"],
    de: ["wer bist du", "wer sind sie", "bist du ein bot", "bist du ein mensch", "was kannst du", "wie heisst du"],
    es: ["quien eres", "quien es usted", "eres un bot", "eres humano", "que puedes hacer", "como te llamas"],
    pl: ["kim jestes", "czy jestes botem", "jestes botem", "co potrafisz", "jak masz na imie", "czym jestes"],
  },
  howareyou: {
    en: [
      "how are you",
      "how are you doing",
      "how are you today",
      "how r u",
      "how are u",
      "how you doing",
      "how is it going",
      "hows it going",
      "how s it going",
      "hows your day",
      "how s your day",
      "how is your day",
      "how was your day",
      "hows your day going",
      "how s your day going",
      "how is your day going",
      "hows your day been",
      "how s your day been",
      "whats up",
      "what s up",
      "sup",
      "how do you do",
    ],
    fr: ["ca va", "comment ca va", "comment allez vous", "tu vas bien"],
    de: ["wie gehts", "wie geht s", "wie geht es dir", "wie geht es ihnen"],
    es: ["que tal", "como estas", "como esta", "como va"],
    pl: ["jak sie masz", "co slychac", "jak leci"],
  },
  ack: {
    any: ["ok", "okay", "ok thanks", "cool", "great", "nice", "perfect", "got it", "alright", "awesome", "good", "i see", "super", "sure"],
    fr: ["d accord", "parfait", "tres bien", "genial"],
    de: ["alles klar", "gut", "prima", "okay danke"],
    es: ["vale", "perfecto", "genial", "entendido"],
    pl: ["dobrze", "rozumiem", "jasne", "swietnie"],
  },
};

/** Words that may surround small talk without making it a question ("hi there", "thanks again"). */
const FILLER = new Set([
  "there",
  "again",
  "so",
  "much",
  "very",
  "a",
  "lot",
  "bot",
  "assistant",
  "please",
  "all",
  "everyone",
  "and",
  "oh",
  "well",
  "you",
  "for",
  "that",
  "the",
  "help",
  "your",
  "mate",
  "friend",
  "guys",
]);

const ALL: Phrase[] = Object.entries(PHRASES)
  .flatMap(([kind, byLang]) =>
    Object.entries(byLang).flatMap(([lang, list]) =>
      (list ?? []).map((p) => ({ kind: kind as SmallTalkKind, lang: lang === "any" ? null : (lang as SmallTalkLanguage), words: p.split(" ") })),
    ),
  )
  // Longest first, so "thank you very much" wins over "thank you".
  .sort((a, b) => b.words.length - a.words.length);

const PRIORITY: SmallTalkKind[] = ["identity", "howareyou", "thanks", "bye", "greeting", "ack"];

export function normalizeWords(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .replace(/ł/g, "l")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/**
 * The kind of small talk `text` is, or null when it carries a real question. Every word must be
 * part of a small-talk phrase, a filler word, or the bot's name.
 */
export function detectSmallTalk(text: string, botName = ""): { kind: SmallTalkKind; lang: SmallTalkLanguage | null } | null {
  const words = normalizeWords(text);
  if (!words.length || words.length > 12) return null;
  const nameWords = new Set(normalizeWords(botName));
  const kinds = new Set<SmallTalkKind>();
  let lang: SmallTalkLanguage | null = null;
  let i = 0;
  outer: while (i < words.length) {
    for (const p of ALL) {
      if (p.words.every((w, j) => words[i + j] === w)) {
        kinds.add(p.kind);
        lang ??= p.lang;
        i += p.words.length;
        continue outer;
      }
    }
    if (FILLER.has(words[i]) || nameWords.has(words[i])) {
      i++;
      continue;
    }
    return null;
  }
  const kind = PRIORITY.find((k) => kinds.has(k));
  return kind ? { kind, lang } : null;
}

const REPLIES: Record<SmallTalkLanguage, Record<SmallTalkKind, (name: string) => string>> = {
  en: {
    greeting: (n) => `Hi! I'm ${n}. How can I help you today?`,
    thanks: () => "You're welcome! Is there anything else I can help you with?",
    bye: () => "Goodbye, and thanks for stopping by!",
    identity: (n) =>
      `I'm ${n}, a virtual assistant. I answer questions from this website's knowledge base and show the sources I used. What would you like to know?`,
    howareyou: () => "I'm doing well, thanks for asking! What can I help you with?",
    ack: () => "Great! Let me know if you have any other question.",
  },
  fr: {
    greeting: (n) => `Bonjour ! Je suis ${n}. Comment puis-je vous aider ?`,
    thanks: () => "Avec plaisir ! Puis-je vous aider pour autre chose ?",
    bye: () => "Au revoir, et merci de votre visite !",
    identity: (n) =>
      `Je suis ${n}, un assistant virtuel. Je réponds à vos questions à partir des informations de ce site et j'indique mes sources. Que souhaitez-vous savoir ?`,
    howareyou: () => "Très bien, merci ! Comment puis-je vous aider ?",
    ack: () => "Parfait ! N'hésitez pas si vous avez une autre question.",
  },
  de: {
    greeting: (n) => `Hallo! Ich bin ${n}. Wie kann ich Ihnen helfen?`,
    thanks: () => "Gern geschehen! Kann ich sonst noch helfen?",
    bye: () => "Auf Wiedersehen und danke für Ihren Besuch!",
    identity: (n) =>
      `Ich bin ${n}, ein virtueller Assistent. Ich beantworte Fragen anhand der Informationen dieser Website und nenne meine Quellen. Was möchten Sie wissen?`,
    howareyou: () => "Mir geht es gut, danke der Nachfrage! Wie kann ich helfen?",
    ack: () => "Prima! Melden Sie sich, wenn Sie noch eine Frage haben.",
  },
  es: {
    greeting: (n) => `¡Hola! Soy ${n}. ¿En qué puedo ayudarte?`,
    thanks: () => "¡De nada! ¿Puedo ayudarte con algo más?",
    bye: () => "¡Adiós y gracias por tu visita!",
    identity: (n) =>
      `Soy ${n}, un asistente virtual. Respondo preguntas con la información de este sitio web y muestro las fuentes que uso. ¿Qué te gustaría saber?`,
    howareyou: () => "¡Muy bien, gracias por preguntar! ¿En qué puedo ayudarte?",
    ack: () => "¡Perfecto! Avísame si tienes otra pregunta.",
  },
  pl: {
    greeting: (n) => `Cześć! Jestem ${n}. W czym mogę pomóc?`,
    thanks: () => "Proszę bardzo! Czy mogę pomóc w czymś jeszcze?",
    bye: () => "Do widzenia i dziękuję za wizytę!",
    identity: (n) => `Jestem ${n}, wirtualny asystent. Odpowiadam na pytania na podstawie informacji z tej strony i podaję źródła. Co chcesz wiedzieć?`,
    howareyou: () => "Dobrze, dziękuję! W czym mogę pomóc?",
    ack: () => "Świetnie! Daj znać, jeśli masz jeszcze jakieś pytanie.",
  },
};

/**
 * The reply to small talk: in the chatbot's language when it is one of the five above, else in the
 * language the visitor greeted in ("auto"), else English.
 */
export function smallTalkReply(kind: SmallTalkKind, opts: { botName: string; language: string; detected: SmallTalkLanguage | null }): string {
  const configured = SMALL_TALK_LANGUAGES.includes(opts.language as SmallTalkLanguage) ? (opts.language as SmallTalkLanguage) : null;
  const lang: SmallTalkLanguage = configured ?? (opts.language === "auto" ? (opts.detected ?? "en") : "en");
  return REPLIES[lang][kind](opts.botName.trim() || "the assistant");
}
