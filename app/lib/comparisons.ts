// The comparison pages (/product/chatbase-alternative, …/hubspot-alternative, …/zendesk-alternative)
// as data. Two rules, both checked by tests/integration/comparisons.test.ts:
//  - every Parley "yes" links to its proof: a docs page (`/docs/…`, optionally `#heading`), a public
//    page, or a dashboard route pattern (`/app/:orgId/:chatbotId/…`) that has a route file;
//  - every competitor cell names a source (their own public docs or pricing page) by footnote id, and
//    says only what that page says. No prices are quoted that were not read on the competitor's own page.
// Features other helpers are still building are "not-yet" with the proof they will have: when one is
// merged, flip its status here (the test fails while a "not-yet" proof already exists).

import { cheapestPlanWith, PLAN_IDS, PLANS, type Plan, type PlanExtras } from "./plans";

export type ParleyStatus = "yes" | "not-yet" | "no";

export type ParleyFeature = {
  /** What the row compares, in a few words. */
  feature: string;
  status: ParleyStatus;
  /** What Parley does (or does not do), one sentence. */
  text: string;
  /** Where to see it: a `/docs/…` page (optionally `#anchor`), a public page, or an app route pattern. Required unless status is "no". */
  proof?: string;
  /**
   * The plan extra (app/lib/plans.ts) a "yes" needs, when it is not on every plan. The page shows the
   * cheapest plan that has it (`cheapestPlanWith`), so the label cannot drift from PLANS. `what` names
   * the gated part when only part of the row needs it ("Signed webhooks").
   */
  needs?: { extra: keyof PlanExtras; what?: string };
  /** The dashboard screen that provides it (a route pattern under /app); tests check the route file and that it answers its owner. */
  screen?: string;
};

/** The cheapest plan a feature needs, from PLANS; null when it is on every plan (or is not a "yes"). */
export function planNeeded(f: ParleyFeature): Plan | null {
  if (f.status !== "yes" || !f.needs) return null;
  return cheapestPlanWith(f.needs.extra);
}

/** "Growth plan and above" / "Signed webhooks: Starter plan and above", or null. */
export function planLabel(f: ParleyFeature): string | null {
  const plan = planNeeded(f);
  if (!plan) return null;
  return `${f.needs?.what ? `${f.needs.what}: ` : ""}${plan.name} plan and above`;
}

export const READ_ON = "2026-11-24";
/** When we searched stored copies of the competitors' pricing pages and billing help (issue 19 audit). */
export const PRICES_READ_ON = "2026-11-26";

/** Parley's side of every row, shared by the three pages so one flip updates all of them. */
export const PARLEY = {
  sources: {
    feature: "Answers show their sources",
    status: "yes",
    text: "Every grounded answer lists the knowledge it came from, so a visitor can check it.",
    proof: "/docs/knowledge/how-knowledge-works#sources-on-every-answer",
  },
  idk: {
    feature: "Says “I don't know” instead of guessing",
    status: "yes",
    text: "When the knowledge has no good enough match, the bot answers with your fallback message and the question is listed as unanswered.",
    proof: "/docs/knowledge/how-knowledge-works",
    screen: "/app/:orgId/:chatbotId/analytics",
  },
  noKey: {
    feature: "Works without an AI provider key",
    status: "yes",
    text: "A built-in engine answers from your knowledge with no model account; OpenAI or any compatible server is optional.",
    proof: "/docs/answers/models#the-built-in-local-engine",
    screen: "/app/:orgId/:chatbotId/settings/general",
  },
  knowledge: {
    feature: "Knowledge from files, websites and Q&A",
    status: "yes",
    text: "Text, Q&A pairs, files (PDF, DOCX, TXT, MD, HTML, CSV, JSON), a URL, a whole-site crawl or a sitemap, with status and re-sync.",
    proof: "/docs/knowledge/sources#kinds-of-source",
    screen: "/app/:orgId/:chatbotId/kb",
  },
  security: {
    feature: "Allowed websites, per-visitor rate limit, signed identity",
    status: "yes",
    text: "On every plan, including Free: an origin allow-list, a per-visitor rate limit and HMAC-signed visitor identity.",
    proof: "/docs/widget/security",
    screen: "/app/:orgId/:chatbotId/settings/oryg",
  },
  leads: {
    feature: "Leads captured in the chat",
    status: "yes",
    text: "A contact form in the chat, a leads list with status, notes and history, and CSV export.",
    proof: "/docs/widget/embed#leads",
    screen: "/app/:orgId/:chatbotId/leads",
  },
  analytics: {
    feature: "Analytics and unanswered questions",
    status: "yes",
    text: "Conversations, resolution rate, answer times, top and unanswered questions, each unanswered one turned into an answer in one step.",
    proof: "/product/analytics",
    screen: "/app/:orgId/:chatbotId/analytics",
  },
  handoff: {
    feature: "Hand a chat to a person",
    status: "yes",
    text: "“Talk to a human” puts the conversation in a live inbox on the chatbot's home, where a team member takes it over in the same chat window.",
    proof: "/docs/widget/embed#what-visitors-get",
    needs: { extra: "liveChat" },
    screen: "/app/:orgId/:chatbotId",
  },
  agentWorkflow: {
    feature: "Agent workflow: typing, transfer, internal notes, office hours",
    status: "yes",
    text: "The live inbox shows when the visitor is typing and has read a reply; agents add internal notes, transfer to a colleague, and office hours decide what the visitor is promised.",
    proof: "/docs/live-chat/inbox#internal-notes",
    needs: { extra: "liveChat" },
    screen: "/app/:orgId/:chatbotId",
  },
  voice: {
    feature: "Voice in the browser",
    status: "yes",
    text: "A microphone in the widget and a voice playground: speech in, the same sourced answer spoken back, with the browser's speech or OpenAI's.",
    proof: "/docs/voice/voice-in-the-browser",
    needs: { extra: "voice" },
    screen: "/app/:orgId/:chatbotId/voice-playground",
  },
  phone: {
    feature: "Phone calls",
    status: "yes",
    text: "Attach a number of your own Twilio account to a chatbot: callers ask by voice and hear the answer, ask for a person and are transferred; every call has a log and a transcript.",
    proof: "/docs/voice/phone-calls",
    needs: { extra: "phoneNumbers" },
    screen: "/app/phone",
  },
  woocommerce: {
    feature: "Online shop (WooCommerce)",
    status: "yes",
    text: "Connect a WooCommerce store: its products are synced into knowledge and kept current by webhooks, and the bot searches products and checks an order's status (number and billing email must match).",
    proof: "/docs/integrations/woocommerce",
    needs: { extra: "woocommerce" },
    screen: "/app/:orgId/:chatbotId/integrations/woocommerce",
  },
  customTools: {
    feature: "Custom HTTP tools",
    status: "yes",
    text: "Describe an endpoint of your own API and the bot calls it when a visitor needs it (asking first if you want), with a test button and a call log.",
    proof: "/docs/integrations/custom-tools",
    screen: "/app/:orgId/:chatbotId/tools",
  },
  api: {
    feature: "REST API",
    status: "yes",
    text: "Ask questions, read conversations and leads, and manage knowledge with an API key.",
    proof: "/docs/api/rest-api",
    needs: { extra: "api" },
    screen: "/app/:orgId/:chatbotId/settings/embed",
  },
  webhooks: {
    feature: "Notifications and webhooks",
    status: "yes",
    text: "Email, Slack and signed webhooks for new leads, handoffs, bug reports and a daily digest.",
    proof: "/docs/api/webhooks",
    needs: { extra: "webhooks", what: "Signed webhooks" },
    screen: "/app/:orgId/:chatbotId/settings/notifications",
  },
  roles: {
    feature: "Team roles",
    status: "yes",
    text: "Owner, admin, editor and agent, per organisation.",
    proof: "/docs/account/organisations-and-roles#roles",
    screen: "/app/:orgId/members",
  },
  pricing: {
    feature: "Pricing unit",
    status: "yes",
    text: "A flat monthly plan; one bot reply is one credit whatever the model.",
    proof: "/docs/account/plans-and-limits",
    screen: "/app/plans",
  },
  selfHost: {
    feature: "Self-hosting",
    status: "yes",
    text: "One Cloudflare Worker: create the resources once, then one command (npm run deploy, which runs wrangler deploy) puts it on your own Cloudflare account.",
    proof: "/docs/self-hosting/deploy-to-cloudflare",
  },
  channels: {
    feature: "Messaging channels beyond the website",
    status: "no",
    text: "No. Parley answers in the website widget, on a share link, through the REST API and on phone calls to a Twilio number of your own; it does not answer on WhatsApp, Messenger, Instagram or by email.",
  },
  crm: {
    feature: "Full CRM",
    status: "no",
    text: "No. Parley keeps leads from the chat (status, notes, CSV export); it has no deals, companies or sales pipelines.",
  },
  ticketing: {
    feature: "Ticketing with SLA targets",
    status: "no",
    text: "No. Parley has conversations and a live inbox, not tickets with reply and resolution targets.",
  },
  helpCenter: {
    feature: "Hosted help centre",
    status: "no",
    text: "No. Parley answers from your articles but does not publish a help centre site.",
  },
} satisfies Record<string, ParleyFeature>;

export type FeatureId = keyof typeof PARLEY;

export type Source = {
  id: string;
  /** The page's own title, as it reads. */
  name: string;
  url: string;
  /** The day we read the stored page (ISO date). */
  readOn: string;
  /** The page's own "last updated"/"edited" date, when it shows one. */
  pageDate?: string;
};

export type CompetitorCell = { text: string; source: string };

export type ComparisonRow = { feature: FeatureId; them: CompetitorCell };

export type Comparison = {
  slug: "chatbase-alternative" | "hubspot-alternative" | "zendesk-alternative";
  competitor: string;
  /** What kind of product it is, for the intro: "an AI chatbot builder", … */
  kind: string;
  title: string;
  description: string;
  headline: string;
  intro: string;
  /** What the competitor does well, each sourced. */
  strengths: CompetitorCell[];
  /** Where Parley is different (Parley's own claims, each with a proof feature). */
  differences: FeatureId[];
  rows: ComparisonRow[];
  /** How the competitor prices, from its own pages (no numbers we did not read there). */
  pricingModel: CompetitorCell[];
  pricingUrl: string;
  /**
   * The stated example at the competitor. `prices` holds only figures read on its own pricing page;
   * when none could be read it is null and the page says so, with the date we looked. `formula` is how
   * to work the example on its pricing page; `notIncluded` lists usage charges its own pages describe
   * on top of a plan or seat price.
   */
  example: {
    prices: null;
    formula: string;
    notIncluded: CompetitorCell[];
  };
  /** The Parley features this page's example needs (their plan extras decide the plan). */
  exampleNeeds: FeatureId[];
  migration: { title: string; text: string; source?: string; proof?: string }[];
  sources: Source[];
  /** Related blog posts (slugs under /blog). */
  posts: string[];
};

/** The example the price comparison is worked for. */
export const PRICE_EXAMPLE = { conversationsPerMonth: 2_000, seats: 3 } as const;

/** The plan extras a list of features needs, from their `needs` (deduplicated, in PlanExtras order). */
export function extrasFor(features: FeatureId[]): (keyof PlanExtras)[] {
  const set = new Set<keyof PlanExtras>();
  for (const id of features) {
    const f: ParleyFeature = PARLEY[id];
    if (f.needs) set.add(f.needs.extra);
  }
  return [...set];
}

export const COMPARISONS: Comparison[] = [
  {
    slug: "chatbase-alternative",
    competitor: "Chatbase",
    kind: "an AI agent builder trained on your content",
    title: "A Chatbase alternative with sources on every answer",
    description:
      "Parley and Chatbase compared point by point, with sources: answers with citations, a bot that says when it does not know, no AI key needed, and a self-hostable Worker.",
    headline: "Looking for a Chatbase alternative? Here is an honest comparison.",
    intro:
      "Chatbase and Parley both build a chatbot from your documents and website. This page says where Chatbase is ahead, where Parley is different, and how to move your knowledge, your widget and your leads — each claim about Chatbase from its own documentation, each claim about Parley linked to the page that shows it.",
    strengths: [
      {
        text: "More places to deploy: besides the website widget and a hosted help page, its Deploy tab lists email, phone through Twilio, Slack, Zapier, WordPress and Meta apps (WhatsApp, Messenger, Instagram).",
        source: "cb-deploy",
      },
      {
        text: "A larger integration catalogue, including helpdesks to hand work to and a Shopify store the agent can act on.",
        source: "cb-integrations",
      },
      { text: "A Notion connection as a knowledge source, besides files, text snippets, website and sitemap crawls and Q&As.", source: "cb-sources" },
      {
        text: "A live chat hand-over into its own Help Desk, where support agents reply in real time and add internal notes.",
        source: "cb-live-chat",
      },
    ],
    differences: ["sources", "idk", "noKey", "security", "woocommerce", "pricing", "selfHost"],
    rows: [
      { feature: "knowledge", them: { text: "Files (PDF, TXT, DOC/DOCX), text snippets, website and sitemap crawls, Q&As and Notion.", source: "cb-sources" } },
      { feature: "channels", them: { text: "Yes: email, Slack, WhatsApp, Messenger, Instagram and more from the Deploy tab.", source: "cb-deploy" } },
      { feature: "phone", them: { text: "Yes: inbound phone calls through Twilio.", source: "cb-deploy" } },
      { feature: "handoff", them: { text: "Yes: the Live Chat action routes the conversation to the Chatbase Help Desk inbox.", source: "cb-live-chat" } },
      { feature: "agentWorkflow", them: { text: "Agents reply in real time and can add internal notes.", source: "cb-live-chat" } },
      {
        feature: "woocommerce",
        them: {
          text: "Its integrations overview names a Shopify store the agent can act on; we did not find WooCommerce on the Chatbase pages we read.",
          source: "cb-integrations",
        },
      },
      { feature: "api", them: { text: "Yes; its API v2 is available from the Standard plan.", source: "cb-api" } },
      { feature: "roles", them: { text: "Owners and Members.", source: "cb-team" } },
      { feature: "pricing", them: { text: "Plans; extra team members are a paid add-on on the Pro plan.", source: "cb-team" } },
      { feature: "sources", them: { text: "Not described on the pages we read.", source: "cb-sources" } },
      { feature: "selfHost", them: { text: "Not described on the pages we read.", source: "cb-deploy" } },
    ],
    pricingModel: [
      { text: "Team members are limited per plan.", source: "cb-team" },
      { text: "Usage is counted in message credits: its Usage tab shows the credits used per day and per chatbot.", source: "cb-usage" },
    ],
    pricingUrl: "https://www.chatbase.co/pricing",
    example: {
      prices: null,
      formula: "The plan whose monthly message credits cover the replies to 2,000 conversations and that allows 3 team members, plus any extra members.",
      notIncluded: [{ text: "Team members above the plan's limit: on the Pro plan an extra member costs $25 per month.", source: "cb-team" }],
    },
    exampleNeeds: ["handoff", "api"],
    migration: [
      {
        title: "Export your knowledge",
        text: "Download the files you uploaded to Chatbase and copy out your text snippets and Q&As — the Sources tab lists each of them.",
        source: "cb-sources",
      },
      {
        title: "Import it as Parley knowledge",
        text: "Upload the same files, paste snippets as text sources, add Q&As as Q&A pairs, and point a website or sitemap source at the pages you crawled.",
        proof: "/docs/knowledge/sources",
      },
      {
        title: "Move the widget",
        text: "Replace Chatbase's embed code with Parley's one script tag, then list your site under Allowed websites.",
        proof: "/docs/widget/embed",
      },
      {
        title: "Keep your leads",
        text: "Export the leads you collected there; new leads arrive in Parley's leads list and can go to your CRM by webhook or CSV.",
        proof: "/docs/api/webhooks",
      },
    ],
    sources: [
      { id: "cb-sources", name: "Chatbase docs — Sources", url: "https://www.chatbase.co/docs/user-guides/chatbot/sources", readOn: READ_ON },
      { id: "cb-deploy", name: "Chatbase docs — Deploy", url: "https://chatbase.co/docs/user-guides/chatbot/deploy.md", readOn: READ_ON },
      {
        id: "cb-integrations",
        name: "Chatbase docs — Integrations overview",
        url: "https://www.chatbase.co/docs/user-guides/integrations/integrations-overview.md",
        readOn: READ_ON,
      },
      {
        id: "cb-live-chat",
        name: "Chatbase docs — Chatbase Live Chat action",
        url: "https://www.chatbase.co/docs/user-guides/chatbot/actions/chatbase-live-chat",
        readOn: READ_ON,
      },
      {
        id: "cb-api",
        name: "Chatbase docs — full text (llms-full.txt), “Chat with a chatbot”",
        url: "https://chatbase.co/docs/llms-full.txt",
        readOn: READ_ON,
      },
      { id: "cb-team", name: "Chatbase docs — Team settings", url: "https://chatbase.co/docs/user-guides/team/settings", readOn: READ_ON },
      { id: "cb-usage", name: "Chatbase docs — Introduction (Usage)", url: "https://www.chatbase.co/docs/product/introduction", readOn: PRICES_READ_ON },
    ],
    posts: ["why-answers-need-sources", "running-a-chatbot-without-an-api-key", "securing-a-chat-widget"],
  },
  {
    slug: "hubspot-alternative",
    competitor: "HubSpot",
    kind: "a customer platform built around a CRM",
    title: "A HubSpot chatbot alternative for answers from your content",
    description:
      "Parley and HubSpot's chat tools compared with sources: when a full CRM is the right choice, and when a chatbot that answers with citations and runs without an AI key fits better.",
    headline: "Using HubSpot's chatbot? When Parley is the better fit — and when it is not.",
    intro:
      "HubSpot is a CRM with marketing, sales and service tools around it; its chat widget, bots and customer agent are one part of that. Parley does one part — a chatbot that answers from your content — and hands leads to whatever CRM you use, HubSpot included. Claims about HubSpot come from its own knowledge base; claims about Parley link to the page that shows them.",
    strengths: [
      {
        text: "A full CRM: HubSpot's Smart CRM is its primary system of record, shared by its marketing, sales and service tools.",
        source: "hs-seats",
      },
      {
        text: "Its rule-based bot can qualify leads, book meetings or create support tickets before a team member takes over.",
        source: "hs-rule-bot",
      },
      {
        text: "A customer agent that answers from your existing content and can suggest replies in the help desk for reps to review.",
        source: "hs-customer-agent",
      },
      {
        text: "A knowledge base product that can import articles from Freshdesk, Help Scout, Zendesk or Intercom, or from a CSV file.",
        source: "hs-kb-import",
      },
    ],
    differences: ["sources", "idk", "noKey", "security", "woocommerce", "pricing", "selfHost"],
    rows: [
      { feature: "crm", them: { text: "Yes: the Smart CRM is HubSpot's primary system of record.", source: "hs-seats" } },
      { feature: "handoff", them: { text: "Yes: the bot gathers initial information before a member of the team takes over.", source: "hs-rule-bot" } },
      { feature: "leads", them: { text: "Yes: the rule-based bot can qualify leads and book meetings.", source: "hs-rule-bot" } },
      {
        feature: "woocommerce",
        them: {
          text: "Not described on the pages we read: we did not find WooCommerce, or a shop the bot can look up orders in, on the HubSpot pages listed below.",
          source: "hs-customer-agent",
        },
      },
      { feature: "ticketing", them: { text: "Yes: its rule-based bot can create support tickets.", source: "hs-rule-bot" } },
      {
        feature: "helpCenter",
        them: { text: "Yes: a knowledge base, with article import on Service Hub Professional and Enterprise.", source: "hs-kb-import" },
      },
      { feature: "knowledge", them: { text: "The customer agent responds using your existing content.", source: "hs-customer-agent" } },
      { feature: "pricing", them: { text: "Seats: Core, Sales and Service seats, and unlimited view-only seats.", source: "hs-seats" } },
      { feature: "noKey", them: { text: "The customer agent is powered by Breeze, HubSpot's AI.", source: "hs-customer-agent" } },
      { feature: "selfHost", them: { text: "Not described on the pages we read.", source: "hs-seats" } },
    ],
    pricingModel: [
      {
        text: "HubSpot prices by seat: a Core Seat is needed to edit, Sales and Service Hub have no seat minimums, and view-only seats are unlimited.",
        source: "hs-seats",
      },
      { text: "The customer agent's reply recommendations in the help desk do not consume HubSpot credits.", source: "hs-customer-agent" },
    ],
    pricingUrl: "https://www.hubspot.com/pricing/service",
    example: {
      prices: null,
      formula:
        "3 Service Hub seats × the per-seat price of the edition you need (a Core Seat is needed to edit), plus, if the customer agent answers the 2,000 conversations, the HubSpot Credits it uses beyond those included each month.",
      notIncluded: [
        {
          text: "Usage-based features such as the Breeze customer agent consume HubSpot Credits; each account includes monthly credits, and by default an account that uses more is upgraded automatically (overages are an option).",
          source: "hs-credits",
        },
      ],
    },
    exampleNeeds: ["handoff", "webhooks"],
    migration: [
      {
        title: "Gather your knowledge base articles",
        text: "List your public knowledge base's article URLs. If you filled it from a CSV (HubSpot's import takes URL, title, category and article body), that file already holds every article.",
        source: "hs-kb-import",
      },
      {
        title: "Import it as Parley knowledge",
        text: "Add your knowledge base's URL as a website or sitemap source, or upload the articles as files; each answer then links back to the article.",
        proof: "/docs/knowledge/sources",
      },
      {
        title: "Move the widget",
        text: "Parley's widget is one script tag and can sit next to HubSpot's tracking code; turn off the HubSpot chatflow on the pages where Parley answers.",
        proof: "/docs/widget/embed",
      },
      {
        title: "Keep your leads in HubSpot",
        text: "Keep HubSpot as your CRM: send each new Parley lead to it with a signed webhook, or import Parley's leads CSV.",
        proof: "/docs/api/webhooks",
      },
    ],
    sources: [
      {
        id: "hs-rule-bot",
        name: "HubSpot Knowledge Base — Create a rule-based chatbot",
        url: "https://knowledge.hubspot.com/chatflows/create-a-bot",
        readOn: READ_ON,
        pageDate: "2025-08-22",
      },
      {
        id: "hs-customer-agent",
        name: "HubSpot Knowledge Base — Understand the customer agent",
        url: "https://knowledge.hubspot.com/customer-agent/understand-the-customer-agent",
        readOn: READ_ON,
        pageDate: "2026-03-18",
      },
      {
        id: "hs-kb-import",
        name: "HubSpot Knowledge Base — Import knowledge base articles",
        url: "https://knowledge.hubspot.com/knowledge-base/import-knowledge-base-articles",
        readOn: READ_ON,
        pageDate: "2026-01-15",
      },
      { id: "hs-seats", name: "HubSpot Legal — Seats migration FAQ", url: "https://legal.hubspot.com/seats-migration-faq", readOn: READ_ON },
      {
        id: "hs-credits",
        name: "HubSpot Knowledge Base — Understand HubSpot Credits and billing",
        url: "https://knowledge.hubspot.com/account-management/understand-breeze-intelligence-credits-and-billing",
        readOn: PRICES_READ_ON,
        pageDate: "2025-09-05",
      },
    ],
    posts: ["why-answers-need-sources", "running-a-chatbot-without-an-api-key", "when-to-hand-a-conversation-to-a-human"],
  },
  {
    slug: "zendesk-alternative",
    competitor: "Zendesk",
    kind: "a helpdesk with ticketing, a help centre, live chat and messaging",
    title: "A Zendesk alternative for AI answers on your website",
    description:
      "Parley and Zendesk compared with sources: where a full helpdesk with SLAs wins, where an AI chatbot that cites its sources and runs without an AI key is enough, and how to move.",
    headline: "Zendesk or Parley? A helpdesk and a chatbot, compared honestly.",
    intro:
      "Zendesk is a helpdesk: tickets, a help centre, live chat and messaging. Parley is an AI chatbot that answers from your content on your website and hands visitors to your team. If you need tickets with service-level targets, Zendesk does that and Parley does not. Claims about Zendesk come from its own help and developer pages; claims about Parley link to the page that shows them.",
    strengths: [
      {
        text: "Ticketing with SLA policies: reply, update and resolution targets for each ticket priority, in business or calendar hours.",
        source: "zd-sla",
      },
      { text: "A help centre knowledge base whose articles can be listed and exported through its API.", source: "zd-export" },
      { text: "A marketplace of apps and integrations that extend its products.", source: "zd-apps" },
      {
        text: "Products combined in one Suite — support, help centre, live chat and messaging — with agent seats added as the team grows.",
        source: "zd-buying",
      },
    ],
    differences: ["sources", "idk", "noKey", "security", "woocommerce", "pricing", "selfHost"],
    rows: [
      { feature: "ticketing", them: { text: "Yes: SLA policies with reply, update and resolution targets for each ticket priority.", source: "zd-sla" } },
      { feature: "helpCenter", them: { text: "Yes: a help centre with articles in sections, also available through the API.", source: "zd-articles" } },
      {
        feature: "handoff",
        them: { text: "Yes: live chat and messaging is a Zendesk product, bought on its own or combined in the Suite.", source: "zd-buying" },
      },
      { feature: "pricing", them: { text: "Per agent seat; seats are added or removed on the subscription.", source: "zd-buying" } },
      { feature: "api", them: { text: "Yes: the Help Center API is part of the Zendesk v2 API.", source: "zd-hc-api" } },
      {
        feature: "customTools",
        them: { text: "Apps and integration apps extend Zendesk products; integrations are built on its REST API.", source: "zd-apps" },
      },
      {
        feature: "woocommerce",
        them: {
          text: "Not described on the pages we read: its apps glossary explains marketplace and integration apps in general; we did not find a WooCommerce app there.",
          source: "zd-apps",
        },
      },
      { feature: "selfHost", them: { text: "Not described on the pages we read.", source: "zd-buying" } },
    ],
    pricingModel: [
      {
        text: "Zendesk subscriptions are counted in agent seats: you add or decrease seats on each product, and combining products into the Suite gives more favourable pricing.",
        source: "zd-buying",
      },
    ],
    pricingUrl: "https://www.zendesk.com/pricing/",
    example: {
      prices: null,
      formula:
        "3 agent seats × the per-agent price of a plan with live chat and messaging, plus, if its AI agents answer, every automated resolution beyond the baseline your plan includes.",
      notIncluded: [
        {
          text: "AI agent usage is billed by automated resolutions: every Suite and Support plan includes a baseline, and past it you buy more resolutions, pay overage charges, or let AI agent features pause.",
          source: "zd-ar",
        },
      ],
    },
    exampleNeeds: ["handoff", "webhooks"],
    migration: [
      {
        title: "Export your help centre articles",
        text: "List your articles through the Help Center API (an incremental export returns up to 1,000 articles a page), or keep the help centre public and crawl it.",
        source: "zd-export",
      },
      {
        title: "Import them as Parley knowledge",
        text: "Add the help centre's URL or sitemap as a website source (same site, page cap, include and exclude patterns), or upload exported articles as HTML files.",
        proof: "/docs/knowledge/sources",
      },
      {
        title: "Move the widget",
        text: "Put Parley's script tag where the Zendesk web widget was, or run both: Parley answers, and the “Talk to a human” button or a webhook brings your team in.",
        proof: "/docs/widget/embed",
      },
      {
        title: "Keep leads and handoffs flowing",
        text: "Send new leads and handoff requests to your team by email, Slack or a signed webhook that your ticketing system can receive.",
        proof: "/docs/api/webhooks",
      },
    ],
    sources: [
      {
        id: "zd-sla",
        name: "Zendesk help — Defining SLA policies",
        url: "https://support.zendesk.com/hc/en-us/articles/4408829459866",
        readOn: READ_ON,
        pageDate: "2024-12-23",
      },
      {
        id: "zd-hc-api",
        name: "Zendesk developer docs — Help Center API introduction",
        url: "https://developer.zendesk.com/api-reference/help_center/help-center-api/introduction/",
        readOn: READ_ON,
      },
      {
        id: "zd-articles",
        name: "Zendesk developer docs — Help Center API: Articles",
        url: "https://developer.zendesk.com/api-reference/help_center/help-center-api/articles",
        readOn: READ_ON,
      },
      {
        id: "zd-export",
        name: "Zendesk developer docs — Understanding incremental article exports",
        url: "https://developer.zendesk.com/documentation/help_center/help-center-api/understanding-incremental-article-exports/",
        readOn: READ_ON,
      },
      {
        id: "zd-apps",
        name: "Zendesk developer docs — Apps glossary",
        url: "https://developer.zendesk.com/apps/docs/developer-guide/glossary",
        readOn: READ_ON,
      },
      {
        id: "zd-buying",
        name: "Zendesk help — Buying Zendesk products and add-ons",
        url: "https://support.zendesk.com/hc/en-us/articles/4408839355034",
        readOn: READ_ON,
      },
      {
        id: "zd-ar",
        name: "Zendesk help — Monitoring your automated resolution usage",
        url: "https://support.zendesk.com/hc/en-us/articles/6958358659226-Monitoring-your-automated-resolution-usage",
        readOn: PRICES_READ_ON,
      },
    ],
    posts: ["when-to-hand-a-conversation-to-a-human", "measuring-deflection-honestly", "writing-a-knowledge-base"],
  },
];

/** The cheapest Parley plan with at least `replies` bot replies a month, `seats` members and every one of `extras`. */
export function parleyPlanFor(replies: number, seats: number, extras: (keyof PlanExtras)[] = []): Plan | null {
  return (
    PLAN_IDS.map((id) => PLANS[id]).find((p) => p.limits.repliesPerMonth >= replies && p.limits.members >= seats && extras.every((e) => p.extras[e])) ?? null
  );
}

/** The stated example on one page: the plans for one and three bot replies per conversation, given the features it needs. */
export function examplePlans(c: Pick<Comparison, "exampleNeeds">) {
  const extras = extrasFor(c.exampleNeeds);
  const replies = { one: PRICE_EXAMPLE.conversationsPerMonth, three: PRICE_EXAMPLE.conversationsPerMonth * 3 };
  return {
    extras,
    replies,
    one: parleyPlanFor(replies.one, PRICE_EXAMPLE.seats, extras),
    three: parleyPlanFor(replies.three, PRICE_EXAMPLE.seats, extras),
  };
}

export function getComparison(slug: string): Comparison | undefined {
  return COMPARISONS.find((c) => c.slug === slug);
}

export const comparisonPath = (c: Pick<Comparison, "slug">) => `/product/${c.slug}`;
