// TwiML (Twilio's voice markup) for the call flow: <Say>, <Gather input="speech">, <Dial> (with
// timeLimit: the seconds left of the call's maximum length), <Redirect>, <Hangup>. Text is
// XML-escaped; answers are made speakable first (no source markers, links or markdown: the caller
// hears the words, not the citations).

export type TwimlVerb =
  { say: string } | { gather: { action: string; say?: string } } | { redirect: string } | { dial: string; timeLimit: number } | { hangup: true };

const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeXml = (s: string) => escapeText(s).replace(/"/g, "&quot;");

/** Twilio's speech languages are BCP-47 tags; the chatbot's language codes map to the common one. */
const SPEECH_LANGUAGES: Record<string, string> = {
  en: "en-US",
  fr: "fr-FR",
  de: "de-DE",
  es: "es-ES",
  pl: "pl-PL",
  it: "it-IT",
  pt: "pt-PT",
  nl: "nl-NL",
  sv: "sv-SE",
  da: "da-DK",
  no: "nb-NO",
  fi: "fi-FI",
  cs: "cs-CZ",
  ro: "ro-RO",
  tr: "tr-TR",
  uk: "uk-UA",
  ja: "ja-JP",
  zh: "zh-CN",
};

export function speechLanguage(code: string): string | null {
  return SPEECH_LANGUAGES[code] ?? null;
}

export function twiml(verbs: TwimlVerb[], language: string | null = null): string {
  const lang = language ? ` language="${escapeXml(language)}"` : "";
  const say = (text: string) => `<Say${lang}>${escapeText(text)}</Say>`;
  const body = verbs
    .map((v) => {
      if ("say" in v) return say(v.say);
      if ("gather" in v)
        return `<Gather input="speech" method="POST" speechTimeout="auto" action="${escapeXml(v.gather.action)}"${lang}>${v.gather.say ? say(v.gather.say) : ""}</Gather>`;
      if ("redirect" in v) return `<Redirect method="POST">${escapeText(v.redirect)}</Redirect>`;
      // Twilio's timeLimit is the most seconds the dialled call may last: a positive integer.
      if ("dial" in v) return `<Dial timeLimit="${Math.max(1, Math.ceil(v.timeLimit))}">${escapeText(v.dial)}</Dial>`;
      return "<Hangup/>";
    })
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;
}

/** An answer as words to speak: [n] source markers, links, markdown and list bullets removed. */
export function speakable(text: string): string {
  return text
    .replace(/\s*\[\d+(?:\s*,\s*\d+)*\]/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, "")
    .replace(/[*_`#>]+/g, "")
    .replace(/^\s*[-•]\s+/gm, "")
    .replace(/\s+/g, " ")
    .trim();
}
