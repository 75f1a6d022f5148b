// Requests a general-purpose assistant gets and no business's knowledge answers, however many
// words they share with it: a phrase in another language ("how do you say thank you in German"
// against a co-working space that invoices in German), writing to order ("write a cover letter"
// against a removal firm's "claims must be made in writing"), and live facts (tonight's lottery
// numbers, today's exchange rate, the time somewhere else). Like a forecast (ADR 066), the bot
// refuses them before retrieval instead of leading with the sentence that shares a word. ADR 073.

import { questionClauses } from "./text";

const LANGUAGES =
  "english|french|german|spanish|italian|portuguese|dutch|flemish|polish|irish|welsh|gaelic|greek|russian|ukrainian|chinese|mandarin|cantonese|japanese|korean|arabic|hindi|urdu|punjabi|bengali|turkish|swedish|norwegian|danish|finnish|icelandic|czech|slovak|hungarian|romanian|bulgarian|croatian|serbian|latin|hebrew|thai|vietnamese|indonesian|malay|tagalog|filipino|swahili|afrikaans|maori|te reo|sign language";

/** "how do you say thank you in dutch", "whats the french word for bread". */
const TRANSLATION = new RegExp(
  String.raw`\bhow (?:do|would|can|could|should|to) (?:(?:you|u|i|we|ya|ye|one) )?(?:say|write|spell|pronounce) .+ in (?:${LANGUAGES})\b|\bwhat(?:s| is|'s)? the (?:${LANGUAGES}) (?:word )?for\b`,
);

/** Writing that people ask an assistant for; a message alone is not one (a cake shop pipes messages). */
const WRITING = String.raw`cover(?:ing)? letter|cv|resume|poem|essay|short story|bedtime story|story|speech|toast|eulogy|song|lyrics|rap|limerick|haiku|joke|tweet|love letter|(?:birthday|anniversary|wedding|retirement|leaving|thank you|christmas|get well|sympathy|condolence) (?:message|card message|note|poem|speech|wishes)`;
const WRITE_REQUEST = new RegExp(
  String.raw`\b(?:write|draft|compose|make up)\s+(?:me\s+|us\s+)?(?:a|an|my|some)\s+(?:[\p{L}-]+\s+){0,2}?(?:${WRITING})\b`,
  "u",
);
/** Writing that goes onto something the business makes or sells is an order, not a request for text. */
const ONTO_A_PRODUCT = /\b(?:on|onto|inside|engraved|printed|iced|piped|embroidered)\b|\bin (?:the|a|my) card\b/;
/** Jokes and naming to order: "can you tell me a joke for my kids", "help me name my new business". */
const ENTERTAIN_OR_NAME =
  /\b(?:tell|give) (?:me|us|my \w+) (?:a|some|any) (?:\w+ )?jokes?\b|\bknow any (?:\w+ )?jokes\b|\bhelp (?:me|us) (?:to )?(?:name|think of a name for|come up with a name for|pick a name for)\b|\bname (?:ideas|suggestions) for (?:my|our)\b/;
/**
 * A phone assistant's commands, said to the voice line as to a phone ("uh call my wife", "set a
 * timer for ten minutes"): nothing a business's knowledge answers. Only as the clause's first
 * words: "can you call me back" and "do you text a reminder" ask the business.
 */
const ASSISTANT_COMMAND =
  /^\s*(?:(?:um+|uh+|erm|hey|ok|okay|so|please)[\s,]+)*(?:(?:call|ring|phone|text|dial|facetime) (?:my|mum|mom|dad|home)\b|set (?:an? |my )?(?:alarm|timer)\b|turn (?:on|off) (?:the )?(?:lights?|tv|radio)\b)/;
const EXPLAIN_LIKE_A_CHILD = /\bexplain\b.+\blike (?:i['’]?m|i am) (?:5|five|a (?:child|kid|baby))\b|\beli5\b/;

/** Facts that change by the hour and that no business's knowledge keeps. */
const LIVE_FACT = [
  /\b(?:lotto|lottery|euromillions|powerball) (?:numbers|results|draw)\b/,
  /\bwho won\b.*\b(?:last night|yesterday|today|tonight|this weekend|at the weekend|on (?:satur|sun)day)\b/,
  /\b(?:what time is it|whats the time|what's the time|what is the time)(?: right)?(?: now)?(?: in [\p{L} ]+?)?(?: right now| now)?\s*\??$/u,
];
const RATE = /\b(?:exchange rate|conversion rate|share price|stock price|traffic|queues? at the airport)\b/;
const NOW = /\b(?:today|now|right now|rn|currently|current|at the moment)\b/;
const ASKING_THE_BOT = /^\s*(?:(?:can|could|would|will) (?:you|u) (?:tell|give|show) me|(?:do|does) (?:you|u|anyone) know|tell me|give me)\b\s*/;
/** Whether a clause speaks to the business or of the asker: such a clause may ask the business something. */
// ("i-35" is a road, not the asker.)
const PERSONAL = /\b(?:i(?!-\d)|me|my|we|us|our|you|your|u|ur)\b/;

function isGeneralClause(clause: string): boolean {
  if (TRANSLATION.test(clause) || EXPLAIN_LIKE_A_CHILD.test(clause) || ENTERTAIN_OR_NAME.test(clause) || ASSISTANT_COMMAND.test(clause)) return true;
  const write = WRITE_REQUEST.exec(clause);
  if (write && !ONTO_A_PRODUCT.test(clause.slice(write.index + write[0].length))) return true;
  // A live fact is general only when nobody's own terms are asked ("what exchange rate do you use");
  // "can you tell me" only asks the bot to say it.
  const asked = clause.replace(ASKING_THE_BOT, "");
  if (PERSONAL.test(asked)) return false;
  return LIVE_FACT.some((re) => re.test(asked)) || (RATE.test(asked) && NOW.test(asked));
}

/**
 * Whether the question is a general-assistant request (a translation, writing to order, a live fact)
 * and nothing else: a clause that asks the business something ("do you deliver to Berlin?") keeps it
 * a question for the knowledge.
 */
export function isGeneralRequest(query: string): boolean {
  const clauses = questionClauses(query.toLowerCase().replace(/’/g, "'"));
  let general = false;
  for (const c of clauses) {
    if (isGeneralClause(c)) general = true;
    else if (PERSONAL.test(c)) return false;
  }
  return general;
}
