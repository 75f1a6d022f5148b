import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, newPage } from "./support/browser";
import { signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";
import { startHostSite } from "./support/host-page";

// Issue #14's proof: the whole first run of a new customer, driven only by what the screens show
// (labels, roles and headings; no test ids, no direct URLs past the first page of each person):
// new account → organisation → chatbot → knowledge → a test question → the widget embedded on a
// second origin → a visitor the bot cannot help leaves a lead → the owner finds it in the list.

const POLICY = [
  "Shipping within Ireland costs €4.95 and is free on orders over €60.",
  "Standard delivery to the United Kingdom costs €9.50 and takes 3 to 5 business days.",
  "You may return unused items within 30 days of delivery for a full refund.",
  "Refunds go back to the original payment method within 5 business days of the return arriving.",
].join("\n\n");

let site: Awaited<ReturnType<typeof startHostSite>> | undefined;
afterAll(async () => {
  await closeBrowser();
  await site?.close();
});

describe("a newcomer's first run", () => {
  it("sign up → chatbot → knowledge → test → embedded on another site → a lead the owner sees with its badges", async () => {
    const owner = await newPage();
    const visitor = await newPage();
    try {
      const p = owner.page;
      await signUpAndVerify(p, { name: "Nora Newcomer", email: uniqueEmail("newcomer"), password: "harbour lantern 59" });

      // An organisation, then a chatbot: creating it opens it, with the setup checklist.
      await p.getByLabel("Organisation name").fill("Nora's Knits");
      await submitAndWait(p, "Create organisation", /\/app\/org_[a-z2-7]+$/);
      await p.getByLabel("Chatbot name").fill("Knit helper");
      await submitAndWait(p, "Create chatbot", /\/app\/org_[a-z2-7]+\/cb_[a-z2-7]+$/);
      const home = new URL(p.url()).pathname;
      const chatbotId = home.split("/").pop()!;
      await p.getByRole("heading", { level: 1, name: "Knit helper" }).waitFor();
      const checklist = p.getByRole("list", { name: "Setup steps" });
      await checklist.waitFor();
      // Nothing to ask yet: the test page waits for knowledge.
      expect(await p.getByRole("button", { name: "Try it on the test page" }).isDisabled()).toBe(true);

      // Knowledge: the checklist's first step leads to the knowledge screen.
      await checklist
        .getByRole("link", { name: /add knowledge/i })
        .first()
        .click();
      await p.waitForURL(/\/kb/);
      await p.getByLabel("Title").first().fill("Shipping and returns");
      await p.getByLabel("Text").fill(POLICY);
      await submitAndWait(p, "Add text");
      await p.getByText("Ready", { exact: true }).first().waitFor({ timeout: 30_000 });

      // Back on the chatbot home the test page is open; a first question answers with a source.
      await p.getByRole("navigation", { name: "Chatbots" }).getByRole("link", { name: "Knit helper" }).first().click();
      await p.waitForURL((u) => u.pathname === home);
      const tryIt = p.getByRole("link", { name: "Try it on the test page" }).first();
      await tryIt.waitFor();
      await p.goto((await tryIt.getAttribute("href"))!);
      await p.getByLabel("Your message").fill("how long do i have to send something back?");
      await p.getByLabel("Your message").press("Enter");
      const log = p.getByRole("log", { name: "Conversation" });
      await log.getByText("30 days", { exact: false }).first().waitFor({ timeout: 20_000 });
      await log.getByText("Shipping and returns", { exact: false }).first().waitFor();

      // Embed: the snippet exactly as Settings → Embed & API shows it, on another origin.
      await p.goto(home);
      await p.getByRole("link", { name: "Embed & API" }).first().click();
      await p.waitForURL(/\/settings\/embed/);
      const snippet = await p.getByRole("textbox", { name: "Script snippet" }).inputValue();
      expect(snippet).toContain(`data-chatbot-id="${chatbotId}"`);
      site = await startHostSite({ "/": snippet });

      // A visitor on the shop asks what the knowledge does not say, and leaves contact details.
      const v = visitor.page;
      await v.goto(site.url("/"));
      await v.getByRole("button", { name: "Chat with Knit helper" }).click();
      const frame = v.frameLocator('iframe[title="Chat with Knit helper"]');
      await frame.getByLabel("Your message").fill("Do you sell gift cards?");
      await frame.getByLabel("Your message").press("Enter");
      const leadForm = frame.getByRole("form", { name: "Leave your details and we will get back to you." });
      await leadForm.waitFor({ timeout: 20_000 });
      await leadForm.getByLabel("Name").fill("Gina Giftcard");
      await leadForm.getByLabel("Email").fill("gina@example.com");
      await leadForm.getByRole("button", { name: "Send details" }).click();
      await frame.getByText("Thanks — we have your details.").first().waitFor();

      // The owner's list names the lead and marks the conversation; the filters find it.
      await p.goto(home);
      const conversations = p.getByRole("region", { name: /Conversations/ });
      await conversations.getByText("gina@example.com", { exact: false }).first().waitFor();
      await conversations.getByText("Unanswered", { exact: true }).first().waitFor();
      await conversations.getByText("Lead", { exact: true }).first().waitFor();
      await Promise.all([p.waitForURL(/filter=unanswered/), p.getByRole("checkbox", { name: "Unanswered" }).check()]);
      await conversations.getByText("gina@example.com", { exact: false }).first().waitFor();
      await p.getByLabel("Search").fill("gift cards");
      await Promise.all([p.waitForURL(/q=gift/), p.getByRole("button", { name: "Search", exact: true }).click()]);
      await conversations.getByText("gina@example.com", { exact: false }).first().waitFor();

      // The checklist saw each real step: knowledge, the test question and the widget loading on the shop.
      const steps = p.getByRole("list", { name: "Setup steps" });
      await steps.getByText("Add knowledge (done)").waitFor();
      await steps.getByText("Ask a test question (done)").waitFor();
      await steps.getByText("Put it on your website (done)").waitFor();
      await steps.getByText(`The widget loaded on ${site.origin}`, { exact: false }).waitFor();

      expect(owner.errors()).toEqual([]);
      // The stand-in shop has no favicon; that 404 is the host's, not the widget's.
      expect(visitor.errors().filter((e) => !e.includes(`${site!.origin}/favicon.ico`))).toEqual([]);
    } finally {
      await owner.close();
      await visitor.close();
    }
  }, 180_000);
});
