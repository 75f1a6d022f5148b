// The messages bench:load sends (and bench/cpu.mjs, in the same order): questions about Parley (the
// demo bot's knowledge), small talk, and questions the knowledge does not cover (the fallback path).
export const MESSAGES = {
  question: [
    "How do I add the widget to my website?",
    "Which file types can I upload to the knowledge base?",
    "How does Parley cite its sources?",
    "Can I limit which websites may embed my chatbot?",
    "How do I verify visitors' identity?",
    "What happens when the monthly reply limit is reached?",
    "How do I crawl my documentation site?",
    "Can a visitor talk to a human instead of the bot?",
  ],
  smalltalk: ["hi", "Hello there!", "thanks!", "ok great, thank you", "good morning"],
  fallback: [
    "What is the boiling point of tungsten on Mars?",
    "Who won the 1962 chess olympiad?",
    "Recommend a pasta recipe with quinces",
    "How many moons does Neptune have?",
  ],
};
export const KINDS = ["question", "question", "smalltalk", "fallback"]; // 50 % questions

/** Deterministic PRNG (mulberry32) so every run sends the same messages in the same order. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
