import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { closeBrowser, newPage } from "./support/browser";
import { executeD1 } from "./support/d1";
import { insertChatbotSql } from "./support/chatbots";
import { signInAsDemo } from "./support/flows";

// The bot's "collect lead" step in Chromium, on the chat test page (/test/{id}) with the built-in
// engine: the visitor asks for a quote → the bot says the team will send one and shows the lead form
// inline, with the fields the chatbot's settings ask for → the visitor sends it → the lead is on the
// chatbot's Leads screen, marked as asked by the bot, with its conversation.

const suffix = Date.now().toString(36);
const BOT = `cb_collect_${suffix}`;
const EMAIL = `quote-${suffix}@buyer.example`;
const FORM = {
  timing: "on-intent",
  title: "Get your quote",
  name: "required",
  email: "required",
  phone: "optional",
  custom: [{ label: "Company", required: true }],
};

beforeAll(async () => {
  await executeD1(insertChatbotSql({ id: BOT, orgId: DEMO.orgId, name: "Knit shop", settings: { ui: { leadForm: FORM } } }));
});

afterAll(closeBrowser);

describe("the bot asks for contact details", () => {
  it("a visitor asking for a quote gets the form inline, sends it, and the lead appears under Leads", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(`/test/${BOT}`);
      const input = p.getByLabel("Your message");
      const log = p.getByRole("log", { name: "Conversation" });
      await input.fill("Can I get a quote for 40 jumpers with our logo?");
      await input.press("Enter");

      const form = p.getByRole("form", { name: "Get your quote" });
      await form.waitFor({ timeout: 20_000 });
      await log.getByText("The team can tell you the price for that.").waitFor();
      // The configured fields, required ones marked; the composer stays usable below.
      expect(await form.getByRole("textbox").count()).toBe(4);
      expect(await form.getByLabel("Phone (optional)").count()).toBe(1);
      await form.getByRole("button", { name: "Send details" }).click();
      await form.getByText("Enter your name.").waitFor();
      await form.getByLabel("Name").fill("Quinn Quote");
      await form.getByLabel("Email").fill(EMAIL);
      await form.getByLabel("Company").fill("Woolly Corp");
      await form.getByRole("button", { name: "Send details" }).click();
      await log.getByText("Thanks — we have your details.").waitFor();
      expect(await form.count()).toBe(0);

      // Asking again: the bot knows the team has the details and does not show the form again.
      await input.fill("Can someone call me?");
      await input.press("Enter");
      await log.getByText("The team already has your contact details and will get back to you.").waitFor({ timeout: 20_000 });
      expect(await p.getByRole("form", { name: "Get your quote" }).count()).toBe(0);
      expect(t.errors()).toEqual([]);

      await signInAsDemo(p);
      await p.goto(`/app/${DEMO.orgId}/${BOT}/leads`);
      await p.getByRole("link", { name: "Quinn Quote" }).click();
      await p.waitForURL(/lead=lead_/);
      await p.getByText("Lead captured (Test page, asked by the bot)").waitFor();
      await p.getByText(EMAIL).first().waitFor();
      await p.getByText("Woolly Corp").first().waitFor();
      await p
        .getByRole("link", { name: /^Conversation of / })
        .first()
        .waitFor();
    } finally {
      await t.close();
    }
  });
});
