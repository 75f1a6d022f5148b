// The Studio's catalogue: free public tools that run on Parley's own code. Client-safe (the index
// page, each tool's header and the server's rate limits all read it).

export const STUDIO_TOOLS = [
  {
    slug: "system-prompt-generator",
    name: "System-prompt generator",
    summary: "Describe your organisation, audience and rules; get well-structured chatbot instructions to paste into Settings → General → Instructions.",
    title: "Chatbot system-prompt generator",
    description:
      "Free tool: describe your organisation, audience, tone and limits, and get clear, structured instructions for a customer-support chatbot, ready to paste into Parley.",
  },
  {
    slug: "faq-generator",
    name: "FAQ generator",
    summary: "Paste text or give a web address; get question-and-answer pairs built from its headings and sentences, and import them into a Parley chatbot.",
    title: "FAQ generator: text or web page to questions and answers",
    description:
      "Free tool: turn a help page or pasted text into question-and-answer pairs from its headings and sentences, edit them, and import them into a Parley chatbot's knowledge.",
  },
  {
    slug: "support-roi-calculator",
    name: "Support ROI calculator",
    summary:
      "Enter your conversation volume, how many the bot can answer, handling time and hourly cost; see the hours and money saved against the Parley plan that fits, with the arithmetic.",
    title: "Support chatbot ROI calculator",
    description:
      "Free calculator: from your own numbers (conversations a month, share the bot can answer, minutes per conversation, hourly cost) see hours and money saved, net of the Parley plan that fits.",
  },
  {
    slug: "widget-designer",
    name: "Widget designer",
    summary: "Pick a brand colour, theme, launcher position and wording; preview the real Parley chat widget and copy the settings and embed snippet.",
    title: "Chat widget designer",
    description:
      "Free tool: design a website chat widget (colour, light or dark theme, position, name, welcome message), preview the real Parley widget live and copy the settings.",
  },
] as const;

export type StudioTool = (typeof STUDIO_TOOLS)[number];
export type StudioToolSlug = StudioTool["slug"];

export function studioTool(slug: StudioToolSlug): StudioTool {
  return STUDIO_TOOLS.find((t) => t.slug === slug)!;
}
