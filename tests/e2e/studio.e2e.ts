import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { axeViolations } from "./support/axe";
import { closeBrowser, newPage } from "./support/browser";
import { signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";

// The Studio in Chromium: the widget designer's preview is the real chat frame and follows the
// form; the FAQ generator's pairs survive signing in and land on the chosen chatbot's knowledge.

/** Hydrated and no navigation under way (networkidle never settles while a preview frame loads). */
async function settled(page: Page) {
  await page.waitForFunction(() => {
    const router = (window as unknown as { __remixRouter?: { state: { initialized: boolean; navigation: { state: string } } } }).__remixRouter;
    return !!router && router.state.initialized && router.state.navigation.state === "idle";
  });
}

describe("studio", () => {
  afterAll(closeBrowser);

  it("every tool page is accessible in light and dark, with results shown", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      const pages = [
        "/studio",
        "/studio/system-prompt-generator",
        "/studio/faq-generator",
        "/studio/support-roi-calculator?conversations=1500&share=40&replies=2&minutes=6&hourlyCost=30",
        "/studio/support-roi-calculator?conversations=x&share=40&replies=2&minutes=6&hourlyCost=30",
        "/studio/widget-designer",
      ];
      for (const url of pages) {
        await p.goto(url);
        await p.waitForLoadState("load");
        for (const colorScheme of ["light", "dark"] as const) {
          await p.emulateMedia({ colorScheme });
          await p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
          expect(await axeViolations(p, { iframes: false }), `${url} (${colorScheme})`).toEqual([]);
        }
        await p.emulateMedia({ colorScheme: "light" });
      }
      // The system-prompt generator's result.
      await p.goto("/studio/system-prompt-generator");
      await settled(p);
      await p.getByLabel("Organisation name").fill("Northwind Bikes");
      await p.getByLabel("What it offers").fill("sells and repairs bikes in Leeds");
      await submitAndWait(p, "Write the instructions");
      expect(await p.getByLabel("Instructions", { exact: true }).inputValue()).toContain("You are the virtual assistant of Northwind Bikes");
      expect(await axeViolations(p, { iframes: false })).toEqual([]);
      // The one error logged is the deliberate invalid calculation, answered with 400.
      expect(t.errors()).toEqual([expect.stringMatching(/status of 400 .*conversations=x/)]);
    } finally {
      await t.close();
    }
  });

  it("widget designer: the real widget preview follows a colour and name change", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto("/studio/widget-designer");
      await settled(p);
      const frame = p.frameLocator('iframe[title="Live preview of the chat widget"]');
      const brand = () => frame.locator(".pc-root").evaluate((el) => (el as HTMLElement).style.getPropertyValue("--pc-brand"));
      await expect.poll(brand).toBe("#4f46e5");
      await p.getByRole("textbox", { name: "Brand colour", exact: true }).fill("#0f766e");
      await p.getByLabel("Display name").fill("Ada");
      await expect.poll(brand).toBe("#0f766e");
      await expect.poll(() => frame.locator(".pc-title").textContent()).toBe("Ada");
      // The launcher mock-up follows too.
      await p.getByLabel("Launcher position").selectOption("bottom-left");
      expect(await p.getByTestId("launcher").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(15, 118, 110)");
      await submitAndWait(p, "Get the settings");
      await p.getByLabel("Settings for Look & feel", { exact: true }).waitFor();
      expect(await p.getByLabel("Settings for Look & feel", { exact: true }).inputValue()).toContain("Brand colour: #0f766e");
      expect(await p.getByLabel("Settings for Look & feel", { exact: true }).inputValue()).toContain("Launcher position: Bottom left");
      expect(t.errors()).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("FAQ generator → sign in → import into a chatbot", async () => {
    const owner = { name: "Fay Faq", email: uniqueEmail("faq"), password: "harbour violet 42" };
    const setup = await newPage();
    try {
      const p = setup.page;
      await signUpAndVerify(p, owner);
      await p.getByLabel("Organisation name").fill("Faq Co");
      await submitAndWait(p, "Create organisation", /\/app\/org_[a-z2-7]+$/);
      await p.getByLabel("Chatbot name").fill("Helper");
      await submitAndWait(p, "Create chatbot");
    } finally {
      await setup.close();
    }

    const t = await newPage();
    try {
      const p = t.page;
      await p.goto("/studio/faq-generator");
      await settled(p);
      await p
        .getByLabel("Paste text")
        .fill(
          "Shipping times\n\nOrders leave our warehouse within one working day. Delivery in the UK takes 2 to 3 days.\n\nReturns\n\nYou can return anything within 30 days.",
        );
      await submitAndWait(p, "Generate questions and answers");
      await p.getByTestId("faq-pair").first().waitFor();
      // One pair per statement: the heading's question for the first, then one phrased from each statement.
      expect(await p.getByTestId("faq-pair").count()).toBe(3);
      expect(await p.getByLabel("Question 2", { exact: true }).inputValue()).toBe("How long does delivery in the UK take?");
      expect(await p.getByLabel("Question 1", { exact: true }).inputValue()).toBe("What are the shipping times?");
      await p.getByLabel("Question 1", { exact: true }).fill("How long does shipping take?");
      await p.getByLabel("Keep pair 3").uncheck();

      await Promise.all([p.waitForURL(/\/login\?redirectTo=/), p.getByRole("button", { name: "Import into a chatbot" }).click()]);
      await p.getByLabel("Email").fill(owner.email);
      await p.getByLabel("Password").fill(owner.password);
      await submitAndWait(p, "Sign in", /\/studio\/faq-generator\/import\//);
      await p.getByRole("heading", { name: "Import questions and answers into a chatbot" }).waitFor();
      expect(await p.getByTestId("draft-pairs").textContent()).toContain("How long does shipping take?");
      expect(await p.getByTestId("draft-pairs").textContent()).not.toContain("Can I return anything within 30 days?");
      await p.getByLabel("Chatbot").selectOption({ label: "Helper" });
      await p.getByLabel("Source title").fill("Shipping FAQ");
      await submitAndWait(p, "Import into this chatbot", /\/kb$/);
      await p.getByText("Shipping FAQ").first().waitFor();
      expect(t.errors()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
