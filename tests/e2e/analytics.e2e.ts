import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { ROOT } from "../../scripts/lib/common.mjs";
import { closeBrowser, newPage } from "./support/browser";
import { signInAsDemo, submitAndWait } from "./support/flows";

// Analytics in Chromium: visitors chat on the demo chatbot's test page, the numbers show up on the
// analytics page, a question the knowledge cannot answer is listed as unanswered, "Add an answer"
// turns it into a Q&A source that the real queue indexes, and the same question asked again gets
// that answer. Screens at 1280 and 390 px go to tests/e2e/artifacts/analytics.

const ARTIFACTS = path.join(ROOT, "tests", "e2e", "artifacts", "analytics");
const UNANSWERED = "Do you run a summer school in Reykjavik for penguins?";
const ANSWER = "Yes: the Reykjavik summer school for penguins runs every July; write to school@parley.example to join.";
const analytics = `/app/${DEMO.orgId}/${DEMO.chatbotId}/analytics`;

afterAll(closeBrowser);

/** Sends a question on the test page and returns what the chat shows after it once the reply stops changing. */
async function ask(p: Page, question: string): Promise<string> {
  const log = p.getByRole("log", { name: "Conversation" });
  await p.getByLabel("Your message").fill(question);
  await p.getByLabel("Your message").press("Enter");
  const after = async () => {
    const text = (await log.textContent()) ?? "";
    const at = text.lastIndexOf(question);
    return at >= 0 ? text.slice(at + question.length).trim() : "";
  };
  let last = "";
  for (let i = 0; i < 100; i++) {
    await p.waitForTimeout(400);
    const now = await after();
    if (now.length > 20 && now === last) return now;
    last = now;
  }
  throw new Error(`No reply to "${question}": ${last}`);
}

describe("analytics", () => {
  it("chats show up in the numbers; an unanswered question gets an answer that the bot then gives", async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const t = await newPage();
    try {
      const p = t.page;
      await signInAsDemo(p);
      // The demo knowledge must be indexed before the bot can tell what it does not know.
      await p.goto(`/app/${DEMO.orgId}/${DEMO.chatbotId}/kb`);
      await p.waitForFunction(() => (document.querySelector("table")?.textContent?.match(/Ready/g) ?? []).length >= 7, null, { timeout: 60_000 });

      await p.goto(`/test/${DEMO.chatbotId}`);
      const known = await ask(p, "Which roles can manage members?");
      expect(known).toMatch(/Admin/);
      const missed = await ask(p, UNANSWERED);
      expect(missed).not.toContain("Reykjavik summer school");

      await p.goto(`/app/${DEMO.orgId}/${DEMO.chatbotId}`);
      await p.getByRole("link", { name: "Analytics", exact: true }).first().click();
      await p.waitForURL(/\/analytics$/);
      await p.getByRole("heading", { name: "Analytics", level: 1 }).waitFor();
      const figure = (label: string) => p.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
      expect(Number(await figure("Conversations").textContent())).toBeGreaterThanOrEqual(1);
      expect(Number(await figure("Messages").textContent())).toBeGreaterThanOrEqual(4);
      expect(Number(await figure("Unique visitors").textContent())).toBeGreaterThanOrEqual(1);
      expect(await figure("Median answer time").textContent()).toMatch(/\d+(\.\d)? (ms|s)/);

      // Every chart has its table view.
      const tables = p.getByText("Show as table");
      expect(await tables.count()).toBe(4);
      await tables.first().click();
      await p.getByRole("table", { name: /Conversations and visitors per day/ }).waitFor();

      for (const width of [1280, 390]) {
        await p.setViewportSize({ width, height: 900 });
        expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
        await p.screenshot({ path: path.join(ARTIFACTS, `analytics-${width}.png`), fullPage: true });
      }
      await p.setViewportSize({ width: 1280, height: 900 });

      // The unanswered question, and "Add an answer".
      const item = p.locator("li", { hasText: UNANSWERED }).filter({ has: p.getByText("Add an answer") });
      await item.waitFor();
      await item.getByText("Add an answer").click();
      await item.getByLabel("Answer").fill(ANSWER);
      await submitAndWait(p, "Add to knowledge");
      await p.getByText(/Answer added to the knowledge/).waitFor();
      // The page reloads its data after the action: the group leaves the list.
      await expect
        .poll(() =>
          p
            .locator("li", { hasText: UNANSWERED })
            .filter({ has: p.getByText("Add an answer") })
            .count(),
        )
        .toBe(0);

      // The real queue indexes the new Q&A source; then the same question gets the answer.
      await p.goto(`/app/${DEMO.orgId}/${DEMO.chatbotId}/kb`);
      await p.waitForFunction(
        (q) => {
          const row = [...document.querySelectorAll("tr")].find((r) => r.textContent?.includes(q));
          return !!row && /Ready/.test(row.textContent ?? "");
        },
        UNANSWERED,
        { timeout: 60_000 },
      );
      const fresh = await newPage();
      try {
        await fresh.page.goto(`/test/${DEMO.chatbotId}`);
        const reply = await ask(fresh.page, UNANSWERED);
        expect(reply).toContain("Reykjavik summer school for penguins runs every July");
      } finally {
        await fresh.close();
      }
      expect(t.errors()).toEqual([]);
    } finally {
      await t.close();
    }
  }, 240_000);
});
