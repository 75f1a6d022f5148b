import type { FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { baseURL, closeBrowser, newPage, type TrackedPage } from "./support/browser";
import { executeD1, sqlString } from "./support/d1";
import { insertChatbotSql } from "./support/chatbots";
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
const said = (frame: FrameLocator, text: string | RegExp) => frame.getByRole("log", { name: "Conversation" }).getByText(text).first();

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

/** The text of every message bubble in the chat's log, in order (the visitor's, the bot's and the team's; not notes). */
const bubbles = (frame: FrameLocator) =>
  frame.locator(".pc-log .pc-msg:not(.pc-typing) > .pc-bubble").evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText.trim()));

// More chatbots of the demo organisation, each with its own inbox: a lead form for "nobody online",
// the lead form "Never" likewise, and one for the inbox alerts.
const FORM = `cb_lform_${Date.now().toString(36)}`;
const NEVER = `cb_lnever_${Date.now().toString(36)}`;
const ALERTS = `cb_alerts_${Date.now().toString(36)}`;

let site: Awaited<ReturnType<typeof startHostSite>>;

beforeAll(async () => {
  site = await startHostSite({
    "/": embedSnippet(baseURL(), LIVE),
    "/form": embedSnippet(baseURL(), FORM),
    "/never": embedSnippet(baseURL(), NEVER),
    "/alerts": embedSnippet(baseURL(), ALERTS),
  });
  const settings = { ui: { humanHandoff: true, leadForm: { timing: "off" } } };
  const withForm = { ui: { humanHandoff: true, leadForm: { timing: "on-fallback", title: "Get a reply by email" } } };
  for (const [id, s] of [
    [FORM, withForm],
    [NEVER, settings],
    [ALERTS, settings],
  ] as const) {
    await executeD1(insertChatbotSql({ id, orgId: DEMO.orgId, name: NAME, settings: s }));
  }
  // Live chat is a Growth-plan extra (ADR 027); the demo organisation is on Free (restored after).
  await executeD1(`UPDATE organisations SET plan = 'growth' WHERE id = ${sqlString(DEMO.orgId)}`);
  await executeD1(insertChatbotSql({ id: LIVE, orgId: DEMO.orgId, name: NAME, settings }));
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

      // Visitor → agent: no bot answer while a person holds the conversation, and the message goes
      // on the visitor's socket, not through POST /api/chat (ADR 033).
      const botBubbles = () => chat.locator(".pc-bot:not(.pc-human):not([aria-busy]) .pc-bubble").count();
      const before = await botBubbles();
      const chatPosts: string[] = [];
      const countPosts = (r: { method(): string; url(): string }) => {
        if (r.method() === "POST" && r.url().includes("/api/chat/")) chatPosts.push(r.url());
      };
      v.on("request", countPosts);
      await ask(chat, "My order #1234 has not arrived.");
      await a.getByText("My order #1234 has not arrived.").first().waitFor();
      await said(chat, "My order #1234 has not arrived.").waitFor();
      expect(await botBubbles()).toBe(before);
      v.off("request", countPosts);
      expect(chatPosts).toEqual([]);
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

      // The visitor reloads: the whole conversation is restored, every message in order, and still live.
      const exchange = await bubbles(chat);
      expect(exchange).toEqual([
        "Hi! How can I help you today?", // the welcome message
        "Hello!",
        expect.any(String), // the bot's answer
        "Can I talk to a human?",
        expect.stringContaining("I've asked a person from the team to join."),
        "Hi, I'm a person from the team. How can I help?",
        "My order #1234 has not arrived.",
      ]);
      await v.reload();
      chat = await openChat(v);
      await said(chat, "My order #1234 has not arrived.").waitFor();
      await expect.poll(() => bubbles(chat), { timeout: 10_000 }).toEqual(exchange);
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

  it("keeps a live conversation going both ways over HTTP polling when the visitor's browser has no working WebSocket", async () => {
    let agent: TrackedPage | undefined;
    let visitor: TrackedPage | undefined;
    try {
      agent = await newPage();
      visitor = await newPage();
      const a = agent.page;
      const v = visitor.page;
      // Every frame of the visitor's page (the widget's too): sockets never open, as behind a proxy that blocks them.
      await v.addInitScript(() => {
        const w = window as unknown as { WebSocket: unknown; __socketsTried: number };
        w.__socketsTried = 0;
        class BlockedSocket extends EventTarget {
          static CONNECTING = 0;
          static OPEN = 1;
          static CLOSING = 2;
          static CLOSED = 3;
          readyState = 0;
          onopen: ((e: Event) => void) | null = null;
          onmessage: ((e: MessageEvent) => void) | null = null;
          onerror: ((e: Event) => void) | null = null;
          onclose: ((e: CloseEvent) => void) | null = null;
          constructor(readonly url: string) {
            super();
            w.__socketsTried++;
            setTimeout(() => {
              this.readyState = 3;
              const error = new Event("error");
              this.onerror?.(error);
              this.dispatchEvent(error);
              const closed = new CloseEvent("close", { code: 1006, wasClean: false });
              this.onclose?.(closed);
              this.dispatchEvent(closed);
            }, 20);
          }
          send() {
            throw new DOMException("The socket is not open.", "InvalidStateError");
          }
          close() {}
        }
        w.WebSocket = BlockedSocket;
      });

      await signInAsDemo(a);
      await a.goto(`/app/${DEMO.orgId}/${LIVE}`);
      await a.getByText("1 agent online.").waitFor();

      await v.goto(site.url("/"));
      const chat = await openChat(v);
      await ask(chat, "Can I talk to a human?");
      await said(chat, "I've asked a person from the team to join.").waitFor();
      await a.getByRole("tab", { name: "Waiting (1)" }).click();
      await a.getByRole("tabpanel").getByRole("link").first().click();
      await a.getByRole("button", { name: "Take over" }).click();
      await a.getByText("You hold this conversation.").waitFor();

      // Agent → visitor, picked up by the poll.
      await a.getByLabel("Reply to the visitor").fill("Hello from the team, over polling.");
      await a.getByRole("button", { name: "Send" }).click();
      await said(chat, "Hello from the team, over polling.").waitFor({ timeout: 15_000 });
      // Visitor → agent, over HTTP (POST /api/chat) since there is no socket.
      const posted = v.waitForRequest((r) => r.method() === "POST" && r.url().includes("/api/chat/"));
      await ask(chat, "Thanks, I can read you without a socket.");
      await posted;
      await a.getByText("Thanks, I can read you without a socket.").first().waitFor();
      // The widget did try a socket, and fell back to polling.
      const tried = await Promise.all(v.frames().map((f) => f.evaluate(() => (window as unknown as { __socketsTried?: number }).__socketsTried ?? 0)));
      expect(Math.max(...tried)).toBeGreaterThanOrEqual(1);
      await a.getByRole("button", { name: "Hand back to the bot" }).click();
      await said(chat, `${DEMO.name} handed the conversation back to the bot.`).waitFor({ timeout: 15_000 });
      expect(agent.errors()).toEqual([]);
    } finally {
      await agent?.close();
      await visitor?.close();
    }
  });

  it("with nobody online, promises what the widget offers: the lead form when it is on, the chat itself when it is 'Never'", async () => {
    const visitor = await newPage();
    try {
      const v = visitor.page;
      await v.goto(site.url("/form"));
      let chat = await openChat(v);
      await ask(chat, "Can I talk to a human?");
      await said(chat, "No one from the team is online right now. Leave your email and a person will get back to you.").waitFor();
      const form = chat.locator("form.pc-lead");
      await form.getByText("Get a reply by email").waitFor();
      await form.getByLabel("Email").waitFor();

      await v.goto(site.url("/never"));
      chat = await openChat(v);
      await ask(chat, "Can I talk to a human?");
      await said(
        chat,
        /No one from the team is online right now\. Your conversation stays open: when someone from the team is back, they can reply here in this chat/,
      ).waitFor();
      await answered(chat);
      expect(await chat.locator("form.pc-lead").count()).toBe(0);
      expect(visitor.errors().filter((e) => !e.includes("/favicon.ico"))).toEqual([]);
    } finally {
      await visitor.close();
    }
  });

  it("alerts the agent to a new waiting conversation: one notification and one sound; muted, no sound", async () => {
    let agent: TrackedPage | undefined;
    const visitors: TrackedPage[] = [];
    try {
      agent = await newPage();
      const a = agent.page;
      // Stubs at the window boundary only: notifications allowed, the tab in the background (the
      // notification is for an agent looking elsewhere), and the sounds played recorded.
      await a.addInitScript(() => {
        const w = window as unknown as Record<string, unknown> & { __notifications: { title: string; body?: string }[]; __sounds: number };
        w.__notifications = [];
        w.__sounds = 0;
        class RecordedNotification {
          static permission = "granted";
          static requestPermission = async () => "granted";
          constructor(title: string, options?: { body?: string }) {
            w.__notifications.push({ title, body: options?.body });
          }
          close() {}
        }
        w.Notification = RecordedNotification;
        const param = () => ({ value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {} });
        class RecordedAudioContext {
          currentTime = 0;
          destination = {};
          createOscillator() {
            return {
              type: "sine",
              frequency: param(),
              connect: (n: unknown) => n,
              start: () => void w.__sounds++,
              stop() {},
              onended: null,
            };
          }
          createGain() {
            return { gain: param(), connect: (n: unknown) => n };
          }
          close = async () => {};
        }
        w.AudioContext = RecordedAudioContext;
        Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      });
      await signInAsDemo(a);
      await a.goto(`/app/${DEMO.orgId}/${ALERTS}`);
      await a.getByText("1 agent online.").waitFor();
      const recorded = () =>
        a.evaluate(() => {
          const w = window as unknown as { __notifications: { title: string }[]; __sounds: number };
          return { notifications: w.__notifications.map((n) => n.title), sounds: w.__sounds };
        });
      expect(await recorded()).toEqual({ notifications: [], sounds: 0 });

      const waits = async () => {
        const t = await newPage();
        visitors.push(t);
        await t.page.goto(site.url("/alerts"));
        const chat = await openChat(t.page);
        await ask(chat, "Can I talk to a human?");
        await said(chat, "I've asked a person from the team to join.").waitFor();
      };
      await waits();
      await expect.poll(recorded, { timeout: 10_000 }).toEqual({ notifications: ["A visitor is waiting for a person"], sounds: 1 });

      await a.getByRole("button", { name: "Sound on · mute" }).click();
      await a.getByRole("button", { name: "Sound off · turn on" }).waitFor();
      await waits();
      await expect
        .poll(recorded, { timeout: 10_000 })
        .toEqual({ notifications: ["A visitor is waiting for a person", "A visitor is waiting for a person"], sounds: 1 });
      expect(agent.errors()).toEqual([]);
    } finally {
      await agent?.close();
      for (const t of visitors) await t.close();
    }
  });
});
