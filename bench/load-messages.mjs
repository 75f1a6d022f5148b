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

/** Deterministic PRNG so every run sends the same messages in the same order. */
export { mulberry32 as prng } from "./prng.mjs";
