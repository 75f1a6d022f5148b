import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { axeViolations } from "./support/axe";
import { baseURL, closeBrowser, newPage } from "./support/browser";
import { executeD1 } from "./support/d1";
import { insertChatbotSql } from "./support/chatbots";
import { signInAsDemo } from "./support/flows";

// The chatbot home's conversation list in Chromium: visitors act through the widget's endpoints,
// the owner filters and searches (the URL carries the state, the back button undoes a filter),
// opens a transcript and closes it back to the same list, at 1280 and 390 px (rows become cards,
// nothing overflows the page). Screenshots go to .e2e/artifacts/.

const CHATBOT_ID = `cb_list_${Date.now().toString(36)}`;
const ARTIFACTS = path.resolve(".e2e/artifacts");

async function api(p: string, body: unknown) {
  const res = await fetch(`${baseURL()}${p}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${p} → ${res.status} ${text}`);
  return JSON.parse(text) as { conversationId: string; message: { id: string } };
}

describe("chatbot home: conversation list", () => {
  afterAll(closeBrowser);

  it("shows leads and badges, filters and searches through the URL, and fits a phone", async () => {
    const settings = { ui: { humanHandoff: true, leadForm: { timing: "after-first-answer", name: "optional", email: "required", phone: "off", custom: [] } } };
    await executeD1(insertChatbotSql({ id: CHATBOT_ID, orgId: DEMO.orgId, name: "List check", settings }));
    // The bot knows nothing, so every question falls back ("Unanswered"); small talk does not.
    const stamp = Date.now().toString(36);
    const ask = (visitorId: string, message: string) => api(`/api/chat/${CHATBOT_ID}`, { visitorId, message, stream: false, channel: "widget" });
    const greeting = await ask(`v_hello_${stamp}`, "Hello there");
    const lead = await ask(`v_leadvisitor_${stamp}`, "Can you deliver a grand piano to Lisbon next week?");
    await api(`/api/widget/${CHATBOT_ID}/leads`, {
      visitorId: `v_leadvisitor_${stamp}`,
      conversationId: lead.conversationId,
      name: "Grace Hopper",
      email: "grace@navy.example",
    });
    const down = await ask(`v_down_${stamp}`, "What is the warranty on refurbished cellos?");
    await api(`/api/widget/${CHATBOT_ID}/feedback`, { visitorId: `v_down_${stamp}`, messageId: down.message.id, value: -1 });
    const human = await ask(`v_human_${stamp}`, "My violin arrived broken, I need a person");
    await api(`/api/widget/${CHATBOT_ID}/handoff`, { visitorId: `v_human_${stamp}`, conversationId: human.conversationId });
    expect(greeting.conversationId).toBeTruthy();

    const t = await newPage();
    const { page } = t;
    try {
      await signInAsDemo(page);
      await page.setViewportSize({ width: 1280, height: 900 });
      const home = `/app/${DEMO.orgId}/${CHATBOT_ID}`;
      await page.goto(home);
      const rows = page
        .getByRole("list")
        .filter({ has: page.getByRole("link", { name: /piano/ }) })
        .getByRole("listitem");
      await expect.poll(() => rows.count()).toBe(4);
      const leadRow = rows.filter({ hasText: "piano" });
      expect(await leadRow.textContent()).toContain("Grace Hopper");
      expect(await leadRow.textContent()).toContain("grace@navy.example");
      expect(await rows.filter({ hasText: "cellos" }).textContent()).toContain("Rated down");
      expect(await rows.filter({ hasText: "violin" }).textContent()).toContain("Waiting for a human");
      expect(await rows.filter({ hasText: "Hello there" }).textContent()).not.toContain("Unanswered");
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, "conversation-list-1280.png"), fullPage: true });
      expect(await axeViolations(page)).toEqual([]);

      // A filter applies at once and is in the URL; Back undoes it.
      await page.getByRole("checkbox", { name: "Rated down" }).check();
      await page.waitForURL(/filter=rated-down/);
      await expect.poll(() => rows.count()).toBe(0);
      const downRows = page.getByRole("link", { name: /cellos/ });
      await expect.poll(() => downRows.count()).toBe(1);
      expect(await page.getByRole("link", { name: /piano/ }).count()).toBe(0);
      await page.goBack();
      await page.waitForURL((u) => !u.search.includes("filter="));
      await expect.poll(() => page.getByRole("link", { name: /piano/ }).count()).toBe(1);
      expect(await page.getByRole("checkbox", { name: "Rated down" }).isChecked()).toBe(false);

      // Search by email, then open the transcript and close it back to the same search.
      await page.getByRole("searchbox", { name: "Search" }).fill("grace@navy");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/q=grace%40navy/);
      await expect.poll(() => page.getByRole("link", { name: /cellos/ }).count()).toBe(0);
      await page.getByRole("link", { name: /piano/ }).click();
      await page.waitForURL(/c=cv_/);
      await expect.poll(() => page.getByRole("heading", { name: "Transcript" }).count()).toBe(1);
      await page.getByRole("link", { name: "Close transcript" }).click();
      await page.waitForURL((u) => u.search === "?q=grace%40navy");

      // A phone: rows are cards, the page does not scroll sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(home);
      await expect.poll(() => page.getByRole("link", { name: /piano/ }).count()).toBe(1);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(ARTIFACTS, "conversation-list-390.png"), fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
      expect(t.errors()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
