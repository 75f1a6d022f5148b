import type { FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { baseURL, closeBrowser, newPage, type TrackedPage } from "./support/browser";
import { executeD1, sqlString } from "./support/d1";
import { signInAsDemo } from "./support/flows";
import { embedSnippet, startHostSite } from "./support/host-page";

// Live chat end to end (issue 16, ADR 025), two browser contexts: a visitor on the widget embedded
// on ANOTHER origin, and the demo agent on the chatbot home's inbox. The visitor asks for a person
// in words; the inbox shows it without a reload; they write both ways, each seeing the other type
// and read; reloading either side restores the conversation; the agent hands back and the bot
// answers the next question.

const LIVE = `cb_live_${Date.now().toString(36)}`;
const NAME = "Live bot";

async function openChat(p: Page): Promise<FrameLocator> {
  await p.getByRole("button", { name: `Chat with ${NAME}` }).click();
  const frame = p.frameLocator(`iframe[title="Chat with ${NAME}"]`);
  await frame.getByLabel("Your message").waitFor();
  return frame;
}
async function ask(frame: FrameLocator, text: string) {
  await frame.getByLabel("Your message").fill(text);
  await frame.getByLabel("Your message").press("Enter");
}

/** A message in the chat's log (the screen-reader announcement repeats some of them). */
const said = (frame: FrameLocator, text: string) => frame.getByRole("log", { name: "Conversation" }).getByText(text).first();

/** Waits until the last message is a finished bot answer (not the visitor's, not still streaming). */
async function answered(frame: FrameLocator) {
  await expect
    .poll(
      async () =>
        frame
          .locator(".pc-log .pc-msg")
          .last()
          .evaluate((el) => el.classList.contains("pc-bot") && !el.hasAttribute("aria-busy")),
      { timeout: 20_000 },
    )
    .toBe(true);
}

let site: Awaited<ReturnType<typeof startHostSite>>;

beforeAll(async () => {
  site = await startHostSite({ "/": embedSnippet(baseURL(), LIVE) });
  const settings = { ui: { humanHandoff: true, leadForm: { timing: "off" } } };
  // Live chat is a Growth-plan extra (ADR 027); the demo organisation is on Free (restored after).
  await executeD1(`UPDATE organisations SET plan = 'growth' WHERE id = ${sqlString(DEMO.orgId)}`);
  await executeD1(
    `INSERT INTO chatbots (id, org_id, name, visibility, settings) VALUES (${sqlString(LIVE)}, ${sqlString(DEMO.orgId)}, ${sqlString(NAME)}, 'public', ${sqlString(JSON.stringify(settings))})`,
  );
});
afterAll(async () => {
  await executeD1(`UPDATE organisations SET plan = 'free' WHERE id = ${sqlString(DEMO.orgId)}`);
  await closeBrowser();
  await site?.close();
});

describe("live chat", () => {
  it("hands a visitor to an agent and back, in real time on both sides, and survives reloads", async () => {
    let agent: TrackedPage | undefined;
    let visitor: TrackedPage | undefined;
    try {
      agent = await newPage();
      visitor = await newPage();
      const a = agent.page;
      const v = visitor.page;

      // The agent opens the chatbot home: the inbox connects and counts them online.
      await signInAsDemo(a);
      await a.goto(`/app/${DEMO.orgId}/${LIVE}`);
      await a.getByText("1 agent online.").waitFor();
      await a.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

      // The visitor, on another origin, chats with the bot, then asks for a person.
      await v.goto(site.url("/"));
      let chat = await openChat(v);
      await ask(chat, "Hello!");
      await answered(chat);
      await ask(chat, "Can I talk to a human?");
      await said(chat, "I've asked a person from the team to join.").waitFor();

      // Without a reload, the inbox lists it under Waiting; the agent opens it and takes over.
      await a.getByRole("tab", { name: "Waiting (1)" }).waitFor();
      await a.getByRole("tabpanel").getByRole("link").first().click();
      await a.getByRole("button", { name: "Take over" }).click();
      await said(chat, `${DEMO.name} joined the conversation.`).waitFor();
      // The visitor details name the page of the customer's site the visitor wrote from.
      await a.getByRole("link", { name: site.url("/") }).waitFor();

      // Agent → visitor.
      await a.getByLabel("Reply to the visitor").fill("Hi, I'm a person from the team. How can I help?");
      await a.getByRole("button", { name: "Send" }).click();
      await said(chat, "Hi, I'm a person from the team. How can I help?").waitFor();
      // The visitor has the chat open: the agent sees the reply was read (ADR 026).
      await a.getByText("Seen by the visitor.").waitFor();

      // Visitor → agent: no bot answer while a person holds the conversation.
      const botBubbles = () => chat.locator(".pc-bot:not(.pc-human):not([aria-busy]) .pc-bubble").count();
      const before = await botBubbles();
      await ask(chat, "My order #1234 has not arrived.");
      await a.getByText("My order #1234 has not arrived.").first().waitFor();
      await said(chat, "My order #1234 has not arrived.").waitFor();
      expect(await botBubbles()).toBe(before);
      // …and the visitor sees the agent read it.
      await chat.locator(".pc-seen").getByText("Seen", { exact: true }).waitFor();

      // Typing indicators, both ways: shown while the other side writes, gone when they stop.
      await a.getByLabel("Reply to the visitor").fill("Let me check");
      await said(chat, `${DEMO.name} is typing…`).waitFor();
      await a.getByLabel("Reply to the visitor").fill("");
      await said(chat, `${DEMO.name} is typing…`).waitFor({ state: "detached" });
      await chat.getByLabel("Your message").fill("One more thing");
      await a.getByText("Visitor is typing…").waitFor();
      await chat.getByLabel("Your message").fill("");
      await a.getByText("Visitor is typing…").waitFor({ state: "detached" });
      expect(await a.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

      // The visitor reloads: the conversation is restored and still live.
      await v.reload();
      chat = await openChat(v);
      await said(chat, "Hi, I'm a person from the team. How can I help?").waitFor();
      await said(chat, "My order #1234 has not arrived.").waitFor();
      await a.getByLabel("Reply to the visitor").fill("I'm checking it now.");
      await a.getByRole("button", { name: "Send" }).click();
      await said(chat, "I'm checking it now.").waitFor();

      // An internal note: the agent's team sees it, the visitor never does (ADR 027).
      await a.getByLabel("Add a note").fill("Customer is a VIP, order #1234 is delayed at the warehouse.");
      await a.getByRole("button", { name: "Add note" }).click();
      await a.getByRole("list", { name: "Notes" }).getByText("Customer is a VIP").waitFor();
      // The knowledge's draft: this bot has none, so the agent is told to write it themselves.
      await a.getByRole("button", { name: "Suggest a reply" }).click();
      await a.getByText("The knowledge has nothing on the visitor's last question.").waitFor();
      // Keyboard: "?" lists the shortcuts; r focuses the reply box.
      await a.locator("body").click({ position: { x: 1, y: 1 } });
      await a.keyboard.press("?");
      await a.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
      await a.keyboard.press("Escape");
      await a.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor({ state: "hidden" });
      await a.keyboard.press("r");
      expect(await a.evaluate(() => document.activeElement?.id)).toBe("live-reply");

      // The agent reloads: the transcript has everything and they still hold it.
      await a.reload();
      const transcript = a.locator("#transcript");
      for (const text of [
        "Can I talk to a human?",
        "Hi, I'm a person from the team. How can I help?",
        "My order #1234 has not arrived.",
        "I'm checking it now.",
      ]) {
        await transcript.getByText(text).first().waitFor();
      }
      await a.getByText("You hold this conversation.").waitFor();

      // Hand back: the visitor is told, and the bot answers the next question.
      await a.getByRole("button", { name: "Hand back to the bot" }).click();
      await said(chat, `${DEMO.name} handed the conversation back to the bot.`).waitFor();
      const botAnswers = await chat.locator(".pc-bot:not(.pc-human):not([aria-busy]) .pc-bubble").count();
      await ask(chat, "What are your opening hours?");
      await chat.locator(".pc-bot:not(.pc-human):not([aria-busy]) .pc-bubble").nth(botAnswers).waitFor();
      await expect
        .poll(async () => (await chat.locator(".pc-bot:not(.pc-human):not([aria-busy]) .pc-bubble").nth(botAnswers).textContent())?.trim().length ?? 0)
        .toBeGreaterThan(10);

      // The note never reached the visitor's chat.
      expect(await chat.getByText("Customer is a VIP").count()).toBe(0);

      expect(agent.errors()).toEqual([]);
      // (The test host site has no favicon.)
      expect(visitor.errors().filter((e) => !e.includes("/favicon.ico"))).toEqual([]);
    } finally {
      await agent?.close();
      await visitor?.close();
    }
  });
});
