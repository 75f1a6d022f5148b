import type { FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { baseURL, closeBrowser, newPage, type TrackedPage } from "../e2e/support/browser";
import { executeD1, sqlString } from "../e2e/support/d1";
import { signInAsDemo } from "../e2e/support/flows";
import { embedSnippet, startHostSite } from "../e2e/support/host-page";
import { saveShots, shoot, shootRegion, waitForDemoKnowledge, type Shot } from "./support";

// Captures the screenshots of /product/live-chat from the running product, the way
// tests/e2e/live-chat.e2e.ts drives live chat: a visitor on the demo chatbot's widget, embedded on
// another origin, gets an answer from the knowledge and then asks for a person; the demo agent,
// with the chatbot home's inbox open, sees it waiting, takes over and replies; the visitor sees the
// reply in the same window. One function per shot, in the order of the story, so a new live-chat
// feature adds its own (e.g. typing, notes, transfer) without touching the others.

const NAME = DEMO.chatbotName;
const QUESTION = "How do I invite a colleague?";
const ASK_PERSON = "Can I talk to a person?";
const REPLY = "Hi, I am from the team. Happy to help: which role should your colleague have, and what is their email address?";

type Stage = { agent: Page; visitor: Page; chat: FrameLocator };

/** The widget panel on the customer's site (400 × 640 on a desktop screen). */
const widgetPanel = (visitor: Page) => visitor.locator(`iframe[title="Chat with ${NAME}"]`);
const said = (chat: FrameLocator, text: string) => chat.getByRole("log", { name: "Conversation" }).getByText(text).first();

async function ask(chat: FrameLocator, text: string) {
  await chat.getByLabel("Your message").fill(text);
  await chat.getByLabel("Your message").press("Enter");
}

/** The bot's last answer is complete (not still streaming). */
async function answered(chat: FrameLocator) {
  await expect
    .poll(
      async () =>
        chat
          .locator(".pc-log .pc-msg")
          .last()
          .evaluate((el) => el.classList.contains("pc-bot") && !el.hasAttribute("aria-busy")),
      {
        timeout: 30_000,
      },
    )
    .toBe(true);
}

/** Shot 1: the bot answered from the knowledge with sources, then the visitor asked for a person. */
async function visitorAsksForPerson({ visitor, chat }: Stage): Promise<Shot> {
  await ask(chat, QUESTION);
  await chat.getByRole("log", { name: "Conversation" }).getByText("Sources", { exact: true }).first().waitFor({ timeout: 30_000 });
  await answered(chat);
  await ask(chat, ASK_PERSON);
  await said(chat, "I've asked a person from the team to join.").waitFor();
  return shoot(widgetPanel(visitor), "live-visitor-asks.jpg");
}

/** Shot 2: without a reload, the agent's inbox lists the conversation under Waiting. */
async function inboxShowsWaiting({ agent }: Stage): Promise<Shot> {
  await agent.getByRole("tab", { name: "Waiting (1)" }).waitFor();
  return shoot(agent.locator("#inbox"), "live-inbox-waiting.jpg");
}

/** Shot 3: the agent opens it, takes over and replies; the transcript and the live card. */
async function agentReplies({ agent, chat }: Stage): Promise<Shot> {
  await agent.getByRole("tabpanel").getByRole("link").first().click();
  await agent.getByRole("button", { name: "Take over" }).click();
  await said(chat, `${DEMO.name} joined the conversation.`).waitFor();
  await agent.getByLabel("Reply to the visitor").fill(REPLY);
  await agent.getByRole("button", { name: "Send" }).click();
  await agent.locator("#transcript").getByText(REPLY).first().waitFor();
  await agent.getByLabel("Reply to the visitor").fill("");
  await agent.getByText("You hold this conversation.").waitFor();
  return shootRegion(agent, [agent.locator("#transcript"), agent.locator("#live")], "live-agent-replies.jpg");
}

/** Shot 4: the visitor sees the person's reply in the same chat window. */
async function visitorSeesReply({ visitor, chat }: Stage): Promise<Shot> {
  await said(chat, REPLY).waitFor();
  await said(chat, REPLY).scrollIntoViewIfNeeded();
  return shoot(widgetPanel(visitor), "live-visitor-reply.jpg");
}

let site: Awaited<ReturnType<typeof startHostSite>>;
let handoffTurnedOn = false;
const setHandoff = (on: boolean) =>
  executeD1(
    `UPDATE chatbots SET settings = json_set(settings, '$.ui', json_patch(coalesce(json_extract(settings, '$.ui'), '{}'), '{"humanHandoff":${on}}')) WHERE id = ${sqlString(DEMO.chatbotId)}`,
  );

beforeAll(async () => {
  site = await startHostSite({ "/": embedSnippet(baseURL(), DEMO.chatbotId) });
});
afterAll(async () => {
  await closeBrowser();
  await site?.close();
  // The other captures see the demo chatbot without "Talk to a human", as seeded.
  if (handoffTurnedOn) await setHandoff(false);
});

describe("product screenshots", () => {
  it("captures live chat: the visitor asks for a person, the agent's inbox, the agent's reply, the visitor sees it", async () => {
    let agent: TrackedPage | undefined;
    let visitor: TrackedPage | undefined;
    try {
      agent = await newPage();
      visitor = await newPage();
      const a = agent.page;
      const v = visitor.page;
      await a.setViewportSize({ width: 1280, height: 900 });
      await v.setViewportSize({ width: 1280, height: 800 });
      await signInAsDemo(a);
      await waitForDemoKnowledge(a);
      // "Talk to a human" is off by default (Settings → Look & feel); turn it on for the demo chatbot.
      await setHandoff(true);
      handoffTurnedOn = true;

      // The agent has the chatbot home open: the inbox counts them online.
      await a.goto(`/app/${DEMO.orgId}/${DEMO.chatbotId}`);
      await a.getByText("1 agent online.").waitFor();

      await v.goto(site.url("/"));
      await v.getByRole("button", { name: `Chat with ${NAME}` }).click();
      const chat = v.frameLocator(`iframe[title="Chat with ${NAME}"]`);
      await chat.getByLabel("Your message").waitFor();
      const stage: Stage = { agent: a, visitor: v, chat };

      const shots: Record<string, Shot> = {};
      shots.liveVisitorAsks = await visitorAsksForPerson(stage);
      shots.liveInboxWaiting = await inboxShowsWaiting(stage);
      shots.liveAgentReplies = await agentReplies(stage);
      shots.liveVisitorReply = await visitorSeesReply(stage);
      saveShots(shots);

      expect(agent.errors()).toEqual([]);
      // (The test host site has no favicon.)
      expect(visitor.errors().filter((e) => !e.includes("/favicon.ico"))).toEqual([]);
    } finally {
      await agent?.close();
      await visitor?.close();
    }
  });
});
