import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, newPage } from "./support/browser";
import { signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";

// Plans and usage as an owner sees them: the Free chatbot limit, usage bars on /app/plans, a plan
// change in development (no Stripe: immediate, with a notice), and the raised limit.
describe("plans and usage", () => {
  afterAll(closeBrowser);

  it("owner hits the chatbot limit, sees usage bars, moves to Starter and creates a second chatbot", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await signUpAndVerify(p, { name: "Pat Plans", email: uniqueEmail("plans"), password: "saffron ledger 58" });
      await p.getByLabel("Organisation name").fill("Plans Co");
      await submitAndWait(p, "Create organisation", /\/app\/org_[a-z2-7]+$/);
      const orgPath = new URL(p.url()).pathname;
      const orgId = orgPath.split("/")[2];
      await p.getByLabel("Chatbot name").fill("First");
      await submitAndWait(p, "Create chatbot");
      await p.getByRole("navigation", { name: "Chatbots" }).getByRole("link", { name: "First" }).waitFor();

      // Free allows one chatbot: the second is refused with the limit and how to raise it.
      await p.getByLabel("Chatbot name").fill("Second");
      await submitAndWait(p, "Create chatbot");
      await p.getByRole("alert").filter({ hasText: "The Free plan allows 1 chatbot" }).waitFor();
      expect(await p.getByRole("alert").textContent()).toContain("moving to the Starter plan (3 chatbots)");

      // The sidebar links to the organisation's plan and usage.
      await Promise.all([p.waitForURL(/\/app\/plans/), p.getByRole("link", { name: "Plans and usage" }).filter({ visible: true }).first().click()]);
      await p.getByRole("heading", { level: 1, name: "Plans and usage" }).waitFor();
      await p.getByText("Billing is not configured").first().waitFor();
      const card = p.locator(`#org-${orgId}`);
      const chatbots = card.getByRole("progressbar", { name: "Chatbots" });
      expect(await chatbots.getAttribute("value")).toBe("1");
      expect(await chatbots.getAttribute("max")).toBe("1");
      expect(await card.getByRole("progressbar", { name: "Bot replies this period" }).getAttribute("max")).toBe("100");
      expect(await card.getByRole("progressbar", { name: "Members" }).getAttribute("value")).toBe("1");
      expect(await card.getByRole("progressbar").count()).toBe(4);

      await submitAndWait(p, "Switch to Starter for Plans Co");
      await card.getByText("Plans Co is now on the Starter plan.").waitFor();
      // The page revalidates after the action: the bar now measures against Starter's 3 chatbots.
      await expect.poll(() => card.getByRole("progressbar", { name: "Chatbots" }).getAttribute("max")).toBe("3");

      // The raised limit: a second chatbot is created.
      await p.goto(orgPath);
      await p.getByLabel("Chatbot name").fill("Second");
      await submitAndWait(p, "Create chatbot");
      await p.getByRole("navigation", { name: "Chatbots" }).getByRole("link", { name: "Second" }).waitFor();
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
