import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { closeBrowser, newPage } from "./support/browser";
import { executeD1 } from "./support/d1";
import { insertChatbotSql } from "./support/chatbots";

// No dead end: a chatbot nobody has configured says "leave your contact so someone from the team
// can help" when it does not know, so the widget must offer the contact form right then.

const FRESH_BOT = `cb_e2e_fresh_${Date.now().toString(36)}`;
const SILENT_BOT = `cb_e2e_silent_${Date.now().toString(36)}`;

beforeAll(async () => {
  // A new chatbot's settings are empty (every section at its defaults); the second has switched both offers off.
  const silent = { ui: { leadForm: { timing: "off" }, humanHandoff: false } };
  await executeD1(
    insertChatbotSql({ id: FRESH_BOT, orgId: DEMO.orgId, name: "Fresh bot" }) +
      insertChatbotSql({ id: SILENT_BOT, orgId: DEMO.orgId, name: "Silent bot", settings: silent }),
  );
});
afterAll(closeBrowser);

describe("after a fallback", () => {
  it("a new chatbot offers the contact form it asks for, and takes the visitor's details", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`/test/${FRESH_BOT}`);
      const input = p.getByLabel("Your message");
      await input.fill("Do you deliver on Sundays?");
      await input.press("Enter");
      await p
        .getByRole("log", { name: "Conversation" })
        .getByText("leave your contact so someone from the team can help", { exact: false })
        .waitFor({ timeout: 20_000 });
      const form = p.getByRole("form", { name: "Leave your details and we will get back to you." });
      await form.waitFor();
      await form.getByLabel("Email").fill("sunday@example.com");
      await form.getByRole("button", { name: "Send details" }).click();
      await p.getByText("Thanks — we have your details.").first().waitFor();
      expect(t.errors()).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("with both offers switched off, no form appears (the settings screens warn the owner about this)", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`/test/${SILENT_BOT}`);
      const input = p.getByLabel("Your message");
      await input.fill("Do you deliver on Sundays?");
      await input.press("Enter");
      await p.locator(".pc-actions").first().waitFor({ timeout: 20_000 });
      expect(await p.locator("form.pc-lead").count()).toBe(0);
    } finally {
      await t.close();
    }
  });
});
