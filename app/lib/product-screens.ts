import captured from "./product-screens.json";

// Screenshots of the running product shown on the public product pages. The images in
// public/product/ and their sizes in product-screens.json are written by `npm run screens`
// (tests/screens/product-screens.screens.ts), which drives the real screens in Chromium.

export type ProductScreen = { src: string; width: number; height: number; alt: string; caption: string };

type Captured = Record<keyof typeof TEXT, { file: string; width: number; height: number }>;

const TEXT = {
  analytics: {
    alt: "The analytics screen of a chatbot: totals for the last 30 days, the resolution rate and answer times, and a chart of conversations per day.",
    caption: "Analytics for one chatbot, last 30 days.",
  },
  unanswered: {
    alt: "Unanswered questions grouped by meaning, each with how often it was asked and an Add an answer button.",
    caption: "Unanswered questions, grouped, each with Add an answer.",
  },
  leads: {
    alt: "The leads list: names, emails, status badges and dates, with search, status and date filters and a CSV export button.",
    caption: "Leads with search, filters and CSV export.",
  },
  lead: {
    alt: "One lead: contact details, status, notes, the conversations it came from and a history of changes.",
    caption: "A lead with its conversations, status, notes and history.",
  },
  // /product/live-chat (tests/screens/live-chat.screens.ts)
  liveVisitorAsks: {
    alt: "The chat widget on a website: the bot's answer with its numbered sources, then the visitor asks “Can I talk to a person?” and the bot replies that a person from the team has been asked to join, here in this chat.",
    caption: "The visitor asks for a person; the bot says someone is joining.",
  },
  liveInboxWaiting: {
    alt: "The live inbox on the chatbot's home: one agent online, the Waiting, Live, Mine and Closed lists, and the visitor's conversation marked Waiting.",
    caption: "The live inbox shows the waiting conversation without a reload.",
  },
  liveAgentReplies: {
    alt: "The agent's view of the conversation: the visitor's question, the bot's answer with sources, the request for a person, the agent joining and replying, and the live chat card with Hand back to the bot and Close conversation.",
    caption: "The agent takes over with the whole transcript in view, and replies.",
  },
  liveVisitorReply: {
    alt: "The same chat widget: a line saying the agent joined the conversation, then the team's reply in the chat.",
    caption: "The visitor reads the reply in the same chat window.",
  },
} as const;

export const PRODUCT_SCREENS = Object.fromEntries(
  Object.entries(TEXT).map(([key, text]) => {
    const c = (captured as Captured)[key as keyof typeof TEXT];
    return [key, { src: `/product/${c.file}`, width: c.width, height: c.height, ...text }];
  }),
) as Record<keyof typeof TEXT, ProductScreen>;
