import { createServer, type Server } from "node:http";
import type { Frame, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { axeViolations } from "./support/axe";
import { baseURL, closeBrowser, newPage } from "./support/browser";
import { executeD1 } from "./support/d1";
import { insertChatbotSql } from "./support/chatbots";
import { embedSnippet } from "./support/host-page";
import { DEFAULT_UI_SETTINGS } from "../../app/lib/schemas/widget-settings";

// The chat UI itself (workers/widget/chat): on /test/{id} (page mode) and inside the widget iframe
// embedded by a page on ANOTHER origin (a host server on its own port), with the real chat API and
// the built-in answer engine.

const HOST_PORT = Number(process.env.E2E_HOST_PORT ?? 8852);
const HOST = `http://localhost:${HOST_PORT}`;
const suffix = Date.now().toString(36);
const XSS_BOT = `cb_wxss_${suffix}`;
const RATE_BOT = `cb_wrate_${suffix}`;

const PAYLOAD =
  `Sorry <img src=x onerror=window.__pwned=1> <svg onload=window.__pwned=1> [click](javascript:window.__pwned=1) ` +
  `<a href="javascript:window.__pwned=1">a</a> [x](JAVASCRIPT:window.__pwned=1) [y](&#106;avascript:window.__pwned=1) ` +
  `![i](javascript:window.__pwned=1) <script>window.__pwned=1</script> [safe](https://example.com/safe)`;

let server: Server;
let loaderSite: Server;
const LOADER_HOST = `http://localhost:${HOST_PORT + 1}`;

/** A customer page that frames the chat directly and records what the frame posts to it. */
function hostPage(chatbotId: string) {
  const src = `${baseURL()}/widget/frame/${chatbotId}?host=${encodeURIComponent(HOST)}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Customer shop</title></head><body>
<a href="#before">Before</a>
<div id="slot"></div>
<a href="#after">After</a>
<script>window.__msgs=[];
// Like the loader: keep the frame's visitor id in this (first-party) page's storage and hand it back as ?vid=.
var KEY="parley:visitor:"+${JSON.stringify(chatbotId)};
addEventListener("message",function(e){if(e.origin!==${JSON.stringify(baseURL())})return;window.__msgs.push(e.data);if(e.data&&e.data.type==="visitor")localStorage.setItem(KEY,e.data.id)});
var f=document.createElement("iframe");f.id="chat";f.title="Chat";f.style.cssText="width:380px;height:640px;border:0";
f.src=${JSON.stringify(src)}+(localStorage.getItem(KEY)?"&vid="+encodeURIComponent(localStorage.getItem(KEY)):"");
document.getElementById("slot").appendChild(f);
window.tell=function(m){f.contentWindow.postMessage(m,${JSON.stringify(baseURL())})};</script>
</body></html>`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const id = new URL(req.url ?? "/", HOST).searchParams.get("bot") ?? DEMO.chatbotId;
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(hostPage(id));
  });
  await new Promise<void>((resolve) => server.listen(HOST_PORT, "localhost", resolve));
  // A second customer site that embeds the real loader snippet.
  loaderSite = createServer((_req, res) => {
    res
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      .end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>${embedSnippet(baseURL(), DEMO.chatbotId)}</body></html>`,
      );
  });
  await new Promise<void>((resolve) => loaderSite.listen(HOST_PORT + 1, "localhost", resolve));

  // A bot with no knowledge whose fallback answer (what the model "says") carries script payloads,
  // and whose look settings carry them too; it asks for contact details when it does not know.
  const xss = {
    general: { fallbackMessage: PAYLOAD },
    ui: {
      displayName: `<img src=x onerror=window.__pwned=1>Shop`,
      welcomeMessages: [`Hi <svg onload=window.__pwned=1> [x](javascript:window.__pwned=1)`],
      suggestedQuestions: ["Do you ship abroad?"],
      humanHandoff: true,
      leadForm: {
        timing: "on-fallback",
        title: "Leave your email",
        name: "optional",
        email: "required",
        phone: "off",
        custom: [{ label: "Company", required: false }],
      },
    },
  };
  const rate = { access: { rateLimitPerMinute: 1 } };
  await executeD1(
    insertChatbotSql({ id: XSS_BOT, orgId: DEMO.orgId, name: "XSS widget", settings: xss }) +
      insertChatbotSql({ id: RATE_BOT, orgId: DEMO.orgId, name: "Rate bot", settings: rate }),
  );

  // The demo knowledge is indexed by the queue the global setup kicked; wait until it answers with sources.
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${baseURL()}/api/chat/${DEMO.chatbotId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: baseURL() },
      body: JSON.stringify({ visitorId: `v_probe_${attempt}_${suffix}`, message: "Which roles can manage members?", stream: false, channel: "widget" }),
    });
    const body = (await res.json()) as { message?: { sources?: unknown[] } };
    if (body.message?.sources?.length) break;
    if (attempt > 60) throw new Error("The demo knowledge was not indexed in time.");
    await new Promise((r) => setTimeout(r, 1000));
  }
});

afterAll(async () => {
  await closeBrowser();
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => loaderSite?.close(resolve));
});

const answers = (scope: Page | FrameLocator) => scope.locator(".pc-actions");

async function ask(scope: Page | FrameLocator, question: string) {
  const before = await answers(scope).count();
  const input = scope.getByLabel("Your message");
  await input.fill(question);
  await input.press("Enter");
  await answers(scope)
    .nth(before)
    .waitFor({ timeout: 20_000 })
    .catch(async (e) => {
      throw new Error(`No answer to "${question}". Chat shows: ${await scope.locator(".pc-root").textContent()}`, { cause: e });
    });
}

async function chatFrame(p: Page): Promise<Frame> {
  await p.frameLocator("#chat").getByLabel("Your message").waitFor();
  const frame = p.frames().find((f) => f.url().includes("/widget/frame/"));
  if (!frame) throw new Error("no chat frame");
  return frame;
}

describe("chat UI on /test", () => {
  it("streams an answer with sources, takes thumbs and a problem report, and restores the conversation after a reload", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`/test/${DEMO.chatbotId}`);
      await p.getByRole("heading", { name: DEMO.chatbotName, level: 1 }).waitFor();
      // Page mode: no close button.
      expect(await p.getByRole("button", { name: "Close chat" }).count()).toBe(0);
      expect(await p.getByRole("link", { name: "Powered by Parley" }).getAttribute("target")).toBe("_blank");

      await ask(p, "Which roles can manage members?");
      const log = p.getByRole("log", { name: "Conversation" });
      await log.getByText("Sources", { exact: true }).waitFor();
      expect(await log.textContent()).toMatch(/Admin: Manages members/);
      expect(await log.locator(".pc-sources li").count()).toBeGreaterThan(0);
      for (const a of await log.locator(".pc-sources a").all()) expect(await a.getAttribute("rel")).toBe("noopener noreferrer nofollow");
      // The finished answer (not its tokens) is announced.
      await expect.poll(() => p.locator('[aria-live="polite"]').textContent()).toMatch(new RegExp(`^${DEMO.chatbotName}: .*Admin`));

      // Visitor id kept in storage.
      const visitorId = await p.evaluate((id) => localStorage.getItem(`parley:visitor:${id}`), DEMO.chatbotId);
      expect(visitorId).toMatch(/^v_[0-9a-f]{32}$/);

      // Thumbs up, then "report a problem".
      const feedback = p.waitForResponse((r) => r.url().endsWith("/feedback") && r.request().method() === "POST");
      await log.getByRole("button", { name: "Helpful", exact: true }).click();
      expect((await feedback).status()).toBe(200);
      expect(await log.getByRole("button", { name: "Helpful", exact: true }).getAttribute("aria-pressed")).toBe("true");

      await log.getByRole("button", { name: "Report a problem" }).click();
      await log.getByRole("button", { name: "Send report" }).click();
      await log.getByText("Tell us what was wrong.").waitFor();
      await log.getByLabel("What was wrong?").fill("The answer missed the Owner role.");
      await log.getByRole("button", { name: "Send report" }).click();
      await log.getByText("Thank you — the team will look into it.").waitFor();

      // Reload: the same conversation comes back, with its sources.
      await p.reload();
      await log.getByText("Sources", { exact: true }).waitFor();
      expect(await log.getByText("Which roles can manage members?").count()).toBe(1);
      expect(await p.evaluate((id) => localStorage.getItem(`parley:visitor:${id}`), DEMO.chatbotId)).toBe(visitorId);

      // "New conversation" starts afresh, and a reload keeps the new one.
      await p.getByRole("button", { name: "New conversation" }).click();
      expect(await log.getByText("Which roles can manage members?").count()).toBe(0);
      await ask(p, "Hello");
      await p.reload();
      await log.getByText("Hello", { exact: true }).waitFor();
      expect(await log.getByText("Which roles can manage members?").count()).toBe(0);
      // (The lean page has no favicon; the browser's request for one is not the chat's error.)
      expect(t.errors().filter((e) => !e.includes("/favicon.ico"))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("offers a retry when the network fails, keeping the question, and respects reduced motion", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.emulateMedia({ reducedMotion: "reduce" });
      await p.goto(`/test/${DEMO.chatbotId}`);
      await p.route("**/api/chat/*", (route) => (route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue()));
      const input = p.getByLabel("Your message");
      await input.fill("Hello");
      await input.press("Enter");
      const alert = p.getByRole("alert");
      await alert.getByText("Could not reach the server. Check your connection and try again.").waitFor();
      expect(await input.inputValue()).toBe("Hello");
      expect(await p.locator(".pc-visitor").count()).toBe(0);

      // While an answer streams, the typing dots do not animate.
      await p.unroute("**/api/chat/*");
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await p.route("**/api/chat/*", async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        await held;
        await route.continue();
      });
      await alert.getByRole("button", { name: "Retry" }).click();
      const dots = p.locator(".pc-typing span").first();
      await dots.waitFor();
      expect(await dots.evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
      release();
      await answers(p).first().waitFor({ timeout: 20_000 });
      expect(await p.getByRole("alert").count()).toBe(0);
      expect(await p.locator(".pc-visitor").count()).toBe(1);
    } finally {
      await t.close();
    }
  });

  it("has no serious or critical axe violations in light and dark, and fits 320px", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.setViewportSize({ width: 320, height: 640 });
      await p.goto(`/test/${XSS_BOT}`);
      await p.getByLabel("Your message").waitFor();
      await ask(p, "Do you deliver on Sundays?"); // fallback: answer, actions and the lead form on screen
      await p.getByText("Leave your email").waitFor();
      for (const scheme of ["light", "dark"] as const) {
        await p.emulateMedia({ colorScheme: scheme });
        await expect.poll(() => p.locator(".pc-root").evaluate((el) => el.classList.contains("pc-dark"))).toBe(scheme === "dark");
        expect(await axeViolations(p), scheme).toEqual([]);
      }
      // Nothing overflows sideways on a 320px screen.
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    } finally {
      await t.close();
    }
  });
});

describe("chat UI in the widget iframe on another origin", () => {
  it("talks to the host page, sends with Enter, keeps Shift+Enter newlines, traps focus and closes on Escape", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`${HOST}/`);
      const f = p.frameLocator("#chat");
      let frame = await chatFrame(p);
      await expect.poll(() => p.evaluate(() => (window as unknown as { __msgs: { type: string }[] }).__msgs.map((m) => m.type))).toContain("ready");

      // "opened" from the host focuses the input.
      await p.evaluate(() => (window as unknown as { tell: (m: unknown) => void }).tell({ parley: 1, type: "opened" }));
      await expect.poll(() => frame.evaluate(() => document.activeElement?.id)).toBe("pc-input");
      // A message from a page that is not the host is ignored (here: the frame's own origin posing as host).
      await frame.evaluate(() => window.postMessage({ parley: 1, type: "identify", id: "v_attacker_123456" }, "*"));

      await p.keyboard.type("Hello");
      await p.keyboard.press("Shift+Enter");
      await p.keyboard.type("there");
      expect(await f.getByLabel("Your message").inputValue()).toBe("Hello\nthere");
      expect(await f.locator(".pc-visitor").count()).toBe(0);
      await p.keyboard.press("Enter");
      await answers(f).first().waitFor({ timeout: 20_000 });
      expect(await f.getByLabel("Your message").inputValue()).toBe("");
      await expect
        .poll(() =>
          p.evaluate(() =>
            (window as unknown as { __msgs: { type: string; message?: { role: string } }[] }).__msgs
              .filter((m) => m.type === "message")
              .map((m) => m.message?.role),
          ),
        )
        .toEqual(["visitor", "bot"]);
      // The frame hands its visitor id to the host (the impostor's identify above was ignored).
      const visitorId = await p.evaluate((id) => localStorage.getItem(`parley:visitor:${id}`), DEMO.chatbotId);
      expect(visitorId).toMatch(/^v_[0-9a-f]{32}$/);

      // Reloaded, the host hands the id back: the conversation is restored even though this browser
      // blocks storage in third-party frames.
      await p.reload();
      frame = await chatFrame(p);
      await f.getByRole("log").getByText("there", { exact: false }).first().waitFor();
      expect(await f.locator(".pc-visitor").count()).toBe(1);

      // The open widget (close button, answer actions) passes axe too.
      expect(await axeViolations(frame)).toEqual([]);

      // Tab cycles through the chat's controls and never leaves the frame.
      await frame.evaluate(() => (document.getElementById("pc-input") as HTMLElement).focus());
      const seen: string[] = [];
      for (let i = 0; i < 14; i++) {
        await p.keyboard.press("Tab");
        expect(await p.evaluate(() => document.activeElement?.id)).toBe("chat");
        seen.push(
          await frame.evaluate(
            () => document.activeElement?.getAttribute("aria-label") || document.activeElement?.textContent?.trim() || document.activeElement?.tagName || "",
          ),
        );
      }
      for (const name of ["New conversation", "Close chat", "Conversation", "Helpful", "Not helpful", "Report a problem", "Powered by Parley"])
        expect(seen).toContain(name);
      expect(seen.filter((s) => s === "Close chat").length).toBeGreaterThanOrEqual(2);
      // Focus is visible.
      expect(await frame.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");

      await p.keyboard.press("Escape");
      await expect.poll(() => p.evaluate(() => (window as unknown as { __msgs: { type: string }[] }).__msgs.map((m) => m.type))).toContain("close");
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("never runs script payloads from the bot's answer or the chatbot's settings", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`${HOST}/?bot=${XSS_BOT}`);
      const f = p.frameLocator("#chat");
      const frame = await chatFrame(p);
      await f.getByRole("button", { name: "Do you ship abroad?" }).click(); // a suggested question sends
      await answers(f).first().waitFor({ timeout: 20_000 });
      const answer = f.locator(".pc-bot .pc-md").last();
      await answer.getByRole("link", { name: "safe" }).waitFor();

      const report = await frame.evaluate(() => {
        const all = Array.from(document.querySelectorAll("*"));
        return {
          pwned: (window as unknown as { __pwned?: unknown }).__pwned,
          handlers: all.flatMap((el) =>
            Array.from(el.attributes)
              .filter((a) => /^on/i.test(a.name))
              .map((a) => `${el.tagName} ${a.name}`),
          ),
          scriptLinks: Array.from(document.querySelectorAll("a"))
            .filter((a) => !/^(https?:|mailto:)/i.test(a.getAttribute("href") ?? ""))
            .map((a) => a.outerHTML),
          injected: document.querySelectorAll("#parley-root img, #parley-root svg:not([aria-hidden]), #parley-root script, #parley-root iframe").length,
          text: document.querySelector(".pc-bot:last-of-type .pc-md")?.textContent ?? "",
          title: document.querySelector("h1")?.textContent,
          links: Array.from(document.querySelectorAll(".pc-md a")).map((a) => [a.getAttribute("href"), a.getAttribute("target"), a.getAttribute("rel")]),
        };
      });
      expect(report.pwned).toBeUndefined();
      expect(report.handlers).toEqual([]);
      expect(report.scriptLinks).toEqual([]);
      expect(report.injected).toBe(0);
      expect(report.title).toBe("<img src=x onerror=window.__pwned=1>Shop");
      expect(report.links).toEqual([["https://example.com/safe", "_blank", "noopener noreferrer nofollow"]]);
      const shown = await f.locator(".pc-log").textContent();
      expect(shown).toContain("<img src=x onerror=window.__pwned=1>");
      expect(shown).toContain("<svg onload=window.__pwned=1>");
      expect(shown).toContain('<a href="javascript:window.__pwned=1">a</a>');
      expect(await p.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("offers the lead form when the bot does not know, shows field errors, and remembers the lead", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`${HOST}/?bot=${XSS_BOT}`);
      const f = p.frameLocator("#chat");
      await chatFrame(p);
      // The host identifies the visitor: the form is prefilled.
      await p.evaluate(() =>
        (window as unknown as { tell: (m: unknown) => void }).tell({ parley: 1, type: "identify", id: "v_known_customer_42", name: "Ada Lovelace", email: "" }),
      );
      await ask(f, "Can I pay by cheque?");
      const form = f.locator("form.pc-lead");
      await form.getByText("Leave your email").waitFor();
      expect(await form.getByLabel("Name").inputValue()).toBe("Ada Lovelace");

      await form.getByRole("button", { name: "Send details" }).click();
      await form.getByText("Enter your email address.").waitFor();
      await form.getByLabel("Email").fill("not-an-email");
      await form.getByRole("button", { name: "Send details" }).click();
      await form.getByText("Enter a valid email address.").waitFor(); // the server's field message
      expect(await form.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");

      await form.getByLabel("Email").fill("ada@example.com");
      await form.getByLabel("Company (optional)").fill("Analytical Engines");
      const saved = p.waitForResponse((r) => r.url().endsWith("/leads"));
      await form.getByRole("button", { name: "Send details" }).click();
      expect((await saved).status()).toBe(201);
      await f.getByRole("log").getByText("Thanks — we have your details.").waitFor();
      await expect
        .poll(() => p.evaluate(() => (window as unknown as { __msgs: { type: string; lead?: unknown }[] }).__msgs.find((m) => m.type === "lead")?.lead))
        .toEqual({ name: "Ada Lovelace", email: "ada@example.com" });

      // Talk to a human.
      await f.getByRole("button", { name: "Talk to a human" }).click();
      await f
        .getByRole("log")
        // The demo organisation is on Free (no live chat): the visitor is told no person can join, and already left an email.
        .getByText(/A person from the team cannot join this chat\. Your conversation has been passed on, and a person will get back to you by email/)
        .waitFor();

      // Reloaded: the conversation is back and the form is not offered again.
      await p.reload();
      const again = p.frameLocator("#chat");
      await chatFrame(p);
      await p.evaluate(() => (window as unknown as { tell: (m: unknown) => void }).tell({ parley: 1, type: "identify", id: "v_known_customer_42" }));
      await again.getByText("Can I pay by cheque?").waitFor();
      await ask(again, "Do you sell gift cards?");
      expect(await again.locator("form.pc-lead").count()).toBe(0);
    } finally {
      await t.close();
    }
  });

  it("answers a rate-limited visitor politely and keeps what they typed", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`${HOST}/?bot=${RATE_BOT}`);
      const f = p.frameLocator("#chat");
      await chatFrame(p);
      await ask(f, "Hello");
      const input = f.getByLabel("Your message");
      await input.fill("And one more question");
      await input.press("Enter");
      const alert = f.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/\w/);
      expect(await input.inputValue()).toBe("And one more question");
      expect(await f.locator(".pc-visitor").count()).toBe(1);
    } finally {
      await t.close();
    }
  });

  it("previews settings live for the dashboard (Parley's own origin) without calling the chat API", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      const chatCalls: string[] = [];
      p.on("request", (r) => r.url().includes("/api/chat/") && chatCalls.push(r.url()));
      await p.goto("/login");
      await p.evaluate(
        (src) => {
          const f = document.createElement("iframe");
          f.id = "chat";
          f.title = "Preview";
          f.src = src;
          f.style.cssText = "width:380px;height:600px";
          document.body.appendChild(f);
        },
        `/widget/frame/${DEMO.chatbotId}?host=${encodeURIComponent(baseURL())}&preview=1`,
      );
      const f = p.frameLocator("#chat");
      await chatFrame(p);
      await p.evaluate(
        ([ui, origin]) =>
          (document.getElementById("chat") as HTMLIFrameElement).contentWindow!.postMessage(
            { parley: 1, type: "preview-settings", name: "Preview bot", ui },
            origin as string,
          ),
        [
          { ...DEFAULT_UI_SETTINGS, theme: "dark", brandColor: "#fde047", welcomeMessages: ["Preview hello"], suggestedQuestions: ["What does it cost?"] },
          baseURL(),
        ] as const,
      );
      await f.getByRole("heading", { name: "Preview bot" }).waitFor();
      await f.getByText("Preview hello").waitFor();
      expect(
        await f.locator(".pc-root").evaluate((el) => [el.classList.contains("pc-dark"), getComputedStyle(el).getPropertyValue("--pc-on-brand").trim()]),
      ).toEqual([true, "#111827"]);
      await f.getByRole("button", { name: "What does it cost?" }).click();
      await f.getByText("This is a preview — messages are not sent.").waitFor();
      expect(chatCalls).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("through the real loader, finds the conversation again after the host page reloads", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`${LOADER_HOST}/`);
      const launcher = p.getByRole("button", { name: `Chat with ${DEMO.chatbotName}` });
      await launcher.click();
      const f = p.frameLocator(`iframe[title="Chat with ${DEMO.chatbotName}"]`);
      await ask(f, "Which roles can manage members?");
      await f.getByText("Sources", { exact: true }).waitFor();
      // The id lives in the host page's storage (this browser blocks storage in third-party frames).
      expect(await p.evaluate((id) => localStorage.getItem(`parley:visitor:${id}`), DEMO.chatbotId)).toMatch(/^v_[0-9a-f]{32}$/);

      await p.reload();
      await launcher.click();
      await f.getByRole("log").getByText("Which roles can manage members?").waitFor();
      await f.getByText("Sources", { exact: true }).waitFor();
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
