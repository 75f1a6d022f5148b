import { afterAll, describe, expect, it } from "vitest";
import { baseURL, closeBrowser, newPage } from "./support/browser";
import { signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";
import { latestMailTo, linkIn } from "./support/outbox";

// The foundation's main story, as two people in two browsers.
describe("organisation and team", () => {
  afterAll(closeBrowser);

  it("sign up → verify → organisation → chatbot → invite → accept → roles → removal", async () => {
    const owner = await newPage();
    const agent = await newPage();
    const ownerEmail = uniqueEmail("owner");
    const agentEmail = uniqueEmail("agent");
    try {
      await signUpAndVerify(owner.page, { name: "Olivia Owner", email: ownerEmail, password: "lantern meadow 42" });
      const p = owner.page;

      // Create an organisation.
      await p.getByLabel("Organisation name").fill("Acme Support");
      await submitAndWait(p, "Create organisation", /\/app\/org_[a-z2-7]+$/);
      const orgPath = new URL(p.url()).pathname;
      await p.getByRole("heading", { level: 1, name: "Acme Support" }).waitFor();

      // Create a chatbot; it opens, and it is in the sidebar.
      await p.getByLabel("Chatbot name").fill("Helpdesk");
      await submitAndWait(p, "Create chatbot", new RegExp(`${orgPath}/cb_[a-z2-7]+$`));
      await p.getByRole("heading", { level: 1, name: "Helpdesk" }).waitFor();
      await p.getByRole("navigation", { name: "Chatbots" }).getByRole("link", { name: "Helpdesk" }).waitFor();

      // Free has room for one member: move to Starter first, as an owner does on the Plans page
      // (in development without Stripe the change is immediate).
      await p.goto("/app/plans");
      await submitAndWait(p, "Switch to Starter for Acme Support");
      await p.getByText("Acme Support is now on the Starter plan.").waitFor();

      // Invite an agent.
      await p.goto(`${orgPath}/members`);
      await p.getByLabel("Email address").fill(agentEmail);
      await p.getByLabel("Role").selectOption("agent");
      await submitAndWait(p, "Send invitation");
      await p.getByRole("cell", { name: agentEmail }).first().waitFor();

      // The agent accepts as a new user.
      const invite = await latestMailTo(baseURL(), agentEmail, { subject: /invited you/ });
      const a = agent.page;
      await a.goto(linkIn(invite, "/invite/"));
      await a.getByRole("heading", { name: "Join Acme Support" }).waitFor();
      await a.getByLabel("Your name").fill("Arjun Agent");
      await a.getByLabel(/^Password/).fill("copper river 7");
      await a.getByLabel("Repeat password").fill("copper river 7");
      await submitAndWait(a, /Create account/, new RegExp(`${orgPath}$`));
      await a.getByRole("heading", { level: 1, name: "Acme Support" }).waitFor();

      // An agent sees no Members link and is refused the page.
      expect(await a.getByRole("link", { name: "Members" }).count()).toBe(0);
      const forbidden = await a.goto(`${orgPath}/members`);
      expect(forbidden?.status()).toBe(403);
      await a.getByRole("heading", { name: /have access to this/ }).waitFor();

      // The owner sees the agent as a member and removes them.
      await p.reload();
      const row = p.getByRole("row").filter({ hasText: agentEmail });
      await row.getByRole("button", { name: /Remove/ }).click();
      await submitAndWait(p, "Remove member");
      expect(await p.getByRole("row").filter({ hasText: agentEmail }).count()).toBe(0);

      // The agent loses access: the organisation now answers 404.
      const gone = await a.goto(orgPath);
      expect(gone?.status()).toBe(404);
      await a.getByRole("heading", { name: "Page not found" }).waitFor();

      expect(owner.pageErrors).toEqual([]);
      expect(agent.pageErrors).toEqual([]);
    } finally {
      await owner.close();
      await agent.close();
    }
  });
});
