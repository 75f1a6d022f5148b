import { INSTRUCTIONS_MAX, LANGUAGES } from "~/lib/schemas/chatbot-settings";
import type { SystemPromptInput, Tone } from "~/lib/studio/schemas";

// Composes chatbot instructions from the generator's form. Deterministic (the built-in engine has
// no generative model): the visitor's own words go into a fixed, tested structure with sensible
// defaults for everything left empty, and the result always fits the Instructions field.

const TONE_LINES: Record<Tone, string[]> = {
  friendly: [
    "Be warm, friendly and encouraging, like a helpful colleague.",
    "Use plain, everyday words; a light touch of personality is welcome, jokes are not.",
  ],
  professional: ["Be professional, precise and courteous.", "Prefer exact terms, numbers and names from your knowledge over approximations."],
  concise: ["Be brief and direct: lead with the answer, then only the detail that matters.", "No small talk or filler phrases."],
  casual: ["Be relaxed and conversational, as in a chat with a friend who knows the subject.", "Short sentences; contractions are fine."],
  formal: ["Be formal and respectful: full sentences, no slang or contractions.", "Address the visitor politely throughout."],
};

const DEFAULT_MUST_NOT = [
  "Do not invent prices, dates, policies, stock levels or links that are not in your knowledge.",
  "Do not give legal, medical or financial advice.",
  "Do not ask for passwords, full card numbers or other secrets.",
  "Do not make promises on behalf of the team (refunds, discounts, delivery dates) unless your knowledge states them.",
];

/** "discuss competitors" → "Do not discuss competitors."; lines already phrased as a rule stay. */
function prohibition(line: string): string {
  if (/^(do not|don't|dont|never|no|avoid|only|refuse|stop)\b/i.test(line)) return line;
  return `Do not ${line[0].toLocaleLowerCase()}${line.slice(1)}`;
}

/** Lines of a free-text list: one per line (or "; "), bullets and numbering removed, a full stop added. */
function items(text: string): string[] {
  return text
    .split(/\n|;\s+/)
    .map((l) => l.replace(/^\s*([-*•·]|\d{1,2}[.)])\s*/, "").trim())
    .filter(Boolean)
    .map(sentence);
}

/** Capital first letter and final punctuation. */
function sentence(s: string): string {
  const t = s.trim().replace(/\s+/g, " ");
  if (!t) return t;
  const capital = t[0].toLocaleUpperCase() + t.slice(1);
  return /[.!?…:)"”]$/.test(capital) ? capital : `${capital}.`;
}

/** "sells handmade shoes" / "We sell handmade shoes." / "Handmade shoes" → a sentence about the organisation. */
function offeringSentence(org: string, offering: string): string {
  const t = offering
    .trim()
    .replace(/\s+/g, " ")
    .replace(/[.!]+$/, "");
  if (/^(we|our|the|it|they|this)\b/i.test(t) || t.toLowerCase().startsWith(org.toLowerCase())) return sentence(t);
  if (/^[a-z]+s\b/.test(t)) return sentence(`${org} ${t}`); // "sells…", "offers…", "helps…"
  return sentence(`${org} offers ${t[0].toLocaleLowerCase() === t[0] ? t : t[0].toLocaleLowerCase() + t.slice(1)}`);
}

function languageLine(code: SystemPromptInput["language"]): string {
  if (code === "auto") return "Reply in the language the visitor writes in; if unsure, use English.";
  const name = LANGUAGES.find((l) => l.code === code)?.label ?? "English";
  return `Always reply in ${name}, even if the visitor writes in another language (then mention once that you answer in ${name}).`;
}

const possessive = (name: string) => (/s$/i.test(name) ? `${name}'` : `${name}'s`);

export function composeSystemPrompt(input: SystemPromptInput): string {
  const org = input.orgName.trim();
  const audience = input.audience.trim().replace(/[.!]+$/, "");
  const mustNot = items(input.mustNot);
  const handoff = items(input.handoff);

  const sections: string[] = [];
  sections.push(
    [
      `You are the virtual assistant of ${org}, answering visitors in the chat on ${possessive(org)} website.`,
      offeringSentence(org, input.offering),
      audience
        ? `The people you talk to are mostly ${audience[0].toLocaleLowerCase() === audience[0] ? audience : audience[0].toLocaleLowerCase() + audience.slice(1)}.`
        : "",
    ]
      .filter(Boolean)
      .join(" "),
  );
  sections.push(
    [
      "## Your job",
      `- Answer questions about ${org} and what it offers, using only the knowledge passages you are given with each question.`,
      "- If the passages do not contain the answer, say plainly that you do not know rather than guessing, and offer the next step below.",
      "- When the question is ambiguous, ask one short clarifying question before answering.",
      "- Stay on topic: politely decline requests unrelated to " + org + ".",
    ].join("\n"),
  );
  sections.push(
    [
      "## Tone and format",
      ...TONE_LINES[input.tone].map((l) => `- ${l}`),
      "- Keep answers short: a few sentences; use a numbered list for steps and bullet points for options.",
      `- ${languageLine(input.language)}`,
    ].join("\n"),
  );
  sections.push(["## What you must not do", ...mustNot.map((l) => `- ${prohibition(l)}`), ...DEFAULT_MUST_NOT.map((l) => `- ${l}`)].join("\n"));
  sections.push(
    [
      "## Handing over to a person",
      ...(handoff.length
        ? handoff.map((l) => `- ${l}`)
        : [
            "- When the visitor asks for a person, is upset, or needs something that depends on their own account or order, say that a member of the team will help.",
            "- Suggest they leave their name and email so the team can follow up.",
          ]),
      "- Never pretend to be a human.",
    ].join("\n"),
  );

  let out = sections.join("\n\n");
  // The user's lists are capped by the form, so this only trims the defaults if ever needed.
  if (out.length > INSTRUCTIONS_MAX) out = out.slice(0, out.lastIndexOf("\n", INSTRUCTIONS_MAX));
  return out;
}
