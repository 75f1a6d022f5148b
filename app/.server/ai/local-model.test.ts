import { generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { DEFAULT_GENERAL_SETTINGS, type GeneralSettings } from "~/lib/schemas/chatbot-settings";
import { citedSnippets, composeAnswer, LocalLanguageModel, parsePrompt, splitSentences } from "./local-model";
import { buildSystemPrompt, type PromptPassage } from "./prompts";
import { getLanguageModel, listModels, resolveChatModel } from "./providers";
import { detectSmallTalk } from "./small-talk";

const PASSAGES: PromptPassage[] = [
  {
    id: 1,
    title: "Shipping policy",
    heading: null,
    url: "https://shop.example/shipping",
    text: "We ship to all EU countries. Standard shipping takes 3 to 5 business days. Express shipping takes 1 business day and costs 9 euros. Orders over 50 euros ship free.",
  },
  {
    id: 2,
    title: "Returns",
    heading: null,
    url: null,
    text: "You can return any item within 30 days of delivery. Returns are free for members.\nQ: How do I start a return?\nA: Open your order page and click Return.",
  },
  { id: 3, title: "About us", heading: null, url: null, text: "Acme was founded in 1999 in Lyon. Our team has 40 people." },
];

function system(passages = PASSAGES, settings: Partial<GeneralSettings> = {}) {
  return buildSystemPrompt({
    botName: "Acme Helper",
    settings: { ...DEFAULT_GENERAL_SETTINGS, fallbackMessage: "I don't know that one.", ...settings },
    passages,
  });
}

async function stream(question: string, opts: { passages?: PromptPassage[]; settings?: Partial<GeneralSettings> } = {}) {
  const result = streamText({ model: new LocalLanguageModel(), system: system(opts.passages, opts.settings), prompt: question });
  const deltas: string[] = [];
  for await (const d of result.textStream) deltas.push(d);
  return { deltas, text: deltas.join("") };
}

describe("local model (LanguageModelV3 through streamText)", () => {
  it("streams a grounded answer in small deltas, citing the passage it came from", async () => {
    const { deltas, text } = await stream("How much does express shipping cost?");
    expect(deltas.length).toBeGreaterThan(3);
    expect(Math.max(...deltas.map((d) => d.length))).toBeLessThan(40);
    expect(text).toContain("Express shipping takes 1 business day and costs 9 euros");
    expect(text).toMatch(/\[1\]/);
    expect(text).not.toMatch(/\[2\]|\[3\]/);
  });

  it("answers from the passage that matches, even when it is not ranked first", async () => {
    const { text } = await stream("When was Acme founded?");
    expect(text).toBe("Acme was founded in 1999 in Lyon [3].");
  });

  it("hands an FAQ question's score to its answer", async () => {
    const { text } = await stream("How do I start a return?");
    expect(text).toContain("Open your order page and click Return [2].");
    expect(text).not.toContain("?");
  });

  it("an FAQ prompt in bold is never quoted: its answer is (bench/probes9)", async () => {
    const faq = (text: string): PromptPassage[] => [{ id: 1, title: "Help", heading: null, url: null, text }];
    // "?**" hid the question mark: the prompt itself was the reply.
    const insurer = await stream("what dae ah need fae ma insurance company before ah come in", {
      passages: faq(
        "**What do I need before my first appointment?**\nPhone your insurer and get an authorisation number, then give it to us when you book.\n\n**Who pays the excess?**\nAny excess on your policy is paid by you.",
      ),
    });
    expect(insurer.text).toContain("authorisation number");
    expect(insurer.text).not.toContain("**");
    // A prompt in the customer's voice ends with a full stop, not a question mark.
    const tooth = await stream("my boy knocked his front tooth out at rugby what do i do with it", {
      passages: faq(
        "**I knocked out a tooth playing rugby.**\nKeep the tooth in milk and come in straight away.\n\n**Do you see children?**\nYes, from age 2.",
      ),
    });
    expect(tooth.text).toContain("Keep the tooth in milk");
    expect(tooth.text).not.toContain("**I knocked");
    // The business's own emphasis is still an answer.
    const sunday = await stream("are you open on sundays", { passages: faq("**We are closed on Sundays.**\nOn Saturdays we open at 9 am.") });
    expect(sunday.text).toContain("We are closed on Sundays.");
  });

  it("an FAQ answer that opens with a fragment goes on to its next sentence (bench/probes11)", async () => {
    const faq = (text: string): PromptPassage[] => [{ id: 1, title: "Help", heading: null, url: null, text }];
    const hipaa = await stream("im a chiropractor, is this hipaa compliant?", {
      passages: faq(
        "### Is Slotwise HIPAA compliant?\n\nOnly the Clinic plan. On Clinic we sign a Business Associate Agreement (BAA) with you.\n\n### How do you keep my account secure?\n\nWe encrypt your data.",
      ),
      settings: { answerLength: "short" },
    });
    expect(hipaa.text).toContain("Only the Clinic plan. On Clinic we sign a Business Associate Agreement");
    // After a prompt line too; a full sentence stays on its own.
    const bold = await stream("can i bring my dog", {
      passages: faq("**Can I bring my dog?**\nYes, on pitches. Dogs must be on a lead.\n\n**Is there wifi?**\nYes."),
    });
    expect(bold.text).toContain("Yes, on pitches. Dogs must be on a lead [1].");
    const whole = await stream("can i bring my dog", {
      passages: faq("**Can I bring my dog?**\nWell-behaved dogs are welcome on every pitch. Our cafe opens at 9 am."),
    });
    expect(whole.text).not.toContain("cafe");
  });

  it("a how-to leads with the section whose heading holds the whole question, and never quotes a code fence (demo docs)", async () => {
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Add the chat widget to your website",
        heading: null,
        url: null,
        text: 'Every chatbot has its snippet on Settings → Embed & API. Paste it once, before </body>, on\nevery page where the chat should appear:\n\n```html\n<script src="https://host/widget.js" data-chatbot-id="cb_1" async></script>\n```\n\nThe script is about 2 KB compressed.',
      },
      {
        id: 2,
        title: "Security",
        heading: null,
        url: null,
        text: "| problem | what to do |\n|---|---|\n| Site not allowed | the website is not on your list; **Allow this site** adds the widget's site to the list |",
      },
    ];
    // Before: led with the table row, which names add, widget and site; the section's heading names them all.
    const { text } = await stream("How do I add the widget to my website?", { passages });
    expect(text).toMatch(/^Every chatbot has its snippet on Settings → Embed & API\. Paste it once, before <\/body>/);
    expect(text).not.toContain("```");
    expect(text).not.toContain("<script");
    // The sentence that introduced the code ends as a sentence.
    expect(text).toContain("on every page where the chat should appear.");
  });

  it("a how-to question keeps the steps that follow the best match", async () => {
    const steps: PromptPassage[] = [
      {
        id: 1,
        title: "Identity",
        heading: null,
        url: null,
        text: "Identity verification proves who a visitor is. Sign the visitor id with HMAC-SHA256 and pass the signature to the widget. Our office is in Lyon.",
      },
    ];
    const { text } = await stream("How do I verify a visitor's identity?", { passages: steps });
    expect(text).toBe("Identity verification proves who a visitor is. Sign the visitor id with HMAC-SHA256 and pass the signature to the widget [1].");
  });

  it("respects the answer length", async () => {
    const short = (await stream("Tell me about shipping", { settings: { answerLength: "short" } })).text;
    const long = (await stream("Tell me about shipping", { settings: { answerLength: "long" } })).text;
    expect(short.split(/(?<=[.!?])\s/).length).toBeLessThanOrEqual(2);
    expect(long.length).toBeGreaterThan(short.length);
  });

  it("greets, thanks and introduces itself without citations", async () => {
    expect((await stream("Hi there!")).text).toBe("Hi! I'm Acme Helper. How can I help you today?");
    expect((await stream("thanks a lot")).text).toMatch(/welcome/i);
    const who = (await stream("Who are you?")).text;
    expect(who).toContain("Acme Helper");
    for (const t of [who]) expect(t).not.toMatch(/\[\d\]/);
  });

  it("small talk follows the chatbot's language, or the visitor's when automatic", async () => {
    expect((await stream("hello", { settings: { language: "de" } })).text).toMatch(/^Hallo!/);
    expect((await stream("Bonjour")).text).toMatch(/^Bonjour !/);
    expect((await stream("dziękuję")).text).toMatch(/Proszę/);
  });

  it("with no passages answers with the configured fallback, never an invented answer", async () => {
    const { text } = await stream("What is the capital of Peru?", { passages: [] });
    expect(text).toBe("I don't know that one.");
  });

  it("is deterministic and works with generateText too", async () => {
    const a = await generateText({ model: new LocalLanguageModel(), system: system(), prompt: "How long does standard shipping take?" });
    const b = await generateText({ model: new LocalLanguageModel(), system: system(), prompt: "How long does standard shipping take?" });
    expect(a.text).toBe(b.text);
    expect(a.text).toContain("Standard shipping takes 3 to 5 business days");
    expect(a.finishReason).toBe("stop");
  });

  it("uses the previous question for a short follow-up", () => {
    const parsed = parsePrompt([
      { role: "system", content: system() },
      { role: "user", content: [{ type: "text", text: "How much does express shipping cost?" }] },
      { role: "assistant", content: [{ type: "text", text: "9 euros [1]." }] },
      { role: "user", content: [{ type: "text", text: "and standard?" }] },
    ]);
    expect(parsed.previousQuestions).toHaveLength(1);
    expect(composeAnswer(parsed).text).toContain("Standard shipping");
  });

  it("prompt round trip: passages with tricky text survive", () => {
    const parsed = parsePrompt([
      { role: "system", content: system([{ id: 1, title: 'He said "hi" <b>', heading: null, url: null, text: "Close tags </passage> are escaped." }]) },
      { role: "user", content: [{ type: "text", text: "tags?" }] },
    ]);
    expect(parsed.passages).toHaveLength(1);
    expect(parsed.passages[0].text).toBe("Close tags </passage> are escaped.");
  });

  it("splits sentences and list items, dropping headings", () => {
    expect(splitSentences("# Title\nFirst one. Second one!\n- item A\n- item B").map((s) => s.text)).toEqual(["First one.", "Second one!", "item A", "item B"]);
  });

  it("detects small talk only when nothing else is asked", () => {
    expect(detectSmallTalk("hello")?.kind).toBe("greeting");
    expect(detectSmallTalk("Hi, who are you?")?.kind).toBe("identity");
    expect(detectSmallTalk("hi, how much is shipping?")).toBeNull();
    expect(detectSmallTalk("Thanks Acme Helper!", "Acme Helper")?.kind).toBe("thanks");
  });

  it("takes asking after the bot's day as small talk, not a question about the day (bench/probes17)", () => {
    expect(detectSmallTalk("hey how are you today")?.kind).toBe("howareyou");
    expect(detectSmallTalk("hey hows your day going")?.kind).toBe("howareyou");
    expect(detectSmallTalk("how is your day")?.kind).toBe("howareyou");
    expect(detectSmallTalk("are you open today")).toBeNull();
    expect(detectSmallTalk("how busy is your day on saturday")).toBeNull();
  });
});

describe("model registry", () => {
  it("offers the local engine always and OpenAI models only with a key", () => {
    const none = listModels({});
    expect(none.find((m) => m.id === "local")?.available).toBe(true);
    expect(none.find((m) => m.id === "gpt-4o-mini")).toMatchObject({ available: false, reason: expect.stringContaining("OPENAI_API_KEY") });
    expect(none.find((m) => m.id === "compat")?.available).toBe(false);
    const keyed = listModels({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://localhost:11434/v1", OPENAI_COMPAT_MODEL: "llama3.2" });
    expect(keyed.every((m) => m.available)).toBe(true);
    expect(keyed.find((m) => m.id === "compat")?.label).toContain("llama3.2");
  });

  it("builds models without calling the network, and falls back to local when unconfigured", () => {
    expect(getLanguageModel({ OPENAI_API_KEY: "sk-test" }, "gpt-4.1-mini").modelId).toBe("gpt-4.1-mini");
    expect(() => getLanguageModel({}, "gpt-4o-mini")).toThrow(/not available/);
    expect(() => getLanguageModel({}, "nope")).toThrow(/unknown/);
    expect(resolveChatModel({}, "gpt-4o-mini")).toMatchObject({ id: "local", fellBack: true });
  });
});

describe("sentence splitting for composed answers", () => {
  it("reads markdown table rows as sentences and drops separator and header rows", () => {
    const s = splitSentences("| role | what it allows |\n|---|---|\n| Admin | Manages members (except owners) and every chatbot. |");
    expect(s.map((x) => x.text)).toEqual(["Admin: Manages members (except owners) and every chatbot."]);
    // With three columns or more each value is named by its column (before: "REST API: —; yes; yes.").
    const plans = splitSentences(
      "The plans\n\n| | Free | Starter | Growth |\n|---|---|---|---|\n| Price per month | $0 | $19 | $79 |\n| REST API | — | yes | yes |",
    );
    expect(plans.map((x) => x.text)).toEqual(["Price per month: Free $0; Starter $19; Growth $79.", "REST API: Free —; Starter yes; Growth yes."]);
    expect(plans[0].heading).toBe("The plans");
  });

  it("joins hard-wrapped prose, so a wrapped line is never quoted on its own", () => {
    const wrapped =
      "## Limits\nYour plan sets the knowledge characters per organisation, the pages per crawled site and the largest\nfile you can upload. A source that would go over a limit is refused with a message naming the limit\nand the plan that raises it.";
    expect(splitSentences(wrapped).map((s) => s.text)).toEqual([
      "Your plan sets the knowledge characters per organisation, the pages per crawled site and the largest file you can upload.",
      "A source that would go over a limit is refused with a message naming the limit and the plan that raises it.",
    ]);
    // A wrapped list item continues; records, headings and new items do not join.
    expect(
      splitSentences("- Retry a failed source from its row on the knowledge page, after fixing\n  the cause it names.\n- Delete it").map((s) => s.text),
    ).toEqual(["Retry a failed source from its row on the knowledge page, after fixing the cause it names.", "Delete it"]);
    expect(splitSentences("name: Blue widget with a longer description that runs past fifty chars\nprice: 10 EUR").map((s) => s.text)).toEqual([
      "name: Blue widget with a longer description that runs past fifty chars",
      "price: 10 EUR",
    ]);
    // A chunk that starts mid-sentence after a repeated heading still drops its leading fragment.
    expect(splitSentences("## Limits\nfile you can upload. A source over a limit is refused.").map((s) => s.text)).toEqual([
      "A source over a limit is refused.",
    ]);
  });

  it("does not end a sentence at a title's or a place's abbreviation", () => {
    // bench/probes13 ferry: "… between Carrowmore Pier, near Louisburgh in Co." was quoted on its own.
    const s = splitSentences("We sail from Carrowmore Pier in Co. Mayo. The crossing takes 25 minutes. Ask Dr. Byrne or St. Brigid's. No. We close at 6.");
    expect(s.map((x) => x.text)).toEqual([
      "We sail from Carrowmore Pier in Co. Mayo.",
      "The crossing takes 25 minutes.",
      "Ask Dr. Byrne or St. Brigid's.",
      "No.",
      "We close at 6.",
    ]);
  });

  it("skips a leading mid-sentence fragment left by chunk overlap", () => {
    const s = splitSentences('colleague?" or "Which roles?". Owners manage billing. Admins manage members.');
    expect(s.map((x) => x.text)).toEqual(["Owners manage billing.", "Admins manage members."]);
    // The fragment runs over a short line and a wrapped one: none of it is quoted (the demo bot
    // answered "tool **Hand to a human** is on under the chatbot's **Tools**…").
    const wrapped = splitSentences(
      "on in Look & feel and the built-in\ntool **Hand to a human** is on under the chatbot's **Tools** (the Tools page says so when Look & feel\nblocks it).\n\nEvery request is recorded. The team is notified once.",
    );
    expect(wrapped.map((x) => x.text)).toEqual(["Every request is recorded.", "The team is notified once."]);
    // …and a sentence that starts on a later line of the fragment is kept.
    expect(splitSentences("the built-in\ntool is on. Owners manage billing.").map((x) => x.text)).toEqual(["Owners manage billing."]);
  });

  it("keeps an indented line with the list item above it, even after a colon", () => {
    // The demo bot's plans doc: "moving from Free to a paid plan opens Stripe Checkout." was quoted
    // without its condition, "With Stripe configured".
    const s = splitSentences(
      "An owner opens **Plans and usage**.\n\n- **With Stripe configured** (the hosted service):\n  moving from Free to a paid plan opens Stripe Checkout. The plan changes\n  within seconds.\n- **Without Stripe**: the page says so.\nNot indented, so a paragraph of its own.",
    );
    expect(s.map((x) => [x.text, x.bullet])).toEqual([
      ["An owner opens **Plans and usage**.", false],
      ["**With Stripe configured** (the hosted service): moving from Free to a paid plan opens Stripe Checkout. The plan changes within seconds.", true],
      ["**Without Stripe**: the page says so.", true],
      ["Not indented, so a paragraph of its own.", false],
    ]);
  });
});

describe("answers that start with the answer (issue #12)", () => {
  const SHOP: PromptPassage[] = [
    {
      id: 1,
      title: "Shipping and returns",
      heading: null,
      url: null,
      text:
        "Shipping within Ireland\nDelivery within Ireland costs €6. Orders over €80 ship free within Ireland.\n\n" +
        "Processing times\nOrders placed before 1 pm are dispatched the same day. We do not dispatch parcels on Saturdays, Sundays or bank holidays.\n\n" +
        "Returns\nYou may return unworn items within 30 days of delivery. If something arrives damaged, send us a photo within 14 days of delivery.",
    },
  ];
  const ask = (question: string, passages = SHOP, settings: Partial<GeneralSettings> = {}) =>
    composeAnswer(
      parsePrompt([
        { role: "system", content: system(passages, settings) },
        { role: "user", content: [{ type: "text", text: question }] },
      ]),
    );
  const passage = (id: number, title: string, text: string): PromptPassage => ({ id, title, heading: null, url: null, text });

  it("never quotes a heading line, and leads with the sentence that answers", () => {
    // Before: "Shipping within Ireland. Orders over €80 ship free within Ireland [1]."
    const { text } = ask("What does shipping within Ireland cost?");
    expect(text.startsWith("Delivery within Ireland costs €6.")).toBe(true);
    expect(text).not.toMatch(/Shipping within Ireland\./);
  });

  it("reads customers' words through the lexicon: weekends are Saturdays and Sundays", () => {
    expect(ask("Do you ship at weekends?").text).toMatch(/^We do not dispatch parcels on Saturdays, Sundays/);
  });

  it("a phrase's own word alone is weak: “send something back” is a return, not “send us a photo”", () => {
    expect(ask("how long do i have to send something back?").text).toMatch(/^You may return unworn items within 30 days/);
  });

  it("a “how long” question prefers the sentence with a duration", () => {
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Refunds",
        heading: null,
        url: null,
        text: "We inspect returned items carefully. Refunds go back to the original payment method within 5 business days of the inspection.",
      },
    ];
    expect(ask("How long does a refund take?", passages).text).toMatch(/^Refunds go back to the original payment method within 5 business days/);
  });

  it("a “how often” question prefers the sentence with a frequency (bench/probes9)", () => {
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Hygienist",
        heading: null,
        url: null,
        text: "Our hygienists do scale and polish, stain removal and gum care. Most people need a hygienist visit every 6 months.",
      },
    ];
    expect(ask("how often shud i be getting a scale and polish", passages).text).toMatch(/every 6 months/);
  });

  it("an age question prefers the sentence with an age limit put after the number: “16 or older” (ADR 050)", () => {
    // Before: "how old do you have to be to use the weights" led with the sentence listing the free weights.
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Gym",
        heading: null,
        url: null,
        text: "We have a gym floor with free weights and cardio machines. You must be 16 or older to use the gym floor.",
      },
    ];
    expect(ask("how old do you have to be to use the weights", passages).text).toMatch(/^You must be 16 or older/);
  });

  it("leads with the opening of the section whose heading names the question (ADR 018)", () => {
    // The demo bot's docs: before, "How do I add the widget to my website?" led with the REST API
    // sentence (it has "widget" and "add") or the look-and-feel one, not the embed instructions.
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Add the chat widget to your website",
        heading: "Look and feel",
        url: null,
        text: "**Settings → Look & feel** changes the theme, brand colour and launcher position, with a live preview of the real widget.",
      },
      {
        id: 2,
        title: "Add the chat widget to your website",
        heading: null,
        url: null,
        text: "Every chatbot has its snippet on **Settings → Embed & API**. Paste it once, before `</body>`, on every page where the chat should appear.",
      },
      {
        id: 3,
        title: "REST API",
        heading: null,
        url: null,
        text: "Parley's REST API lets your own servers do what the widget does: ask a chatbot a question and add knowledge to it.",
      },
    ];
    expect(ask("How do I add the widget to my website?", passages).text).toMatch(/^Every chatbot has its snippet on \*\*Settings → Embed & API\*\*\./);
  });

  it("cites the sentence it quoted under each source", () => {
    const snippets = citedSnippets(
      { question: "What does shipping within Ireland cost?" },
      SHOP.map((p) => ({ id: p.id, title: p.title, text: p.text })),
    );
    expect(snippets.get(1)).toMatch(/^Delivery within Ireland costs €6\./);
  });

  it("leads with a later passage's sentence that holds the whole question over the first passage's partial match", () => {
    // Before: "If something arrives damaged, send us a photo … including postage" (passage 1, the
    // postage only) led over "Delivery to other EU countries costs €15" (passage 4: delivery and
    // Germany → EU), so the reply never gave the price.
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Damaged items",
        heading: null,
        url: null,
        text: "If something arrives damaged, send us a photo within 14 days. We will replace the item or refund you in full, including postage.",
      },
      { id: 2, title: "Processing times", heading: null, url: null, text: "Orders placed before 1 pm are packed and dispatched the same day." },
      { id: 3, title: "Payment", heading: null, url: null, text: "We accept Visa, Mastercard and PayPal. We do not offer cash on delivery." },
      {
        id: 4,
        title: "Shipping to the rest of the world",
        heading: null,
        url: null,
        text: "Delivery to other EU countries costs €15 and takes 4 to 7 working days.",
      },
    ];
    expect(ask("whats the postage to germany", passages).text).toMatch(/^Delivery to other EU countries costs €15/);
  });

  it("a multi-word synonym written out in full counts as the question's word (“non alcoholic” ↔ “alcohol-free”)", () => {
    // Before: the phrase's head alone ("free") counted half, and sentences with "drink" won.
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Drinks",
        heading: null,
        url: null,
        text: "Gift vouchers can be used for food and drink. A children's menu includes a drink and ice cream. We also serve beer from local breweries and alcohol-free cocktails.",
      },
    ];
    expect(ask("do you have non alcoholic drinks", passages).text).toMatch(/alcohol-free cocktails/);
    expect(ask("do you have non alcoholic drinks", passages).text).toMatch(/^We also serve beer/);
  });

  it("a question about two things gets a sentence about each before other close matches", () => {
    // Before: "Admins can manage members" counted as answering both, and close matches about owners
    // filled the reply before "Members can track time…".
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Roles",
        heading: null,
        url: null,
        text:
          "Admins can manage members, clients and billing. To transfer ownership, the owner opens Settings → Members and chooses an admin. " +
          "A workspace has one owner. Members can track time and see their own reports only.",
      },
      { id: 2, title: "Security", heading: null, url: null, text: "Workspace owners can require two-factor login for every member." },
      { id: 3, title: "Teams", heading: null, url: null, text: "Owners and admins can invite people by email." },
    ];
    const { text } = ask("whats the difference between an admin and a member", passages);
    expect(text).toMatch(/^Admins can manage members/);
    expect(text).toMatch(/Members can track time/);
  });

  it("a “who can…” question gets the sentence that names who, and whoever manages a thing may change it", () => {
    // Before: "who can change the billing" quoted the billing-details sentence and the upgrade rules,
    // never "Admins can manage … billing" (bench:answers saas dev).
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Billing",
        heading: null,
        url: null,
        text:
          "To add your company name, address or VAT number to invoices, edit the billing details on the same page; the change applies to future invoices only. " +
          "You can upgrade at any time; the difference is charged straight away, pro-rated for the rest of the billing period.",
      },
      {
        id: 2,
        title: "Roles",
        heading: null,
        url: null,
        text: "A workspace has one owner. Admins can manage members, clients and billing. Members can track time and see their own reports only.",
      },
    ];
    const { text } = ask("who can change the billing", passages);
    expect(text).toMatch(/Admins can manage members, clients and billing/);
  });

  it("a “how old” question quotes the sentence that gives an age; spaying is neutering (ADR 038)", () => {
    // Before: "how old does my cat have to be to get spayed" answered only "Cat spays cost £120 and
    // castrations £90" (bench:answers vet dev): "old" was a light word, and no sentence says "spay" with an age.
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Neutering",
        heading: null,
        url: null,
        text:
          "We neuter cats and dogs from 6 months of age. Cat spays cost £120 and castrations £90. " +
          "Dog neutering costs from £250 to £420 depending on the dog's weight.",
      },
    ];
    const { text } = ask("how old does my cat have to be to get spayed", passages);
    // It follows the price sentence: that one holds the question's words in full, the age sentence
    // holds "spayed" only as the weaker "neuter". It does not lead yet.
    expect(text).toContain("We neuter cats and dogs from 6 months of age");
  });

  it("labels sentences with the heading-like line above them instead of quoting it", () => {
    const s = splitSentences("Refund policy\nMonthly payments are not refundable. Annual plans can be refunded within 30 days.");
    expect(s.map((x) => x.text)).toEqual(["Monthly payments are not refundable.", "Annual plans can be refunded within 30 days."]);
    expect(s[0].heading).toBe("Refund policy");
    // A merged chunk's section heading above a list is a heading too (bench/probes3: before, the
    // reply began "Opening Hours.").
    const hours = splitSentences("Opening Hours\n- Monday to Friday: 8 am to 5:30 pm\n- Sunday and bank holidays: closed");
    expect(hours.map((x) => x.text)).toEqual(["Monday to Friday: 8 am to 5:30 pm", "Sunday and bank holidays: closed"]);
    expect(hours[0].heading).toBe("Opening Hours");
  });

  it("a length of time written in words is a duration; “how far” wants a distance; each kind asked for is answered (bench/probes12)", () => {
    const one = (title: string, text: string): PromptPassage[] => [{ id: 1, title, heading: null, url: null, text }];
    // Before: the price sentence alone; "half a day" did not read as a duration.
    const battery = one(
      "Home batteries",
      "We install a 10 kWh home battery for €6,200 including installation. The battery stores daytime power so you can use it in the evening. " +
        "You can add a battery later to an existing system without changing the panels, and fitting it takes half a day.",
    );
    expect(ask("how long will the installer be busy with the battery", battery).text).toContain("fitting it takes half a day");
    // "How far" is answered by the distance, not by the days of the week.
    const delivery = one(
      "Delivery",
      "Orders placed before 3 pm are ready the next working day. We deliver Monday to Saturday, between 2 pm and 6 pm. Deliveries go up to 8 km from the pharmacy.",
    );
    expect(ask("how far do you deliver", delivery).text).toMatch(/^Deliveries go up to 8 km/);
    // Two kinds asked in one question: the sentence after the lead gives the second (the distance
    // kind alone dropped "Allow 3 hours", as any kind then counted as the question's).
    const walk = one(
      "Walks",
      "A signed path from the top field joins the riverside track to Dog Falls, about 4 miles each way. Allow 3 hours for the round trip.",
    );
    const both = ask("can we walk to dog falls from the site, how far is it and how long does it take", walk).text;
    expect(both).toContain("about 4 miles each way");
    expect(both).toContain("Allow 3 hours for the round trip");
  });

  it("“what port” wants a host and port (the demo docs)", () => {
    const one = (title: string, heading: string, text: string): PromptPassage[] => [{ id: 1, title, heading, url: null, text }];
    // Before: only "Set `PORT` to use another port…", which shares the question's words but not its answer.
    const run = one(
      "Quick start",
      "Run it locally",
      "You need Node.js 20 or newer and npm 11. From a fresh clone run npm start.\n\nThe first run installs dependencies, builds the app, creates the local database, loads the demo data\nand serves Parley on http://localhost:8787. It prints the demo login.\n\nSet `PORT` to use another port, for example `PORT=8788 npm start`.",
    );
    expect(ask("what port does npm start serve on", run).text).toContain("serves Parley on http://localhost:8787");
  });

  it("a “what time” question wants a clock time, not “closed”; “are you open” may be answered by it", () => {
    const passages: PromptPassage[] = [
      {
        id: 1,
        title: "Garage",
        heading: null,
        url: null,
        text: "Opening Hours\n- Monday to Friday: 8 am to 5:30 pm\n- Saturday: 8 am to 12:30 pm (MOTs and small jobs only)\n- Sunday and bank holidays: closed",
      },
    ];
    // Before: "- Sunday and bank holidays: closed. Opening Hours [1]."
    expect(ask("what time do you close weekdays", passages).text).toMatch(/^- Monday to Friday: 8 am to 5:30 pm/);
    expect(ask("are you open on sundays", passages).text).toMatch(/^- Sunday and bank holidays: closed/);
  });

  it("reads the kind of answer asked for through chat spelling: “wat time” wants a clock time (bench/probes11)", () => {
    const campsite: PromptPassage[] = [
      passage(
        1,
        "Dogs",
        "Well-behaved dogs are welcome on pitches, up to 2 per pitch, at £3 per dog per night. Please keep dogs on a lead at all times on site.",
      ),
      passage(2, "Minimum stays", "Pitches have a 2-night minimum on Friday and Saturday nights in high season, and 3 nights over bank holiday weekends."),
      passage(
        3,
        "Arriving and leaving",
        "- Tent, campervan and motorhome pitches: arrive from 2 pm, leave by 11 am.\n- Glamping pods and bell tents: arrive from 4 pm, leave by 10 am.\n- The main gate is locked from 11 pm to 7 am.",
      ),
    ];
    // Before: "wat time" asked for nothing in particular, and the dogs sentence led.
    expect(ask("wat time can we get on our pitch", campsite).text).toMatch(/^- Tent, campervan and motorhome pitches: arrive from 2 pm/);
  });

  it("hours written as times say when a place closes: “what time do you close in the week” (bench/probes12)", () => {
    const pharmacy: PromptPassage[] = [
      passage(
        1,
        "Protea Lane Pharmacy — Opening hours",
        "The dispensary and the clinic keep different hours. The clinic is run by our registered nurse.\n\n| Day | Dispensary | Clinic |\n| --- | --- | --- |\n" +
          "| Monday to Friday | 8 am to 7 pm | 8:30 am to 4 pm |\n| Saturday | 8:30 am to 2 pm | 9 am to 12 pm |\n| Sunday and public holidays | 9 am to 1 pm | Closed |\n\n" +
          "We are closed on Christmas Day and Good Friday. During load shedding we stay open: a backup generator keeps the medicine fridges cold and the card machines working.",
      ),
      passage(
        2,
        "Protea Lane Pharmacy — Clinic services",
        "- Travel vaccines: by appointment, at least 6 weeks before you travel.\n- Flu vaccine: R180, from April to July.",
      ),
      passage(
        3,
        "Protea Lane Pharmacy — Repeat prescriptions online",
        "Log in to the Protea Lane app or our website, choose the medicine from your script history and tap Reorder. Orders placed before 3 pm on a weekday are ready for collection the next working day.",
      ),
    ];
    // Before: the reply quoted the Sunday row and the weekday collection times, not the weekday
    // hours, which hold neither "close" nor "week".
    expect(ask("howzit, wat time do u guys close in the week?", pharmacy).text).toContain("Monday to Friday: Dispensary 8 am to 7 pm");
  });

  it("“how much notice” wants a length of time (bench/probes8, probes9)", () => {
    const vet: PromptPassage[] = [
      passage(
        1,
        "Surgery day",
        "Surgery is done Monday to Friday. Dogs are desexed under a general anaesthetic, and we keep them in overnight if they need it. Your dog can go home in the evening with a cone.",
      ),
      passage(2, "Prices", "| Service | Price |\n| --- | --- |\n| Desexing, male cat | A$210 |\n| Desexing, dog | from A$450, depending on weight |"),
      passage(3, "Appointments", "Let us know if you can't make it. For surgery we need 24 hours' notice of cancellation."),
    ];
    const short = ask("need to move my dog's desex op to next week, how much notice do u need", vet, { answerLength: "short" }).text;
    // Before: two sentences about dogs and surgery days, and not the notice.
    expect(short).toContain("we need 24 hours' notice");
  });

  it("“cheapest” is answered by a price list's lowest row or by a price something starts from (bench/probes10)", () => {
    const plans: PromptPassage[] = [
      passage(
        1,
        "Ledgerbird — Plans and pricing",
        "All prices are in US dollars.\n\n| Plan | Monthly price | Users | Invoices | Bank connections |\n| --- | --- | --- | --- | --- |\n" +
          "| Solo | $12 | 1 | 20 per month | 1 |\n| Pro | $27 | 1 | Unlimited | 5 |\n| Studio | $49 | Up to 5 | Unlimited | Unlimited |\n\n" +
          "- Pro adds receipt scanning, mileage tracking and invoices in 30 currencies.\n- Studio adds team members, project time tracking and priority phone support.\n" +
          "- Pay yearly and get 2 months free on any plan.",
      ),
    ];
    // Before: "Studio adds team members…" led; the $12 row came last.
    expect(ask("whats the cheapest plan u guys have", plans).text).toMatch(/^- Solo: Monthly price \$12/);
    const optician: PromptPassage[] = [
      passage(1, "Optician — Paying", "You can spread the cost of glasses over £150 across 6 months with 0% interest."),
      passage(
        2,
        "Optician — Glasses",
        "Glasses are usually ready in 7 to 10 working days. Our frames start from £59 including single vision lenses with an anti-glare coating. Varifocals start from £149 including lenses.",
      ),
    ];
    // Before: the £150 of spreading the cost led, and the £59 was not quoted.
    expect(ask("cheapest specs u do?", optician).text).toMatch(/^Our frames start from £59/);
  });

  it("“smallest”, “largest” and “priciest” are answered by a list's extreme row by size or by price (bench/probes3)", () => {
    const storage: PromptPassage[] = [
      passage(
        1,
        "Storage — Unit sizes and prices",
        "| Unit | Size | Roughly holds | Price per month |\n| --- | --- | --- | --- |\n" +
          "| Small | 25 sq ft | contents of a box room | £49 |\n| Locker | 15 sq ft | a few boxes, documents | £29 |\n" +
          "| Medium | 50 sq ft | a one-bedroom flat | £79 |\n| Large | 100 sq ft | a three-bedroom house | £139 |\n\n" +
          "Drive-up units on the ground floor cost an extra £15 per month.",
      ),
    ];
    // Before: the "Small" row led, its name matching the question; the 15 sq ft locker was not quoted.
    expect(ask("how much is the smallest unit", storage).text).toMatch(/^- Locker: Size 15 sq ft/);
    expect(ask("whats the largest unit you have", storage).text).toMatch(/^- Large: Size 100 sq ft/);
    expect(ask("which is the priciest", storage).text).toMatch(/^- Large:/);
    expect(ask("whats the most expensive option", storage).text).toMatch(/^- Large:/);
    // A level of difficulty written as a word ranks as one (bench/probes5: "Lab 9" was not quoted).
    const rooms: PromptPassage[] = [
      passage(
        1,
        "Escape rooms — Our rooms",
        "| Room | Players | Difficulty | Minimum age |\n| --- | --- | --- | --- |\n| The Toy Factory | 2–6 | Easy | 8 |\n" +
          "| Pirate's Cove | 2–6 | Medium | 10 |\n| The Vault | 2–6 | Hard | 14 |\n| Lab 9 | 3–6 | Expert | 16 |",
      ),
    ];
    expect(ask("whats the hardest room u have", rooms).text).toMatch(/^- Lab 9:/);
    expect(ask("easiest room for kids", rooms).text).toMatch(/^- The Toy Factory:/);
  });

  it("“how many lessons” wants a count of them, “how long have you been…” when it began, “what times” a clock time (bench/probes4, probes11, probes13)", () => {
    const music: PromptPassage[] = [
      passage(
        1,
        "Music school — Terms",
        "Our year has four terms that follow the school terms. Term fees are paid before the first lesson of the term. Each term has 10 lessons, one a week, and missed lessons are not made up.",
      ),
    ];
    // Before: "Term fees are paid…" led and the count was left out.
    expect(ask("how many lessons do u get in a term", music, { answerLength: "short" }).text).toContain("10 lessons");
    const pests: PromptPassage[] = [
      passage(
        1,
        "Pest control — About us",
        "Bayou Shield is a locally owned pest control company serving homes and small businesses across two counties. Our technicians are licensed by the state. We have been in business since 2009.",
      ),
    ];
    // Before: the company's description led.
    expect(ask("how long yall been in business", pests, { answerLength: "short" }).text).toMatch(/^We have been in business since 2009/);
    const laundry: PromptPassage[] = [
      passage(1, "Laundry — Pickup and delivery", "If we damage an item, we pay up to 10 times its cleaning price. Tips for drivers are optional."),
      passage(2, "Laundry — Booking", "Book by 10pm the night before. Our drivers come by Monday to Saturday, 7am to 9am or 6pm to 9pm."),
    ];
    // "When do I pay?" wants the moment payment is taken (bench/probes8: the firm's description led).
    const heating: PromptPassage[] = [
      passage(
        1,
        "Heating — About us",
        "We're a family firm of six engineers based in Kirkstall, fixing boilers and plumbing across Leeds. Once they've made it safe, we can come and repair the fault.",
      ),
      passage(2, "Heating — Paying", "Card (including contactless) or bank transfer, on completion. We don't take cheques."),
    ];
    expect(ask("when do i pay for a repair", heating, { answerLength: "short" }).text).toMatch(
      /^Card \(including contactless\) or bank transfer, on completion/,
    );
    // Before: "times" was a word to find, and "10 times its cleaning price" led.
    expect(ask("what times do ur drivers come by", laundry, { answerLength: "short" }).text).toMatch(/^Our drivers come by Monday to Saturday, 7am to 9am/);
  });

  it("a number of hours in the question is a length of time, not a question about opening hours", () => {
    const escape: PromptPassage[] = [
      passage(1, "Opening hours", "Opening hours: every day from 10 am to 10 pm, last game at 8:45 pm."),
      passage(
        2,
        "Cancellations and changes",
        "- More than 72 hours before your game: full refund.\n" +
          "- Between 24 and 72 hours: you can move your booking to another date once, free of charge, or receive a 50% refund.\n" +
          "- Less than 24 hours, or no-show: no refund.",
      ),
    ];
    // With "hrs" read as "hours" and no more, "48 hrs" asked for opening hours, and they led. The
    // band "Between 24 and 72 hours" holds the 48 hours asked with.
    expect(ask("have to cancel, game is in about 48 hrs, what are my options", escape).text).toMatch(/^- Between 24 and 72 hours/);
  });

  it("the kind asked for in the sentence after the lead outranks a close match in a full reply (bench/probes11)", () => {
    const passages: PromptPassage[] = [
      passage(
        1,
        "Reminders and no-shows",
        "Slotwise adds a 1% fee on top of Stripe's own processing fee. You can change the times or turn either one off under Settings, then Notifications.",
      ),
      passage(
        2,
        "Plans and pricing",
        "Extra text messages cost 4 cents each, billed with your next invoice. If you move to a plan with fewer staff calendars, the extra calendars are archived, not deleted.",
      ),
      passage(
        3,
        "Moving from another app",
        "We'll import your clients and future appointments for free from Square Appointments, Vagaro, Acuity or a spreadsheet. " +
          "Send us a CSV export and we'll have it done within 3 business days. Imports of past appointment history are limited to the last 2 years.",
      ),
    ];
    // Before: the reply was full of close matches ("switching" → change, "cost" → fee) and left out the days.
    const { text } = ask("switching over from vagaro, can you guys move my clients over? cost? how long?", passages);
    expect(text).toMatch(/^We'll import your clients/);
    expect(text).toContain("within 3 business days");
  });

  // bench/probes13 ferry: "how long is the boat over to the island" quoted "A return ticket is valid
  // … for 7 days" from another passage, and the lead's next sentence, "The crossing takes 25 minutes",
  // was left out because a duration was already in the reply.
  it("the kind asked for in the lead's next sentence is quoted though a later pick has that kind", () => {
    const passages: PromptPassage[] = [
      passage(
        1,
        "About us",
        "Inishcoll Island Ferry is a family-run passenger ferry between Carrowmore Pier, near Louisburgh in Co. Mayo, and the island of Inishcoll. The crossing takes 25 minutes. Our boat has a covered lounge, an open deck and one toilet on board.",
      ),
      passage(2, "Tours", "From April to September a minibus tour meets the 11 am boat at Inishcoll harbour."),
      passage(3, "Tickets", "A return ticket is valid on any sailing for 7 days, so you can stay over on the island."),
    ];
    const { text } = ask("how long is the boat over to the island roughly", passages);
    expect(text).toContain("the island of Inishcoll. The crossing takes 25 minutes");
  });

  // bench/probes6 carhire: "can i cancel tomorrow's pickup for free" quoted only "Free cancellation up
  // to 48 hours before pick-up": the sentence that prices a late cancellation holds its words and more.
  it("a sentence that holds a pick's words and says more is no duplicate of it", () => {
    const changes = passage(
      1,
      "Changes and cancellations",
      "- Free cancellation up to 48 hours before pick-up.\n- Cancelling less than 48 hours before pick-up costs one day's rental.\n- No-shows are charged two days' rental.",
    );
    const { text } = ask("plans changed, can i cancel tomorrow's pickup for free", [changes]);
    expect(text).toContain("Cancelling less than 48 hours before pick-up costs one day's rental");
    // Rows of a table that differ only in their numbers still are.
    const rows = passage(1, "Prices", "| Home | Regular clean | Deep clean |\n|---|---|---|\n| 1 bed, 1 bath | $129 | $229 |\n| 2 bed, 1 bath | $149 | $269 |");
    expect(ask("price for a regular clean of a 2 bed 1 bath", [rows]).text).not.toContain("$129");
  });

  // bench/probes6 dogcare: "my puppy is 3 months old can he come to daycare" ended on "To join
  // daycare, dogs must:" with none of the list it introduces.
  it("a sentence introducing a list is quoted with the list's item that answers, or not at all", () => {
    const daycare = passage(
      1,
      "Daycare",
      "Puppies under 4 months can't join daycare, but are welcome for a puppy bath. To join daycare, dogs must:\n\n- be at least 4 months old\n- be spayed or neutered if over 7 months old\n\nSmall dogs have their own room.",
    );
    const { text } = ask("my puppy is 3 months old can he come to daycare", [daycare]);
    expect(text).toContain("To join daycare, dogs must:\n- be at least 4 months old");
    expect(text).not.toMatch(/must \[1\]:$/);
  });

  // bench/probes12 childcare: "only need the bus in the morning … cheaper or not?" quoted the bus
  // times and the contact line, not "One-way trips are not offered" (ADR 067).
  it("a lead that leaves part of the question open is read with the rest of its paragraph", () => {
    const bus = passage(
      1,
      "Transport",
      "Our bus collects children from Northfield and Hilltop for £40 a month, there and back. One-way trips are not offered.\n\nEvery driver holds a first aid certificate.",
    );
    const { text } = ask("only need the bus in the mornings, is that cheaper?", [bus]);
    expect(text).toBe("Our bus collects children from Northfield and Hilltop for £40 a month, there and back. One-way trips are not offered [1].");
    // The next paragraph is another subject, and a lead that holds the whole question stands alone.
    const split = passage(
      1,
      "Transport",
      "Our bus collects children from Northfield and Hilltop for £40 a month.\n\nEvery driver holds a first aid certificate.",
    );
    expect(ask("only need the bus in the mornings, is that cheaper?", [split]).text).not.toContain("first aid");
    expect(ask("does the bus collect children from hilltop?", [bus]).text).toBe(
      "Our bus collects children from Northfield and Hilltop for £40 a month, there and back [1].",
    );
  });

  // bench/probes12 coffee: "how long till it gets to me out in calgary" quoted "We ship with Canada
  // Post to every province" but not the delivery times after it.
  it("the kind asked for, after a later pick in its paragraph, takes the last pick's place in a full reply", () => {
    const passages = [
      passage(1, "Delivery", "Orders to Wales ship free over £40. Orders under £40 pay £4."),
      passage(2, "Couriers", "We ship to Wales with Royal Mail. Most parcels arrive in 2 to 3 working days."),
      passage(3, "Abroad", "We ship to Ireland and France, as well as Wales."),
      passage(4, "Returns", "Returns from Wales are free, and we ship the exchange."),
    ];
    const { text } = ask("how long does shipping to wales take?", passages);
    expect(text).toContain("Most parcels arrive in 2 to 3 working days");
    expect(text.split(/(?<=[.!?])\s+(?=[A-Z-])/).length).toBeLessThanOrEqual(4);
  });

  // bench/probes6 swimschool: "do normal lessons keep going in the school hols" quoted the holiday
  // courses and left out "Regular weekly classes do not run in the holidays".
  it("so is every other quoted sentence that leaves it open, while the reply has room", () => {
    const passages = [
      passage(1, "Trial lessons", "A trial lesson costs the normal lesson price. Every lesson lasts 30 minutes."),
      passage(2, "School holidays", "During the school holidays we run intensive courses for £110. Nothing else runs until September."),
    ];
    const { text } = ask("is a trial lesson the normal price? and any courses in the school holidays?", passages);
    // Before, the reply stopped after the courses, the second passage's pick.
    expect(text).toBe(
      "A trial lesson costs the normal lesson price. Every lesson lasts 30 minutes [1]. During the school holidays we run intensive courses for £110. Nothing else runs until September [2].",
    );
  });
  // bench/answers restaurant: "how long is a voucher valid for" quoted "They are valid for 12 months…"
  // alone, and bench/probes8 bnb "It costs £495 per room…" without the break it prices (ADR 068).
  it("a quoted sentence that opens by pointing back is read after the sentence it points to", () => {
    const vouchers = passage(
      1,
      "Gift vouchers",
      "Gift vouchers from £25 can be bought on our website. They are valid for 12 months and can be used for food and drink.\n\nWe are closed on Mondays.",
    );
    expect(ask("how long is a voucher valid for", [vouchers]).text).toBe(
      "Gift vouchers from £25 can be bought on our website. They are valid for 12 months and can be used for food and drink [1].",
    );
    // …also when it shares no word with the question.
    const roast = passage(1, "Sundays", "Our roast is served on Sundays from 12 noon. It costs £22 for two courses.");
    expect(ask("whats the price of two courses", [roast]).text).toBe("Our roast is served on Sundays from 12 noon. It costs £22 for two courses [1].");
    // The sentence before is in another paragraph or is an FAQ's question: nothing is added.
    const apart = passage(1, "Gift vouchers", "We opened in 2010 on Church Street.\n\nThey are valid for 12 months.");
    expect(ask("how long is a voucher valid for", [apart]).text).toBe("They are valid for 12 months [1].");
    const faq = passage(1, "Gift vouchers", "Do gift cards expire? They are valid for 12 months.");
    expect(ask("how long is a voucher valid for", [faq]).text).toBe("They are valid for 12 months [1].");
    // A sentence that does not point back stands alone, as before.
    const plain = passage(1, "Gift vouchers", "Gift vouchers from £25 can be bought on our website. Vouchers are valid for 12 months.");
    expect(ask("how long is a voucher valid for", [plain]).text).toBe("Vouchers are valid for 12 months [1].");
  });

  it("a sentence pointed to that the reply quotes later moves before the one pointing to it", () => {
    const passages = [
      passage(1, "Hogmanay", "Our Hogmanay break runs 30 December to 2 January and includes a ceilidh supper. It costs £495 per room and is non-refundable."),
    ];
    const { text } = ask("how much is the hogmanay break per room, and is there a supper?", passages);
    expect(text).toBe("Our Hogmanay break runs 30 December to 2 January and includes a ceilidh supper. It costs £495 per room and is non-refundable [1].");
  });
});

describe("a value asked with, answered by a range (ADR 058)", () => {
  const ask = (question: string, passages: PromptPassage[]) =>
    composeAnswer(
      parsePrompt([
        { role: "system", content: system(passages) },
        { role: "user", content: [{ type: "text", text: question }] },
      ]),
    ).text;
  /** One section of knowledge as the engine's only passage. */
  const section = (title: string, text: string): PromptPassage => ({ id: 1, title, heading: null, url: null, text });

  it("leads with the price for the age band the customer's age falls in", () => {
    const prices = section(
      "Prices",
      "- Children's cut (under 12): €18.\n- Teens' cut (12 to 16): €25.\n- Gents' cut: €30.\n\nOur senior stylists charge €10 more for cuts than the prices listed above.",
    );
    expect(ask("my son is 14 what would his cut cost", [prices])).toMatch(/^- Teens' cut \(12 to 16\): €25/);
  });

  it("prefers the range that holds the month over one that leaves it out", () => {
    const passages: PromptPassage[] = [
      { id: 1, title: "Trips", heading: null, url: null, text: "We are happy to book boat trips from the harbour; they run from April to September." },
      { id: 2, title: "Season", heading: null, url: null, text: "From November to February the house is closed." },
    ];
    expect(ask("can we book in december", passages)).toMatch(/^From November to February the house is closed/);
  });

  // bench/probes6 dogcare: "Daycare: Monday to Friday" holds Monday but is about daycare; grooming's
  // own days, which leave Monday out, answer "groomed on a monday".
  it("a schedule of what is asked answers its day either way: “Grooming: Tuesday to Saturday” for “groomed on a monday”", () => {
    const hours = section(
      "Opening hours",
      "- Daycare: Monday to Friday, 7am to 7pm\n- Grooming: Tuesday to Saturday, 8am to 5pm\n- Saturday daycare: 8am to 4pm",
    );
    expect(ask("can i get my dog groomed on a monday", [hours])).toMatch(/^- Grooming: Tuesday to Saturday/);
    expect(ask("can i bring my dog to daycare on a monday", [hours])).toMatch(/^- Daycare: Monday to Friday/);
  });

  // bench/probes7 laundry: "same day wash price?" quoted the plain wash-and-fold row, "how much is
  // wash n fold" the same-day one (whose short price cell alone carried the column's name).
  it("quotes the table row whose label names what is asked, each row with its column's name", () => {
    const table = section(
      "Prices",
      "| Service | Price | Ready in |\n|---|---|---|\n| Wash and fold | CA$2.50 per lb (10 lb minimum) | next business day |\n| Same-day wash and fold | CA$3.50 per lb | same day |\n| Shirt, laundered and pressed | CA$4.25 | 2 business days |",
    );
    expect(ask("how much is wash n fold", [table])).toMatch(/^- Wash and fold: Price CA\$2\.50 per lb \(10 lb minimum\)/);
    expect(ask("same day wash price?", [table])).toMatch(/^- Same-day wash and fold: Price CA\$3\.50/);
  });

  // bench/probes6 printshop: "wat would 1000 of the laminated cards cost me" quoted the 100 row.
  it("“1000” and “1,000” are the same number", () => {
    const cards = section("Business cards", "| Cards | Standard | Premium |\n|---|---|---|\n| 100 | €24 | €34 |\n| 250 | €39 | €52 |\n| 1,000 | €69 | €95 |");
    expect(ask("wat would 1000 of the laminated cards cost me", [cards])).toMatch(/^- 1,000: Standard €69; Premium €95/);
    const written = section("Business cards", "- 100 cards: €24\n- 1000 cards: €69");
    expect(ask("price for 1,000 cards?", [written])).toMatch(/^- 1000 cards: €69/);
  });

  // bench/probes6 dogcare: "how much for deshedding my husky" quoted the late-pickup fee.
  it("a word written closed is the knowledge's hyphenated word: “deshedding” → “De-shedding”", () => {
    const grooming = section(
      "Grooming",
      "Prices depend on your dog's size and coat. Dogs picked up after closing time are charged a late fee of $1 per minute.\n\n- Full groom: $45 to $70\n- De-shedding treatment: $20 to $35, depending on size",
    );
    expect(ask("how much for deshedding my husky", [grooming])).toMatch(/^- De-shedding treatment: \$20 to \$35/);
  });

  // bench/probes11 furniture: "my sofa order comes to €1,200 … do i still pay for delivery".
  it("a sum asked with is held by the limit it passes: “€1,200” → “orders over €1,000”", () => {
    const delivery = section(
      "Delivery",
      "Orders under €1,000 pay €49 for delivery to Dublin addresses. Orders over €1,000 get free delivery to Dublin addresses.",
    );
    expect(ask("my sofa order comes to €1,200, do i still pay for delivery to dublin", [delivery])).toMatch(/^Orders over €1,000 get free delivery/);
    expect(ask("my order is only 800 euros, do i pay for delivery to dublin", [delivery])).toMatch(/^Orders under €1,000 pay €49/);
  });

  // bench/probes6 swimschool: "is there a sibling discount, got 3 kids" quoted the Minnows row (ages 3 to 5).
  it("a discount question wants the reduction, and “3 kids” is no age", () => {
    const fees = section(
      "Levels and fees",
      "- Minnows: Age 3 to 5 years; Price per lesson A$24\n- Sharks: Age 8 to 14 years; Price per lesson A$27\n\nFamilies with two or more children enrolled get 10% off the second child and every child after that.",
    );
    expect(ask("is there a sibling discount, got 3 kids", [fees])).toMatch(/^Families with two or more children enrolled get 10% off/);
  });
});

describe("words the built-in engine's stemming reaches", () => {
  const ask = (question: string, texts: string[]) =>
    composeAnswer(
      parsePrompt([
        { role: "system", content: system(texts.map((text, i) => ({ id: i + 1, title: "Prices", heading: null, url: null, text }))) },
        { role: "user", content: [{ type: "text", text: question }] },
      ]),
    ).text;

  it('"bleeding" finds "bleed": -eed is no past tense', () => {
    const texts = [
      "- **Safety Check – £25**: brakes and gears adjusted, tyres pumped up.\n- **Full Strip Service – £140**: the bike is stripped down and new gear and brake cables fitted (cables included in the price).",
      "- Puncture repair: £12 per wheel\n- Hydraulic brake bleed: £30 per brake\n- Wheel truing: from £15",
    ];
    expect(ask("brakes feel spongy think they need bleeding, cost?", texts)).toMatch(/^- Hydraulic brake bleed: £30 per brake/);
  });

  it('"bring" finds "brought": an irregular verb\'s past form', () => {
    const texts = [
      "You can bring your own wine for dinner with a corkage charge of €15 per bottle. Spirits and beer can't be brought in. The bar is a cash bar unless you arrange a bar tab.",
    ];
    // Before, the reply stopped after the wine sentence, which holds "bring" and "bottles".
    expect(ask("can we bring a few bottles of whiskey for the tables", texts)).toContain("Spirits and beer can't be brought in");
  });
});
