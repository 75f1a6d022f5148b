import type { Page, Request } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { closeBrowser, newPage } from "./support/browser";

// No message is lost when a send fails (issue 21): the chat UI retries a failed send once with the
// same client message id, so a first attempt that did reach the server is stored once; when both
// attempts fail, the typed text stays in the box with a Retry button. On /test/{id} with the demo bot.

afterAll(async () => {
  await closeBrowser();
});

const answers = (p: Page) => p.locator(".pc-actions");
const chatPost = (r: Request) => r.method() === "POST" && /\/api\/chat\/[^/]+$/.test(new URL(r.url()).pathname);
const clientIdOf = (r: Request) => (JSON.parse(r.postData() ?? "{}") as { clientMessageId?: string }).clientMessageId;

async function storedVisitorMessages(p: Page, text: string) {
  const visitorId = await p.evaluate((id) => localStorage.getItem(`parley:visitor:${id}`), DEMO.chatbotId);
  const res = await p.request.get(`/api/chat/${DEMO.chatbotId}/history?visitorId=${visitorId}&channel=test`);
  const body = (await res.json()) as { messages: { role: string; content: string }[] };
  return body.messages.filter((m) => m.role === "visitor" && m.content === text).length;
}

describe("a failed send is retried, never lost", () => {
  it("retries once with the same client message id; a first attempt that reached the server is stored once", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`/test/${DEMO.chatbotId}`);
      const sent: Request[] = [];
      let first = true;
      await p.route("**/api/chat/*", async (route) => {
        if (!chatPost(route.request())) return route.continue();
        sent.push(route.request());
        if (first) {
          first = false;
          // The server gets the message and answers it, but the browser never sees the answer.
          const res = await route.fetch();
          await res.body();
          return route.abort("connectionreset");
        }
        return route.continue();
      });
      const question = "How do I add the widget to my website?";
      const input = p.getByLabel("Your message");
      await input.fill(question);
      await input.press("Enter");
      await answers(p).first().waitFor({ timeout: 20_000 });

      expect(sent).toHaveLength(2);
      expect(clientIdOf(sent[0])).toMatch(/^c_[0-9a-f]{32}$/);
      expect(clientIdOf(sent[1])).toBe(clientIdOf(sent[0]));
      expect(await p.getByRole("alert").count()).toBe(0);
      expect(await p.locator(".pc-visitor").count()).toBe(1);
      expect(await storedVisitorMessages(p, question)).toBe(1);
      // After a reload the conversation shows the message once, with its answer.
      await p.unroute("**/api/chat/*");
      await p.reload();
      await p.locator(".pc-visitor").first().waitFor();
      expect(await p.locator(".pc-visitor").count()).toBe(1);
    } finally {
      await t.close();
    }
  });

  it("keeps the typed text with a Retry button when both attempts fail, and Retry sends it (once) with the same id", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`/test/${DEMO.chatbotId}`);
      const sent: Request[] = [];
      let failing = true;
      await p.route("**/api/chat/*", async (route) => {
        if (!chatPost(route.request())) return route.continue();
        sent.push(route.request());
        if (failing)
          return route.fulfill({ status: 503, contentType: "text/plain", body: "Your worker restarted mid-request. Please try sending the request again." });
        return route.continue();
      });
      const question = "Which file types can I upload to the knowledge base?";
      const input = p.getByLabel("Your message");
      await input.fill(question);
      await input.press("Enter");
      const alert = p.getByRole("alert");
      await alert.getByRole("button", { name: "Retry" }).waitFor();
      expect(sent).toHaveLength(2); // the send and its one automatic retry
      expect(await input.inputValue()).toBe(question);
      expect(await p.locator(".pc-visitor").count()).toBe(0);

      failing = false;
      await alert.getByRole("button", { name: "Retry" }).click();
      await answers(p).first().waitFor({ timeout: 20_000 });
      expect(sent).toHaveLength(3);
      expect(new Set(sent.map(clientIdOf)).size).toBe(1);
      expect(await p.locator(".pc-visitor").count()).toBe(1);
      expect(await storedVisitorMessages(p, question)).toBe(1);
    } finally {
      await t.close();
    }
  });

  it("does not retry a refusal (4xx): the visitor sees why at once", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`/test/${DEMO.chatbotId}`);
      let posts = 0;
      await p.route("**/api/chat/*", async (route) => {
        if (!chatPost(route.request())) return route.continue();
        posts++;
        return route.fulfill({
          status: 429,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "rate_limited", message: "Slow down." } }),
        });
      });
      const input = p.getByLabel("Your message");
      await input.fill("hello");
      await input.press("Enter");
      await p.getByRole("alert").getByText("Slow down.").waitFor();
      expect(posts).toBe(1);
      expect(await p.getByRole("alert").getByRole("button", { name: "Retry" }).count()).toBe(0);
      expect(await input.inputValue()).toBe("hello");
    } finally {
      await t.close();
    }
  });
});
