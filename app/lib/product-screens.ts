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
} as const;

export const PRODUCT_SCREENS = Object.fromEntries(
  Object.entries(TEXT).map(([key, text]) => {
    const c = (captured as Captured)[key as keyof typeof TEXT];
    return [key, { src: `/product/${c.file}`, width: c.width, height: c.height, ...text }];
  }),
) as Record<keyof typeof TEXT, ProductScreen>;
