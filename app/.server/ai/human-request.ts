import { detectSmallTalk, normalizeWords } from "./small-talk";

// "Can I talk to a human?" recognised without a model, in the small talk's languages (English,
// French, German, Spanish, Polish), so the conversation core hands the visitor to a person instead
// of answering. Only short messages count (a question that mentions an agent is still a question),
// and "are you human?" stays small talk (the bot says what it is).

const PHRASES: string[] = [
  // en
  "human",
  "a human",
  "human please",
  "agent",
  "an agent",
  "agent please",
  "live agent",
  "human agent",
  "real person",
  "a person",
  "a real person",
  "operator",
  "representative",
  "talk to someone",
  "speak to someone",
  "speak with someone",
  "talk to somebody",
  "talk to a person",
  "speak to a person",
  "speak with a person",
  "talk to a human",
  "speak to a human",
  "speak with a human",
  "talk to an agent",
  "speak to an agent",
  "talk to a real person",
  "connect me to an agent",
  "connect me with a person",
  "customer service",
  "customer support agent",
  // fr
  "humain",
  "un humain",
  "parler a un humain",
  "parler a quelqu un",
  "parler a une personne",
  "un conseiller",
  "parler a un conseiller",
  "un agent",
  "un operateur",
  "une vraie personne",
  // de
  "mensch",
  "mit einem menschen",
  "einen menschen",
  "mit jemandem sprechen",
  "mit einem mitarbeiter",
  "mitarbeiter sprechen",
  "echte person",
  "echten menschen",
  "kundenberater",
  // es
  "humano",
  "un humano",
  "hablar con un humano",
  "hablar con alguien",
  "hablar con una persona",
  "un agente",
  "agente",
  "persona real",
  "operador",
  // pl
  "czlowiek",
  "z czlowiekiem",
  "rozmawiac z czlowiekiem",
  "konsultant",
  "z konsultantem",
  "porozmawiac z kims",
  "prawdziwa osoba",
  "z prawdziwa osoba",
].map((p) => ` ${p} `);

const MAX_WORDS = 10;

/** True when `text` asks to be put through to a person. */
export function asksForHuman(text: string): boolean {
  const words = normalizeWords(text);
  if (!words.length || words.length > MAX_WORDS) return false;
  if (detectSmallTalk(text)) return false;
  const padded = ` ${words.join(" ")} `;
  return PHRASES.some((p) => padded.includes(p));
}
