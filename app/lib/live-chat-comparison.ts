// The facts behind /product/live-chat-alternative: Parley against the live-chat tools people switch
// from. Each Parley cell says what exists today ("not yet" otherwise) and links to the page that
// shows it (tests/integration/site-pages.test.ts requests every link); each competitor cell names
// the public pages it was read from (SOURCES). When a Parley feature ships, change its row here.

export const RIVALS = [
  { id: "livechat", name: "LiveChat" },
  { id: "tidio", name: "Tidio" },
  { id: "crisp", name: "Crisp" },
] as const;
export type RivalId = (typeof RIVALS)[number]["id"];

/** When the competitors' public pages below were read. */
export const SOURCES_READ = "2026-11-24";

export const SOURCES = [
  { id: 1, title: "LiveChat — Agents' Handbook", url: "https://www.livechat.com/agents-handbook" },
  { id: 2, title: "LiveChat Help Center — Chats section overview", url: "https://www.livechatinc.com/kb/how-to-chat-window/" },
  {
    id: 3,
    title: "Tidio Help Center — Start Using the Tidio Panel",
    url: "https://help.tidio.com/hc/en-us/articles/5391464363548-Start-Using-the-Tidio-Panel",
  },
  {
    id: 4,
    title: "Tidio Help Center — How do flows, Lyro and live operators work together",
    url: "https://help.tidio.com/hc/en-us/articles/14667264947356-How-do-flows-Lyro-and-live-operators-work-together",
  },
  { id: 5, title: "Tidio Help Center — Going Offline", url: "https://help.tidio.com/hc/en-us/articles/5399286434460-Going-Offline" },
  {
    id: 6,
    title: "Tidio — How to import your contacts into Tidio",
    url: "https://www.tidio.com/knowledge/how-to-set-up/how-to-import-your-contacts-into-tidio/",
  },
  { id: 7, title: "Crisp — Android chat SDK (crisp-im/crisp-sdk-android on GitHub)", url: "https://github.com/crisp-im/crisp-sdk-android" },
  {
    id: 8,
    title: "Crisp Help Center — My Account (availability schedule, email notifications)",
    url: "https://help.crisp.chat/en/category/my-account-1glsa75/",
  },
  { id: 9, title: "LiveChat on GitHub — the company's products (LiveChat, ChatBot, HelpDesk, KnowledgeBase)", url: "https://github.com/livechat/" },
  { id: 10, title: "Each product's own website and help centre (livechat.com, tidio.com, crisp.chat)", url: null },
] as const;

export type Verdict = "yes" | "partly" | "not-yet";
export type ParleyCell = { verdict: Verdict; text: string; proof: string | null };
export type RivalCell = { text: string; sources: number[] };
export type ComparisonRow = { feature: string; parley: ParleyCell; rivals: Record<RivalId, RivalCell> };

export const ROWS: ComparisonRow[] = [
  {
    feature: "AI answers from your own content",
    parley: {
      verdict: "yes",
      text: "Answers from your pages, files and Q&A with numbered sources; below a relevance floor it says it does not know instead of guessing.",
      proof: "/docs/knowledge/how-knowledge-works",
    },
    rivals: {
      livechat: { text: "Through ChatBot, a separate product from the same company.", sources: [9] },
      tidio: { text: "Yes — the Lyro AI agent answers from the data sources you add.", sources: [4] },
      crisp: { text: "Yes — an AI chatbot builder.", sources: [7] },
    },
  },
  {
    feature: "A person takes over in the same chat window",
    parley: {
      verdict: "yes",
      text: "The visitor asks (button or in words); an agent takes over from the live inbox and replies in real time, then hands back to the bot.",
      proof: "/product/live-chat",
    },
    rivals: {
      livechat: { text: "Yes — live chat is the core product.", sources: [1] },
      tidio: { text: "Yes — Lyro hands conversations to live operators.", sources: [4] },
      crisp: { text: "Yes — conversations reach your inbox and replies go both ways in real time.", sources: [7] },
    },
  },
  {
    feature: "Inbox of waiting and assigned chats",
    parley: {
      verdict: "yes",
      text: "Waiting, Live, Mine and Closed lists, updated without a reload; online and away switch.",
      proof: "/product/live-chat#how",
    },
    rivals: {
      livechat: { text: "Yes — my chats, queued chats and supervised chats.", sources: [2] },
      tidio: { text: "Yes — unassigned and assigned conversations.", sources: [3] },
      crisp: { text: "Yes — a shared inbox for the team.", sources: [7] },
    },
  },
  {
    feature: "Transfer a chat to a chosen colleague",
    parley: {
      verdict: "yes",
      text: "The agent holding a conversation transfers it to a chosen colleague; any agent can also take over a conversation a colleague holds.",
      proof: "/product/live-chat#how",
    },
    rivals: {
      livechat: { text: "Yes — chats can be transferred between agents.", sources: [1] },
      tidio: { text: "Yes — chats can be transferred to other operators.", sources: [3] },
      crisp: { text: "Yes — conversations can be assigned to operators.", sources: [10] },
    },
  },
  {
    feature: "Saved replies (canned responses)",
    parley: { verdict: "not-yet", text: "", proof: null },
    rivals: {
      livechat: { text: "Yes.", sources: [10] },
      tidio: { text: "Yes.", sources: [10] },
      crisp: { text: "Yes.", sources: [10] },
    },
  },
  {
    feature: "Typing indicators",
    parley: {
      verdict: "yes",
      text: "Both ways: the agent sees when the visitor is typing, the visitor sees when the agent is, and each sees when their message was read.",
      proof: "/product/live-chat#how",
    },
    rivals: {
      livechat: { text: "Yes.", sources: [10] },
      tidio: { text: "Yes.", sources: [10] },
      crisp: { text: "Yes.", sources: [10] },
    },
  },
  {
    feature: "Office hours",
    parley: {
      verdict: "yes",
      text: "Weekly office hours in the organisation's time zone and a maximum wait decide what the visitor is promised; agents also switch between online and away.",
      proof: "/product/live-chat#how",
    },
    rivals: {
      livechat: { text: "Each agent switches accepting chats on and off.", sources: [1] },
      tidio: { text: "Yes — an operating-hours schedule.", sources: [3, 5] },
      crisp: { text: "Yes — an availability schedule.", sources: [8] },
    },
  },
  {
    feature: "Alerts when a visitor needs a person",
    parley: {
      verdict: "yes",
      text: "A sound (mutable) and a browser notification in the inbox, and email, signed webhook or Slack when a visitor asks for a person.",
      proof: "/product/live-chat#how",
    },
    rivals: {
      livechat: { text: "Yes — in-browser notifications.", sources: [2] },
      tidio: { text: "Yes — pop-up and sound notifications, and offline email notifications.", sources: [3, 5] },
      crisp: { text: "Yes — including email notifications for unread messages.", sources: [8] },
    },
  },
  {
    feature: "Mobile apps for agents",
    parley: { verdict: "not-yet", text: "The dashboard works in a phone's browser.", proof: null },
    rivals: {
      livechat: { text: "Yes — the LiveChat Agent app.", sources: [1] },
      tidio: { text: "Yes — desktop and mobile apps.", sources: [5] },
      crisp: { text: "Yes.", sources: [10] },
    },
  },
  {
    feature: "Channels beyond your website",
    parley: {
      verdict: "partly",
      text: "Phone calls: callers to a number of your own Twilio account ask by voice, hear the answer and can be transferred to a person. Besides that, the website widget, a share link that opens the chat as a full page, and the REST API. No WhatsApp, Messenger, Instagram or email yet.",
      proof: "/docs/voice/phone-calls",
    },
    rivals: {
      livechat: { text: "Yes — through its integrations.", sources: [10] },
      tidio: { text: "Yes — Messenger, Instagram and WhatsApp.", sources: [4] },
      crisp: { text: "Yes — more than ten channels in one inbox.", sources: [7] },
    },
  },
  {
    feature: "Integrations",
    parley: {
      verdict: "partly",
      text: "A REST API, signed webhooks, Slack notifications, a WooCommerce connector with a WordPress plugin, and HTTP tools the bot calls on your own API. No marketplace of ready-made apps.",
      proof: "/docs/api/webhooks",
    },
    rivals: {
      livechat: { text: "Yes — a large marketplace of apps.", sources: [10] },
      tidio: { text: "Yes.", sources: [10] },
      crisp: { text: "Yes — a catalogue of integrations.", sources: [8] },
    },
  },
  {
    feature: "Collect visitors' contact details",
    parley: { verdict: "yes", text: "An in-chat form, offered when it helps; leads with status, notes and CSV export.", proof: "/product/analytics#leads" },
    rivals: {
      livechat: { text: "Yes.", sources: [10] },
      tidio: { text: "Yes — pre-chat survey and contacts, with CSV import.", sources: [3, 6] },
      crisp: { text: "Yes — contacts.", sources: [8] },
    },
  },
  {
    feature: "Where it runs",
    parley: {
      verdict: "yes",
      text: "Parley's service, or your own Cloudflare account with one deploy; offline on a laptop while you build.",
      proof: "/docs/self-hosting/deploy-to-cloudflare",
    },
    rivals: {
      livechat: { text: "The vendor's hosted service.", sources: [10] },
      tidio: { text: "The vendor's hosted service.", sources: [10] },
      crisp: { text: "The vendor's hosted service.", sources: [10] },
    },
  },
];
